"""The twin's MCP surface: the real server's tools, verbatim, plus two read-only resources.

Built on the SDK's low-level server: the tools are data read from another server, not Python
functions, so their schemas pass through exactly as the real server wrote them.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from typing import Any

from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INVALID_PARAMS,
    CallToolRequestParams,
    CallToolResult,
    ListResourcesResult,
    ListToolsResult,
    ReadResourceRequestParams,
    ReadResourceResult,
    Resource,
    TextResourceContents,
)

from ...tools.worlds.worlds import world_view
from ..surface.http_serving import HttpOptions
from .twin import Twin, TwinOptions

STATUS_URI = "status://server"
REPORT_URI = "twin://report"

log = logging.getLogger("agentworld_mcp.twin")


def create_twin_server(twin: Twin) -> Server:
    real = twin.real.info

    async def list_tools(_ctx: Any, _params: Any) -> ListToolsResult:
        return ListToolsResult(tools=twin.tools)

    async def call_tool(_ctx: Any, params: CallToolRequestParams) -> CallToolResult:
        return await twin.call(params.name, params.arguments or {})

    async def list_resources(_ctx: Any, _params: Any) -> ListResourcesResult:
        return ListResourcesResult(resources=[
            Resource(uri=STATUS_URI, name="server status", mime_type="application/json",
                     description="The world model's load and this twin's calls, shadow similarity and drift."),
            Resource(uri=REPORT_URI, name="twin report", mime_type="application/json",
                     description="How this twin answered: calls by route; in shadow mode each prediction's "
                                 "similarity to reality and whether it foresaw errors; the world's drift."),
            Resource(uri=f"world://{twin.world_id}", name="twin world", mime_type="application/json",
                     description="The world behind this twin: every call, predicted or real, and its drift."),
        ])

    async def read_resource(_ctx: Any, params: ReadResourceRequestParams) -> ReadResourceResult:
        if params.uri == REPORT_URI:
            document = twin.report()
        elif params.uri == STATUS_URI:
            document = {"process_id": os.getpid(), **dataclasses.asdict(twin.ctx.engine.stats()), "twin": twin.report()}
        elif params.uri == f"world://{twin.world_id}":
            document = world_view(twin.ctx, twin.world_id).model_dump(mode="json")
        else:
            raise MCPError(INVALID_PARAMS, f"unknown resource {params.uri!r}; see resources/list")
        text = json.dumps(document, indent=2)
        return ReadResourceResult(contents=[TextResourceContents(uri=params.uri, mime_type="application/json", text=text)])

    return Server(
        real.name,
        version=real.version,
        title=f"{real.title or real.name} (agentworld twin, {twin.options.mode})",
        instructions=twin.real.instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )


async def serve_twin(ctx: Any, real: Any, options: TwinOptions, http: HttpOptions | None) -> None:
    """Start the twin of `real` and serve it over stdio, or HTTP with `http`, until the client goes."""
    async with Twin(ctx, real, options) as twin:
        server = create_twin_server(twin)
        log.info("twin of %s (%s mode) in world %s", real.info.name, options.mode, twin.world_id)
        if http is None:
            from mcp.server.stdio import stdio_server

            async with stdio_server() as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())
        else:
            await _serve_http(server, http)


async def _serve_http(server: Any, http: HttpOptions) -> None:
    import uvicorn

    from ..surface.http_serving import StaticTokenVerifier, auth_settings, transport_security

    app = server.streamable_http_app(
        stateless_http=http.stateless,
        max_request_body_size=http.max_body_bytes,
        transport_security=transport_security(http),
        host=http.host,
        token_verifier=StaticTokenVerifier(http.auth_token) if http.auth_token else None,
        auth=auth_settings(http) if http.auth_token else None,
    )
    await uvicorn.Server(uvicorn.Config(app, host=http.host, port=http.port, log_level="warning")).serve()
