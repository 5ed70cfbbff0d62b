"""What a host transcript becomes: a session of real steps, and a count of everything left out.

A reader never raises on a bad line: a transcript is the host's, written by versions this project
never saw, so what cannot be used is counted under a reason and the rest goes on.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...tools.guard.host_actions import HostAction, host_action, observation_from_response


@dataclass(frozen=True)
class RealStep:
    """One action the agent really took, in a domain's action format, and what really came back."""

    domain: str
    action: str
    observation: str
    mcp_server: str = ""  # mcp: the server whose tool it was


@dataclass
class Session:
    host: str  # claude-code, codex
    id: str
    file: Path
    task: str = ""  # the first thing the user asked
    cwd: str = ""
    steps: list[RealStep] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)  # reason: how many

    def add(self, tool_name: str, tool_input: Any, response: Any) -> None:
        """A tool call and its result; a tool no domain simulates is counted, not kept."""
        action = host_action(tool_name, tool_input) if isinstance(tool_input, dict) else None
        if action is None:
            self.skipped[f"tool {tool_name or '(unnamed)'}"] += 1
            return
        self.steps.append(real_step(action, response))


def real_step(action: HostAction, response: Any) -> RealStep:
    return RealStep(action.domain, action.action, observation_from_response(action, response), action.mcp_server)


def json_lines(path: Path, skipped: Counter[str]) -> Iterator[dict[str, Any]]:
    """Each line that is a JSON object; anything else is counted as malformed."""
    try:
        with path.open(encoding="utf-8", errors="replace") as lines:
            for line in lines:
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError:
                    skipped["malformed lines"] += 1
                    continue
                if isinstance(record, dict):
                    yield record
                else:
                    skipped["malformed lines"] += 1
    except OSError as exc:
        skipped[f"unreadable file ({exc.strerror or exc})"] += 1


def text_of(content: Any) -> str:
    """A message or tool result's text: a string, or the text blocks of a list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(block.get("text", "")) for block in content
                         if isinstance(block, dict) and block.get("type") in ("text", "input_text", "output_text"))
    return ""


def transcript_files(paths: list[Path], skipped: Counter[str], is_subagent) -> list[Path]:
    """The .jsonl files under each path (a file or a folder), oldest first; subagent files are counted."""
    found: dict[Path, float] = {}  # file: when it was last written
    for path in paths:
        try:
            candidates = [path] if path.is_file() else sorted(path.rglob("*.jsonl")) if path.is_dir() else None
            if candidates is None:
                skipped[f"missing path {path}"] += 1
                continue
            for candidate in candidates:
                if is_subagent(candidate):
                    skipped["subagent transcripts"] += 1
                else:
                    found[candidate] = candidate.stat().st_mtime
        except OSError as exc:  # a folder that cannot be read, a file gone while we looked
            skipped[f"unreadable path ({exc.strerror or exc})"] += 1
    return sorted(found, key=lambda file: (found[file], str(file)))
