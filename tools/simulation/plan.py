"""dry_run_plan: roll a whole plan forward through the simulated world, one step at a time.

Every action is validated, and every `pre` constraint checked on every step, before the first
model call: a malformed step fails the call and a forbidden one stops the plan, at zero tokens.
Each step's predicted observation becomes history for the next; `post` constraints run on each
prediction as it arrives.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Awaitable, Callable, Sequence

from ...domains import Turn
from ...engine import Priority
from ...engine.errors import InputError
from ..constraints import ConstraintResult, blocking, pre_constraints, violations
from ..context import ToolContext
from ..jobs import Progress, within_budget
from ..requests import PlanRequest
from ..results import PlanResult, PlanStep, PlanVerdict, Prediction
from .checks import planned_check, review, run_checks
from .simulate import predict, sampling_overrides, total_usage
from .situation import Situation, check_where, situation

ProgressCallback = Callable[[int, int, str], Awaitable[None]]


async def dry_run_plan(ctx: ToolContext, request: PlanRequest, on_progress: ProgressCallback | None = None) -> PlanResult:
    """Without `commit`, a rollout from a world leaves the world as it was."""
    steps = request.steps
    check_where(ctx, request, "the plan's steps")
    overrides = sampling_overrides(ctx, request)
    pre_found: dict[int, list[ConstraintResult]] = {}  # step -> what the zero-token pass found on it

    async def work(progress: Progress) -> PlanResult:
        if not steps:
            raise InputError("steps is empty; give the plan as a list of actions, one per step")
        if len(steps) > ctx.limits.max_plan_steps:
            raise InputError(f"the plan has {len(steps)} steps; the limit is {ctx.limits.max_plan_steps}")
        async with situation(ctx, request, [(step, f"steps[{index}]") for index, step in enumerate(steps)]) as where:
            result = await _roll_out(where, progress)
            if where.session is not None and request.commit:
                # A world keeps, per step, what it broke: the zero-token pass's findings and the step's own.
                where.session.commit([(step.action, step.prediction, [*pre_found.get(step.step, []), *step.violations])
                                      for step in result.steps])
            return result

    async def _roll_out(where: Situation, progress: Progress) -> PlanResult:
        scene, turns, tracker, actions, rules = where.scene, where.turns, where.tracker, where.actions, where.rules
        name = scene.pack.name

        # The zero-token pass: every pre constraint on every step, with the earlier steps as history.
        found: list[ConstraintResult] = []
        first_forbidden = None
        before, ahead = list(turns), copy.deepcopy(tracker)  # each step as if the ones before it succeeded
        for number, action in enumerate(actions, 1):
            checked = await run_checks(ctx, pre_constraints(rules), planned_check(scene.pack, action, number, before, ahead),
                                       Priority.PLAN)
            ahead.advance(action, "", real=False)
            pre_found[number] = violations(checked)
            found += pre_found[number]
            if first_forbidden is None and blocking(checked):
                first_forbidden = number
            before.append(Turn(action, ""))
        if request.stop_on_violation and first_forbidden is not None:
            return _result(name, [], found, first_forbidden, _blocked_reason(found, first_forbidden, "is forbidden"))

        done: list[PlanStep] = []
        for number, action in enumerate(actions, 1):
            began = time.perf_counter()
            prediction = await predict(ctx, scene, turns, action, overrides, request.include_reasoning, Priority.PLAN, tracker)
            step_violations = violations(
                await review(ctx, scene, action, number, turns, prediction, rules, tracker, Priority.PLAN)
            )
            prediction.usage.seconds = round(time.perf_counter() - began, 4)
            found += step_violations
            done.append(PlanStep(step=number, action=action, prediction=prediction, violations=step_violations))
            turns.append(prediction.history_turn(action))
            message = f"step {number}/{len(actions)} " + ("computed" if prediction.effects.source == "computed"
                                                            else "predicted")
            progress.update(number, len(actions), message, _result(name, done, found, None, None, running=True))
            if on_progress is not None:
                await on_progress(number, len(actions), message)
            if request.stop_on_violation and blocking(step_violations):
                return _result(name, done, found, number, _blocked_reason(step_violations, number, "breaks a rule"))
            why = _stop_reason(prediction, request.stop_on_error)
            if why:
                return _result(name, done, found, number, why)
        return _result(name, done, found, None, None)

    return await within_budget(ctx, "dry_run_plan", work, request.budget_seconds, _pending)


def _pending(job_id: str, progress: Progress) -> PlanResult:
    so_far = progress.partial if isinstance(progress.partial, PlanResult) else None
    steps = so_far.steps if so_far else []
    found = so_far.verdict.violations if so_far else []
    result = _result(so_far.domain if so_far else "", steps, found, None, None, running=True)
    result.job_id = job_id
    return result


def _result(
    domain: str,
    done: list[PlanStep],
    found: list[ConstraintResult],
    stopped_at: int | None,
    reason: str | None,
    running: bool = False,
) -> PlanResult:
    verdict = PlanVerdict(
        status="running" if running else ("completed" if stopped_at is None else "stopped"),
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
