"""The MCP surface: tool and resource registration over a ToolContext. No model logic lives here.

Each tool's parameters are its request model's fields (tools/requests.py, via signatures.py);
this module adds only what the running server knows: its domains and limits.
"""
# No `from __future__ import annotations` here: the SDK evaluates the handlers' annotations.


import dataclasses
import importlib.metadata
import json
import os
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, ToolAnnotations

from ..tools.checks import check_constraints
from ..tools.constraints import ConstraintReport
from ..tools.context import ToolContext
from ..tools.plan import dry_run_plan
from ..tools.requests import CheckRequest, PlanRequest, SimulateRequest
from ..tools.results import PlanResult, Prediction
from ..tools.simulate import simulate_action
from ..tools.guard import guard_sessions
from ..tools.guard_policy import GuardSettings
from .client_log import CLIENT_LOG
from .discovery import register_discovery
from .guard_tool import register_guard
from .http_serving import HttpOptions, StaticTokenVerifier, auth_settings
from .replies import reply
from .short_errors import ShortToolErrors
from .signatures import request_signature
from .world_tools import register_worlds

# A simulation never touches the real world: it only reads the model.
_SIMULATION = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
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
    details = _server_details(ctx)

    @server.tool(
        name="simulate_action",
        annotations=_SIMULATION,
        description=(
            "Predict the observation and effects of ONE action in a simulated environment, without running it. "
            f"Returns the observation in the environment's own format plus structured effects. "
            f"Limits: action {ctx.limits.max_action_chars} characters."
        ),
    )
    @request_signature(SimulateRequest, details)
    async def simulate_action_tool(**arguments: Any) -> Annotated[CallToolResult, Prediction]:
        prediction = await simulate_action(ctx, SimulateRequest.model_validate(arguments))
        return reply(prediction, _describe_prediction(prediction))

    @server.tool(
        name="dry_run_plan",
        annotations=_SIMULATION,
        description=(
            "Roll a whole plan forward through the simulated environment, step by step: each predicted "
            "observation becomes history for the next step. Nothing is executed. Returns every step's prediction "
            f"and a verdict (completed, or stopped at step k and why). Limits: {ctx.limits.max_plan_steps} steps."
        ),
    )
    @request_signature(PlanRequest, details)
    async def dry_run_plan_tool(*, context: Context, **arguments: Any) -> Annotated[CallToolResult, PlanResult]:
        answered = False

        async def progress(done: int, total: int, message: str) -> None:
            if not answered:  # a plan that became a job goes on after this request has been answered
                await context.report_progress(done, total, message)

        result = await dry_run_plan(ctx, PlanRequest.model_validate(arguments), on_progress=progress)
        answered = True
        return reply(result, _describe_plan(result))

    @server.tool(
        name="check_constraints",
        annotations=ToolAnnotations(
            read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
        ),
        description=(
            "Check rules against an action and, if given, its (predicted or real) outcome. Rules and patterns are "
            "decided deterministically in microseconds; judge constraints ask the world model and say so. Returns "
            "per constraint holds / violated / unknown (post rule without an observation) / error, and an overall flag."
        ),
    )
    @request_signature(CheckRequest, {"history": details["history"]})  # its domain and action read differently
    async def check_constraints_tool(**arguments: Any) -> Annotated[CallToolResult, ConstraintReport]:
        checked = await check_constraints(ctx, CheckRequest.model_validate(arguments))
        return reply(checked, _describe_report(checked))

    @server.resource("status://server", name="server status", mime_type="application/json")
    def status() -> str:
        """Model state, queue depth, waits, speed and request counts."""
        status = {"process_id": os.getpid(), **dataclasses.asdict(ctx.engine.stats())}
        if ctx.store is not None:  # each host session the guard has seen, and how far its predictions were
            status["guard_sessions"] = guard_sessions(ctx)
        return json.dumps(status, indent=2)

    register_discovery(server, ctx)
    register_worlds(server, ctx, details)
    register_guard(server, ctx, guard or GuardSettings())
    return server


def _server_details(ctx: ToolContext) -> dict[str, dict[str, Any]]:
    """What the published schemas add to the request models: this server's domains and limits.
    Fields not named by a model are skipped by it (simulate_action has no `steps`)."""
    limits = ctx.limits
    names = sorted(ctx.domains)
    domain_help = "The environment to simulate: " + "; ".join(f"{n} ({ctx.domains[n].summary})" for n in names)
    action_help = "The action as text. " + " ".join(f"{n}: {ctx.domains[n].action_format}" for n in names)
    return {
        "domain": {"description": domain_help + ". Leave it out when world_id is given.", "json_schema_extra": {"enum": names}},
        "action": {"description": action_help},
        "steps": {"description": "The plan: one action per step, in order. " + action_help},
        "history": {
            "description": "Turns already taken, oldest first, each {'action': ..., 'observation': ...} "
            f"(at most {limits.max_history_turns} turns, {limits.max_history_chars} characters in all)."
        },
        "max_tokens": {"description": f"Most tokens to generate per step (limit {limits.max_tokens})."},
        "budget_seconds": {
            "description": f"Seconds to wait before handing back a job id instead (default {ctx.budget_seconds:g}; "
            "hosts cut tool calls at about 60 s). Poll the job tool for the result."
        },
    }


def _describe_report(checked: ConstraintReport) -> str:
    counts: dict[str, int] = {}
    for result in checked.results:
        counts[result.status] = counts.get(result.status, 0) + 1
    head = "VIOLATED" if checked.violated else "No error-severity violation"
    lines = [f"{head}: " + ", ".join(f"{n} {status}" for status, n in counts.items())]
    lines += [f"- {r.id} ({r.severity}): {r.status}: {r.reason}" for r in checked.results if r.status != "holds"]
    return "\n".join(lines)


def _describe_prediction(prediction: Prediction) -> str:
    if prediction.job_id:
        return f"Still running after the call budget: poll the job tool with job_id {prediction.job_id!r}."
    if prediction.blocked:
        return f"Blocked: {prediction.blocked}"
    if prediction.parse_error:
        return f"No usable prediction: {prediction.parse_error}."
    effects = prediction.effects
    outcome = {True: "succeeds", False: "fails", None: "outcome unclear"}[effects.success]
    extra = f" ({effects.error})" if effects.error else ""
    return f"Predicted: the action {outcome}{extra}.\n{prediction.observation}"


def _describe_plan(result: PlanResult) -> str:
    lines = [
        f"step {s.step}: {_describe_prediction(s.prediction).splitlines()[0]}" for s in result.steps
    ]
    verdict = result.verdict
    if verdict.status == "running":
        return f"{len(result.steps)} steps done; still running: poll the job tool with job_id {result.job_id!r}."
    head = (
        f"Plan completed in simulation ({len(result.steps)} steps)."
        if verdict.status == "completed"
        else f"Plan stopped at step {verdict.stopped_at}: {verdict.reason}"
    )
    return "\n".join([head, *lines])


def register_health(server: MCPServer, ctx: ToolContext) -> None:
    """GET /health, without a token (load balancers have none): whether the model is ready, nothing more."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse

    @server.custom_route("/health", methods=["GET"], include_in_schema=False)
    async def health(_request: Request) -> JSONResponse:
        state = ctx.engine.stats().state
        return JSONResponse({"status": "ok" if state == "ready" else state}, status_code=200 if state != "failed" else 503)
