"""Codex CLI rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, lines of {timestamp, type, payload}.

`session_meta` names the session and its folder. Response items carry the calls: `function_call`
(name, JSON `arguments`, call_id) for the shell (`shell` takes an argv, `shell_command` and
`exec_command` a command line) and for MCP tools (`server__tool`); `local_shell_call` for the
built-in shell; `custom_tool_call` for apply_patch. Each is answered by a `function_call_output` or
`custom_tool_call_output` with the same call_id. Its output is a string, or content items:
- JSON, `{output, metadata: {exit_code, duration_seconds}}` (`shell`, `local_shell`);
- text under a header of its own, ending in `Output:` (`shell_command`: `Exit code: N`, `Wall time:
  ...`, perhaps `Total output lines: N`; `exec_command`: `Chunk ID`, `Wall time`, `Process exited
  with code N` or `Process running with session ID N`, `Original token count`; an MCP tool's result
  in newer versions: `Wall time` alone).
The header is Codex's, not the program's, so it is taken off; so is the note that opens an output
Codex truncated (the `…N tokens truncated…` mark in its middle stays: that text is gone). The first
user message that is not the host's own context (<environment_context>, <user_instructions>,
AGENTS.md) is the task.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections import Counter
from pathlib import Path
from typing import Any

from .transcripts import Session, json_lines, text_of, transcript_files

HOST = "codex"
_SHELL_TOOLS = {"shell", "shell_command", "exec_command", "container.exec", "local_shell"}
_HEADER = re.compile(r"\A(?:(?:Chunk ID|Wall time|Exit code|Original token count|Total output lines): [^\n]*\n"
                     r"|Process (?:exited with code|running with session ID) -?\d+\n)+\n?(?:Output:\n?)?")
_EXIT = re.compile(r"^(?:Exit code: |Process exited with code )(-?\d+)$", re.MULTILINE)
_TRUNCATED = re.compile(r"\A(?:Warning: truncated output \(original token count: \d+\)\n)?Total output lines: \d+\n\n")


def default_paths() -> list[Path]:
    return [Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex") / "sessions"]


def files(paths: list[Path], skipped: Counter[str]) -> list[Path]:
    return transcript_files(paths, skipped, lambda path: False)


def read(path: Path) -> Session:
    session = Session(HOST, path.stem.removeprefix("rollout-"), path)
    calls: dict[str, tuple[str, dict[str, Any]]] = {}  # call_id: (tool, input as the host tools take it)
    for record in json_lines(path, session.skipped):
        payload = record.get("payload")
        if not isinstance(payload, dict):
            session.skipped["records without a payload"] += 1
            continue
        if record.get("type") == "session_meta":
            session.id = str(payload.get("id") or session.id)
            session.cwd = str(payload.get("cwd") or session.cwd)
        elif record.get("type") == "response_item":
            _item(session, payload, calls)
    session.skipped["unanswered tool calls"] += len(calls)
    return session


def _item(session: Session, item: dict[str, Any], calls: dict[str, tuple[str, dict[str, Any]]]) -> None:
    kind = item.get("type")
    call_id = str(item.get("call_id") or item.get("id") or "")
    if kind == "message" and item.get("role") == "user" and not session.task:
        text = text_of(item.get("content")).strip()
        if text and not text.startswith(("<", "# AGENTS.md")):
            session.task = text
    elif kind == "function_call":
        calls[call_id] = _call(str(item.get("name", "")), item.get("arguments"))
    elif kind == "local_shell_call":
        action = item.get("action")
        command = action.get("command") if isinstance(action, dict) else None
        calls[call_id] = ("shell", {"command": _command_line(command)})
    elif kind == "custom_tool_call":
        calls[call_id] = (str(item.get("name", "")), {"input": item.get("input")})
    elif kind in ("function_call_output", "custom_tool_call_output"):
        call = calls.pop(call_id, None)
        if call is None:
            session.skipped["results without a call"] += 1
            return
        name, tool_input = call
        session.add(name, tool_input, _response(name, item.get("output")))


def _call(name: str, arguments: Any) -> tuple[str, dict[str, Any]]:
    try:
        parsed = json.loads(arguments) if isinstance(arguments, str) else arguments
    except ValueError:
        parsed = None
    parsed = parsed if isinstance(parsed, dict) else {}
    if name in _SHELL_TOOLS:
        return "shell", {"command": _command_line(parsed.get("command", parsed.get("cmd")))}
    server, separator, tool = name.removeprefix("mcp__").partition("__")
    if separator and server and tool:  # an MCP tool, as Codex names them
        return f"mcp__{server}__{tool}", parsed
    return name, parsed


def _command_line(command: Any) -> str:
    """An argv (["bash", "-lc", "ls -la"] is the line "ls -la") or a command line, as one line."""
    if isinstance(command, str):
        return command
    if isinstance(command, list) and all(isinstance(part, str) for part in command):
        if len(command) == 3 and command[0] in ("bash", "sh", "zsh") and command[1] in ("-lc", "-c"):
            return command[2]
        return shlex.join(command)
    return ""


def _response(name: str, output: Any) -> Any:
    """The output as observation_from_response takes it: the shell's output and exit code; a tool's text."""
    if isinstance(output, dict):  # a structured output some versions write
        output = output.get("content", json.dumps(output))
    text = output if isinstance(output, str) else text_of(output)
    try:
        structured = json.loads(text)
    except ValueError:
        structured = None
    header = _HEADER.match(text)
    if name != "shell":
        return _TRUNCATED.sub("", text[header.end():]) if header else text
    if isinstance(structured, dict) and "output" in structured:
        metadata = structured.get("metadata")
        return {"output": _TRUNCATED.sub("", str(structured["output"])),
                "exit_code": metadata.get("exit_code") if isinstance(metadata, dict) else None}
    if header is None:
        return {"output": text}
    exit_code = _EXIT.search(header[0])
    return {"output": _TRUNCATED.sub("", text[header.end():]), "exit_code": int(exit_code[1]) if exit_code else None,
            "running": "Process running with session ID" in header[0]}  # no exit code, and no prompt back yet
