"""Named tool calls, shared by the packs whose actions are calls of tools (mcp, search, swe).

Two shapes are recognised: a JSON object `{"name": ..., "arguments": {...}}` (also OpenAI's
`{"type": "function", "function": {...}}` wrapper, and arguments carried as a JSON string), and
the short form `name {json object}`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from .pack import ActionError

# MCP tool names are short identifier-like strings; "/" and "." appear in namespaced servers.
_TOOL_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-/]{0,127}")
_NAME_THEN_REST = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.\-/]*)(?:\s+|(?=\{)|$)(.*)", re.DOTALL)


def parse_tool_call(action: str, expected: str, bare_names: Collection[str] | None = None) -> tuple[str, dict] | None:
    """(name, arguments) of a named tool call, or None when the text is not shaped like one.

    Recognised: a JSON object with `name` (and `arguments`), or `name {json object}`. A bare name
    with nothing after it counts only when `bare_names` is None (any name) or contains it, so
    packs whose plain text means something else (a query, a shell line) keep that meaning.
    """
    text = action.strip()
    if not text:
        raise ActionError(f"empty action; expected {expected}")
    if text.startswith("{"):
        try:
            decoded = json.loads(text)
        except json.JSONDecodeError:
            decoded = None
        if isinstance(decoded, dict):
            return _call_from_object(decoded, expected)
        return None
    match = _NAME_THEN_REST.fullmatch(text)
    if match is None:
        return None
    name, rest = match.group(1), match.group(2).strip()
    if not rest:
        if bare_names is not None and name not in bare_names:
            return None
        return _checked_name(name, expected), {}
    if not rest.startswith("{"):
        return None
    try:
        arguments = json.loads(rest)
    except json.JSONDecodeError as error:
        raise ActionError(f"the arguments of {name!r} are not valid JSON ({error.msg}); expected {expected}") from None
    if not isinstance(arguments, dict):
        return None
    return _checked_name(name, expected), arguments


def _call_from_object(call: dict, expected: str) -> tuple[str, dict]:
    if isinstance(call.get("function"), dict):  # OpenAI tool-call wrapper: {"id", "type", "function"}
        unknown = set(call) - {"id", "type", "function"}
        if unknown:
            raise ActionError(f"the tool call has unknown fields {sorted(unknown)}; expected {expected}")
        call = call["function"]
    unknown = set(call) - {"name", "arguments"}
    if unknown:
        raise ActionError(f"the tool call has unknown fields {sorted(unknown)}; expected {expected}")
    if not isinstance(call.get("name"), str):
        raise ActionError(f"the tool call has no string 'name'; expected {expected}")
    arguments = call.get("arguments", {})
    if isinstance(arguments, str):  # arguments sent as a JSON-encoded string
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as error:
            raise ActionError(f"the 'arguments' string is not valid JSON ({error.msg}); expected {expected}") from None
    if not isinstance(arguments, dict):
        raise ActionError(f"'arguments' must be a JSON object, not {type(arguments).__name__}; expected {expected}")
    return _checked_name(call["name"], expected), arguments


def _checked_name(name: str, expected: str) -> str:
    if not _TOOL_NAME.fullmatch(name):
        raise ActionError(
            f"tool name {name!r} is not a name of letters, digits, _ - . / (at most 128 characters); expected {expected}"
        )
    return name


@dataclass(frozen=True)
class Field:
    """One argument of a fixed tool: its name, a check of its value and how to describe a good value."""

    name: str
    accepts: Callable[[object], bool]
    description: str
    required: bool = True


def check_arguments(tool: str, arguments: dict, fields: Sequence[Field], expected: str) -> dict:
    """The arguments in the fields' order, after checking names, presence and values."""
    known = {field.name for field in fields}
    unknown = [key for key in arguments if key not in known]
    if unknown:
        raise ActionError(f"{tool} has no arguments {unknown} (it takes {sorted(known)}); expected {expected}")
    checked = {}
    for field in fields:
        if field.name not in arguments:
            if field.required:
                raise ActionError(f"{tool} needs '{field.name}' ({field.description}); expected {expected}")
            continue
        if not field.accepts(arguments[field.name]):
            raise ActionError(f"{tool}: '{field.name}' must be {field.description}; expected {expected}")
        checked[field.name] = arguments[field.name]
    return checked


def is_text(value: object) -> bool:
    """A string with something in it besides whitespace."""
    return isinstance(value, str) and bool(value.strip())
