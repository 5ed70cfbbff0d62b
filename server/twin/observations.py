"""Between an MCP tool result and the mcp domain's observation text, both ways.

An observation is the result as the agent's client receives it, in the one form the world model
reads (recorded reality) and writes (predictions):
- a success with structured content: that JSON, which is also the spec's text form of it;
- a success of text blocks only: the text;
- anything else (an error, images, resources, an empty result): the result envelope as JSON,
  {"content": [...], "isError": ...}, with binary data replaced by its size, since a world keeps
  what an agent can reason about, not pixels;
- a protocol error (unknown tool, say): {"error": {"code": ..., "message": ...}}.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, ContentBlock, TextContent

from ...engine.errors import EngineError
from ...tools.tool_definitions import schema_problem

_ENVELOPE_KEYS = {"content", "isError", "structuredContent", "_meta"}
_BINARY_FIELDS = ("data", "blob")
_QUOTED_PREDICTION_CHARS = 400
_JSONRPC_CODES = (-32768, -32000)


class BrokenPrediction(EngineError):
    """The prediction breaks the tool's output schema; the message says how, for the agent."""


def observation_of(result: CallToolResult) -> str:
    """Never empty: a world keeps every real step, and an empty result is an envelope with no content."""
    blocks = [block.model_dump(by_alias=True, exclude_none=True) for block in result.content]
    texts_only = all(block["type"] == "text" for block in blocks)
    if not result.is_error and texts_only and result.structured_content is not None:
        return _json(result.structured_content)
    text = "\n".join(block["text"] for block in blocks) if texts_only else ""
    if not result.is_error and text.strip():
        return text
    envelope: dict[str, Any] = {"content": [_without_binary(block) for block in blocks], "isError": bool(result.is_error)}
    if result.structured_content is not None:
        envelope["structuredContent"] = result.structured_content
    return _json(envelope)


def protocol_error_observation(error: MCPError) -> str:
    return _json({"error": {"code": error.code, "message": error.message}})


def result_of(observation: str, output_schema: dict[str, Any] | None) -> CallToolResult:
    """The result a client receives for a predicted observation. Raises MCPError where the prediction
    is a protocol error, and BrokenPrediction where a tool with an output schema would get structured
    content that does not follow it: a client may rely on the schema."""
    parsed = _parsed(observation)
    if isinstance(parsed, dict) and (error := _protocol_error(parsed)) is not None:
        raise MCPError(*error)
    if isinstance(parsed, dict) and _is_envelope(parsed) and not _is_own_result(parsed, output_schema):
        content: list[ContentBlock] = [_text_block(item) for item in parsed["content"]]
        is_error, structured = parsed.get("isError") is True, parsed.get("structuredContent")
    else:
        content, is_error = [TextContent(text=observation)], False
        structured = parsed if isinstance(parsed, dict) else None
    if output_schema is None or is_error:
        return CallToolResult(content=content, is_error=is_error, structured_content=structured if output_schema else None)
    problem = "(no JSON object)" if structured is None else schema_problem(output_schema, structured, "the result")
    if problem is not None:
        quoted = observation[:_QUOTED_PREDICTION_CHARS] + ("..." if len(observation) > _QUOTED_PREDICTION_CHARS else "")
        raise BrokenPrediction(f"agentworld twin: the predicted result breaks the tool's output schema {problem}; "
                               f"the prediction was: {quoted}")
    return CallToolResult(content=content, structured_content=structured)


def predicts_error(observation: str, output_schema: dict[str, Any] | None) -> bool:
    try:
        return bool(result_of(observation, output_schema).is_error)
    except (MCPError, BrokenPrediction):
        return True


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _is_envelope(value: dict[str, Any]) -> bool:
    content = value.get("content")
    return (
        set(value) <= _ENVELOPE_KEYS
        and isinstance(content, list)
        and all(isinstance(item, dict) and isinstance(item.get("type"), str) for item in content)
    )


def _is_own_result(value: dict[str, Any], output_schema: dict[str, Any] | None) -> bool:
    """A tool's structured result may itself be a `content` list of typed blocks (the filesystem
    server's read_media_file): one with no envelope fields that follows the tool's output schema
    is that result, not an envelope."""
    return (output_schema is not None and not {"isError", "structuredContent"} & set(value)
            and schema_problem(output_schema, value, "the result") is None)


def _protocol_error(value: dict[str, Any]) -> tuple[int, str] | None:
    """{"error": {"code", "message"}} or the bare pair, with a JSON-RPC code (-32768 to -32000): a tool's
    own JSON such as {"code": 404, "message": ...} is a result, not a protocol error."""
    if set(value) - {"error", "jsonrpc", "id", "code", "message", "data"}:
        return None
    inner = value["error"] if isinstance(value.get("error"), dict) else value
    code, message = inner.get("code"), inner.get("message")
    if type(code) is int and _JSONRPC_CODES[0] <= code <= _JSONRPC_CODES[1] and isinstance(message, str):
        return code, message
    return None


def _text_block(item: dict[str, Any]) -> TextContent:
    # A predicted image or resource has no real bytes: the agent reads what the model wrote about it.
    if item["type"] == "text" and isinstance(item.get("text"), str):
        return TextContent(text=item["text"])
    return TextContent(text=_json(item))


def _without_binary(block: dict[str, Any]) -> dict[str, Any]:
    block = dict(block)
    for field in _BINARY_FIELDS:
        if isinstance(block.get(field), str):
            block[field] = f"<{len(block[field])} base64 characters>"
    if isinstance(block.get("resource"), dict):
        block["resource"] = _without_binary(block["resource"])
    return block


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)
