"""simulate_action: predict what one action does in a domain's world.

One prediction is up to two engine calls. The first asks for the observation with the domain's
prompt protocol. The second (effects mode "model") appends the model's reply verbatim and one
question to the same conversation and asks for the effects as schema-constrained JSON, so it
re-reads almost nothing: the model's cached tokens cover the whole first exchange. It is marked a
detour: the next step continues from the first exchange, so a model that can only extend its
cache keeps a snapshot of it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from ...domains import DomainPack, Turn
from ...domains.boundaries import StopReason, observation_end
from ...domains.effects import first_error_line
from ...domains.parsing import ParsedReply, parse_reply
from ...domains.protocol import history_reply, render_messages
from ...domains.shell import Requirement, Semantics
from ...domains.shell.world.learning import failed_commands
from ...engine import Completion, EngineError, GenerationRequest, Priority, Sampling
from ...engine.errors import InputError
from ..constraints import (
    blocking,
    post_constraints,
    pre_constraints,
    report,
    violations,
)
from ..context import ToolContext, is_world_model
from ..data.retrieval import render as render_examples
from ..inputs import Scene
from ..jobs import Progress, within_budget
from ..requests import SceneRequest, SimulateRequest
from ..results import Change, Effects, ModelInfo, Prediction, Usage
from ..tool_definitions import reply_problem
from ..worlds.computed import computed_prediction, rendered_from_effects
from ..worlds.state_check import (
    command_effects,
    corrected_screen,
    first_failing,
    hint,
    mismatch_warning,
    new_part,
    shows_failure,
)
from ..worlds.tracking import Tracker
from .checks import blocked_prediction, planned_check, review, run_checks
from .situation import Situation, check_where, situation

# The reference model card's sampling for Qwen-AgentWorld (thinking on; outputs up to 32,768 tokens). An outside
# study of it on terminal tasks measured a median of about 4,300 completion tokens per step and up to about 10k
# for a long listing, with replies left empty under an 8k budget: 16,384 tokens, of which the thinking budget's
# default 3/4 (12,288) may think, covers those and leaves room for a whole screen.
_WORLD_MODEL_SAMPLING = Sampling(temperature=0.6, top_p=0.95, top_k=20, max_tokens=16_384)
_EFFECTS_QUESTION = (
    "Stop simulating for one reply. As JSON, state the effects of the action of the last turn: "
    "`success` (true, false, or null if the observation does not tell), `error` (the error the "
    "environment reported, or null) and `changed` (each entity the action created, modified or deleted)."
)
_EFFECTS_SCHEMA = {
    "type": "object",
    "properties": {
        "success": {"type": ["boolean", "null"]},
        "error": {"type": ["string", "null"]},
        "changed": {
            "type": "array",
            "maxItems": 8,  # each item costs ~15 tokens; effects stay a small part of a step
            "items": {
                "type": "object",
                "properties": {
                    "entity": {"type": "string"},
                    "change": {"enum": ["created", "modified", "deleted"]},
                },
                "required": ["entity", "change"],
            },
        },
    },
    "required": ["success", "error", "changed"],
}
_EFFECTS_SAMPLING = Sampling(temperature=0.0, max_tokens=192)


@dataclass(frozen=True)
class SamplingOverrides:
    temperature: float | None = None
    max_tokens: int | None = None
    seed: int | None = None
    thinking_budget: int | None = None


def thinking_budget(ctx: ToolContext, overrides: SamplingOverrides, sampling: Sampling) -> int:
    """Thinking may never take the whole reply: by default a quarter of max_tokens stays for the observation."""
    budget = overrides.thinking_budget or ctx.thinking_budget or sampling.max_tokens * 3 // 4
    return max(1, min(budget, sampling.max_tokens - 1))


async def predict(
    ctx: ToolContext,
    scene: Scene,
    history: Sequence[Turn],
    action: str,
    overrides: SamplingOverrides,
    include_reasoning: bool,
    priority: Priority,
    tracker: Tracker | None = None,
) -> Prediction:
    """The observation and effects of one validated action after `history` (whose world `tracker` knows)."""
    pack = scene.pack
    tracker = tracker or Tracker.replay(pack, scene.state, history, computed=ctx.computed)
    if (computed := computed_prediction(scene, history, action, tracker)) is not None:
        prediction, outcome = computed
        prediction._outcome = outcome
        ctx.steps_served["computed"] += 1
        return prediction
    ctx.steps_served["predicted"] += 1
    fault = tracker.compute_failure
    semantics = tracker.semantics(action)
    missing = tracker.missing(semantics) if ctx.state_check != "off" else []
    note = tracker.note() if semantics is not None else ""
    model = await _engine_call(ctx.engine.wait_ready())
    sampling = _sampling_for(ctx, pack, overrides, is_world_model(model))
    previous = history[-1].observation if history else ""
    demonstrations = ctx.use_demonstrations(model)
    schema = scene.reply_schema(action)
    grammar = schema if ctx.structured_results == "constrained" else None
    examples, retrieved = await _examples(ctx, pack.name, action, history[-1].action if history else "")
    asked = await _observe(ctx, scene, history, action, note, sampling, overrides, priority, previous, demonstrations,
                           grammar, examples)
    spent = [asked.completion]
    if grammar is not None and asked.completion.finish_reason == "length" and sampling.max_tokens < ctx.limits.max_tokens:
        # A result under a schema that ran out of room is cut-off JSON: once more, with twice the room.
        roomier = replace(sampling, max_tokens=min(2 * sampling.max_tokens, ctx.limits.max_tokens))
        asked = await _observe(ctx, scene, history, action, note, roomier, overrides, priority, previous,
                               demonstrations, grammar, examples)
        spent.append(asked.completion)
    disagrees = bool(missing) and asked.parsed.parse_error is None and not shows_failure(
        asked.parsed.observation, previous, missing, pack.error_markers)
    if disagrees and ctx.state_check == "correct" and ctx.state_reask:
        again = await _observe(ctx, scene, history, action, hint(note, missing), sampling, overrides, priority, previous,
                               demonstrations, grammar, examples)
        spent.append(again.completion)
        if again.parsed.parse_error is None:
            asked = again
            disagrees = not shows_failure(asked.parsed.observation, previous, missing, pack.error_markers)
    completion, reply, parsed = asked.completion, asked.reply, asked.parsed
    effects, effects_completion = parser_effects(ctx, pack, parsed.observation, previous, parsed.parse_error), None
    model_effects: Effects | None = None
    if ctx.effects == "model" and parsed.parse_error is None:
        follow_up = (
            *asked.messages,
            {"role": "assistant", "content": reply},  # verbatim up to its end: the cached tokens extend
            {"role": "user", "content": _EFFECTS_QUESTION},
        )
        request = GenerationRequest(follow_up, replace(_EFFECTS_SAMPLING, seed=sampling.seed), _EFFECTS_SCHEMA, detour=True)
        effects_completion = await _engine_call(ctx.engine.generate(request, priority, ctx.queue_timeout))
        model_effects = _model_effects(effects_completion.text)
        effects = model_effects or effects
    observation, corrected = parsed.observation, disagrees and ctx.state_check == "correct"
    if corrected:
        observation = corrected_screen(pack, observation, previous, pack.action_text(action), missing) or observation
    if semantics is not None and ctx.effects != "off" and parsed.parse_error is None:
        effects = _effects_of_command(semantics, observation, effects, missing if (corrected or not disagrees) else [])
    cut = completion.text[len(reply) :]
    prediction = Prediction(
        observation=observation,
        effects=effects,
        parse_error=parsed.parse_error,
        raw=completion.text if parsed.parse_error or parsed.trimmed or cut.strip() or observation != parsed.observation
        else None,
        reasoning=parsed.reasoning if include_reasoning else None,
        truncated=completion.finish_reason == "length",
        usage=_usage(completion, effects_completion, [c for c in spent if c is not completion]),
        model=ModelInfo(
            name=model.name, file=model.file, architecture=model.architecture, quantization=model.quantization
        ),
    )
    if prediction.truncated:
        prediction.warnings.append(truncation_warning(completion, observation))
    if completion.end is not None and completion.end.reason == "repetition":
        prediction.warnings.append(
            f"the world model began to loop ({completion.end.detail}); generation was stopped there and the "
            "observation keeps one copy (the whole reply is in `raw`)"
        )
    prediction.usage.reasked = len(spent) > 1
    prediction._model_effects = model_effects
    if fault:
        prediction.warnings.append(f"the virtual shell failed on this line ({fault}); the step is the world model's "
                                   "prediction instead of a computed one")
    if schema is not None and parsed.parse_error is None and (problem := reply_problem(schema, observation)):
        prediction.warnings.append(f"the predicted result breaks the tool's output schema {problem}")
    if disagrees:
        prediction.warnings.append(mismatch_warning(missing, corrected, observation != parsed.observation))
    # A corrected screen is not what the model wrote: later turns show it under the heading instead.
    prediction._reply = None if observation != parsed.observation else history_reply(reply)
    prediction._note = asked.note
    prediction._examples = examples
    prediction.usage.retrieved_steps, prediction.usage.retrieved_chars = retrieved, len(examples)
    if prediction.parse_error is not None:
        prediction = rendered_from_effects(scene, history, action, tracker, prediction) or prediction
    return prediction


async def _examples(ctx: ToolContext, domain: str, action: str, before: str) -> tuple[str, int]:
    """Real steps like this action (after one like `before`) from the store's train sessions, rendered, and how
    many; none with retrieval off. In a thread: a lookup takes about a millisecond, rereading a changed store longer."""
    found = await asyncio.to_thread(ctx.retrieval.nearest, domain, action, before=before) \
        if ctx.retrieval is not None else []
    return render_examples(found), len(found)


@dataclass(frozen=True)
class _Asked:
    messages: list[dict[str, str]]
    completion: Completion
    reply: str
    parsed: ParsedReply
    note: str


async def _observe(ctx: ToolContext, scene: Scene, history: Sequence[Turn], action: str, note: str, sampling: Sampling,
                   overrides: SamplingOverrides, priority: Priority, previous: str, demonstrations: bool,
                   schema: dict[str, Any] | None, examples: str = "") -> _Asked:
    """One request for the observation, in the domain's prompt protocol, with `note` as the known state
    and the reply generated under `schema` where there is one."""
    pack = scene.pack
    messages = render_messages(pack, history, action, scene.task, scene.state or pack.initial_state, demonstrations,
                               scene.tool_definitions, note, examples)
    # A terminal state given as text may be the screen itself: the new screen starts by showing it again.
    end_rule = observation_end(pack.observation_end, pack.action_text(action), previous or scene.state)
    request = GenerationRequest(
        tuple(messages), sampling, schema, thinking_budget=thinking_budget(ctx, overrides, sampling), end_rule=end_rule
    )
    completion = await _engine_call(ctx.engine.generate(request, priority, ctx.queue_timeout))
    reply = completion.text[: completion.end.at] if completion.end is not None else completion.text
    return _Asked(messages, completion, reply, parse_reply(reply, pack.wrapped_observation, pack.observation_markdown),
                  note)


def _effects_of_command(semantics: Semantics, observation: str, screen: Effects, missing: Sequence[Requirement]) -> Effects:
    """`changed` from the command; success and error from the screen, or from the world's state where it knows."""
    failed = set(first_failing(missing)) | set(failed_commands(semantics, observation))
    if screen.success is False and len(semantics.programs) == 1:
        failed.add(0)
    happened = semantics.without(*failed)
    error = screen.error or (missing[0].error if missing else None)
    return command_effects(happened, False if failed or missing else screen.success, error)


