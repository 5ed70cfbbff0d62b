"""Search actions: a web search, a page extraction or a key-value memory operation.

Canonical form: `tool {json arguments}`, e.g. `web_search {"queries": ["python 3.12 release"]}`.
Also accepted: the JSON call {"name": "web_search", "arguments": {...}}, `"query": "..."` or a
single string for `queries`, and plain text with no tool name, which becomes a one-query search.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from ..tool_calls import Field, check_arguments, is_text, parse_tool_call
from ..pack import ActionError

EXPECTED_SHAPE = (
    'one tool call: web_search {"queries": ["..."]}, web_extractor {"url": "https://...", "goal": "(optional)"} '
    'or memory {"action": "set"|"get"|"delete"|"list", "key": "...", "value": ...}; '
    "plain text with no tool name is searched as one query"
)

MEMORY_ACTIONS = ("set", "get", "delete", "list")


def _is_query_list(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(is_text(query) for query in value)


def _is_http_url(value: object) -> bool:
    if not isinstance(value, str) or any(character.isspace() for character in value):
        return False
    parts = urlsplit(value)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _is_stored_value(value: object) -> bool:
    return value is not None


TOOLS: dict[str, tuple[Field, ...]] = {
    "web_search": (Field("queries", _is_query_list, "a non-empty list of non-empty query strings"),),
    "web_extractor": (
        Field("url", _is_http_url, "an http:// or https:// URL"),
        Field("goal", is_text, "a non-empty string saying what to extract", required=False),
    ),
    "memory": (
        Field("action", lambda value: value in MEMORY_ACTIONS, f"one of {', '.join(MEMORY_ACTIONS)}"),
        Field("key", is_text, "a non-empty string", required=False),
        Field("value", _is_stored_value, "any JSON value except null", required=False),
    ),
}


def normalize_action(action: str) -> str:
    call = parse_tool_call(action, EXPECTED_SHAPE, bare_names=TOOLS)
    if call is None:  # plain text: the agent means a search
        name, arguments = "web_search", {"queries": [" ".join(action.split())]}
    else:
        name, arguments = call
    if name not in TOOLS:
        raise ActionError(f"unknown search tool {name!r} (tools: {', '.join(TOOLS)}); expected {EXPECTED_SHAPE}")
    if name == "web_search":
        arguments = _with_query_list(arguments)
    arguments = check_arguments(name, arguments, TOOLS[name], EXPECTED_SHAPE)
    if name == "memory":
        _check_memory_fields(arguments)
    return f"{name} {json.dumps(arguments, ensure_ascii=False)}"


def _with_query_list(arguments: dict) -> dict:
    """Accept "query": "..." and a single string for "queries"; both mean a list of one."""
    arguments = dict(arguments)
    if "query" in arguments and "queries" not in arguments:
        arguments["queries"] = arguments.pop("query")
    if isinstance(arguments.get("queries"), str):
        arguments["queries"] = [arguments["queries"]]
    return arguments


def _check_memory_fields(arguments: dict) -> None:
    operation = arguments["action"]
    needed = {"set": {"key", "value"}, "get": {"key"}, "delete": {"key"}, "list": set()}[operation]
    given = set(arguments) - {"action"}
    if needed - given:
        raise ActionError(f"memory {operation} needs {sorted(needed)}; expected {EXPECTED_SHAPE}")
    if given - needed:
        raise ActionError(f"memory {operation} takes no {sorted(given - needed)}; expected {EXPECTED_SHAPE}")
