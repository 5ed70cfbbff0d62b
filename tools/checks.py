"""Running constraints for the tools: deterministic ones inline, judges through the engine queue."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError

from ..domains import DomainPack, Turn
from ..engine import EngineError, GenerationRequest, Priority, Sampling
from .constraints import (
    JUDGE_SCHEMA,
    CheckInput,
    Constraint,
    ConstraintReport,
    ConstraintResult,
    evaluate,
    judge_messages,
    judge_result,
    parse_constraints,
    report,
)
from .context import ToolContext
from .inputs import normalized_action, validated_history
from .requests import CheckRequest

_JUDGE_SAMPLING = Sampling(temperature=0.0, max_tokens=200)


def domain_presets(pack: DomainPack | None) -> dict[str, Constraint]:
    return {preset["id"]: Constraint.model_validate(preset) for preset in (pack.presets if pack else ())}


def constraint_set(pack: DomainPack | None, constraints: Sequence[Any], presets: Sequence[str]) -> list[Constraint]:
    return parse_constraints(constraints, domain_presets(pack), presets)


def check_input(
    pack: DomainPack | None,
    action: str,
    step: int | None = None,
    history: Sequence[Turn] = (),
    observation: str | None = None,
    effects: dict[str, Any] | None = None,
) -> CheckInput:
    """`action` is already normalized by the pack (when there is one)."""
    try:
        parsed = json.loads(action)
    except ValueError:
        parsed = action
    return CheckInput(
        domain=pack.name if pack else "",
        action=action,
        action_text=pack.action_text(action) if pack else action,
        parsed=parsed,
        observation=observation,
        effects=effects,
        step=step,
        history=tuple({"action": turn.action, "observation": turn.observation} for turn in history),
    )


def pre_constraints(constraints: Sequence[Constraint]) -> list[Constraint]:
    return [c for c in constraints if c.resolved_phase() == "pre"]


def post_constraints(constraints: Sequence[Constraint]) -> list[Constraint]:
    return [c for c in constraints if c.resolved_phase() == "post"]


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
        raise ToolError(f"judge constraint {constraint.id!r} could not run: {exc}") from None
    return judge_result(constraint, check, completion.text)


def violations(results: Sequence[ConstraintResult]) -> list[ConstraintResult]:
    """What a verdict reports: everything that was violated or could not be decided by error."""
    return [r for r in results if r.status in ("violated", "error")]


def blocking(results: Sequence[ConstraintResult]) -> list[ConstraintResult]:
    return [r for r in results if r.status == "violated" and r.severity == "error"]


async def check_constraints(ctx: ToolContext, request: CheckRequest) -> ConstraintReport:
    """Evaluate every constraint, of both phases, on what the caller gives.

    With a domain, the action is first put in the domain's canonical form and its presets are
    available; without one, the action is matched as given. An empty observation means none is
    known, so post constraints come out `unknown`.
    """
    pack = ctx.domain(request.domain) if request.domain else None
    if request.presets and pack is None:
        raise ToolError("presets are named per domain: pass `domain` too")
    rules = constraint_set(pack, request.constraints, request.presets)
    if not rules:
        raise ToolError("no constraints given: pass `constraints` (JSON objects) or `presets` (names)")
    action = normalized_action(ctx, pack, request.action) if pack is not None and request.action else request.action
    turns = validated_history(ctx, pack, request.history)
    check = check_input(pack, action, None, turns, request.observation or None, request.effects)
    return report(await run_checks(ctx, rules, check, Priority.INTERACTIVE))
