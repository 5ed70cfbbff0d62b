"""An MCP tool call read by its arguments: the paths it names go through the same rules as the host's
own Read, Write and Edit, and SQL it carries is read by its meaning, by the one rule a database client's SQL is
(domains/shell/remote/sql_effects.py).

Which role a path plays comes from the verb in the tool's name (write, edit, delete, move, ...); a
tool whose name says none is taken to read, so a secret it is given is a secret read. Argument
names are the ones MCP servers use for paths (the reference filesystem server's `path`, `paths`,
`source`, `destination`), for SQL (`sql`, `statement`; `query` only for a tool whose name speaks
of SQL or a database, since search tools call their text `query` too), and for a shell command that a
tool named for running one executes (`command`, `cmd`): read as a line run on the server's machine.
Every other argument is read by what it holds, whatever it is called (domains/argument_content.py).
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import replace
from typing import Any

from .argument_content import content_effects
from .shell import Effect, Location, PathState, Semantics, analyze, file_action
from .shell.remote.elsewhere import as_elsewhere
from .shell.remote.sql_effects import sql_effects
from .shell.reading.words import Scope, Value

PATH_KEYS = frozenset({"path", "paths", "file", "files", "file_path", "filepath", "filename", "directory", "dir",
                       "folder", "source", "destination", "src", "dest", "target_path", "output_path", "input_path"})
SQL_KEYS = frozenset({"sql", "sql_query", "statement", "statements"})
COMMAND_KEYS = frozenset({"command", "cmd", "commands", "shell_command", "script"})
ARGUMENT_KEYS = frozenset({"args", "arguments", "argv"})  # an argv given beside its program: {"command": "kubectl", "args": [...]}
# A tool that runs a shell command it is given (`exec`, `run_command`, `runCommand`, `ssh_execute`, `start_process`).
_RUNS_COMMANDS = re.compile(r"(?i)(^|[_.-])(exec|execute|run|shell|command|terminal|bash|ssh|process)([_.-]|$)")
# (A tool named only for a `query` is read by its content, domains/argument_content.py: docs tools ask questions.)
_SQL_TOOL = re.compile(r"(?i)sql|database|execute|statement|(^|[_.-])db([_.-]|$)")
_DELETES = re.compile(r"(?i)(^|[_.-])(delete|remove|rm|unlink|erase|trash)([_.-]|$)")
_MOVES = re.compile(r"(?i)(^|[_.-])(move|rename|mv)([_.-]|$)")
_EDITS = re.compile(r"(?i)(^|[_.-])(edit|patch|replace|update|append|insert)([_.-]|$)")
_WRITES = re.compile(r"(?i)(^|[_.-])(write|create|save|put|set|upload|copy|cp|mkdir|make|new)([_.-]|$)")


def semantics(normalized: str, location: Location, state: PathState | None) -> Semantics:
    call = json.loads(normalized)
    name, arguments = str(call["name"]), call.get("arguments") or {}
    program = f"mcp {name}"
    effects: list[Effect] = []
    named: set[str] = set()  # the keys read by their name; the rest are read by what they hold
    for key, value in arguments.items():
        lowered = key.lower()
        if lowered in PATH_KEYS:
            for path in _texts(value):
                effects += _path_effects(name, lowered, path, location, state, program)
            named.add(lowered)
        elif lowered in SQL_KEYS or (lowered == "query" and _SQL_TOOL.search(name)):
            for text in _texts(value):
                effects += sql_effects(text, None, "a database's data", program)
            named.add(lowered)
        elif lowered in COMMAND_KEYS and _RUNS_COMMANDS.search(_snake(name)):
            lines = _command_lines(value, arguments)
            for text in lines:
                effects += _command_effects(text, name, program)
            if lines:  # a command document (MongoDB's `{"delete": ...}`) is read by what it holds
                named.update({lowered, *ARGUMENT_KEYS})
    read_by_name = bool(named - PATH_KEYS)
    effects += content_effects(name, arguments, program, lambda text: _command_effects(text, name, program),
                               read_by_name, frozenset(named))
    return Semantics(normalized, location.cwd, location.root, tuple(effects), (), (), (program,), location.cwd,
                     {0: frozenset()})


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str) and item.strip()]
    return []


def _role(tool: str, key: str) -> str:
    """What the tool does to the path under `key`: read, write, edit, deleted, moved-from or moved-to."""
    if _DELETES.search(tool):
        return "deleted"
    if _MOVES.search(tool):
        return "moved-from" if key in ("source", "src", "path") else "moved-to"
    if _EDITS.search(tool):
        return "edit"
    if _WRITES.search(tool):
        return "read" if key in ("source", "src") else "write"  # a copy reads its source
    return "read"


def _path_effects(tool: str, key: str, path: str, location: Location, state: PathState | None,
                  program: str) -> list[Effect]:
    role = _role(tool, key)
    if path == "~" or path.startswith("~/"):  # servers expand a home folder's tilde, as the shell would
        path = (location.home or "~") + path[1:]
    if role in ("read", "write", "edit"):
        return [replace(effect, program=program) for effect in file_action(role, path, location, state).effects]
    resolved, where = Scope(location.cwd, location.home or location.cwd, location.root).path(Value(path))
    return [Effect(role, resolved, where, tree=role == "deleted", program=program)]  # type: ignore[arg-type]


def _snake(name: str) -> str:
    """`runCommand` as `run_Command`: camelCase words are words too."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)


def _command_lines(value: Any, arguments: dict[str, Any]) -> list[str]:
    """The command lines a tool is given: a string is a line; a list of strings is one argv, as is a program with
    its arguments beside it under `args`."""
    extra: list[Any] = next((arguments[key] for key in ARGUMENT_KEYS if isinstance(arguments.get(key), list)), [])
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        return [shlex.join(value)]
    if isinstance(value, str) and value.strip():
        return [" ".join([value, *(shlex.quote(str(item)) for item in extra)])]
    return []


def _command_effects(text: str, tool: str, program: str) -> list[Effect]:
    """A shell command the tool runs where its server runs it: read as a line, judged as effects on that machine
    (domains/shell/remote/elsewhere.py), since nothing says it is this folder."""
    line = analyze(text, "/", "/root", "/nonexistent-workspace")
    return as_elsewhere(line.effects, line.opaque, f"the machine {tool} runs commands on", True, program)
