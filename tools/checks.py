"""Running constraints for the tools: deterministic ones inline, judges through the engine queue."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import EngineError, GenerationRequest, Priority, Sampling
from ..engine.errors import InputError
from .constraints import (
    JUDGE_SCHEMA,
    CheckInput,
    Constraint,
    ConstraintReport,
    ConstraintResult,
    check_input,
    constraint_set,
    evaluate,
    judge_messages,
    judge_result,
    report,
)
from .context import ToolContext
from .inputs import normalized_action, validated_history
from .requests import CheckRequest
from .tracking import Tracker

_JUDGE_SAMPLING = Sampling(temperature=0.0, max_tokens=200)


async def run_checks(
    ctx: ToolContext, constraints: Sequence[Constraint], check: CheckInput, priority: Priority
) -> list[ConstraintResult]:
    results = []
    for constraint in constraints:
        if constraint.kind != "judge" or (constraint.resolved_phase() == "post" and check.observation is None):
            results.append(evaluate(constraint, check))  # a post judge without an outcome is 'unknown' there
        else:
            results.append(await _judge(ctx, constraint, check, priority))
    return results


async def _judge(ctx: ToolContext, constraint: Constraint, check: CheckInput, priority: Priority) -> ConstraintResult:
    request = GenerationRequest(tuple(judge_messages(constraint, check)), _JUDGE_SAMPLING, JUDGE_SCHEMA)
    try:
        await ctx.engine.wait_ready()
        completion = await ctx.engine.generate(request, priority, ctx.queue_timeout)
    except EngineError as exc:
        raise EngineError(f"judge constraint {constraint.id!r} could not run: {exc}") from None
    return judge_result(constraint, check, completion.text)


async def check_constraints(ctx: ToolContext, request: CheckRequest) -> ConstraintReport:
    """Evaluate every constraint, of both phases, on what the caller gives.

    With a domain, the action is first put in the domain's canonical form and its presets are
    available; without one, the action is matched as given. An empty observation means none is
    known, so post constraints come out `unknown`.
    """
    pack = ctx.domain(request.domain) if request.domain else None
    if request.presets and pack is None:
        raise InputError("presets are named per domain: pass `domain` too")
    rules = constraint_set(pack, request.constraints, request.presets)
    if not rules:
        raise InputError("no constraints given: pass `constraints` (JSON objects) or `presets` (names)")
    action = normalized_action(ctx, pack, request.action) if pack is not None and request.action else request.action
    turns = validated_history(ctx, pack, request.history)
    if request.cwd and not request.cwd.startswith("/"):
        raise InputError(f"cwd must be an absolute folder, such as /home/me/project; got {request.cwd!r}")
    location = where = None
    if pack is not None:  # what the action does comes from where the history left the shell, and its files
        tracker = Tracker.replay(pack, f"Working folder: {request.cwd}" if request.cwd else "", turns)
        location, where = tracker.location, tracker.world.tree if tracker.world else None
    check = check_input(pack, action, None, turns, request.observation or None, request.effects, location, where)
    return report(await run_checks(ctx, rules, check, Priority.INTERACTIVE))
