"""dry_run_plan: roll a whole plan forward through the simulated world, one step at a time.

Every action is validated, and every `pre` constraint checked on every step, before the first
model call: a malformed step fails the call and a forbidden one stops the plan, at zero tokens.
Each step's predicted observation becomes history for the next; `post` constraints run on each
prediction as it arrives.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError

from ..domains import Turn
from ..server.engine import Priority
from .checks import blocking, check_input, constraint_set, post_constraints, pre_constraints, run_checks, violations
from .constraints import ConstraintResult
from .context import ToolContext
from .inputs import validated_action, validated_history, validated_scene
from .results import PlanResult, PlanStep, PlanVerdict, Prediction
from .simulate import SamplingOverrides, outcome_check, predict, total_usage

ProgressCallback = Callable[[int, int, str], Awaitable[None]]


async def dry_run_plan(
    ctx: ToolContext,
    domain: str,
    steps: Sequence[str],
    history: Sequence[dict] = (),
    state: str = "",
    task: str = "",
    stop_on_error: bool = False,
    tools: Any = None,
    overrides: SamplingOverrides = SamplingOverrides(),
    include_reasoning: bool = False,
    on_progress: ProgressCallback | None = None,
    constraints: Sequence[Any] = (),
    presets: Sequence[str] = (),
    stop_on_violation: bool = True,
) -> PlanResult:
    scene = validated_scene(ctx, domain, state, task, tools)
    if not steps:
        raise ToolError("steps is empty; give the plan as a list of actions, one per step")
    if len(steps) > ctx.limits.max_plan_steps:
        raise ToolError(f"the plan has {len(steps)} steps; the limit is {ctx.limits.max_plan_steps}")
    actions = [validated_action(ctx, scene, step, f"steps[{index}]") for index, step in enumerate(steps)]
    turns = validated_history(ctx, scene.pack, history)
    rules = constraint_set(scene.pack, constraints, presets)

    # The zero-token pass: every pre constraint on every step, with the earlier steps as history.
    found: list[ConstraintResult] = []
    first_forbidden = None
    before = list(turns)
    for number, action in enumerate(actions, 1):
        results = await run_checks(ctx, pre_constraints(rules), check_input(scene.pack, action, number, before), Priority.PLAN)
        found += violations(results)
        if first_forbidden is None and blocking(results):
            first_forbidden = number
        before.append(Turn(action, ""))
    if stop_on_violation and first_forbidden is not None:
        return _result(domain, [], found, first_forbidden, _blocked_reason(found, first_forbidden, "is forbidden"))

    done: list[PlanStep] = []
    for number, action in enumerate(actions, 1):
        prediction = await predict(ctx, scene, turns, action, overrides, include_reasoning, Priority.PLAN)
        step_violations = violations(
            await run_checks(ctx, post_constraints(rules), outcome_check(scene.pack, action, number, turns, prediction), Priority.PLAN)
        )
        found += step_violations
        done.append(PlanStep(step=number, action=action, prediction=prediction, violations=step_violations))
        turns.append(Turn(action, prediction.observation))
        if on_progress is not None:
            await on_progress(number, len(actions), f"step {number}/{len(actions)} predicted")
        if stop_on_violation and blocking(step_violations):
            return _result(domain, done, found, number, _blocked_reason(step_violations, number, "breaks a rule"))
        why = _stop_reason(prediction, stop_on_error)
        if why:
            return _result(domain, done, found, number, why)
    return _result(domain, done, found, None, None)


def _result(domain: str, done: list[PlanStep], found: list[ConstraintResult], stopped_at: int | None, reason: str | None) -> PlanResult:
    verdict = PlanVerdict(
        status="completed" if stopped_at is None else "stopped",
        stopped_at=stopped_at,
        reason=reason,
        violated=bool(blocking(found)),
        violations=found,
    )
    return PlanResult(domain=domain, steps=done, verdict=verdict, usage=total_usage([s.prediction.usage for s in done]))


def _blocked_reason(found: Sequence[ConstraintResult], step: int, what: str) -> str:
    rules = "; ".join(f"{r.id}: {r.reason}" for r in blocking(found) if r.evidence and r.evidence.step == step)
    return f"step {step} {what} ({rules})"


def _stop_reason(prediction: Prediction, stop_on_error: bool) -> str | None:
    if prediction.parse_error:
        return f"the world model's output for this step could not be parsed: {prediction.parse_error}"
    if stop_on_error and prediction.effects.success is False:
        return f"the step is predicted to fail: {prediction.effects.error or 'no error text'}"
    return None
