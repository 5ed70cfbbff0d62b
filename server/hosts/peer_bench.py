"""Our command hook beside cc-safety-net's, call by call, on the same Claude Code payloads (bench section 8).

Both are what Claude Code starts before every tool call: a fresh process reading the PreToolUse JSON on
stdin. The two are sent the same payloads interleaved (ours, theirs, then theirs, ours on the next round),
so that a noisy machine slows both alike; only the ratio from one run means anything.
cc-safety-net comes from `.ci/run`'s project-local npm install (PEER_INSTALL); without it, a line says how
to get it and the section goes on.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PEER = "cc-safety-net@2.4.5"
PEER_INSTALL = f"npm install --prefix .ci/peers --no-save --no-audit --no-fund {PEER}"
_PEER_PROGRAM = Path(__file__).resolve().parents[2] / ".ci" / "peers" / "node_modules" / ".bin" / "cc-safety-net"

# A working day's mix: mostly reads and builds, some edits, a few destructive lines, infrastructure and an MCP call.
_BASH = (
    "ls", "ls -la src", "pwd", "git status", "git diff", "git log --oneline -5", "cat README.md", "head -20 README.md",
    "grep -rn TODO src", "find . -name '*.py'", "wc -l README.md", "echo hello", "python -m pytest -q", "npm test",
    "git add README.md", "git commit -m 'update readme'", "mkdir -p build && touch build/out.txt",
    "rm -rf /", "rm -rf ~", "rm -rf src", "rm notes.txt", "git reset --hard", "git clean -fdx",
    "git push --force origin main", "git checkout -- README.md",
    "kubectl get pods -n prod", "kubectl -n prod delete namespace payments", "psql app -c 'SELECT count(*) FROM users'",
    "psql app -c 'DELETE FROM users'", "terraform destroy -auto-approve",
)


def _calls(folder: str) -> list[tuple[str, dict[str, Any]]]:
    readme, notes = f"{folder}/README.md", f"{folder}/notes.txt"
    return [
        *(("Bash", {"command": line}) for line in _BASH),
        ("Read", {"file_path": readme}),
        ("Write", {"file_path": f"{folder}/src/new_module.py", "content": "VALUE = 1\n"}),
        ("Write", {"file_path": notes, "content": "replaced\n"}),
        ("Edit", {"file_path": readme, "old_string": "demo", "new_string": "the demo"}),
        ("mcp__postgres__query", {"sql": "DROP TABLE users"}),
        ("mcp__filesystem__read_file", {"path": "~/.ssh/id_rsa"}),
    ]


def _workspace(folder: Path) -> None:
    """A small git repository with a committed README, source, and an untracked note: what the calls act on."""
    (folder / "src").mkdir()
    (folder / "README.md").write_text("# demo\n")
    (folder / "src" / "app.py").write_text("# TODO: more\n")
    git = ["git", "-C", str(folder), "-c", "user.email=bench@example.com", "-c", "user.name=bench"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "start"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    (folder / "notes.txt").write_text("work in progress\n")


def _our_hook() -> list[str]:
    """The console script hosts are told to run, where it is installed beside this Python; else the module."""
    script = Path(sys.executable).with_name("agentworld-mcp")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "agentworld_mcp"]
    return [*command, "hook", "--event", "pre"]


def _wall(command: list[str], payload: str, folder: str, env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(command, input=payload, capture_output=True, text=True, cwd=folder, env=env, timeout=30)
    seconds = time.perf_counter() - started
    decision = json.loads(done.stdout or "{}").get("hookSpecificOutput", {}).get("permissionDecision", "none")
    return seconds, decision


def hook_beside_peer(rounds: int = 3) -> None:
    """p50 wall time of one hook process on the same payloads, interleaved: ours as hosts start it (answered by the
    warm decider the first call starts), ours deciding in its own process, and cc-safety-net's."""
    if not os.access(_PEER_PROGRAM, os.X_OK):
        print(f"  beside {PEER}: not installed; from the repository root run `{PEER_INSTALL}` (as .ci/run does)")
        return
    # As on a user's machine: Python keeps the modules' bytecode (the warm-up round writes it).
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="aw-", dir="/tmp") as runtime:  # its own decider, stopped at the end
        try:
            _compare({**env, "AGENTWORLD_HOOK_DAEMON": "1", "XDG_RUNTIME_DIR": runtime},
                     {**env, "AGENTWORLD_HOOK_DAEMON": "0"}, rounds)
        finally:
            _stop_deciders(Path(runtime))


def _stop_deciders(runtime: Path) -> None:
    for lock in runtime.glob("*/*.lock"):
        pid = lock.read_text().strip()
        if pid.isdigit():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGTERM)


def _compare(warm_env: dict[str, str], cold_env: dict[str, str], rounds: int) -> None:
    ours, theirs = _our_hook(), [str(_PEER_PROGRAM), "hook", "--coding-cli"]
    runs = {"warm": (ours, warm_env), "own process": (ours, cold_env), "theirs": (theirs, cold_env)}
    with tempfile.TemporaryDirectory(prefix="agentworld-bench-peer-") as folder:
        _workspace(Path(folder))
        calls = _calls(folder)
        payloads = [json.dumps({"session_id": "bench", "transcript_path": "", "cwd": folder,
                                "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": tool,
                                "tool_input": tool_input, "tool_use_id": f"toolu_{index:02d}"})
                    for index, (tool, tool_input) in enumerate(calls)]
        walls: dict[str, list[float]] = {who: [] for who in runs}
        stops = dict.fromkeys(runs, 0)
        decided: dict[str, list[str]] = {who: [] for who in runs}
        for round_ in range(rounds + 1):  # round 0 warms all (bytecode, npm's module cache, the decider)
            for payload in payloads:
                order = list(runs.items())
                for who, (command, env) in order if round_ % 2 else order[::-1]:
                    seconds, decision = _wall(command, payload, folder, env)
                    if round_:
                        walls[who].append(seconds)
                    if round_ == 1:
                        stops[who] += decision in ("deny", "ask")
                        decided[who].append(decision)
    p50 = {who: statistics.median(seconds) for who, seconds in walls.items()}
    print(f"  one hook process beside {PEER}'s (`cc-safety-net hook --coding-cli`), the same {len(payloads)} "
          f"Claude Code payloads interleaved, {rounds} rounds, wall p50: ours {p50['warm']:.3f} s (warm decider), "
          f"theirs {p50['theirs']:.3f} s, ratio {p50['warm'] / p50['theirs']:.2f}x   (goal: at most 1.00x); ours in "
          f"its own process {p50['own process']:.3f} s ({p50['own process'] / p50['theirs']:.2f}x)")
    same = decided["warm"] == decided["own process"]
    print(f"    calls stopped (deny or ask) of {len(payloads)}: ours {stops['warm']}, theirs {stops['theirs']}; the warm "
          f"decider and our own process decided {'alike' if same else 'DIFFERENTLY'}")


if __name__ == "__main__":  # the figure alone, without the model the rest of section 8 loads
    hook_beside_peer()
