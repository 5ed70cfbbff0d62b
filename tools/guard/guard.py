"""The guard: an agent host's tool call, checked before it runs and recorded after it ran.

Before (pre): the policy's zero-token rules run first, so a forbidden command is denied in
milliseconds without the model. Only if a rule reads the outcome is the action simulated, in
the session's world, and that rule checked on the prediction. After (post): the real result is
recorded into the session's world, anchoring the prediction made before. The model predicts;
deterministic rules decide; the guard never grants more than the host would (no `allow`).

Whatever goes wrong inside (the budget runs out, the model is loading or failed, a bad payload)
becomes a decision the guard chose, because hosts let a failing hook's call through.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import time
from typing import Any

import anyio

from ...engine.errors import AgentWorldError, ConfigurationError
from ..constraints import blocking
from ..context import ToolContext
from ..requests import GuardRequest, SimulateRequest
from ..simulation.simulate import simulate_action
from ..worlds.folder_snapshot import take_snapshot
from ..worlds.worlds import record_reality, rounded_mean, store_of
from .host_actions import HostAction, observation_from_response, open_tool
from .policy import GuardPolicy, GuardSettings, GuardVerdict, PreCheck, parsed_call, zero_token_check
from .session_worlds import session_world_id
from .unknown_judged import judged, predicted_effects
from .workspace_loss import Workspace

log = logging.getLogger("agentworld_mcp.guard")
_QUOTED_LINES = 6
_WORLD_PREFIX = "guard-"


async def guard(ctx: ToolContext, settings: GuardSettings, request: GuardRequest) -> GuardVerdict:
    started = time.perf_counter()
    verdict = await _decide(ctx, settings, request)
    verdict.seconds = round(time.perf_counter() - started, 4)
    return verdict


async def _decide(ctx: ToolContext, settings: GuardSettings, request: GuardRequest) -> GuardVerdict:
    event = request.event
    action, undecided = parsed_call(request)
    if action is None:
        assert undecided is not None  # no action to judge comes with the verdict saying why
        return undecided
    asked: GuardVerdict | None = None  # the rules' question on a call they could not judge: the model may answer it
    try:
        checked = None
        if event == "pre":  # the zero-token pass takes milliseconds: outside the model's budget
            checked = zero_token_check(settings.policy, request, action, ctx.domain(action.domain),
                                       _workspace(ctx, request))
            asked = _undecided(settings.policy, request, checked)
            if checked.verdict is not None and asked is None and not request.prechecked:
                return checked.verdict
        with anyio.fail_after(settings.budget_seconds):
            if checked is None:
                return await _after(ctx, settings.policy, request, action)
            return await _before(ctx, settings, request, action, checked, asked)
    except TimeoutError:
        trouble = f"the guard's {settings.budget_seconds:g} s budget ran out"
    except (AgentWorldError, ValueError) as exc:  # the model is loading or failed, the action does not parse, ...
        trouble = str(exc)
    except Exception as exc:  # anything else: still a decision the guard chose, never a failed hook
        log.exception("guard: %s call on %s failed", event, request.tool_name)
        trouble = f"internal error ({type(exc).__name__})"
    if event == "post":  # a post call never blocks the host
        return GuardVerdict(event=event, decision="none", reason=f"not recorded: {trouble}", domain=action.domain)
    if asked is not None:  # what nobody could judge is asked about, whatever --on-failure says
        return asked.model_copy(update={"reason": f"{asked.reason}\nthe world model could not judge it ({trouble})"})
    return GuardVerdict(event=event, decision=settings.on_failure, domain=action.domain,
                        reason=f"agentworld guard could not decide ({trouble}); "
                               + ("ask the user" if settings.on_failure == "ask" else "no decision"))


def _undecided(policy: GuardPolicy, request: GuardRequest, checked: PreCheck) -> GuardVerdict | None:
    """The question the rules ask only because they could not tell what the call does, for the model to answer: from
    this pass, or from the `hook` command's where it decided the rules on the user's machine."""
    if not policy.rules.model_judges_unknown:
        return None
    if request.prechecked:
        if not request.undecided:
            return None
        ids = list(request.undecided)
        return GuardVerdict(event="pre", decision="ask", domain=checked.action.domain, rules=ids,
                            rule_reasons=dict(request.undecided),
                            reason=f"{'; '.join(dict.fromkeys(request.undecided.values()))} [{', '.join(ids)}]")
    return checked.verdict if checked.undecided else None


async def _before(ctx: ToolContext, settings: GuardSettings, request: GuardRequest, action: HostAction,
                  checked: PreCheck, asked: GuardVerdict | None) -> GuardVerdict:
    if not checked.outcome_rules and asked is None:
        return GuardVerdict(event="pre", decision="none", domain=action.domain, reason="no rule fired")
    world_id = _session_world(ctx, settings.policy, request, action)
    # Committed, so that the post call anchors it; run to its end (no job handle: the budget bounds it here). The
    # model's own effects are asked for: they are what judges an undecided call.
    prediction = await simulate_action(dataclasses.replace(ctx, jobs=None, effects="model"), SimulateRequest(
        world_id=world_id, action=action.action, commit=True, stop_on_violation=False,
        constraints=[rule.model_dump(exclude_none=True) for rule in checked.outcome_rules]))
    if prediction.parse_error is not None:
        raise ValueError(f"no usable prediction ({prediction.parse_error})")
    tokens = prediction.usage.prompt_tokens + prediction.usage.completion_tokens
    head = "\n".join(prediction.observation.splitlines()[:_QUOTED_LINES])
    results = prediction.constraints.results if prediction.constraints else []
    if undecided := [r for r in results if r.severity == "error" and r.status in ("error", "unknown")]:
        raise ValueError("; ".join(f"{r.id} could not be decided: {r.reason}" for r in undecided))
    fired = blocking(results)
    if not fired and asked is not None:
        verdict = judged(asked, predicted_effects(prediction))
        if verdict.decision == "deny":
            _forget_last_step(ctx, world_id)
        return verdict.model_copy(update={"world_id": world_id, "predicted": head, "model_tokens": tokens})
    if not fired:
        return GuardVerdict(event="pre", decision="none", domain=action.domain, world_id=world_id, predicted=head,
                            model_tokens=tokens, reason="no rule fired on the predicted outcome")
    decision = settings.policy.rules.on_predicted
    if decision == "deny":
        _forget_last_step(ctx, world_id)
    return GuardVerdict(
        event="pre", decision=decision, domain=action.domain, world_id=world_id,
        rules=[r.id for r in fired], predicted=head, model_tokens=tokens, rule_reasons={r.id: r.reason for r in fired},
        reason=f"{'; '.join(dict.fromkeys(r.reason for r in fired))} [{', '.join(r.id for r in fired)}]. "
               f"The world model predicts:\n{head}")


def _forget_last_step(ctx: ToolContext, world_id: str) -> None:
    """A denied call will not run: the world must not continue from its prediction."""
    store = store_of(ctx)
    store.truncate(world_id, len(store.steps(world_id)) - 1)


async def _after(ctx: ToolContext, policy: GuardPolicy, request: GuardRequest, action: HostAction) -> GuardVerdict:
    world_id = _session_world(ctx, policy, request, action)
    observation = observation_from_response(action, _response(request.tool_response))
    view = await record_reality(ctx, world_id, action.action, observation)
    recorded = view.recorded
    assert recorded is not None  # record_reality always says what it recorded
    reason = (f"recorded as step {recorded.step}" + (f"; the prediction's similarity {recorded.similarity:.2f}"
                                                     if recorded.anchored and recorded.similarity is not None else ""))
    return GuardVerdict(event="post", decision="none", domain=action.domain, world_id=world_id, reason=reason,
                        drift=view.drift.model_dump())


def _workspace(ctx: ToolContext, request: GuardRequest) -> Workspace:
    """The session's real folder, where this server may read it: over HTTP a client's folder is on another
    machine, so what a loss costs is not guessed but left unknown (the `hook` command decides it there)."""
    if not request.cwd:
        return Workspace.remote("", "the host gave no working folder")
    real = os.path.realpath(request.cwd)
    if any(real == place or real.startswith(place.rstrip("/") + "/") for place in map(os.path.realpath,
                                                                                     filter(None, ctx.visible_dirs()))):
        return Workspace.local(request.cwd)
    return Workspace.remote(request.cwd, f"this server cannot see {request.cwd} (only the folders it serves or "
                                         "was allowed); run the guard's `hook` command there to decide")


def guard_sessions(ctx: ToolContext, limit: int = 20) -> list[dict[str, Any]]:
    """The most recent session worlds with their drift: similarity per compared step and the running mean."""
    sessions = []
    store = store_of(ctx)
    for row, count in store.worlds(limit=limit, prefix=_WORLD_PREFIX):
        compared = store.similarities(row.id)  # status://server is read often: no step text is loaded
        sessions.append({"world_id": row.id, "domain": row.domain, "steps": count, "similarity_per_step": compared,
                         "mean_similarity": rounded_mean(compared)})
    return sessions


def _session_world(ctx: ToolContext, policy: GuardPolicy, request: GuardRequest, action: HostAction) -> str:
    """One world per host session and domain (per MCP server for mcp), opened on first use and kept."""
    if ctx.store is None:
        raise ConfigurationError("the guard keeps each session's world in the store; start the server with a --data-dir")
    world_id = session_world_id(_WORLD_PREFIX, request.session_id, action.domain, action.mcp_server)
    row = ctx.store.world(world_id)
    if row is not None and row.domain != action.domain:
        raise ValueError(f"world {world_id} simulates {row.domain}, not {action.domain}")
    tools = _mcp_tools(policy, action, row.tools if row is not None else None)
    if row is None:
        origin: dict[str, Any] = {"host": "guard", "session": request.session_id or "no-session"}
        state = f"Working folder: {request.cwd}" if request.cwd else ""
        if request.cwd and action.domain in _SHELL_DOMAINS and os.path.isdir(request.cwd):
            # The session's world starts from the project it guards, once: what it knows is then computed exactly.
            snapshot = take_snapshot(request.cwd, ctx.snapshot_bounds)
            state, origin["snapshot"] = snapshot.state_text(), snapshot.as_json()
        ctx.store.create_world(action.domain, "", state, tools, world_id=world_id, origin=origin)
    elif tools != row.tools:
        ctx.store.set_world_scene(world_id, row.state, tools)
    return world_id


_SHELL_DOMAINS = ("terminal", "swe")


def _mcp_tools(policy: GuardPolicy, action: HostAction, known: list | None) -> list | None:
    """The MCP server's tools as the policy gives them; a tool it does not list gets an open schema."""
    if action.domain != "mcp":
        return None
    tools = list(known or policy.rules.mcp_servers.get(action.mcp_server, []))
    name = json.loads(action.action)["name"]
    if not any(tool.get("name") == name for tool in tools):
        tools.append(open_tool(name))
    return tools


def _response(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value
