"""`agentworld-mcp bench --section 8`: what the guard costs a host before each tool call.

Six figures from one run: a zero-token denial through the MCP tool (at the server, and as the
client sees it), the wall time of one `agentworld-mcp hook` process (with Python's bytecode cache,
as an installed package has it, even where PYTHONDONTWRITEBYTECODE is set for the bench), the same
inside a generated repository of 10,000 files where git decides what a loss costs, the same on
commands and MCP calls that destroy state beyond the folder (SQL parsed among them), our hook beside
cc-safety-net's on the same payloads (server/hosts/peer_bench.py), and one decision that needs the
model (the default policy's predicted-success rule on `ls`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path

from mcp import Client

from ...tools.worlds.store import Store
from ..surface.replies import reply_text
from .peer_bench import hook_beside_peer

_FORBIDDEN = {"tool_name": "Bash", "tool_input": {"command": "rm -rf / --no-preserve-root"}, "format": "plain"}


async def guard_costs(ctx, calls: int = 50, hooks: int = 10) -> None:
    with tempfile.TemporaryDirectory(prefix="agentworld-bench-guard-") as folder:
        store = Store(Path(folder) / "worlds.sqlite3")  # the guard keeps each session's world
        try:
            await _measure(dataclasses.replace(ctx, store=store, world_locks={}), calls, hooks)
        finally:
            store.close()


async def _measure(ctx, calls: int, hooks: int) -> None:
    from ..surface.app import create_server

    print("8. the guard before a tool call: a zero-token denial (MCP tool, hook command) and one model decision")
    async with Client(create_server(ctx), mode="legacy") as client:
        at_server, at_client = [], []
        for index in range(calls + 3):  # the first calls warm the session and the rule cache
            started = time.perf_counter()
            result = await client.call_tool("guard", {"event": "pre", "session_id": "bench", **_FORBIDDEN})
            seen = time.perf_counter() - started
            verdict = json.loads(reply_text(result))
            assert verdict["decision"] == "deny", verdict
            if index >= 3:
                at_server.append(verdict["seconds"])
                at_client.append(seen)
        print(f"  zero-token denial through the MCP tool, p50 over {calls}: at the server "
              f"{statistics.median(at_server) * 1000:.2f} ms, as the client sees it {statistics.median(at_client) * 1000:.2f} ms"
              "   (goal: under 20 ms at the server)")
        walls = []
        payload = json.dumps({"session_id": "bench", "cwd": "/w", **{k: v for k, v in _FORBIDDEN.items() if k != "format"}})
        # As on a user's machine: Python keeps the modules' bytecode (one run first writes it). These figures are of
        # a hook deciding in its own process; the warm decider's are beside cc-safety-net's (peer_bench.py).
        env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
        env["AGENTWORLD_HOOK_DAEMON"] = "0"
        hook = [sys.executable, "-m", "agentworld_mcp", "hook", "--event", "pre"]
        for run in range(hooks + 1):
            started = time.perf_counter()
            subprocess.run(hook, input=payload, capture_output=True, text=True, check=True, env=env)
            if run:
                walls.append(time.perf_counter() - started)
        print(f"  one `agentworld-mcp hook` process (zero-token denial), wall p50 over {hooks}: "
              f"{statistics.median(walls):.3f} s   (goal: under 0.3 s)")
        _hook_in_a_large_repository(hook, env, hooks, statistics.median(walls))
        _hook_beyond_the_folder(hook, env, hooks, statistics.median(walls))
        hook_beside_peer()
        result = await client.call_tool("guard", {"event": "pre", "tool_name": "Bash", "tool_input": {"command": "ls"},
                                                  "session_id": f"bench-{uuid.uuid4().hex[:6]}", "format": "plain"})
        verdict = json.loads(reply_text(result))
        print(f"  one decision that needs the prediction (predicted-success on `ls`): {verdict['decision']} in "
              f"{verdict['seconds']:.2f} s, {verdict['model_tokens']} model tokens ({verdict['reason'].splitlines()[0]})")


_REPO_FILES = 10_000
# Lines whose cost depends on the disk: a loss asked about (untracked, changed), one allowed (tracked and
# unchanged), a folder of thousands of tracked files, and a dropped stash.
_LOSS_LINES = ("rm notes/untracked.txt", "rm src/m0/f0.py", ": > notes/changed.txt", "rm -r src/m1", "git stash drop")


# Beyond the folder: a table's program, SQL through a client and through an MCP tool, an MCP path argument.
_REMOTE_CALLS = (("Bash", {"command": "kubectl -n prod delete namespace payments"}),
                 ("Bash", {"command": "psql app -c 'DELETE FROM users'"}),
                 ("Bash", {"command": "psql app -c 'DELETE FROM users WHERE id = 7'"}),
                 ("mcp__postgres__query", {"sql": "DROP TABLE users"}),
                 ("mcp__filesystem__read_file", {"path": "~/.ssh/id_rsa"}))


def _hook_beyond_the_folder(hook: list[str], env: dict[str, str], hooks: int, plain_p50: float) -> None:
    """The hook on calls that destroy state elsewhere: its tables, and SQL read by sqlglot (imported on first use)."""
    with tempfile.TemporaryDirectory(prefix="agentworld-bench-remote-") as folder:
        walls, decisions = _hook_walls(hook, env, hooks, folder, _REMOTE_CALLS)
    p50 = statistics.median(walls)
    print(f"  the hook on calls beyond the folder (clusters, SQL through psql and an MCP tool, an MCP path), wall p50 "
          f"over {len(walls)}: {p50:.3f} s, {p50 / plain_p50:.2f}x the plain denial   (goal: under 0.3 s)")
    print("    " + "; ".join(f"{call}: {decision}" for call, decision in decisions.items()))


def _hook_walls(hook: list[str], env: dict[str, str], hooks: int, folder: str,
                calls: Sequence[tuple[str, dict[str, str]]]) -> tuple[list[float], dict[str, str]]:
    """Each call through a fresh hook process `hooks` times after one warm-up: the walls, and each call's decision."""
    walls: list[float] = []
    decisions: dict[str, str] = {}
    for tool, tool_input in calls:
        payload = json.dumps({"session_id": "bench", "cwd": folder, "tool_name": tool, "tool_input": tool_input})
        for run in range(hooks + 1):
            started = time.perf_counter()
            done = subprocess.run([*hook, "--format", "plain"], input=payload, capture_output=True, text=True,
                                  check=True, env=env)
            if run:
                walls.append(time.perf_counter() - started)
        decisions[next(iter(tool_input.values()))] = json.loads(done.stdout)["decision"]
    return walls, decisions


