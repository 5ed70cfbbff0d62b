"""The guard's posture for what it does not understand (domains/shell/remote/safe.py, remote/conventions.py): a
program beyond the folder passes only with a verb or option of the closed safe class (a read, a plan or dry run,
help, a creation) or a verb its documentation gives as local; every other verb is asked about, never denied,
naming the program and its word. And everyday work is not stopped: tests/data/everyday_commands.txt, each line
from its program's documentation, is stopped at most 2% of the time.

The generated cases use invented program names, so that no table, handler or list knows them; the fixed seed
runs as parametrized cases, and a held-out seed range runs apart and reports its own result.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from agentworld_mcp.domains.shell.reading.registry import HANDLERS, INTERPRETERS, READ_ONLY, SHELLS
from agentworld_mcp.domains.shell.remote import TABLES
from agentworld_mcp.domains.shell.remote.safe import LOCAL, SAFE
from agentworld_mcp.domains.shell.remote.verbs import DESTROYS, READS, REVOKES

from ..hook_calls import git_project, held_out_wrong, verdict

RULE = "no-remote-destruction"
SEED = 6502
HELD_OUT = range(7000, 7012)
EVERYDAY = Path(__file__).parent.parent / "data" / "everyday_commands.txt"

# Verbs outside the safe class: destroy synonyms no list holds, RPC-style and namespaced verbs, and verbs that
# mean one thing to a package manager and another to a service (sync, restore, install, apply).
UNKNOWN_VERBS = ["rebuild", "reimage", "expire", "evict", "rollback", "roll-back", "empty", "recycle", "reclaim",
                 "clear", "scrub", "retire", "sunset", "reinit", "overwrite", "replace-all", "restore", "sync",
                 "apply", "install", "deploy", "promote", "failover", "rotate", "scale", "migrate", "resize",
                 "Reimage", "RollbackStack", "EvictNodes", "ExpireSessions", "cache:evict", "db:rollback",
                 "volumes:recycle"]
# Destroy words (certain reasons), spelled as no table spells them: lists, CamelCase RPC verbs, namespaces.
DESTROY_VERBS = ["purge", "expunge", "zap", "wipe", "DeleteCluster", "TerminateInstances", "pg:backups:delete",
                 "force-delete", "nuke", "obliterate"]
SAFE_OPTIONS = ["--dry-run", "--what-if", "--check", "--help", "--dryrun", "--version"]
_SYLLABLES = ["zor", "quib", "vex", "trul", "mab", "snor", "plin", "gort", "yeb", "dax", "wum", "frel"]
_SUFFIXES = ["ctl", "-cli", "adm", "", "x", "-ops"]
_GROUPS = ["", "", "stack", "fleet", "vault", "node-pool", "bucket"]
_TARGETS = ["prod", "orders-db", "main", "eu-west", "api", "blue", ""]


def _known(program: str) -> bool:
    return any(program in table for table in (HANDLERS, READ_ONLY, TABLES, LOCAL, INTERPRETERS, SHELLS))


def _program(rng: random.Random) -> str:
    while True:
        name = "".join(rng.choice(_SYLLABLES) for _ in range(2)) + rng.choice(_SUFFIXES)
        words = {*DESTROYS, *REVOKES, *READS, *SAFE}
        if not _known(name) and not any(word in name for word in words if len(word) > 2):
            return name


def _line(rng: random.Random, program: str, verb: str, option: str = "") -> str:
    group, target = rng.choice(_GROUPS), rng.choice(_TARGETS)
    before = rng.choice(["", "", "--profile=staging", "--output=json"])
    return " ".join(word for word in (program, before, group, verb, target, option) if word)


def cases(seed: int) -> list[tuple[str, str, str]]:
    """(line, expected, the word the reason must name): `none`, `ask` (an unknown verb) or `asked` (a destroy)."""
    rng = random.Random(seed)
    out: list[tuple[str, str, str]] = []
    for word in sorted(SAFE):
        out.append((_line(rng, _program(rng), word), "none", ""))
    for option in SAFE_OPTIONS:
        verb = rng.choice(UNKNOWN_VERBS + DESTROY_VERBS)
        out.append((_line(rng, _program(rng), verb, option), "none", ""))
    for verb in UNKNOWN_VERBS:
        out.append((_line(rng, program := _program(rng), verb), "ask", program))
    for verb in DESTROY_VERBS:
        out.append((_line(rng, program := _program(rng), verb), "ask", program))
    return out


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return git_project(tmp_path_factory.mktemp("posture") / "project",
                       {"README.md": "# app\n", "Makefile": "all:\n\techo hi\ntest:\n\techo t\nbuild:\n\techo b\n",
                        "package.json": '{"name": "app", "scripts": {"build": "tsc", "test": "vitest run", '
                                        '"dev": "vite"}}\n', "src/app.py": "x = 1\n"})


def _wrong(repo: Path, line: str, expected: str, named: str) -> str | None:
    result = verdict(repo, line)
    if expected == "none":
        return None if result["decision"] == "none" else f"{line!r} was stopped: {result['reason'][:200]}"
    if result["decision"] != "ask" or RULE not in result["rules"]:
        return f"{line!r} gave {result['decision']} {result['rules']}, not ask by {RULE}"
    if named not in result["reason"]:
        return f"{line!r}: the reason does not name {named}: {result['reason'][:200]}"
    return None


@pytest.mark.parametrize(("line", "expected", "named"), cases(SEED))
def test_the_safe_class_passes_and_every_other_verb_of_an_unknown_program_is_asked(project, line, expected, named):
    print(f"seed {SEED}")
    assert _wrong(project, line, expected, named) is None


def test_held_out_seeds_hold_the_same_posture(project):
    assert not held_out_wrong("", HELD_OUT, lambda seed: (_wrong(project, *case) for case in cases(seed)))


def test_an_unknown_verb_names_the_program_the_word_and_that_the_guard_does_not_know_it(project):
    result = verdict(project, "quibvexctl fleet rollback prod")
    assert result["decision"] == "ask"
    for part in ("quibvexctl", "rollback", "does not know"):
        assert part in result["reason"], result["reason"]


def test_an_unknown_program_given_only_paths_or_flags_keeps_its_old_reading(project):
    for line in ("quibvexctl ./src/app.py", "quibvexctl --verbose", "quibvexctl", "quibvexctl -o out.json README.md"):
        assert verdict(project, line)["decision"] == "none", line


def test_a_tabled_programs_unlisted_verb_is_asked_about(project):
    for line, program in (("kubectl rollout undo deploy/web", "kubectl"), ("helm rollback web 3", "helm"),
                          ("aws s3 mv s3://a/x s3://b/x", "aws"), ("gcloud sql instances restart db", "gcloud")):
        result = verdict(project, line)
        assert result["decision"] == "ask" and program in result["reason"], (line, result)


def test_everyday_commands_are_rarely_stopped(project):
    lines = [line.strip() for line in EVERYDAY.read_text().splitlines() if line.strip() and not line.startswith("#")]
    programs = {line.split()[0] for line in lines}
    assert len(lines) >= 200 and len(programs) >= 70
    stopped = [(line, result["decision"], result["reason"][:160]) for line in lines
               if (result := verdict(project, line))["decision"] != "none"]
    print(f"everyday commands: {len(stopped)}/{len(lines)} stopped ({100 * len(stopped) / len(lines):.1f}%), "
          f"{len(programs)} programs")
    for line, decision, reason in stopped:
        print(f"  {decision}: {line}  -- {reason}")
    assert len(stopped) <= 0.02 * len(lines)
