"""The MCP surface of worlds and jobs: one `world` tool, one `job` tool, and read-only resources.

One tool per concept rather than one per operation: agents pay for every tool in their context.
"""

import json
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.types import CallToolResult, ToolAnnotations

from ..engine.errors import AgentWorldError
from ..tools.context import ToolContext
from ..tools.jobs import follow_job
from ..tools.requests import JobRequest, WorldRequest
from ..tools.results import JobStatus, WorldView
from ..tools.worlds import world_listing, world_operation, world_view
from .replies import reply
from .signatures import request_signature


def register_worlds(server: MCPServer, ctx: ToolContext, details: dict[str, dict[str, Any]]) -> None:
    """`details`: the server's additions to the request models' schemas (see app.py)."""
    @server.tool(
        name="world",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
        ),
        description=(
            "Keep a simulated world on the server so later calls send only actions. Operations: "
            "open (domain, task, state, tools, history: returns world_id); fork (world_id, step: a what-if branch "
            "sharing the past up to that step); rewind (world_id, step: keep that many steps); record (world_id, "
            "action, observation: what REALLY happened after you ran the action; the world continues from reality "
            "and reports how far the prediction was, its drift); close; get. Step a world with "
            "simulate_action(world_id=..., commit=true). Changes only the server's simulated state."
        ),
    )
    @request_signature(WorldRequest, {"history": details["history"]})
    async def world_tool(**arguments: Any) -> Annotated[CallToolResult, WorldView]:
        request = WorldRequest.model_validate(arguments)
        view = await world_operation(ctx, request)
        return reply(view, _describe(request.operation, view))

    @server.tool(
        name="job",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False),
        description=(
            "Follow a call that outlived its budget and returned a job_id: its progress, the result so far and the "
            "final result (wait_seconds waits for news, at most the call budget); cancel=true stops its model work."
        ),
    )
    @request_signature(JobRequest)
    async def job_tool(**arguments: Any) -> Annotated[CallToolResult, JobStatus]:
        status = await follow_job(ctx, JobRequest.model_validate(arguments))
        progress = status.progress or {}
        text = f"job {status.job_id}: {status.status}" + (
            f" ({progress.get('done')}/{progress.get('total')} steps)" if progress else ""
        ) + (f": {status.error}" if status.error else "")
        return reply(status, text)

    @server.resource("world://list", name="worlds", mime_type="application/json")
    def list_worlds() -> str:
        """The most recent worlds with their step counts."""
        return json.dumps(world_listing(ctx) if ctx.store else [], indent=2)

    @server.resource("world://{world_id}", name="world", mime_type="application/json")
    def read_world(world_id: str) -> str:
        """One world: its history, where it forked from, and its drift from reality."""
        try:
            return world_view(ctx, world_id).model_dump_json(indent=2)
        except AgentWorldError as exc:
            raise ResourceError(str(exc)) from None


def _describe(operation: str, view: WorldView) -> str:
    head = f"world {view.world_id} ({view.domain}): {len(view.steps)} steps" + (", closed" if view.closed else "")
    if operation == "record" and view.recorded is not None:
        recorded = view.recorded
        if recorded.anchored:
            head += f"; step {recorded.step} anchored to reality, similarity {recorded.similarity:.2f}"
        else:
            head += f"; real step {recorded.step} appended (no prediction to compare)"
    if view.drift.mean_similarity is not None:
        head += f"; mean similarity to reality {view.drift.mean_similarity:.2f} over {view.drift.compared_steps} steps"
    return head
