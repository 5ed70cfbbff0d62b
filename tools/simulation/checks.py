"""Running constraints for the tools: deterministic ones inline, judges through the engine queue;
and the rules around a prediction (what they see before and after it, what a forbidden action gets)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ...domains import DomainPack, Turn
from ...engine import EngineError, GenerationRequest, Priority, Sampling
from ...engine.errors import InputError
from ..constraints import (
    CheckInput,
    Constraint,
    ConstraintReport,
    ConstraintResult,
    Evidence,
    Status,
    blocking,
    check_input,
    constraint_set,
    evaluate,
    post_constraints,
    report,
)
from ..context import ToolContext
from ..inputs import Scene, normalized_action, validated_history
from ..requests import CheckRequest
from ..results import Effects, Prediction, Usage
from ..worlds.state_check import new_part
from ..worlds.tracking import Tracker

_JUDGE_SAMPLING = Sampling(temperature=0.0, max_tokens=200)
JUDGE_SCHEMA = {
    "type": "object",
    "properties": {"violated": {"type": "boolean"}, "reason": {"type": "string"}},
    "required": ["violated", "reason"],
}


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
        location, where = tracker.location, tracker.knowledge
    check = check_input(pack, action, None, turns, request.observation or None, request.effects, location, where)
    return report(await run_checks(ctx, rules, check, Priority.INTERACTIVE))


# --- judge constraints: the question a model answers, and its answer read back ---
def judge_messages(constraint: Constraint, check: CheckInput) -> list[dict[str, str]]:
    outcome = (
        f"Predicted outcome:\n{check.observation}\n\nPredicted effects: {json.dumps(check.effects)}"
        if check.observation is not None
        else "The outcome is not known yet; judge the action alone."
    )
    return [
        {
            "role": "system",
            "content": "You check an agent's action against one rule. Decide only whether the rule is broken by this "
            "action or its outcome. Answer with JSON: violated (true or false) and a one-sentence reason.",
        },
        {
            "role": "user",
            "content": f"Rule: {constraint.text}\n\nDomain: {check.domain}\nAction:\n{check.action_text}\n\n{outcome}",
        },
    ]


def judge_result(constraint: Constraint, check: CheckInput, reply: str | None, failure: str | None = None) -> ConstraintResult:
    phase = constraint.resolved_phase()
    status: Status
    try:
        verdict = json.loads(reply or "")
        violated, reason = bool(verdict["violated"]), str(verdict["reason"]).strip()
        status = "violated" if violated else "holds"
    except (ValueError, KeyError, TypeError):
        status, reason = "error", failure or "the world model gave no well-formed verdict"
    return ConstraintResult(
        id=constraint.id, kind="judge", phase=phase, severity=constraint.severity, status=status,
        reason=f"model-judged: {reason}", evidence=Evidence(field="observation" if check.observation is not None else "action", step=check.step),
        model_judged=True,
    )


# --- the rules around a prediction: what they see before and after it, and what a forbidden action gets ---
async def review(
    ctx: ToolContext,
    scene: Scene,
    action: str,
    step: int | None,
    turns: Sequence[Turn],
    prediction: Prediction,
    rules: Sequence[Constraint],
    tracker: Tracker,
    priority: Priority,
) -> list[ConstraintResult]:
    """After a prediction: its post constraints, and its consistency with the world's past; then the
    tracker moves on past this step. `step` is the plan step (None for a single action)."""
    check = outcome_check(scene.pack, action, step, turns, prediction, tracker)
    results = await run_checks(ctx, post_constraints(rules), check, priority)
    if prediction.parse_error is None:
        effects = prediction.effects.model_dump()
        shown = new_part(prediction.observation, turns[-1].observation if turns else "")  # not the screen before
        prediction.warnings += [warning for warning in tracker.ledger.warnings(
            effects, shown, scene.pack.action_text(action), scene.pack.error_markers
        ) if warning not in prediction.warnings]
        tracker.advance(action, prediction.observation, real=False,
                        effects=effects if prediction.effects.source not in ("command", "computed") else None,
                        outcome=prediction._outcome)
    return results


def planned_check(pack: DomainPack, action: str, step: int | None, turns: Sequence[Turn], tracker: Tracker):
    """The variables of a pre constraint: the action and what it does from where the world stands."""
    return check_input(pack, action, step, turns, location=tracker.location,
                       state=tracker.knowledge)


def outcome_check(pack: DomainPack, action: str, step: int | None, history: Sequence[Turn], prediction: Prediction,
                  tracker: Tracker | None = None):
    """The variables of a post constraint; an unparsable prediction leaves the outcome unknown."""
    known = prediction.parse_error is None
    return check_input(
        pack, action, step, history, prediction.observation if known else None,
        prediction.effects.model_dump(exclude={"source"}) if known else None,
        location=tracker.location if tracker else None,
        state=tracker.knowledge if tracker else None,
    )


def blocked_prediction(results: Sequence[ConstraintResult]) -> Prediction:
    """What an action forbidden by a pre constraint gets instead of a simulation: no model call."""
    reasons = "; ".join(f"{r.id}: {r.reason}" for r in blocking(results))
    return Prediction(
        blocked=f"not simulated: {reasons}",
        observation="",
        effects=Effects(success=None, source="none"),
        parse_error=None,
        truncated=False,
        usage=Usage.nothing(),
        model=None,
        constraints=report(results),
    )