def truncation_warning(completion: Completion, observation: str) -> str:
    """Why the observation stops where it does: the output budget ran out, and how much of it thinking took."""
    thought = (f", {completion.reasoning_tokens} of them thinking" + (" (the thinking budget closed the block)"
               if completion.thinking_cut else "")) if completion.reasoning_tokens else ""
    what = "no observation came" if not observation.strip() else "the observation is cut off"
    return (f"{what}: the reply reached max_tokens after {completion.completion_tokens} tokens{thought}; raise "
            "max_tokens (or lower thinking_budget) for the whole observation")


def parser_effects(
    ctx: ToolContext, pack: DomainPack, observation: str, previous: str, parse_error: str | None
) -> Effects:
    if ctx.effects == "off" or parse_error is not None:
        return Effects(success=None, source="none")
    # A screen-like observation repeats the previous one; only what is new belongs to this action.
    error = first_error_line(new_part(observation, previous), pack.error_markers)
    return Effects(success=False if error else None, error=error, source="parser")


def _model_effects(text: str) -> Effects | None:
    try:
        data = json.loads(text)
        return Effects(
            success=data.get("success"),
            error=data.get("error") or None,
            changed=[Change(**item) for item in data.get("changed", [])],
            source="model",
        )
    except (ValueError, TypeError, AttributeError):  # the grammar was cut off by max_tokens, or similar
        return None


