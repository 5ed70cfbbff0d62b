"""A host's tool call judged through the `hook` command's own `decide` (server/hosts/hook.py), and the git project
it runs in: what the guard tests share."""

from __future__ import annotations

import argparse
import json
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from agentworld_mcp.server.hosts.hook import decide


def git_project(repo: Path, committed: dict[str, str], uncommitted: dict[str, str] | None = None) -> Path:
    """`repo` as a git repository holding `committed` in one commit, then `uncommitted` written on top."""
    repo.mkdir(parents=True, exist_ok=True)
    for name, text in committed.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    for args in (["init", "-q", "-b", "main"], ["add", "."],
                 ["-c", "user.email=d@e.x", "-c", "user.name=d", "commit", "-qm", "start", "--allow-empty"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)
    for name, text in (uncommitted or {}).items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    return repo


def verdict(repo: Path, call: str | dict[str, Any], tool: str = "Bash", policy: Path | None = None) -> dict[str, Any]:
    """The verdict on a Claude Code PreToolUse call run in `repo`: a Bash line, or another tool's input."""
    args = argparse.Namespace(event="pre", format="plain", policy=str(policy) if policy else None, url=None,
                              on_failure="none")
    tool_input = {"command": call} if isinstance(call, str) else call
    payload = {"session_id": "tests", "cwd": str(repo), "hook_event_name": "PreToolUse", "tool_name": tool,
               "tool_input": tool_input}
    return decide(args, json.dumps(payload)).model_dump()


def held_out_wrong(label: str, seeds: range, checked: Callable[[int], Iterable[str | None]]) -> list[str]:
    """A generated test's held-out part, reported apart: `checked(seed)` gives, per case, None where the guard
    answered as expected and else what went wrong. Prints the tally and each wrong case; returns them."""
    total, wrong = 0, []
    for seed in seeds:
        for message in checked(seed):
            total += 1
            if message is not None:
                wrong.append(f"seed {seed}: {message}")
    print(f"held-out seeds {seeds.start}..{seeds.stop - 1}{label}: {total - len(wrong)}/{total} as expected")
    for message in wrong:
        print(f"  {message}")
    return wrong
