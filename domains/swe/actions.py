"""Coding-agent actions: shell, file read/write/edit and a todo list, as named tool calls.

Canonical form: `tool {json arguments}`, e.g. `bash {"command": "python -m pytest -q"}`.
Also accepted: the JSON call {"name": "bash", "arguments": {...}} and a plain line with no tool
name, which becomes a bash command (so `{ a; b; }` and `[ -f x ]` stay shell).
"""

from __future__ import annotations

import json
import posixpath
from typing import Any

from ..pack import ActionError
from ..shell import Location, PathState, Semantics, analyze, file_action, patch_action
from ..shell.world.screen import ShellStep
from ..shell.world.knowledge import Knowledge
from ..tool_calls import Field, check_arguments, is_text, parse_tool_call

EXPECTED_SHAPE = (
    'one tool call: bash {"command": "..."}, read_file {"path": "...", "start_line": 1, "end_line": 40 (optional)}, '
    'write_file {"path": "...", "content": "..."}, edit_file {"path": "...", "old": "...", "new": "..."}, '
    'apply_patch {"patch": "*** Begin Patch ... *** End Patch"} '
    'or todo {"items": ["...", ...]}; a plain line with no tool name runs as a bash command'
)


def _is_string(value: object) -> bool:
    return isinstance(value, str)


def _is_line_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _is_todo_list(value: object) -> bool:
    return isinstance(value, list) and all(is_text(item) or (isinstance(item, dict) and item) for item in value)


TOOLS: dict[str, tuple[Field, ...]] = {
    "bash": (Field("command", is_text, "a non-empty shell command"),),
    "read_file": (
        Field("path", is_text, "a file path"),
        Field("start_line", _is_line_number, "a line number from 1", required=False),
        Field("end_line", _is_line_number, "a line number from 1", required=False),
    ),
    "write_file": (Field("path", is_text, "a file path"), Field("content", _is_string, "the whole file as a string")),
    "edit_file": (
        Field("path", is_text, "a file path"),
        Field("old", lambda value: isinstance(value, str) and value != "", "the exact, non-empty text to replace"),
        Field("new", _is_string, "the replacement text"),
    ),
    "todo": (Field("items", _is_todo_list, "a list of non-empty strings or JSON objects"),),
    # Codex's patch envelope: files added, updated, moved and deleted (shell/programs/patch_envelope.py).
    "apply_patch": (Field("patch", is_text, "a patch envelope from *** Begin Patch to *** End Patch"),),
}


def normalize_action(action: str) -> str:
    call = parse_tool_call(action, EXPECTED_SHAPE, bare_names=TOOLS)
    arguments: dict[str, Any]
    if call is None:  # plain text: a shell line
        name, arguments = "bash", {"command": action.strip()}
    else:
        name, arguments = call
    if name not in TOOLS:
        raise ActionError(f"unknown coding tool {name!r} (tools: {', '.join(TOOLS)}); expected {EXPECTED_SHAPE}")
    arguments = check_arguments(name, arguments, TOOLS[name], EXPECTED_SHAPE)
    if name == "read_file" and arguments.get("end_line", 1 << 30) < arguments.get("start_line", 1):
        raise ActionError(f"read_file: end_line comes before start_line; expected {EXPECTED_SHAPE}")
    return f"{name} {json.dumps(arguments, ensure_ascii=False)}"


def action_text(normalized: str) -> str:
    """A bash call reads as its command line, so constraint patterns see what would run."""
    name, _, arguments = normalized.partition(" ")
    return json.loads(arguments)["command"] if name == "bash" else normalized


def semantics(normalized: str, location: Location, state: PathState | None) -> Semantics | None:
    """A bash call's command line read as bash; a file tool's write, edit or read as the same effects."""
    name, _, arguments = normalized.partition(" ")
    values = json.loads(arguments)
    if name == "bash":
        return analyze(values["command"], location.cwd, location.home, location.root, state)
    if name == "apply_patch":
        return patch_action(values["patch"], location, state)
    tool = {"write_file": "write", "edit_file": "edit", "read_file": "read"}.get(name)
    return file_action(tool, values["path"], location, state) if tool else None


# --- computed steps (tools/worlds/computed.py): the formats instructions.md defines -----------------------
def shell_line(normalized: str) -> str | None:
    """A bash call's command, for the world's virtual shell."""
    name, _, arguments = normalized.partition(" ")
    return json.loads(arguments)["command"] if name == "bash" else None


def computed_screen(previous: str, state: str, step: ShellStep) -> str | None:
    """A bash call's output: what it printed, then `[exit code: N]`. Each call starts afresh in the
    repository root, so a line that moves the shell or sets a variable is the model's."""
    if not step.keeps_shell or "$?" in step.line:
        return None  # (a fresh shell's `$?` is 0, not the status of the call before, which the world's shell keeps)
    printed = step.printed + ("\n" if step.printed and not step.printed.endswith("\n") else "")
    return f"{printed}[exit code: {step.exit_code}]"


def computed_file_call(normalized: str, known: Knowledge) -> tuple[str, dict[str, bytes], bool] | None:
    """read_file, write_file and edit_file on a path whose state the world knows: (the tool's output, new
    contents, failed); None where the world does not know enough (the model's)."""
    name, _, arguments = normalized.partition(" ")
    if name not in ("read_file", "write_file", "edit_file"):
        return None
    values = json.loads(arguments)
    given = values["path"]
    path = posixpath.normpath(posixpath.join(known.cwd, given))
    status = known.status(path)
    if status == "present" and path in known.folders:
        return f"Error: {given} is a directory", {}, True
    if name == "write_file":
        parent = posixpath.dirname(path)
        if parent not in known.folders:
            return None  # whether the tool makes missing folders, its format does not say
        content = values["content"].encode("utf-8")
        return f"Wrote {len(content)} bytes to {given}", {path: content}, False
    if status == "absent":
        return f"Error: file not found: {given}", {}, True
    content = known.files.get(path)
    if status != "present" or content is None:
        return None
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if name == "read_file":
        return _numbered(text, values.get("start_line", 1), values.get("end_line")), {}, False
    old, new = values["old"], values["new"]
    found = text.count(old)
    if found == 0:
        return f"Error: old text not found in {given}", {}, True
    if found > 1:
        return f"Error: old text occurs {found} times in {given}; include more context", {}, True
    at = text.index(old)
    edited = text[:at] + new + text[at + len(old):]
    first = text[:at].count("\n") + 1
    changed = _numbered(edited, first, first + new.count("\n"))
    return f"Edited {given}: replaced 1 occurrence.\n{changed}", {path: edited.encode("utf-8")}, False


def _numbered(text: str, start: int, end: int | None) -> str:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line starts no line of its own
    last = len(lines) if end is None else min(end, len(lines))
    return "\n".join(f"{number}\t{lines[number - 1]}" for number in range(start, last + 1))
