"""MCP tool signatures derived from the request models (tools/requests.py).

The SDK builds a tool's input schema from its handler's signature (`inspect.signature`, which
honours `__signature__`) and injects the Context by the handler's annotations. A handler written
as `async def tool(**arguments)` gets one flat, typed keyword parameter per request field, so
the published schema stays flat (no $ref) and the request model stays the only statement of the
arguments. `details` adds what only the running server knows: its domains, its limits.

It is also the edge where the project's errors become the SDK's: an AgentWorldError reaches the
agent as a ToolError with its message; anything else stays a crash the SDK reports as such.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult
from pydantic import BaseModel, Field

from ...engine.errors import AgentWorldError

Handler = TypeVar("Handler", bound=Callable[..., Any])


def field_parameters(model: type[BaseModel], details: Mapping[str, Mapping[str, Any]]) -> list[inspect.Parameter]:
    """One keyword parameter per field, required ones first; `details[name]` replaces the field's
    `description` and `json_schema_extra` for this server (names the model lacks are skipped, so
    one mapping serves several tools)."""
    parameters = []
    for name, field in model.model_fields.items():
        extra = details.get(name, {})
        unknown = set(extra) - {"description", "json_schema_extra"}
        if unknown:
            raise TypeError(f"{model.__name__}.{name}: unsupported detail {sorted(unknown)[0]!r}")
        info = Field(
            description=extra.get("description", field.description),
            json_schema_extra=extra.get("json_schema_extra", field.json_schema_extra),
        )
        # field.metadata holds the bounds (ge, le, ...), which pydantic keeps apart from the description.
        annotation = Annotated[(field.annotation, *field.metadata, info)]  # type: ignore[name-defined]  # built at run time
        default = inspect.Parameter.empty if field.is_required() else field.get_default(call_default_factory=True)
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation))
    return sorted(parameters, key=lambda p: p.default is not inspect.Parameter.empty)


def request_signature(
    model: type[BaseModel], details: Mapping[str, Mapping[str, Any]] | None = None, returns: type[BaseModel] | None = None
):
    """Decorate `async def handler(*, context: Context, **arguments)`: the SDK sees the model's
    fields as parameters; the handler's own keyword parameters (the Context) are kept. `returns`:
    the result model, published as the tool's output schema (None: a reply of text only)."""

    def decorate(handler: Handler) -> Handler:
        own = inspect.signature(handler)
        kept = [p for p in own.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        clash = {p.name for p in kept} & set(model.model_fields)
        if clash:
            raise TypeError(f"{handler.__name__}: parameter {sorted(clash)[0]!r} is also a request field")
        fields = field_parameters(model, details or {})

        @functools.wraps(handler)
        async def tool(**arguments: Any) -> Any:
            try:
                return await handler(**arguments)
            except AgentWorldError as exc:
                raise ToolError(str(exc)) from None

        result = Annotated[CallToolResult, returns] if returns is not None else CallToolResult
        tool.__signature__ = own.replace(parameters=[*fields, *kept], return_annotation=result)  # type: ignore[attr-defined]
        return tool  # type: ignore[return-value]

    return decorate
