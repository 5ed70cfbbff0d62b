"""The MCP surface of worlds and jobs: one `world` tool, one `job` tool, and read-only resources.

One tool per concept rather than one per operation: agents pay for every tool in their context.
"""

import json
from typing import Annotated, Any, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from ..tools.context import ToolContext
from ..tools.results import JobStatus, WorldView
from ..tools.worlds import close_world, fork_world, open_world, record_reality, rewind_world, world_listing, world_view
from .replies import reply

_OPERATIONS = "open | fork | rewind | record | close | get"


def register_worlds(server: MCPServer, ctx: ToolContext, History: Any, Tools: Any) -> None:
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
    async def world_tool(
        operation: Annotated[Literal["open", "fork", "rewind", "record", "close", "get"], Field(description=_OPERATIONS)],
        world_id: Annotated[str, Field(description="The world, for every operation but open.")] = "",
        domain: Annotated[str, Field(description="open: the domain; record: optional check of the world's domain.")] = "",
        task: Annotated[str, Field(description="open: what the agent is trying to achieve.")] = "",
        state: Annotated[str, Field(description="open: the initial state; empty uses the domain's.")] = "",
        tools: Tools = None,
        history: History = [],  # noqa: B006 - never mutated
        step: Annotated[int | None, Field(description="fork/rewind: the step to keep up to (0: none).", ge=0)] = None,
        action: Annotated[str, Field(description="record: the action that was really executed.")] = "",
        observation: Annotated[str, Field(description="record: the real observation it produced.")] = "",
    ) -> Annotated[CallToolResult, WorldView]:
        if operation != "open" and not world_id:
            raise ToolError(f"operation {operation!r} needs world_id")
        if operation == "open":
            if not domain:
                raise ToolError("open needs domain")
            view = open_world(ctx, domain, task, state, tools, history)
        elif operation == "fork":
            view = await fork_world(ctx, world_id, step)
        elif operation == "rewind":
            view = await rewind_world(ctx, world_id, step)
        elif operation == "record":
            view = await record_reality(ctx, world_id, action, observation, domain)
        elif operation == "close":
            view = await close_world(ctx, world_id)
        else:
            view = world_view(ctx, world_id)
        return reply(view, _describe(operation, view))

    @server.tool(
        name="job",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False),
        description=(
            "Follow a call that outlived its budget and returned a job_id: its progress, the result so far and the "
            "final result (wait_seconds waits for news, at most the call budget); cancel=true stops its model work."
        ),
    )
    async def job_tool(
        job_id: Annotated[str, Field(description="The job_id a simulate_action or dry_run_plan call returned.")],
        wait_seconds: Annotated[float, Field(description="Wait up to this long for the job to finish.", ge=0)] = 0.0,
        cancel: Annotated[bool, Field(description="Stop the job.")] = False,
    ) -> Annotated[CallToolResult, JobStatus]:
        if ctx.jobs is None:
            raise ToolError("this server runs without a job store; start it with a --data-dir")
        status = await ctx.jobs.status(job_id, min(wait_seconds, ctx.budget_seconds), cancel)
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
        except ToolError as exc:
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