def _sampling_for(ctx: ToolContext, pack: DomainPack, overrides: SamplingOverrides, world_model: bool) -> Sampling:
    base = _WORLD_MODEL_SAMPLING if world_model else Sampling(**pack.sampling)
    return replace(
        base,
        temperature=base.temperature if overrides.temperature is None else overrides.temperature,
        max_tokens=base.max_tokens if overrides.max_tokens is None else overrides.max_tokens,
        seed=overrides.seed,
    )


def _usage(observation: Completion, effects: Completion | None, earlier: Sequence[Completion] = ()) -> Usage:
    """One prediction's usage: its observation reply, the effects reply, and replies it asked again for."""
    done = [*earlier, observation, *([effects] if effects is not None else [])]
    return Usage(
        prompt_tokens=sum(c.prompt_tokens for c in done),
        reused_prompt_tokens=sum(c.reused_tokens for c in done),
        completion_tokens=sum(c.completion_tokens for c in done),
        effects_tokens=effects.completion_tokens if effects else 0,
        queue_seconds=round(sum(c.queue_seconds for c in done), 4),
        generation_seconds=round(sum(c.generation_seconds for c in done), 4),
        cached=all(c.cached for c in done),
        reasoning_tokens=sum(c.reasoning_tokens for c in done),
        thinking_cut=any(c.thinking_cut for c in done),
        stopped_at=cast(StopReason, observation.end.reason) if observation.end is not None else None,
    )


