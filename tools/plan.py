"""dry_run_plan: roll a whole plan forward through the simulated world, one step at a time.

Every action is validated before the first model call, so a malformed step fails the call at
once and costs no tokens. Each step's predicted observation becomes history for the next.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError

from ..domains import Turn
from ..server.engine import Priority
from .context import ToolContext
from .results import PlanResult, PlanStep, PlanVerdict
from .inputs import validated_action, validated_history, validated_scene
from .simulate import SamplingOverrides, predict, total_usage

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
) -> PlanResult:
    scene = validated_scene(ctx, domain, state, task, tools)
    if not steps:
        raise ToolError("steps is empty; give the plan as a list of actions, one per step")
    if len(steps) > ctx.limits.max_plan_steps:
        raise ToolError(f"the plan has {len(steps)} steps; the limit is {ctx.limits.max_plan_steps}")
    actions = [validated_action(ctx, scene, step, f"steps[{index}]") for index, step in enumerate(steps)]
    turns = validated_history(ctx, scene, history)

    done: list[PlanStep] = []
    verdict = PlanVerdict(status="completed")
    for number, action in enumerate(actions, 1):
        prediction = await predict(ctx, scene, turns, action, overrides, include_reasoning, Priority.PLAN)
        done.append(PlanStep(step=number, action=action, prediction=prediction))
        turns.append(Turn(action, prediction.observation))
        if on_progress is not None:
            await on_progress(number, len(actions), f"step {number}/{len(actions)} predicted")
        why = _stop_reason(prediction, stop_on_error)
        if why:
            verdict = PlanVerdict(status="stopped", stopped_at=number, reason=why)
            break
    return PlanResult(
        domain=domain, steps=done, verdict=verdict, usage=total_usage([step.prediction.usage for step in done])
    )


def _stop_reason(prediction, stop_on_error: bool) -> str | None:
    if prediction.parse_error:
        return f"the world model's output for this step could not be parsed: {prediction.parse_error}"
    if stop_on_error and prediction.effects.success is False:
        return f"the step is predicted to fail: {prediction.effects.error or 'no error text'}"
    return None
