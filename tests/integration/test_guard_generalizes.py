"""Proof that the guard's reading of unknown programs generalizes: generated command lines, never seen by any
table, judged through the hook's own `decide` in a real project.

Program names are drawn at random (none names a table, a wrapper or a read-only program), crossed with the
verb positions CLIs use (verb-noun, noun-verb, nested groups, `delete-bucket`, `db:drop`, an action option),
global options before the verb, scope and force options, dry runs and help, wrappers, remote launchers, and
mentions (echo, grep, printf, a comment, a commit message, a here-document) that must pass. The vocabulary
here is written from CLI documentation, apart from the reader's own lists.

Two sets: the development set the reader was built against, and a held-out set (other seeds) that was first
run only once the reader was done; its first figure is in the changelog and the guard guide.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from agentworld_mcp.domains.shell.launchers.dispatch import MULTI_CALL, WRAPPERS
from agentworld_mcp.domains.shell.reading.registry import HANDLERS, INTERPRETERS, PRIVILEGE, READ_ONLY, SHELLS

from ..hook_calls import git_project, verdict

RULE = "no-remote-destruction"
DEVELOPMENT_SEEDS = range(0, 4)
HELD_OUT_SEEDS = range(100, 104)
CASES_PER_SEED = 120

DESTROYS = ["delete", "destroy", "drop", "purge", "remove", "rm", "terminate", "prune", "wipe", "erase", "truncate",
            "flush", "uninstall", "unpublish", "revoke", "disable", "detach", "deregister", "reset", "del", "rb",
            "nuke", "expunge", "decommission"]
ACTION_OPTIONS = ["delete", "drop", "purge", "remove", "destroy", "wipe"]
READS = ["get", "list", "ls", "describe", "show", "view", "inspect", "status", "search", "export"]
NOUNS = ["cluster", "bucket", "topic", "database", "volume", "secret", "app", "user", "queue", "key", "index",
         "stream", "namespace", "project", "snapshot", "table", "instance", "release", "backup", "domain"]
GROUPS = ["kv", "metadata", "admin", "storage", "db", "compute", "iam", "data", "org", "registry"]
TARGETS = ["prod", "orders-2024", "app/config", "s3/data", "i-0abc123", "team:payments", "main", "eu-west-1/db"]
GLOBALS = ["--profile prod", "--region=eu-west-1", "-n payments", "--context staging", "--output json",
           "--config ./ops.yaml", "-v"]
SCOPES = ["--all", "--force", "-f", "-y", "--yes", "--recursive", "-r", "--cascade", "--skip-final-snapshot",
          "--permanent"]
DRY_RUNS = ["--dry-run", "--dryrun", "--what-if", "--noop", "--help", "-h"]
WRAPPERS_SAFE = ["env FOO=1", "timeout 30", "nice -n 5", "command", "time", "stdbuf -oL", "env -u DEBUG"]
LAUNCHERS = ["ssh web1 '{}'", "ssh -p 2222 ops@db1 '{}'", "kubectl exec api-0 -- {}", "docker exec worker {}",
             "ansible all -a '{}'", "docker compose exec app {}"]
MENTIONS = ["echo '{}'", "grep -rn '{}' .", "printf '%s\\n' '{}'", "# {}", "git commit --allow-empty -qm '{}'",
            "cat <<'EOF'\n{}\nEOF", "echo \"next: {}\" | wc -c"]
_KNOWN = {*HANDLERS, *READ_ONLY, *WRAPPERS, *SHELLS, *INTERPRETERS, *PRIVILEGE, *MULTI_CALL, "env", "timeout", "git",
          "find", "xargs", "eval", "source", "cd", "exec"}
_SYLLABLES = ["ka", "zor", "bel", "tri", "mon", "vex", "lu", "qua", "den", "pho", "rix", "sal", "tor", "nim", "gal"]


@dataclass(frozen=True)
class Case:
    line: str
    destroys: bool
    shape: str


def program_name(rng: random.Random) -> str:
    """A name no table knows, that holds no verb of its own."""
    while True:
        name = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))) + rng.choice(["", "ctl", "-cli", "adm"])
        verbs = [*DESTROYS, *READS, *ACTION_OPTIONS]
        if name not in _KNOWN and not any(part.startswith(verb) for part in name.split("-") for verb in verbs):
            return name


def command(rng: random.Random, verb: str, action_option: bool = False) -> tuple[str, str]:
    """A program's command line with `verb` where a CLI convention puts it, and the shape's name."""
    program = program_name(rng)
    before = [rng.choice(GLOBALS)] if rng.random() < 0.4 else []
    noun, target = rng.choice(NOUNS), rng.choice(TARGETS)
    if action_option:
        shape, words = "action option", [f"--{verb}", f"--{noun}", target]
    else:
        shape = rng.choice(["verb noun", "noun verb", "nested groups", "verb-noun", "group:verb"])
        words = {
            "verb noun": [verb, noun, target],
            "noun verb": [noun, verb, target],
            "nested groups": [rng.choice(GROUPS), noun, verb, target],
            "verb-noun": [f"{verb}-{noun}", f"--{noun}-name", target],
            "group:verb": [f"{rng.choice(GROUPS)}:{verb}", target],
        }[shape]
    return " ".join([program, *before, *words]), shape


def generate(seed: int, count: int) -> list[Case]:
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        kind = rng.choice(["destroy", "destroy", "read", "dry run", "wrapped", "elsewhere", "mention"])
        if kind == "read":
            line, shape = command(rng, rng.choice(READS))
            cases.append(Case(line, False, f"read, {shape}"))
            continue
        option = rng.random() < 0.2
        line, shape = command(rng, rng.choice(ACTION_OPTIONS if option else DESTROYS), option)
        if rng.random() < 0.5:
            line += " " + rng.choice(SCOPES)
        if kind == "destroy":
            cases.append(Case(line, True, shape))
        elif kind == "dry run":
            cases.append(Case(f"{line} {rng.choice(DRY_RUNS)}", False, f"dry run, {shape}"))
        elif kind == "wrapped":
            cases.append(Case(f"{rng.choice(WRAPPERS_SAFE)} {line}", True, f"wrapped, {shape}"))
        elif kind == "elsewhere":
            cases.append(Case(rng.choice(LAUNCHERS).format(line), True, f"elsewhere, {shape}"))
        else:
            cases.append(Case(rng.choice(MENTIONS).format(line), False, f"mention, {shape}"))
    return cases


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return git_project(tmp_path_factory.mktemp("generalizes") / "project", {"README.md": "# service\n"})


def judged_right(repo, case: Case) -> bool:
    decided = verdict(repo, case.line)
    if case.destroys:
        return decided["decision"] in ("ask", "deny") and RULE in decided["rules"]
    return decided["decision"] == "none"


@pytest.mark.parametrize("seeds", [DEVELOPMENT_SEEDS, HELD_OUT_SEEDS], ids=["development", "held-out"])
def test_generated_lines_of_programs_no_table_names_are_judged_by_their_conventions(project, seeds):
    cases = [case for seed in seeds for case in generate(seed, CASES_PER_SEED)]
    wrong = [case for case in cases if not judged_right(project, case)]
    assert len({case.line for case in cases}) > 0.95 * len(cases)  # the generator draws distinct lines
    assert {case.shape.split(", ")[0] for case in cases} >= {"read", "dry run", "wrapped", "elsewhere", "mention"}
    assert not wrong, f"{len(wrong)} of {len(cases)} judged wrong, e.g. " + "; ".join(
        f"{case.line!r} ({case.shape}, should {'stop' if case.destroys else 'pass'})" for case in wrong[:8])
