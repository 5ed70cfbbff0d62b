"""The tools of a simulated MCP server: accepted in the shapes agents have at hand, checked once.

An agent rehearsing against an MCP server passes that server's `tools/list` result (the `tools`
array, or the whole result), or plain JSON schemas in the OpenAI function shape. Calls to an
unknown tool, or arguments that break the tool's input schema, are answered here at once and for
certain: the model is not asked to guess what a schema check would say.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from ..engine.errors import InputError

_SHAPE = (
    "a list of tool definitions as in tools/list: [{\"name\": ..., \"description\": ..., \"inputSchema\": {...}}] "
    "(OpenAI-style {\"type\": \"function\", \"function\": {\"name\", \"parameters\"}} also works)"
)


@dataclass(frozen=True)
class ToolSet:
    definitions: tuple[dict[str, Any], ...]

    @property
    def names(self) -> list[str]:
        return [definition["name"] for definition in self.definitions]

    def prompt_text(self) -> str:
        return json.dumps(list(self.definitions), ensure_ascii=False, indent=1)

    def definition(self, name: str) -> dict[str, Any] | None:
        return next((d for d in self.definitions if d["name"] == name), None)

    def call_problem(self, name: str, arguments: Any) -> str | None:
        """Why the server would refuse this call before running it (unknown tool, arguments that
        break the input schema), or None. Checked by the schema's own draft ($schema), as the server does."""
        definition = self.definition(name)
        if definition is None:
            return f"the simulated server has no tool {name!r}; its tools: {', '.join(self.names)}"
        schema = definition.get("inputSchema")
        problem = schema_problem(schema, arguments, "arguments") if schema else None
        return f"arguments for {name!r} break its input schema {problem}" if problem else None

    def reply_schema(self, name: str) -> dict[str, Any] | None:
        """What a predicted reply to `name` may be, where the tool publishes an `outputSchema`: its
        structured result, an error result, or a protocol error. None for a tool without one."""
        definition = self.definition(name)
        output_schema = definition.get("outputSchema") if definition else None
        return reply_schema(output_schema) if isinstance(output_schema, dict) else None

    def check_call(self, action: str, where: str) -> None:
        """`action` is the mcp domain's canonical `{"name": ..., "arguments": {...}}`."""
        call = json.loads(action)
        problem = self.call_problem(call["name"], call["arguments"])
        if problem is not None:
            raise InputError(f"{where}: {problem}")


# The mcp domain's observation forms other than a structured success (see the twin's observations):
# the result envelope of a tool that ran and failed, and a JSON-RPC error.
_ERROR_RESULT = {
    "type": "object",
    "properties": {
        "content": {"type": "array", "minItems": 1, "items": {
            "type": "object", "properties": {"type": {"const": "text"}, "text": {"type": "string"}},
            "required": ["type", "text"], "additionalProperties": False}},
        "isError": {"const": True},
    },
    "required": ["content", "isError"],
    "additionalProperties": False,
}
_PROTOCOL_ERROR = {
    "type": "object",
    "properties": {"error": {"type": "object", "properties": {"code": {"type": "integer"}, "message": {"type": "string"}},
                             "required": ["code", "message"], "additionalProperties": False}},
    "required": ["error"],
    "additionalProperties": False,
}
_ROOT_KEYWORDS = ("$defs", "definitions")  # where "#/..." references point: they move to the new root


def reply_schema(output_schema: dict[str, Any]) -> dict[str, Any]:
    """One schema for a whole reply: `output_schema`'s object, or either error form. Definitions move
    to the top so the tool's own "#/$defs/..." references still resolve."""
    success = {key: value for key, value in output_schema.items() if key not in (*_ROOT_KEYWORDS, "$schema", "$id")}
    schema: dict[str, Any] = {key: output_schema[key] for key in _ROOT_KEYWORDS if key in output_schema}
    schema["anyOf"] = [success, _ERROR_RESULT, _PROTOCOL_ERROR]
    return schema


def reply_problem(schema: dict[str, Any], reply: str) -> str | None:
    """How a predicted reply breaks its `reply_schema`, or None."""
    try:
        value = json.loads(reply)
    except ValueError:
        return "at the result: it is not JSON"
    return schema_problem(schema, value, "the result")


def schema_problem(schema: dict[str, Any], value: Any, root: str) -> str | None:
    """The clearest way `value` breaks `schema`, as "at PATH: message" (`root` names the top), or None.
    Checked by the schema's own draft ($schema; 2020-12 when it names none), as its server checks it."""
    try:
        error = _jsonschema().exceptions.best_match(_validator(json.dumps(schema, sort_keys=True)).iter_errors(value))
    except Exception as exc:  # a schema that passed its metaschema but cannot be applied (a $ref to nowhere)
        return f"cannot be checked: the schema itself is broken ({type(exc).__name__}: {exc})"
    if error is None:
        return None
    return f"at {'/'.join(str(part) for part in error.absolute_path) or root}: {error.message}"


# A world's tools are re-read at every step, and checking a schema against its metaschema costs
# milliseconds: schemas are checked, and their validators built, once per distinct schema.
@functools.lru_cache(maxsize=512)
def _validator(schema_json: str):
    jsonschema = _jsonschema()
    schema = json.loads(schema_json)
    return jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)(schema)


@functools.lru_cache(maxsize=512)
def _metaschema_problem(schema_json: str) -> str | None:
    jsonschema = _jsonschema()
    schema = json.loads(schema_json)
    try:
        jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator).check_schema(schema)
    except jsonschema.SchemaError as exc:
        return exc.message
    return None


def _jsonschema():
    import jsonschema  # where used: it costs the server's start-up 0.03 s

    return jsonschema


def parse_tool_definitions(raw: Any, max_chars: int) -> ToolSet:
    if isinstance(raw, dict) and isinstance(raw.get("tools"), list):  # a whole tools/list result
        raw = raw["tools"]
    if not isinstance(raw, list) or not raw:
        raise InputError(f"tools must be a non-empty list; expected {_SHAPE}")
    if len(json.dumps(raw)) > max_chars:
        raise InputError(f"tools is larger than {max_chars} characters; pass only the tools the plan uses")
    definitions = []
    for index, item in enumerate(raw):
        if isinstance(item, dict) and item.get("type") == "function" and isinstance(item.get("function"), dict):
            item = {**item["function"], "inputSchema": item["function"].get("parameters")}
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"]:
            raise InputError(f"tools[{index}] has no name; expected {_SHAPE}")
        schema = item.get("inputSchema", item.get("input_schema", item.get("parameters")))
        output_schema = item.get("outputSchema")
        for field, value in (("inputSchema", schema), ("outputSchema", output_schema)):
            if value is not None:
                _check_schema(value, f"tools[{index}] ({item['name']}): {field}")
        definition = {"name": item["name"], "description": str(item.get("description", ""))}
        if schema is not None:
            definition["inputSchema"] = schema
        if output_schema is not None:  # the shape of a result's structured content: the model answers in it
            definition["outputSchema"] = output_schema
        definitions.append(definition)
    return ToolSet(tuple(definitions))


def _check_schema(schema: Any, where: str) -> None:
    if not isinstance(schema, dict):
        raise InputError(f"{where} is not a JSON Schema: expected an object")
    problem = _metaschema_problem(json.dumps(schema, sort_keys=True))
    if problem is not None:
        raise InputError(f"{where} is not a JSON Schema: {problem}")
