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

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import anyio
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..engine import Priority
from .checks import run_checks
from .constraints import blocking, check_input, constraint_set, post_constraints, pre_constraints
from .context import ToolContext
from .host_actions import HostAction, host_action, observation_from_response
from .inputs import normalized_action
from .requests import GuardRequest, SimulateRequest
from .simulate import simulate_action
from .worlds import record_reality

Decision = Literal["deny", "ask", "none"]
_QUOTED_LINES = 6
_SESSION_CHARS = re.compile(r"[^A-Za-z0-9_.-]")
_WORLD_PREFIX = "guard-"


class PolicyError(ValueError):
    """The policy file cannot be used; one line naming the file and the problem."""


class ToolSection(BaseModel):
    model_config = ConfigDict(extra="forbid")
    presets: list[str] | None = None
    constraints: list[dict[str, Any]] = []


class PolicyFile(BaseModel):
    """{"presets": [...], "constraints": [...], "tools": {"Bash": {...}}, "mcp_servers": {...}, "on_predicted": ...}"""

    model_config = ConfigDict(extra="forbid")
    presets: list[str] | None = Field(default=None, description="Preset names; each applies in the domains that have it. "
                                                                "Left out: every preset of the call's domain.")
    constraints: list[dict[str, Any]] = []
    tools: dict[str, ToolSection] = Field(default_factory=dict, description="Per host tool (Bash, Write, mcp__x__y).")
    mcp_servers: dict[str, list[dict[str, Any]]] = Field(default_factory=dict, description="Tool definitions per MCP server.")
    on_predicted: Literal["ask", "deny"] = Field(default="ask", description="What a rule broken only by the prediction gives.")


@dataclass(frozen=True)
class GuardPolicy:
    rules: PolicyFile = field(default_factory=PolicyFile)
    source: str = "each domain's presets"


def load_policy(path: Path | None, domains: dict[str, Any]) -> GuardPolicy:
    """The policy at `path` (or the default when None), checked against the domains; raises PolicyError."""
    if path is None:
        return GuardPolicy()
    try:
        rules = PolicyFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except OSError as exc:
        raise PolicyError(f"policy {path}: cannot be read ({exc.strerror})") from None
    except ValueError as exc:  # JSON or shape
        problem = exc.errors()[0] if isinstance(exc, ValidationError) else None
        where = ".".join(str(p) for p in problem["loc"]) + ": " + problem["msg"] if problem else str(exc)
        raise PolicyError(f"policy {path}: {where}") from None
    known = {preset["id"] for pack in domains.values() for preset in pack.presets}
    named = [*(rules.presets or []), *(name for section in rules.tools.values() for name in section.presets or [])]
    if unknown := sorted(set(named) - known):
        raise PolicyError(f"policy {path}: unknown preset(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    for where, constraints in (("constraints", rules.constraints),
                               *((f"tools.{name}.constraints", s.constraints) for name, s in rules.tools.items())):
        try:
            constraint_set(None, constraints, [])
        except ToolError as exc:
            raise PolicyError(f"policy {path}: {where}: {exc}") from None
    return GuardPolicy(rules, str(path))


class GuardVerdict(BaseModel):
    """The host-neutral decision; a host format turns it into that host's document."""

    event: Literal["pre", "post"]
    decision: Decision = Field(description="deny | ask | none (no decision: the host's own permission rules apply).")
    reason: str = ""
    rules: list[str] = Field(default_factory=list, description="The ids of the rules that fired.")
    domain: str | None = None
    world_id: str | None = None
    predicted: str | None = Field(default=None, description="The first lines of the predicted observation, if simulated.")
    model_tokens: int = 0
    seconds: float = 0.0
    drift: dict[str, Any] | None = Field(default=None, description="post: the session world's drift from reality.")


@dataclass(frozen=True)
class GuardSettings:
    policy: GuardPolicy = field(default_factory=GuardPolicy)
    budget_seconds: float = 10.0
    on_failure: Literal["ask", "none"] = "none"


async def guard(ctx: ToolContext, settings: GuardSettings, request: GuardRequest) -> GuardVerdict:
    started = time.perf_counter()
    verdict = await _decide(ctx, settings, request)
    verdict.seconds = round(time.perf_counter() - started, 4)
    return verdict


async def _decide(ctx: ToolContext, settings: GuardSettings, request: GuardRequest) -> GuardVerdict:
    event = request.event
    try:
        tool_input = _object(request.tool_input, "tool_input")
    except ValueError as exc:
        return GuardVerdict(event=event, decision="none", reason=f"malformed hook payload: {exc}")
    if request.command and "command" not in tool_input:
        tool_input["command"] = request.command
    action = host_action(request.tool_name, tool_input)
    if action is None:
        return GuardVerdict(event=event, decision="none", reason=f"{request.tool_name or 'this tool'} is not a tool the guard checks")
    try:
        with anyio.fail_after(settings.budget_seconds):
            if event == "post":
                return await _after(ctx, settings.policy, request, action)
            return await _before(ctx, settings, request, action)
    except TimeoutError:
        trouble = f"the guard's {settings.budget_seconds:g} s budget ran out"
    except ToolError as exc:  # the model is loading or failed, the action does not parse, ...
        trouble = str(exc)
    if event == "post":  # a post call never blocks the host
        return GuardVerdict(event=event, decision="none", reason=f"not recorded: {trouble}", domain=action.domain)
    return GuardVerdict(event=event, decision=settings.on_failure, domain=action.domain,
                        reason=f"agentworld guard could not decide ({trouble}); "
                               + ("ask the user" if settings.on_failure == "ask" else "no decision"))


