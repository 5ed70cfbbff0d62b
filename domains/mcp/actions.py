"""MCP actions: one JSON function call, {"name": "<tool>", "arguments": {...}}.

Convenience forms: `tool_name {"a": 1}` (a name, then the arguments object), a bare `tool_name`
(no arguments), arguments carried as a JSON string (the way OpenAI-style tool calls carry them) and
the OpenAI wrapper {"type": "function", "function": {...}}. The canonical form is the JSON object.
"""

from __future__ import annotations

import json

from ..pack import ActionError
from ..tool_calls import parse_tool_call
from ..tool_arguments import semantics  # noqa: F401  (the pack reads what a call does from its arguments)

EXPECTED_SHAPE = (
    'one JSON function call such as {"name": "list_issues", "arguments": {"state": "open"}} '
    '(arguments is a JSON object; the short form list_issues {"state": "open"} works too)'
)


def normalize_action(action: str) -> str:
    call = parse_tool_call(action, EXPECTED_SHAPE)
    if call is None:
        raise ActionError(f"not a tool call: {action.strip()[:80]!r}; expected {EXPECTED_SHAPE}")
    name, arguments = call
    return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


def shown_action(normalized: str) -> str:
    """The call in the short form the pack also accepts: `list_issues {"repo": "acme/api"}`."""
    call = json.loads(normalized)
    arguments = call.get("arguments") or {}
    return f"{call['name']} {json.dumps(arguments, ensure_ascii=False)}" if arguments else call["name"]