def _hook_in_a_large_repository(hook: list[str], env: dict[str, str], hooks: int, plain_p50: float) -> None:
    """The hook deciding what a loss costs inside a generated repository of 10,000 committed files."""
    with tempfile.TemporaryDirectory(prefix="agentworld-bench-repo-") as folder:
        repo = Path(folder)
        started = time.perf_counter()
        for index in range(_REPO_FILES):
            path = repo / "src" / f"m{index // 100}" / f"f{index % 100}.py"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"value = {index}\n")
        (repo / "notes").mkdir()
        (repo / "notes" / "changed.txt").write_text("one\n")
        git = ["git", "-C", folder, "-c", "user.email=bench@example.com", "-c", "user.name=bench"]
        for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "start"]):
            subprocess.run([*git, *args], check=True, capture_output=True)
        (repo / "notes" / "changed.txt").write_text("two\n")
        subprocess.run([*git, "stash", "-q"], check=True, capture_output=True)
        (repo / "notes" / "changed.txt").write_text("three\n")
        (repo / "notes" / "untracked.txt").write_text("work\n")
        made = time.perf_counter() - started
        walls, decisions = _hook_walls(hook, env, hooks, folder, [("Bash", {"command": line}) for line in _LOSS_LINES])
        p50 = statistics.median(walls)
        print(f"  the hook inside a git repository of {_REPO_FILES} files (made in {made:.1f} s), deciding what a loss "
              f"costs, wall p50 over {len(walls)}: {p50:.3f} s, {p50 / plain_p50:.2f}x the plain denial   (goal: under 0.3 s)")
        print("    " + "; ".join(f"{line}: {decision}" for line, decision in decisions.items()))
