"""One way to read a file a command is given: every command that takes one reads it here.

Whatever is wrong with it (missing, a folder, unreadable, too large, empty, not UTF-8, not JSON)
becomes one line that names the file, the line where the text allows, and what to do, raised
as an `InputFileError`, which the command line reports with exit status 2, never a traceback.
What the file must hold beyond JSON (its shape) stays with each command, which names the line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..engine.errors import InputError

MAX_INPUT_BYTES = 512 * 1024 * 1024  # larger than any sensible request, plan or sample file


class InputFileError(InputError):
    """A file a command was given cannot be used; one line for the user."""


def read_text(name: str | Path, what: str, *, allow_empty: bool = True) -> str:
    """The file's text (`-`: standard input); `what` names the file for the message ("plan", "policy")."""
    if str(name) == "-":
        data = sys.stdin.buffer.read()
    else:
        path = Path(name)
        try:
            if path.is_dir():
                raise InputFileError(f"{what} file {path} is a folder; give the file itself")
            if path.stat().st_size > MAX_INPUT_BYTES:
                raise InputFileError(f"{what} file {path} is over {MAX_INPUT_BYTES >> 20} MiB; split it into smaller files")
            data = path.read_bytes()
        except FileNotFoundError:
            raise InputFileError(f"{what} file {path} does not exist; check the path") from None
        except OSError as exc:
            raise InputFileError(f"cannot read {what} file {path}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputFileError(f"{name}:{line}: {what} file is not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    if not allow_empty and not text.strip():
        raise InputFileError(f"{what} file {name} is empty")
    return text


def read_json(name: str | Path, what: str) -> Any:
    """The file's one JSON document."""
    text = read_text(name, what, allow_empty=False)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFileError(f"{name}:{exc.lineno}: {what} file is not valid JSON ({exc.msg} at column {exc.colno})") \
            from None


def json_lines(name: str | Path, what: str) -> list[tuple[int, dict[str, Any]]]:
    """A JSON Lines file's objects with their line numbers; blank lines are skipped."""
    found = []
    for number, line in enumerate(read_text(name, what).splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputFileError(f"{name}:{number}: not JSON ({exc.msg} at column {exc.colno}); each line of a "
                                 f"{what} file is one JSON object") from None
        if not isinstance(value, dict):
            raise InputFileError(f"{name}:{number}: each line of a {what} file is one JSON object")
        found.append((number, value))
    if not found:
        raise InputFileError(f"{what} file {name} holds no line of JSON")
    return found
