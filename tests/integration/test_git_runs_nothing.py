"""Nothing in the user's folder runs: git's view of a repository that configures every kind of program git
may start (filters of each kind, an lfs-style filter, fsmonitor, textconv, hooks, pagers, a signature
program, a filter in the user's global config and one injected through the environment), read by the
snapshot behind `from_dir`, by the guard's workspace facts and by the real hook command.

Each configured program writes a marker file when it runs. Plain git on the same repository writes
them (the control test), so the fixture's programs are live and the other tests can fail.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.tools.guard.workspace_loss import Workspace, assess
from agentworld_mcp.tools.worlds.folder_snapshot import take_snapshot

PACKAGE = Path(__file__).resolve().parents[2]
MARKER_SCRIPT = '#!/bin/sh\ntouch "{marks}/$1"\ncat\n'  # a working filter that leaves a trace
PROGRAM_SETTINGS = {  # every place a repository's config can name a program git starts
    "filter.clean.clean": "mark clean", "filter.smudge.smudge": "mark smudge", "filter.proc.process": "mark process",
    "filter.lfs.clean": "mark lfs-clean", "filter.lfs.smudge": "mark lfs-smudge", "filter.lfs.process": "mark lfs",
    "filter.lfs.required": "true", "core.fsmonitor": "mark fsmonitor", "diff.tc.textconv": "mark textconv",
    "core.pager": "mark pager", "pager.status": "mark pager-status", "log.showSignature": "true",
    "gpg.program": "mark gpg", "core.sshCommand": "mark ssh", "credential.helper": "!mark credential",
    "status.submoduleSummary": "true", "diff.external": "mark external",
}
HOOKS = ("post-index-change", "pre-commit", "post-checkout", "reference-transaction", "fsmonitor-watchman")


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True)


@pytest.fixture(scope="module")
def armed(tmp_path_factory):
    """A project mid-work whose git configuration would run a marker program for anything that starts one."""
    root = tmp_path_factory.mktemp("norun")
    repo, marks, tools, home = root / "project", root / "marks", root / "bin", root / "home"
    for folder in (repo, marks, tools, home, root / "hooks"):
        folder.mkdir()
    mark = tools / "mark"
    mark.write_text(MARKER_SCRIPT.format(marks=marks))
    mark.chmod(0o755)
    _git(root, "init", "-q", "-b", "main", str(repo))
    _git(repo, "config", "user.email", "dev@example.com")
    _git(repo, "config", "user.name", "dev")
    files = {"clean.txt": "through a clean filter\n", "lfs.bin": "version https://git-lfs.github.com/spec/v1\n",
             "proc.txt": "through a process filter\n", "filtered-edit.txt": "before\n", "plain.txt": "plan\n",
             "same.txt": "unchanged\n", "racy.txt": "racily clean\n", "global.txt": "global filter\n",
             "doc.tc": "textconv\n", ".gitignore": "build/\n",
             ".gitattributes": "clean.txt filter=clean\nfiltered-edit.txt filter=clean\nracy.txt filter=smudge\n"
                               "proc.txt filter=proc\n*.bin filter=lfs\nglobal.txt filter=global\n*.tc diff=tc\n"}
    for name, text in files.items():
        (repo / name).write_text(text)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "start")
    (repo / "plain.txt").write_text("plan\nuncommitted edit\n")
    _git(repo, "stash", "-q")
    # Armed only now: every later read would have to run them to compare contents.
    for key, value in PROGRAM_SETTINGS.items():
        _git(repo, "config", key, value.replace("mark", str(mark), 1) if value.startswith(("mark", "!mark")) else value)
    _git(repo, "config", "core.hooksPath", str(root / "hooks"))
    for hook in HOOKS:
        (root / "hooks" / hook).write_text(f"#!/bin/sh\ntouch {marks}/hook-{hook}\n")
        (root / "hooks" / hook).chmod(0o755)
    (home / ".gitconfig").write_text(f"[filter \"global\"]\n\tclean = {mark} global\n")
    # Stat changed with the same bytes (git must compare contents), changed bytes, and a racily clean file.
    later = time.time() + 30
    for name in ("clean.txt", "lfs.bin", "proc.txt", "same.txt", "global.txt", "doc.tc"):
        os.utime(repo / name, (later, later))
    (repo / "lfs.bin").write_text("the large file's real content\n")  # an lfs pointer smudged into its content
    (repo / "filtered-edit.txt").write_text("after\n")
    (repo / "plain.txt").write_text("plan\nuncommitted edit\n")
    (repo / "racy.txt").write_text("racily clean\n")
    os.utime(repo / ".git" / "index", (later, later))  # the file's mtime no longer precedes the index's
    (repo / "racy.txt").touch()
    (repo / "todo.txt").write_text("untracked work\n")
    (repo / "build").mkdir()
    (repo / "build" / "app.o").write_text("regenerable\n")
    return repo, marks, home, mark


@pytest.fixture
def hostile_env(armed, monkeypatch):
    """The user's HOME (its .gitconfig names a filter) and a GIT_ variable that injects configuration."""
    _, _, home, mark = armed
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'core.fsmonitor'='{mark} env-injected'")
    return armed


