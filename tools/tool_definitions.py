"""The tools of a simulated MCP server: accepted in the shapes agents have at hand, checked once.

An agent rehearsing against an MCP server passes that server's `tools/list` result (the `tools`
array, or the whole result), or plain JSON schemas in the OpenAI function shape. Calls to an
unknown tool, or arguments that break the tool's input schema, are answered here at once and for
certain: the model is not asked to guess what a schema check would say.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError

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

    def check_call(self, action: str, where: str) -> None:
        """`action` is the mcp domain's canonical `{"name": ..., "arguments": {...}}`."""
        call = json.loads(action)
        definition = next((d for d in self.definitions if d["name"] == call["name"]), None)
        if definition is None:
            raise ToolError(
                f"{where}: the simulated server has no tool {call['name']!r}; its tools: {', '.join(self.names)}"
            )
        schema = definition.get("inputSchema")
        if schema:
            import jsonschema  # where used, as below: it costs the server's start-up 0.03 s

            error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(call["arguments"]))
            if error is not None:
                path = "/".join(str(part) for part in error.absolute_path) or "arguments"
                raise ToolError(f"{where}: arguments for {call['name']!r} break its input schema at {path}: {error.message}")


def parse_tool_definitions(raw: Any, max_chars: int) -> ToolSet:
    if isinstance(raw, dict) and isinstance(raw.get("tools"), list):  # a whole tools/list result
        raw = raw["tools"]
    if not isinstance(raw, list) or not raw:
        raise ToolError(f"tools must be a non-empty list; expected {_SHAPE}")
    if len(json.dumps(raw)) > max_chars:
        raise ToolError(f"tools is larger than {max_chars} characters; pass only the tools the plan uses")
    definitions = []
    for index, item in enumerate(raw):
        if isinstance(item, dict) and item.get("type") == "function" and isinstance(item.get("function"), dict):
            item = {**item["function"], "inputSchema": item["function"].get("parameters")}
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"]:
            raise ToolError(f"tools[{index}] has no name; expected {_SHAPE}")
        schema = item.get("inputSchema", item.get("input_schema", item.get("parameters")))
        if schema is not None:
            import jsonschema

            try:
                jsonschema.Draft202012Validator.check_schema(schema)
            except jsonschema.SchemaError as exc:
                raise ToolError(f"tools[{index}] ({item['name']}): inputSchema is not a JSON Schema: {exc.message}") from None
        definition = {"name": item["name"], "description": str(item.get("description", ""))}
        if schema is not None:
            definition["inputSchema"] = schema
        definitions.append(definition)
    return ToolSet(tuple(definitions))
