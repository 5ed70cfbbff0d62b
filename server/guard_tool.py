"""The MCP surface of the guard: one tool an agent host calls before and after every real action.

Its reply is one text block holding the host's decision document, because that is what a host's
`mcp_tool` hook reads; nothing else goes with it.
"""

import json
from typing import Any

from mcp.server import MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations

from ..tools.context import ToolContext
from ..tools.guard import guard
from ..tools.guard_policy import GuardSettings
from ..tools.requests import GuardRequest
from .hosts.formats import render
from .signatures import request_signature


def register_guard(server: MCPServer, ctx: ToolContext, settings: GuardSettings) -> None:
    @server.tool(
        name="guard",
        # It records what really happened into the session's simulated world; it runs nothing real.
        annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=False, open_world_hint=False),
        description=(
            "For agent hosts' hooks: check a real tool call before it runs (event 'pre') and record its real output "
            "after (event 'post'). Zero-token rules decide first; a rule that needs the outcome has it predicted in "
            "the session's world. Replies with the host's decision document (format claude-code, cursor, gemini or "
            f"plain); {{}} is no decision. It never grants: deny or ask only. Answers within {settings.budget_seconds:g} s."
        ),
    )
    @request_signature(GuardRequest)
    async def guard_tool(**arguments: Any) -> CallToolResult:
        request = GuardRequest.model_validate(arguments)
        verdict = await guard(ctx, settings, request)
        return CallToolResult(content=[TextContent(type="text", text=json.dumps(render(request.format, verdict)))])