def _ran(marks: Path) -> list[str]:
    return sorted(os.listdir(marks))


def test_plain_git_runs_the_configured_programs_so_the_fixture_is_live(armed, tmp_path):
    repo, marks, home, _ = armed
    copy = tmp_path / "copy"  # a copy, so that the marks and index writes of this control touch no other test
    subprocess.run(["cp", "-a", str(repo), str(copy)], check=True)
    subprocess.run(["git", "status"], cwd=copy, capture_output=True, env={**os.environ, "HOME": str(home)})
    ran = _ran(marks)
    for name in ran:
        (marks / name).unlink()
    assert {"clean", "fsmonitor"} <= set(ran), ran


def test_a_snapshot_runs_nothing_and_still_reports_gits_facts(hostile_env):
    repo, marks, _, _ = hostile_env
    snapshot = take_snapshot(str(repo))
    assert _ran(marks) == []
    git = snapshot.git
    assert git["plain.txt"] == "modified" and git["todo.txt"] == "untracked" and git["build"] == "ignored"
    for same_bytes in ("same.txt", "clean.txt", "proc.txt", "global.txt", "doc.tc", "racy.txt"):
        assert git[same_bytes] == "tracked", same_bytes
    # Different bytes behind a filter: only the filter could tell, and it is not run.
    assert git["filtered-edit.txt"] == "unknown" and git["lfs.bin"] == "unknown"


def test_the_guards_workspace_facts_run_nothing_and_stay_right(hostile_env):
    repo, marks, _, _ = hostile_env
    workspace = Workspace.local(str(repo))

    def losses(line: str) -> list[tuple[str, str]]:
        found = assess(analyze(line, str(repo), state=workspace), workspace)
        return [(e.loss, os.path.relpath(e.path, repo)) for e in found.effects if e.loss]

    assert losses("rm plain.txt todo.txt build/app.o same.txt clean.txt racy.txt") == [
        ("irreversible", "plain.txt"), ("irreversible", "todo.txt"), ("none", "build/app.o"),
        ("recoverable", "same.txt"), ("recoverable", "clean.txt"), ("recoverable", "racy.txt")]
    assert losses("echo over > plain.txt") == [("irreversible", "plain.txt")]
    assert losses("rm filtered-edit.txt lfs.bin") == [("unknown", "filtered-edit.txt"), ("unknown", "lfs.bin")]
    found = assess(analyze("git stash drop", str(repo), state=workspace), workspace)
    assert [e.loss for e in found.effects if e.loss] == ["irreversible"]
    unknown = assess(analyze("rm lfs.bin", str(repo), state=workspace), workspace).effects[0]
    assert "'lfs' filter" in unknown.fact and "not checked" in unknown.fact
    assert _ran(marks) == []