async def _before(ctx: ToolContext, settings: GuardSettings, request: GuardRequest, action: HostAction) -> GuardVerdict:
    pack = ctx.domain(action.domain)
    rules = _rules(settings.policy, request.tool_name, action, pack)
    normalized = normalized_action(ctx, pack, action.action)
    checked = await run_checks(ctx, pre_constraints(rules), check_input(pack, normalized), Priority.INTERACTIVE)
    if fired := blocking(checked):
        return GuardVerdict(event="pre", decision="deny", domain=action.domain, rules=[r.id for r in fired],
                            reason="; ".join(f"{r.id}: {r.reason}" for r in fired))
    outcome_rules = post_constraints(rules)
    if not outcome_rules:
        return GuardVerdict(event="pre", decision="none", domain=action.domain, reason="no rule fired")
    world_id = _session_world(ctx, settings.policy, request, action)
    prediction = await simulate_action(ctx, SimulateRequest(
        world_id=world_id, action=action.action, commit=True, stop_on_violation=False,
        constraints=[rule.model_dump(exclude_none=True) for rule in outcome_rules]))
    tokens = prediction.usage.prompt_tokens + prediction.usage.completion_tokens
    head = "\n".join(prediction.observation.splitlines()[:_QUOTED_LINES])
    fired = blocking(prediction.constraints.results) if prediction.constraints else []
    if not fired:
        return GuardVerdict(event="pre", decision="none", domain=action.domain, world_id=world_id, predicted=head,
                            model_tokens=tokens, reason="no rule fired on the predicted outcome")
    return GuardVerdict(
        event="pre", decision=settings.policy.rules.on_predicted, domain=action.domain, world_id=world_id,
        rules=[r.id for r in fired], predicted=head, model_tokens=tokens,
        reason="; ".join(f"{r.id}: {r.reason}" for r in fired) + f". The world model predicts:\n{head}")


async def _after(ctx: ToolContext, policy: GuardPolicy, request: GuardRequest, action: HostAction) -> GuardVerdict:
    world_id = _session_world(ctx, policy, request, action)
    observation = observation_from_response(action, _response(request.tool_response))
    view = await record_reality(ctx, world_id, action.action, observation)
    recorded = view.recorded
    reason = (f"recorded as step {recorded.step}" + (f"; the prediction's similarity {recorded.similarity:.2f}"
                                                     if recorded.anchored and recorded.similarity is not None else ""))
    return GuardVerdict(event="post", decision="none", domain=action.domain, world_id=world_id, reason=reason,
                        drift=view.drift.model_dump())


def guard_sessions(ctx: ToolContext, limit: int = 20) -> list[dict[str, Any]]:
    """The most recent session worlds with their drift: similarity per compared step and the running mean."""
    sessions = []
    for row, count in ctx.store.worlds(limit=limit, prefix=_WORLD_PREFIX):
        compared = [step.similarity for step in ctx.store.steps(row.id) if step.similarity is not None]
        sessions.append({"world_id": row.id, "domain": row.domain, "steps": count, "similarity_per_step": compared,
                         "mean_similarity": round(sum(compared) / len(compared), 4) if compared else None})
    return sessions


def _rules(policy: GuardPolicy, tool_name: str, action: HostAction, pack: Any) -> list:
    file = policy.rules
    own = {preset["id"] for preset in pack.presets}
    names = [name for name in file.presets if name in own] if file.presets is not None else sorted(own)
    constraints = list(file.constraints)
    if section := file.tools.get(tool_name):
        names += [name for name in section.presets or [] if name in own and name not in names]
        constraints += section.constraints
    return constraint_set(pack, constraints, names)


def _session_world(ctx: ToolContext, policy: GuardPolicy, request: GuardRequest, action: HostAction) -> str:
    """One world per host session and domain (per MCP server for mcp), opened on first use and kept."""
    if ctx.store is None:
        raise ToolError("the guard keeps each session's world in the store; start the server with a --data-dir")
    session = _SESSION_CHARS.sub("-", request.session_id or "no-session")[:40]
    world_id = f"{_WORLD_PREFIX}{session}-{action.mcp_server or action.domain}"[:64]
    row = ctx.store.world(world_id)
    tools = _mcp_tools(policy, action, row.tools if row is not None else None)
    if row is None:
        ctx.store.create_world(action.domain, "", f"Working folder: {request.cwd}" if request.cwd else "", tools,
                               world_id=world_id)
    elif tools != row.tools:
        ctx.store.set_world_scene(world_id, row.state, tools)
    return world_id


def _mcp_tools(policy: GuardPolicy, action: HostAction, known: list | None) -> list | None:
    """The MCP server's tools as the policy gives them; a tool it does not list gets an open schema."""
    if action.domain != "mcp":
        return None
    tools = list(known or policy.rules.mcp_servers.get(action.mcp_server, []))
    name = json.loads(action.action)["name"]
    if not any(tool.get("name") == name for tool in tools):
        tools.append({"name": name, "description": "", "inputSchema": {"type": "object"}})
    return tools


def _object(value: Any, name: str) -> dict[str, Any]:
    """Hosts substitute objects as JSON text: either form is accepted."""
    if isinstance(value, dict):
        return dict(value)
    if value is None or value == "":
        return {}
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            raise ValueError(f"{name} is neither an object nor JSON text of one") from None
        if isinstance(parsed, dict):
            return parsed
    raise ValueError(f"{name} must be an object")


def _response(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value
