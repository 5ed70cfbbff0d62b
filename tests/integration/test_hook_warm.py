"""The hook's warm decider (server/hosts/warm.py): a later call answered by the process the first call started
decides exactly as a call decided in its own process, and whatever is wrong with the decider, a call still decides."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from agentworld_mcp.server.hosts import warm

HOOK = [sys.executable, "-m", "agentworld_mcp", "hook"]
LINES = ["ls -la", "rm -rf /", "rm -rf src", "git reset --hard", "dropdb prod", "ssh web1 'rm -rf /srv'",
         "psql -c 'DELETE FROM users WHERE 1=1'", "cat .env", "kubectl get pods", "echo 'dropdb prod'"]


@pytest.fixture
def project(tmp_path):
    repo = tmp_path / "project"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "app.py").write_text("print(1)\n")
    (repo / ".env").write_text("TOKEN=x\n")
    for args in (["init", "-q"], ["add", "src"], ["-c", "user.email=d@e.x", "-c", "user.name=d", "commit", "-qm", "s"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)
    # A project policy found from the hook's working folder, and a setting from the environment: both per call.
    (repo / ".agentworld").mkdir()
    (repo / ".agentworld" / "policy.json").write_text(json.dumps({"decisions": {"no-remote-destruction": "deny"}}))
    return repo


@pytest.fixture
def runtime():
    """A runtime folder of the test's own (short: a socket's path has a limit); its decider is stopped at the end."""
    folder = Path(tempfile.mkdtemp(prefix="aw-", dir="/tmp"))
    yield folder
    for lock in folder.glob("*/*.lock"):
        pid = lock.read_text().strip()
        if pid.isdigit():
            try:
                os.kill(int(pid), signal.SIGTERM)
            except ProcessLookupError:
                pass
    shutil.rmtree(folder, ignore_errors=True)


def _run(payload: dict, folder: Path, env: dict, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([*HOOK, "--event", "pre", *flags], input=json.dumps(payload), capture_output=True, text=True,
                          cwd=folder, env=env, timeout=60, check=True)


def _payload(repo: Path, line: str) -> dict:
    return {"session_id": "w", "cwd": str(repo), "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": line}}


def _decider_up(runtime: Path) -> bool:
    for _ in range(100):
        if list(runtime.glob("*/*.sock")):
            return True
        time.sleep(0.1)
    return False


def test_a_warm_call_decides_as_a_call_in_its_own_process(project, runtime):
    cold = {**os.environ, "AGENTWORLD_HOOK_DAEMON": "0", "AGENTWORLD_GUARD_ON_FAILURE": "ask"}
    hot = {**os.environ, "AGENTWORLD_HOOK_DAEMON": "1", "AGENTWORLD_GUARD_ON_FAILURE": "ask",
           "XDG_RUNTIME_DIR": str(runtime)}
    first = _run(_payload(project, LINES[0]), project, hot)
    assert first.stdout == _run(_payload(project, LINES[0]), project, cold).stdout
    assert _decider_up(runtime), "the first call starts the decider"
    for line in LINES:
        for flags in ((), ("--format", "cursor"), ("--format", "plain")):
            in_process, warmed = _run(_payload(project, line), project, cold, *flags), _run(_payload(project, line),
                                                                                           project, hot, *flags)
            assert (warmed.stdout, warmed.stderr) == (in_process.stdout, in_process.stderr), (line, flags)
    assert '"deny"' in _run(_payload(project, "dropdb prod"), project, hot).stdout  # the project's own policy
    # Another folder has no policy: the warm decider must not keep the last one.
    elsewhere = project.parent / "other"
    elsewhere.mkdir()
    assert '"ask"' in _run(_payload(elsewhere, "dropdb prod"), elsewhere, hot).stdout


def test_a_call_decides_itself_when_the_decider_fails_it(project, runtime):
    """A decider that hangs up without a word, as one that crashed would: the call decides in its own process."""
    env = {**os.environ, "AGENTWORLD_HOOK_DAEMON": "1", "XDG_RUNTIME_DIR": str(runtime)}
    folder = runtime / f"agentworld-mcp-{os.getuid()}"
    folder.mkdir(mode=0o700)
    broken = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    broken.bind(str(folder / Path(warm.socket_path() or "").name))
    broken.listen(4)

    def hang_up() -> None:
        with contextlib.suppress(OSError):
            while True:
                broken.accept()[0].close()

    threading.Thread(target=hang_up, daemon=True).start()
    try:
        out = _run(_payload(project, "rm -rf /"), project, env).stdout
    finally:
        broken.close()
    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_the_decider_steps_down_when_its_code_changes(project, tmp_path):
    watched = tmp_path / "code"
    watched.mkdir()
    (watched / "module.py").write_text("A = 1\n")
    place = tempfile.mktemp(prefix="aw-", suffix=".sock", dir="/tmp")  # noqa: S306  (bound at once by serve)
    serving = threading.Thread(target=warm.serve, args=(place, 30, (str(watched),)), daemon=True)
    serving.start()
    for _ in range(100):
        if os.path.exists(place):
            break
        time.sleep(0.05)
    request = {"argv": ["--event", "pre", "--format", "plain"], "stdin": json.dumps(_payload(project, "rm -rf /")),
               "cwd": str(project), "env": dict(os.environ)}
    reply = warm._ask(place, request)
    assert reply is not None and json.loads(reply["stdout"])["decision"] == "deny"
    os.utime(watched / "module.py", ns=(1, 1))  # the code under it changed
    assert warm._ask(place, request) is None  # a stale decider answers nothing: the call decides itself
    serving.join(timeout=10)
    assert not serving.is_alive() and not os.path.exists(place)
    os.unlink(f"{place}.lock")