def total_usage(usages: Sequence[Usage]) -> Usage:
    return Usage(
        prompt_tokens=sum(u.prompt_tokens for u in usages),
        reused_prompt_tokens=sum(u.reused_prompt_tokens for u in usages),
        completion_tokens=sum(u.completion_tokens for u in usages),
        effects_tokens=sum(u.effects_tokens for u in usages),
        queue_seconds=round(sum(u.queue_seconds for u in usages), 4),
        generation_seconds=round(sum(u.generation_seconds for u in usages), 4),
        seconds=round(sum(u.seconds for u in usages), 4),
        cached=bool(usages) and all(u.cached for u in usages),
        reasoning_tokens=sum(u.reasoning_tokens for u in usages),
        thinking_cut=any(u.thinking_cut for u in usages),
    )


async def _engine_call(awaitable):
    """Engine errors are written for the calling agent and go on as they are; any other fault of a
    backend (logged by the engine) becomes one."""
    try:
        return await awaitable
    except EngineError:
        raise
    except Exception as exc:
        raise EngineError(f"the world model failed on this request: {exc}") from None


def sampling_overrides(ctx: ToolContext, request: SceneRequest) -> SamplingOverrides:
    """The request's sampling, checked before any step runs (a computed step asks no model, yet the request is
    wrong all the same)."""
    if request.max_tokens is not None and request.max_tokens > ctx.limits.max_tokens:
        raise InputError(f"max_tokens {request.max_tokens} is above the server's limit of {ctx.limits.max_tokens}")
    return SamplingOverrides(request.temperature, request.max_tokens, request.seed, request.thinking_budget)


async def simulate_action(ctx: ToolContext, request: SimulateRequest) -> Prediction:
    check_where(ctx, request, "the step")
    overrides = sampling_overrides(ctx, request)

    async def work(progress: Progress) -> Prediction:
        async with situation(ctx, request, [(request.action, "action")]) as where:
            prediction = await _simulate(where, where.actions[0])
            if where.session is not None and request.commit:
                results = prediction.constraints.results if prediction.constraints is not None else []
                where.session.commit([(where.actions[0], prediction, violations(results))])
            return prediction

    async def _simulate(where: Situation, action: str) -> Prediction:
        scene, turns, tracker, rules = where.scene, where.turns, where.tracker, where.rules
        planned = planned_check(scene.pack, action, None, turns, tracker)  # no outcome yet: post rules say unknown
        before = await run_checks(ctx, pre_constraints(rules), planned, Priority.INTERACTIVE)
        if request.stop_on_violation and blocking(before):
            return blocked_prediction(before + await run_checks(ctx, post_constraints(rules), planned, Priority.INTERACTIVE))
        prediction = await predict(ctx, scene, turns, action, overrides, request.include_reasoning,
                                   Priority.INTERACTIVE, tracker)
        after = await review(ctx, scene, action, None, turns, prediction, rules, tracker, Priority.INTERACTIVE)
        if rules:
            prediction.constraints = report(before + after)
        return prediction

    return await within_budget(ctx, "simulate_action", work, request.budget_seconds, lambda job_id, _: Prediction.pending(job_id))
