"""Claude Code transcripts: `~/.claude/projects/<project>/<session>.jsonl`, one JSON record a line.

An assistant record's `tool_use` blocks (id, name, input) are answered by `tool_result` blocks of a
later user record (tool_use_id, content, is_error), whose `toolUseResult` holds the structured
result (Bash: stdout, stderr, interrupted). Left out and counted: sidechain records and subagent
files (another agent's session), compaction summaries, and calls never answered.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from .transcripts import Session, json_lines, text_of, transcript_files

HOST = "claude-code"
COMPACTION = "This session is being continued from a previous conversation"
_EXIT_CODE = re.compile(r"\AExit code (\d+)\n?")


def default_paths() -> list[Path]:
    return [Path.home() / ".claude" / "projects"]


def is_subagent(path: Path) -> bool:
    return path.parent.name == "subagents" or path.name.startswith("agent-")


def files(paths: list[Path], skipped: Counter[str]) -> list[Path]:
    return transcript_files(paths, skipped, is_subagent)


def read(path: Path) -> Session:
    session = Session(HOST, path.stem, path)
    calls: dict[str, tuple[str, Any]] = {}  # tool_use id: (name, input), until its result comes
    for record in json_lines(path, session.skipped):
        if record.get("isSidechain"):
            session.skipped["sidechain records"] += 1
            continue
        session.id = str(record.get("sessionId") or session.id)
        session.cwd = session.cwd or str(record.get("cwd") or "")
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if record.get("type") == "assistant" and isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("id"):
                    calls[str(block["id"])] = (str(block.get("name", "")), block.get("input"))
        elif record.get("type") == "user":
            _user(session, record, content, calls)
    session.skipped["unanswered tool calls"] += len(calls)
    return session


def _user(session: Session, record: dict[str, Any], content: Any, calls: dict[str, tuple[str, Any]]) -> None:
    if record.get("isCompactSummary") or text_of(content).startswith(COMPACTION):
        session.skipped["compaction summaries"] += 1
        return
    results = [block for block in content if isinstance(block, dict) and block.get("type") == "tool_result"] \
        if isinstance(content, list) else []
    for block in results:
        call = calls.pop(str(block.get("tool_use_id", "")), None)
        if call is None:
            session.skipped["results without a call"] += 1
            continue
        name, tool_input = call
        # The record's one structured result belongs to its one tool result; with several, each keeps its text.
        structured = record.get("toolUseResult") if len(results) == 1 else None
        session.add(name, tool_input, _response(name, block, structured))
    if not results and not record.get("isMeta") and not session.task:
        text = text_of(content).strip()
        if text and not text.startswith("<"):  # <command-name>, <local-command-stdout>: the host's, not the user's
            session.task = text


def _response(name: str, block: dict[str, Any], structured: Any) -> Any:
    """The result as observation_from_response takes it: Bash's stdout and stderr, with the exit code
    Claude Code writes into a failed command's text; any other tool's text."""
    text = text_of(block.get("content"))
    if name.lower() != "bash":
        return text
    failed = _EXIT_CODE.match(text) if block.get("is_error") else None
    if isinstance(structured, dict) and ("stdout" in structured or "stderr" in structured):
        response: dict[str, Any] = {"stdout": structured.get("stdout") or "", "stderr": structured.get("stderr") or ""}
        if failed:
            response["exit_code"] = int(failed[1])
        return response
    if failed:
        return {"output": text[failed.end():], "exit_code": int(failed[1])}
    return {"output": text}
