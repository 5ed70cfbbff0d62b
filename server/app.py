"""The MCP surface: tool and resource registration over a ToolContext. No model logic lives here."""
# No `from __future__ import annotations` here: the SDK evaluates the tool signatures, which use local aliases.


import dataclasses
import importlib.metadata
import json
import os
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from ..tools.checks import check_constraints
from ..tools.constraints import ConstraintReport
from ..tools.context import ToolContext
from .discovery import register_discovery
from .replies import reply
from .world_tools import register_worlds
from ..tools.plan import dry_run_plan
from ..tools.results import PlanResult, Prediction
from ..tools.simulate import SamplingOverrides, simulate_action

# A simulation never touches the real world: it only reads the model.
_SIMULATION = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
_INSTRUCTIONS = (
    "agentworld-mcp predicts what an action would do before you take it, using a language world model. "
    "Call simulate_action for one risky step, dry_run_plan for a whole plan; nothing real is executed. "
    "Predictions can be wrong: treat them as a rehearsal, not as the truth. status://server shows the load."
)


def create_server(ctx: ToolContext) -> MCPServer:
    """An MCP server over an engine that the caller owns (starts and closes)."""
    server = MCPServer(
        "agentworld-mcp", version=importlib.metadata.version("agentworld-mcp"), instructions=_INSTRUCTIONS
    )
    limits = ctx.limits
    names = sorted(ctx.domains)
    domain_help = "The environment to simulate: " + "; ".join(f"{n} ({ctx.domains[n].summary})" for n in names)
    action_help = "The action as text. " + " ".join(f"{n}: {ctx.domains[n].action_format}" for n in names)

    Domain = Annotated[
        str | None,
        Field(description=domain_help + ". Leave it out when world_id is given.", json_schema_extra={"enum": names}),
    ]
    History = Annotated[
        list[dict[str, str]],
        Field(
            description=f"Turns already taken, oldest first, each {{'action': ..., 'observation': ...}} "
            f"(at most {limits.max_history_turns} turns, {limits.max_history_chars} characters in all).",
        ),
    ]
    State = Annotated[
        str,
        Field(description="The current state/screen if known; empty uses the domain's plausible initial state."),
    ]
    Task = Annotated[str, Field(description="What the agent is trying to achieve (optional context).")]
    Tools = Annotated[
        list[dict[str, Any]] | None,
        Field(
            description="Domain mcp only: the tool definitions of the MCP server to simulate, i.e. the `tools` array "
            "of its tools/list result ({name, description, inputSchema} each)."
        ),
    ]
    Temperature = Annotated[float | None, Field(description="Sampling temperature; 0 is greedy.", ge=0, le=2)]
    MaxTokens = Annotated[
        int | None, Field(description=f"Most tokens to generate per step (limit {limits.max_tokens}).", ge=1)
    ]
    Seed = Annotated[int | None, Field(description="Seed for reproducible sampling.", ge=0)]
    ThinkingBudget = Annotated[
        int | None,
        Field(description="Reasoning models: most tokens to think before the observation (default 3/4 of max_tokens).", ge=1),
    ]
    Reasoning = Annotated[bool, Field(description="Also return the model's reasoning, if it produced any.")]
    Constraints = Annotated[
        list[dict[str, Any]],
        Field(
            description="Rules that must not be broken, each {id, kind, expr | pattern | text, target, phase, severity}. "
            "kind 'rule': expr is a CEL expression that must be true, over action, parsed, observation, effects, step, "
            "domain, history. kind 'pattern': a regex (syntax 'glob' for a glob) that is forbidden in target 'action' "
            "or 'observation'. kind 'judge': text is a plain-language rule the world model decides. phase 'pre' runs "
            "before simulating (no tokens), 'post' on the prediction; severity 'error' (default) or 'warning'."
        ),
    ]
    Presets = Annotated[
        list[str],
        Field(description="Names of the domain's constraint presets to apply (listed in the domains://{name} resource)."),
    ]
    WorldId = Annotated[
        str,
        Field(description="Simulate inside a world opened with the world tool; it supplies domain, history, state and tools."),
    ]
    Commit = Annotated[bool, Field(description="With world_id: append the predicted step(s) to the world.")]
    Budget = Annotated[
        float | None,
        Field(
            description=f"Seconds to wait before handing back a job id instead (default {ctx.budget_seconds:g}; "
            "hosts cut tool calls at about 60 s). Poll the job tool for the result.",
            ge=1,
            le=3600,
        ),
    ]
    StopOnViolation = Annotated[
        bool, Field(description="Stop at the first violated constraint of severity error (pre ones before any model call).")
    ]

    @server.tool(
        name="simulate_action",
        annotations=_SIMULATION,
        description=(
            "Predict the observation and effects of ONE action in a simulated environment, without running it. "
            f"Returns the observation in the environment's own format plus structured effects. "
            f"Limits: action {limits.max_action_chars} characters."
        ),
    )
    async def simulate_action_tool(
        action: Annotated[str, Field(description=action_help)],
        domain: Domain = None,
        history: History = [],  # noqa: B006 - never mutated; the schema shows the default
        state: State = "",
        task: Task = "",
        tools: Tools = None,
        constraints: Constraints = [],  # noqa: B006
        presets: Presets = [],  # noqa: B006
        stop_on_violation: StopOnViolation = True,
        world_id: WorldId = "",
        commit: Commit = False,
        budget_seconds: Budget = None,
        temperature: Temperature = None,
        max_tokens: MaxTokens = None,
        seed: Seed = None,
        thinking_budget: ThinkingBudget = None,
        include_reasoning: Reasoning = False,
    ) -> Annotated[CallToolResult, Prediction]:
        prediction = await simulate_action(
            ctx,
            domain or "",
            action,
            history=history,
            state=state,
            task=task,
            tools=tools,
            overrides=SamplingOverrides(temperature, max_tokens, seed, thinking_budget),
            include_reasoning=include_reasoning,
            constraints=constraints,
            presets=presets,
            stop_on_violation=stop_on_violation,
            world_id=world_id,
            commit=commit,
            budget_seconds=budget_seconds,
        )
        return reply(prediction, _describe_prediction(prediction))

    @server.tool(
        name="dry_run_plan",
        annotations=_SIMULATION,
        description=(
            "Roll a whole plan forward through the simulated environment, step by step: each predicted "
            "observation becomes history for the next step. Nothing is executed. Returns every step's prediction "
            f"and a verdict (completed, or stopped at step k and why). Limits: {limits.max_plan_steps} steps."
        ),
    )
    async def dry_run_plan_tool(
        steps: Annotated[list[str], Field(description="The plan: one action per step, in order. " + action_help)],
        context: Context,
        domain: Domain = None,
        history: History = [],  # noqa: B006
        state: State = "",
        task: Task = "",
        stop_on_error: Annotated[bool, Field(description="Stop at the first step predicted to fail.")] = False,
        tools: Tools = None,
        constraints: Constraints = [],  # noqa: B006
        presets: Presets = [],  # noqa: B006
        stop_on_violation: StopOnViolation = True,
        world_id: WorldId = "",
        commit: Commit = False,
        budget_seconds: Budget = None,
        temperature: Temperature = None,
        max_tokens: MaxTokens = None,
        seed: Seed = None,
        thinking_budget: ThinkingBudget = None,
        include_reasoning: Reasoning = False,
    ) -> Annotated[CallToolResult, PlanResult]:
        answered = False

        async def progress(done: int, total: int, message: str) -> None:
            if not answered:  # a plan that became a job goes on after this request has been answered
                await context.report_progress(done, total, message)

        result = await dry_run_plan(
            ctx,
            domain or "",
            steps,
            history=history,
            state=state,
            task=task,
            stop_on_error=stop_on_error,
            tools=tools,
            overrides=SamplingOverrides(temperature, max_tokens, seed, thinking_budget),
            include_reasoning=include_reasoning,
            on_progress=progress,
            constraints=constraints,
            presets=presets,
            stop_on_violation=stop_on_violation,
            world_id=world_id,
            commit=commit,
            budget_seconds=budget_seconds,
        )
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
    async def check_constraints_tool(
        constraints: Constraints = [],  # noqa: B006
        presets: Presets = [],  # noqa: B006
        action: Annotated[str, Field(description="The action, as for simulate_action.")] = "",
        observation: Annotated[str, Field(description="The outcome to check; empty means not known.")] = "",
        effects: Annotated[
            dict[str, Any] | None, Field(description="Structured effects, as simulate_action returns them.")
        ] = None,
        history: History = [],  # noqa: B006
        domain: Annotated[
            str, Field(description="The domain, for its action format and presets; empty matches the action as given.")
        ] = "",
    ) -> Annotated[CallToolResult, ConstraintReport]:
        checked = await check_constraints(ctx, constraints, presets, action, observation, effects, history, domain)
        return reply(checked, _describe_report(checked))

    @server.resource("status://server", name="server status", mime_type="application/json")
    def status() -> str:
        """Model state, queue depth, waits, speed and request counts."""
        return json.dumps({"process_id": os.getpid(), **dataclasses.asdict(ctx.engine.stats())}, indent=2)

    register_discovery(server, ctx)
    register_worlds(server, ctx, History, Tools)
    return server


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
