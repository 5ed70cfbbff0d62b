"""The one list of tools. Each entry names what a front end needs: the request and result models,
the function that runs the tool, its MCP annotations, its description (with this server's limits)
and how its result reads as text.

The MCP surface (surface/app.py), the Python API and batch (api/), and the CLI's simulate and plan
(cli/one_shot.py) are derived from it, and a test pins that each of them offers every tool here. A
new tool is one entry, plus its request model (tools/requests.py) and its function (tools/).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from ..tools.constraints import ConstraintReport
from ..tools.context import ToolContext
from ..tools.guard.guard import guard
from ..tools.guard.policy import GuardSettings, GuardVerdict
from ..tools.jobs import follow_job
from ..tools.requests import (
    CheckRequest,
    GuardRequest,
    JobRequest,
    PlanRequest,
    SimulateRequest,
    ToolRequest,
    WorldRequest,
)
from ..tools.results import JobStatus, PlanResult, Prediction, WorldView
from ..tools.simulation.checks import check_constraints
from ..tools.simulation.plan import ProgressCallback, dry_run_plan
from ..tools.simulation.simulate import simulate_action
from ..tools.worlds.worlds import world_operation
from . import summaries


@dataclass(frozen=True)
class Hints:
    """MCP's tool annotations, in the protocol's terms (the MCP layer turns them into the SDK's)."""

    read_only: bool
    destructive: bool = False
    idempotent: bool = False
    open_world: bool = False


@dataclass(frozen=True)
class CallOptions:
    """What a front end hands a call besides its request: where progress goes, the guard's policy."""

    on_progress: ProgressCallback | None = None
    guard: GuardSettings = field(default_factory=GuardSettings)


@dataclass(frozen=True)
class Tool:
    name: str
    request: type[ToolRequest]
    result: type[BaseModel]
    run: Callable[[ToolContext, Any, CallOptions], Awaitable[BaseModel]]
    hints: Hints
    describe: Callable[[ToolContext, GuardSettings], str]  # the description, with this server's limits
    summary: Callable[[Any, Any], str]  # (request, result): the reply's text
    details: tuple[str, ...] = ()  # request fields whose published description this server fills in
    structured: bool = True  # the reply carries the result as structured content (outputSchema)


# A simulation never touches the real world: it only reads the model.
_SIMULATION = Hints(read_only=True)

TOOLS: tuple[Tool, ...] = (
    Tool(
        "simulate_action", SimulateRequest, Prediction,
        lambda ctx, request, _: simulate_action(ctx, request),
        _SIMULATION,
        lambda ctx, _: (
            "Predict the observation and effects of ONE action in a simulated environment, without running it. "
            "Returns the observation in the environment's own format plus structured effects. "
            f"Limits: action {ctx.limits.max_action_chars} characters."),
        lambda _request, prediction: summaries.prediction_text(prediction),
        details=("domain", "action", "history", "max_tokens", "budget_seconds"),
    ),
    Tool(
        "dry_run_plan", PlanRequest, PlanResult,
        lambda ctx, request, options: dry_run_plan(ctx, request, options.on_progress),
        _SIMULATION,
        lambda ctx, _: (
            "Roll a whole plan forward through the simulated environment, step by step: each predicted "
            "observation becomes history for the next step. Nothing is executed. Returns every step's prediction "
            f"and a verdict (completed, or stopped at step k and why). Limits: {ctx.limits.max_plan_steps} steps."),
        summaries.plan_request_text,
        details=("domain", "steps", "history", "max_tokens", "budget_seconds"),
    ),
    Tool(
        "check_constraints", CheckRequest, ConstraintReport,
        lambda ctx, request, _: check_constraints(ctx, request),
        Hints(read_only=True, idempotent=True),
        lambda ctx, _: (
            "Check rules against an action and, if given, its (predicted or real) outcome. Rules and patterns are "
            "decided deterministically in microseconds; judge constraints ask the world model and say so. Returns "
            "per constraint holds / violated / unknown (post rule without an observation) / error, and an overall flag."),
        lambda _request, report: summaries.report_text(report),
        details=("history",),  # its domain and action read differently from a simulation's
    ),
    Tool(
        "world", WorldRequest, WorldView,
        lambda ctx, request, _: world_operation(ctx, request),
        Hints(read_only=False),
        lambda ctx, _: (
            "Keep a simulated world on the server so later calls send only actions. Operations: "
            "open (domain, task, state, tools, history: returns world_id); fork (world_id, step: a what-if branch "
            "sharing the past up to that step); rewind (world_id, step: keep that many steps); record (world_id, "
            "action, observation: what REALLY happened after you ran the action; the world continues from reality "
            "and reports how far the prediction was, its drift); close; get. Step a world with "
            "simulate_action(world_id=..., commit=true). Changes only the server's simulated state."),
        summaries.world_request_text,
        details=("history",),
    ),
    Tool(
        "job", JobRequest, JobStatus,
        lambda ctx, request, _: follow_job(ctx, request),
        Hints(read_only=False),
        lambda ctx, _: (
            "Follow a call that outlived its budget and returned a job_id: its progress, the result so far and the "
            "final result (wait_seconds waits for news, at most the call budget); cancel=true stops its model work."),
        lambda _request, status: summaries.job_text(status),
    ),
    Tool(
        "guard", GuardRequest, GuardVerdict,
        lambda ctx, request, options: guard(ctx, options.guard, request),
        # It records what really happened into the session's simulated world; it runs nothing real.
        Hints(read_only=True),
        lambda ctx, settings: (
            "For agent hosts' hooks: check a real tool call before it runs (event 'pre') and record its real output "
            "after (event 'post'). Zero-token rules decide first; a rule that needs the outcome has it predicted in "
            "the session's world. Replies with the host's decision document (format claude-code, cursor, gemini or "
            f"plain); {{}} is no decision. It never grants: deny or ask only. Answers within {settings.budget_seconds:g} s."),
        summaries.guard_text,
        # A host's `mcp_tool` hook reads the decision document from the text, and nothing else goes with it.
        structured=False,
    ),
)

BY_NAME: dict[str, Tool] = {tool.name: tool for tool in TOOLS}
BY_REQUEST: dict[type[ToolRequest], Tool] = {tool.request: tool for tool in TOOLS}
