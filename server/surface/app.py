"""The MCP surface: registration only, one call per tool of the registry (tool_registry.py), plus
the resources. No model logic lives here.

Each tool's parameters are its request model's fields (tools/requests.py, via signatures.py);
this module adds only what the running server knows: its domains and limits.
"""
# No `from __future__ import annotations` here: the SDK evaluates the handlers' annotations.


import dataclasses
import importlib.metadata
import json
import os
import socket
from typing import Any
from urllib.parse import urlparse
from urllib.request import url2pathname

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, TextContent, ToolAnnotations

from ...tools.context import ToolContext
from ...tools.guard.guard import guard_sessions
from ...tools.guard.policy import GuardSettings
from ..tool_registry import TOOLS, CallOptions, Tool
from .client_log import CLIENT_LOG
from .discovery import register_discovery
from .http_serving import HttpOptions, StaticTokenVerifier, auth_settings
from .replies import reply
from .short_errors import ShortToolErrors
from .signatures import request_signature
from .world_resources import register_world_resources

_INSTRUCTIONS = (
    "agentworld-mcp predicts what an action would do before you take it, using a language world model. "
    "Call simulate_action for one risky step, dry_run_plan for a whole plan; nothing real is executed. "
    "Predictions can be wrong: treat them as a rehearsal, not as the truth. status://server shows the load."
)


def create_server(ctx: ToolContext, http: HttpOptions | None = None, guard: GuardSettings | None = None) -> MCPServer:
    """An MCP server over an engine that the caller owns (starts and closes). `http`: served over
    HTTP with these options; with a token, every MCP request must carry it. `guard`: the guard
    tool's policy, budget and fallback (default: each domain's presets)."""
    token = http.auth_token if http is not None else None
    server = MCPServer(
        "agentworld-mcp",
        version=importlib.metadata.version("agentworld-mcp"),
        instructions=_INSTRUCTIONS,
        token_verifier=StaticTokenVerifier(token) if token else None,
        auth=auth_settings(http) if http is not None and token else None,
        middleware=[ShortToolErrors()],
    )
    CLIENT_LOG.register(server)
    if http is not None:
        register_health(server, ctx)
        ctx.working_dir = ""  # over HTTP a client is not on this machine: only --allow-dir folders are visible
    details = _server_details(ctx)
    for tool in TOOLS:
        _register(server, ctx, tool, details, guard or GuardSettings())

    @server.resource("status://server", name="server status", mime_type="application/json")
    def status() -> str:
        """Model state, queue depth, waits, speed and request counts."""
        status = {"process_id": os.getpid(), **dataclasses.asdict(ctx.engine.stats()),
                  "steps": dict(ctx.steps_served)}  # computed by the virtual shell, or predicted by the model
        if ctx.store is not None:  # each host session the guard has seen, and how far its predictions were
            status["store"] = ctx.store.where  # which store this replica shares (a URL shows no password)
            status["replica"] = f"{socket.gethostname()}:{os.getpid()}"  # which of the store's servers answers
            status["guard_sessions"] = guard_sessions(ctx)
        return json.dumps(status, indent=2)

    register_discovery(server, ctx)
    register_world_resources(server, ctx)
    return server


def _register(server: MCPServer, ctx: ToolContext, tool: Tool, details: dict[str, dict[str, Any]],
              guard: GuardSettings) -> None:
    hints = tool.hints
    annotations = ToolAnnotations(read_only_hint=hints.read_only, destructive_hint=hints.destructive,
                                  idempotent_hint=hints.idempotent, open_world_hint=hints.open_world)

    @server.tool(name=tool.name, annotations=annotations, description=tool.describe(ctx, guard))
    @request_signature(tool.request, {name: details[name] for name in tool.details},
                       returns=tool.result if tool.structured else None)
    async def handler(*, context: Context, **arguments: Any) -> CallToolResult:
        request = tool.request.model_validate(arguments)
        answered = False
        call_ctx = await _with_roots(ctx, context) if getattr(request, "from_dir", "") else ctx

        async def progress(done: int, total: int, message: str) -> None:
            if not answered:  # a call that became a job goes on after this request has been answered
                await context.report_progress(done, total, message)

        result = await tool.run(call_ctx, request, CallOptions(on_progress=progress, guard=guard))
        answered = True
        text = tool.summary(request, result)
        return reply(result, text) if tool.structured else CallToolResult(content=[TextContent(text=text)])


async def _with_roots(ctx: ToolContext, context: Context) -> ToolContext:
    """The context of a call that snapshots a real folder: the client's declared roots are visible too."""
    capabilities = context.session.client_params.capabilities if context.session.client_params else None
    if capabilities is None or capabilities.roots is None:
        return ctx
    try:
        listed = await context.session.list_roots()
    except Exception:  # a client that declared roots but cannot list them: no roots
        return ctx
    roots = tuple(url2pathname(urlparse(str(root.uri)).path) for root in listed.roots
                  if str(root.uri).startswith("file://"))
    return dataclasses.replace(ctx, allow_dirs=(*ctx.allow_dirs, *roots))


def _server_details(ctx: ToolContext) -> dict[str, dict[str, Any]]:
    """What the published schemas add to the request models: this server's domains and limits."""
    limits = ctx.limits
    names = sorted(ctx.domains)
    domain_help = "The environment to simulate: " + "; ".join(f"{n} ({ctx.domains[n].summary})" for n in names)
    action_help = "The action as text. " + " ".join(f"{n}: {ctx.domains[n].action_format}" for n in names)
    return {
        "domain": {"description": domain_help + ". Leave it out when world_id is given.", "json_schema_extra": {"enum": names}},
        "action": {"description": action_help},
        "steps": {"description": "The plan: one action per step, in order. " + action_help},
        "history": {
            "description": "Turns already taken, oldest first, each {'action': ..., 'observation': ...}; a turn the "
            "world predicted rather than saw happen may say {'source': 'predicted'}, so its facts are never taken as "
            f"exact (at most {limits.max_history_turns} turns, {limits.max_history_chars} characters in all)."
        },
        "max_tokens": {"description": f"Most tokens to generate per step (limit {limits.max_tokens})."},
        "budget_seconds": {
            "description": f"Seconds to wait before handing back a job id instead (default {ctx.budget_seconds:g}; "
            "hosts cut tool calls at about 60 s). Poll the job tool for the result."
        },
    }


def register_health(server: MCPServer, ctx: ToolContext) -> None:
    """GET /health, without a token (load balancers have none): whether the model is ready, nothing more."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse

    @server.custom_route("/health", methods=["GET"], include_in_schema=False)
    async def health(_request: Request) -> JSONResponse:
        state = ctx.engine.stats().state
        return JSONResponse({"status": "ok" if state == "ready" else state}, status_code=200 if state != "failed" else 503)