def test_the_real_hook_command_runs_nothing_in_the_folder(hostile_env):
    repo, marks, _, _ = hostile_env
    # A changed file, an unchanged one behind a filter, and a filter's file whose bytes changed (unknown: asked).
    for line, decision in (("rm plain.txt", "ask"), ("rm clean.txt", None), ("echo x > lfs.bin", "ask")):
        payload = {"session_id": "norun", "cwd": str(repo), "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": line}}
        done = subprocess.run([sys.executable, "-m", "agentworld_mcp", "hook", "--event", "pre"], cwd=repo,
                              input=json.dumps(payload), capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert json.loads(done.stdout).get("hookSpecificOutput", {}).get("permissionDecision") == decision, (line, done)
    assert _ran(marks) == []


def test_a_submodule_is_not_entered_and_a_loss_in_it_is_unknown(tmp_path):
    """A submodule has a git configuration of its own (here a filter on its changed file): it is not read."""
    marks = tmp_path / "marks"
    marks.mkdir()
    inner, outer = tmp_path / "inner", tmp_path / "outer"
    for repo in (inner, outer):
        _git(tmp_path, "init", "-q", "-b", "main", str(repo))
        _git(repo, "config", "user.email", "dev@example.com")
        _git(repo, "config", "user.name", "dev")
    (inner / "f.txt").write_text("committed\n")
    _git(inner, "add", ".")
    _git(inner, "commit", "-qm", "inner")
    _git(outer, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
    _git(outer, "commit", "-qm", "outer")
    _git(outer / "sub", "config", "filter.sub.clean", f"sh -c 'touch {marks}/sub-clean; cat'")
    (outer / "sub" / ".gitattributes").write_text("* filter=sub\n")
    (outer / "sub" / "f.txt").write_text("uncommitted\n")
    workspace = Workspace.local(str(outer))
    for line in ("rm -rf sub", "rm sub/f.txt"):
        effect = assess(analyze(line, str(outer), state=workspace), workspace).effects[0]
        assert (effect.loss, effect.fact.split(":")[0]) == ("unknown", "sub is a submodule"), line
    assert take_snapshot(str(outer)).git["sub"] == "submodule"
    assert _ran(marks) == []


def test_a_linked_worktree_is_read_through_its_shared_repository_running_nothing(tmp_path):
    marks, repo = tmp_path / "marks", tmp_path / "repo"
    marks.mkdir()
    _git(tmp_path, "init", "-q", "-b", "main", str(repo))
    (repo / ".gitattributes").write_text("*.txt filter=trace\n")
    (repo / "a.txt").write_text("committed\n")
    (repo / "b.txt").write_text("committed\n")
    _git(repo, "add", ".")
    _git(repo, "-c", "user.email=dev@example.com", "-c", "user.name=dev", "commit", "-qm", "start")
    _git(repo, "worktree", "add", "-q", str(tmp_path / "wt"))
    _git(repo, "config", "filter.trace.clean", f"sh -c 'touch {marks}/clean; cat'")
    (tmp_path / "wt" / "a.txt").write_text("changed\n")
    (tmp_path / "wt" / "new.txt").write_text("untracked\n")
    later = time.time() + 30
    os.utime(tmp_path / "wt" / "b.txt", (later, later))
    git = take_snapshot(str(tmp_path / "wt")).git
    assert (git["a.txt"], git["b.txt"], git["new.txt"]) == ("unknown", "tracked", "untracked")
    assert _ran(marks) == []


def _starts_git(node: ast.AST) -> bool:
    """A literal command line whose program is git: ["git", ...], ("git", ...) or "git ..." given to a call."""
    if isinstance(node, (ast.List, ast.Tuple)) and node.elts:
        first = node.elts[0]
        return isinstance(first, ast.Constant) and first.value == "git"
    if isinstance(node, ast.Call) and node.args:
        first = node.args[0]
        return isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.startswith("git ")
    return False


def test_only_the_reader_starts_git():
    """No other module of the package starts git (the benches start it only on repositories they made themselves)."""
    allowed = {"tools/worlds/git_reader.py", "server/hosts/bench.py", "server/hosts/peer_bench.py"}
    starting = set()
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(("tests/", ".venv/", ".ci/")) or relative in allowed:
            continue
        if any(_starts_git(node) for node in ast.walk(ast.parse(path.read_text(), relative))):
            starting.add(relative)
    assert starting == set()
