"""The guard's model-free half: its policy, its verdict, and the zero-token pass before a call.

Nothing here loads a model or the MCP SDK, so the `hook` command (started by a host before every
tool call) can decide what rules alone decide in milliseconds. tools/guard/guard.py adds the rest: the
prediction where a rule reads the outcome, and recording reality afterwards.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...domains import ActionError, DomainPack
from ...domains.shell import Location, Semantics
from ...engine.errors import ConfigurationError, validation_line
from ..constraints import (
    Constraint,
    action_semantics,
    blocking,
    check_input,
    constraint_set,
    evaluate,
    post_constraints,
    pre_constraints,
)
from ..requests import GuardRequest
from .answer import answer
from .host_actions import HostAction, host_action
from .workspace_loss import Workspace, assess

Decision = Literal["deny", "ask", "none"]
# Presets that restrict what an agent may do at all rather than guard against harm: only by policy.
_NOT_BY_DEFAULT = {"read-only-tools"}


class PolicyError(ConfigurationError, ValueError):
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
    decisions: dict[str, Literal["deny", "ask"]] = Field(
        default_factory=dict, description="A rule's decision by its id, over the preset's own: "
                                          '{"no-remote-destruction": "deny"}.')
    unknown: Decision = Field(default="ask", description="What a rule gives when a part of the command it needs cannot "
                                                         "be known from the text (interpreter code, xargs rm, $PROGRAM).")
    judge_unknown: bool = Field(default=True, description="Where a world model is configured (the server's guard "
                                "tool, the hook's --url), its predicted effects decide what `unknown` would ask about: "
                                "a predicted deletion denies, a predicted successful read or creation passes. false: "
                                "always ask.")

    @property
    def model_judges_unknown(self) -> bool:
        """Whether a configured world model answers what the rules would ask about as unknown."""
        return self.judge_unknown and self.unknown == "ask"


@dataclass(frozen=True)
class GuardPolicy:
    rules: PolicyFile = field(default_factory=PolicyFile)
    source: str = "each domain's presets"


@dataclass(frozen=True)
class GuardSettings:
    policy: GuardPolicy = field(default_factory=GuardPolicy)
    budget_seconds: float = 10.0
    on_failure: Literal["ask", "none"] = "none"


class GuardVerdict(BaseModel):
    """The host-neutral decision; a host format turns it into that host's document."""

    event: Literal["pre", "post"] = Field(description="`pre`: before the tool call runs; `post`: after, with its "
                                          "real output.")
    decision: Decision = Field(description="deny | ask | none (no decision: the host's own permission rules apply).")
    reason: str = Field(default="", description="Why, in words the host shows: one line of what would be lost and "
                        "why, then the fired rules' ids; a second line names a safer form where one exists.")
    rules: list[str] = Field(default_factory=list, description="The ids of the rules that fired.")
    rule_reasons: dict[str, str] = Field(default_factory=dict, description="Each fired rule's whole reason by its "
                                         "id: its description, then the effects that broke it.")
    domain: str | None = Field(default=None, description="The domain the tool call was read in (`terminal` for a "
                               "shell command, `mcp` for an MCP tool); null when none applies.")
    world_id: str | None = Field(default=None, description="The session's world, when the call was simulated or "
                                 "recorded in one.")
    predicted: str | None = Field(default=None, description="The first lines of the predicted observation, if simulated.")
    model_tokens: int = Field(default=0, description="Tokens the model spent on this decision (0: rules alone).")
    seconds: float = Field(default=0.0, description="Seconds the decision took at the server.")
    drift: dict[str, Any] | None = Field(default=None, description="post: the session world's drift from reality.")


LOCAL_POLICY = Path(".agentworld") / "policy.json"  # a project's own guard policy, in its working folder


def policy_path(given: Path | None) -> Path | None:
    """The policy to load: the one given, else the working folder's own if it has one, else none."""
    return given or (LOCAL_POLICY if LOCAL_POLICY.is_file() else None)


def load_policy(path: Path | None, domains: dict[str, DomainPack]) -> GuardPolicy:
    """The policy at `path` (or the default when None), checked against the domains; raises PolicyError."""
    if path is None:
        return GuardPolicy()
    try:
        rules = PolicyFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except OSError as exc:
        raise PolicyError(f"policy {path}: cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise PolicyError(f"policy {path}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except json.JSONDecodeError as exc:
        raise PolicyError(f"policy {path}:{exc.lineno}: not valid JSON ({exc.msg} at column {exc.colno})") from None
    except ValueError as exc:  # JSON or shape
        where = validation_line(exc, "the file", most=1) if isinstance(exc, ValidationError) else str(exc)
        raise PolicyError(f"policy {path}: {where}") from None
    known = {preset["id"] for pack in domains.values() for preset in pack.presets}
    named = [*(rules.presets or []), *(name for section in rules.tools.values() for name in section.presets or [])]
    if unknown := sorted(set(named) - known):
        raise PolicyError(f"policy {path}: unknown preset(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    ids = known | {str(c.get("id")) for c in rules.constraints} | {
        str(c.get("id")) for section in rules.tools.values() for c in section.constraints}
    if unknown := sorted(set(rules.decisions) - ids):
        raise PolicyError(f"policy {path}: decisions name unknown rule(s) {', '.join(unknown)}")
    for where, constraints in (("constraints", rules.constraints),
                               *((f"tools.{name}.constraints", s.constraints) for name, s in rules.tools.items())):
        try:
            constraint_set(None, constraints, [])
        except Exception as exc:  # the constraint checker's own message, written for the agent
            raise PolicyError(f"policy {path}: {where}: {exc}") from None
    return GuardPolicy(rules, str(path))


@dataclass(frozen=True)
class PreCheck:
    """What the rules alone say about a call before it runs."""

    action: HostAction
    verdict: GuardVerdict | None  # decided without the model (a denial); None: no rule fired
    outcome_rules: list[Constraint]  # the rules that need the prediction
    # The verdict stops the call only because the rules could not tell what it does (no rule is broken): where a
    # world model is configured, its predicted effects decide instead (tools/guard/unknown_judged.py).
    undecided: bool = False


def parsed_call(request: GuardRequest) -> tuple[HostAction | None, GuardVerdict | None]:
    """The host call as a domain action, or the no-decision verdict that says why there is none."""
    try:
        tool_input = tool_input_object(request.tool_input)
    except ValueError as exc:
        return None, GuardVerdict(event=request.event, decision="none", reason=f"malformed hook payload: {exc}")
    if request.command and "command" not in tool_input:
        tool_input["command"] = request.command
    action = host_action(request.tool_name, tool_input, reads=True)
    if action is None:
        reason = f"{request.tool_name or 'this tool'} is not a tool the guard checks"
        return None, GuardVerdict(event=request.event, decision="none", reason=reason)
    return action, None


def zero_token_check(policy: GuardPolicy, request: GuardRequest, action: HostAction, pack: DomainPack,
                     workspace: Workspace | None = None) -> PreCheck:
    """The policy's rules that need no outcome, on the action; raises ValueError if the action does not parse.
    `workspace`: the real folder the call runs in, which decides what a loss costs (None: not looked at)."""
    rules = rule_set(policy, request.tool_name, pack)
    try:
        normalized = pack.normalize_action(action.action)
    except ActionError as exc:
        raise ValueError(f"the {pack.name} action does not parse: {exc}") from None
    location = host_location(request, pack)
    disk = workspace if workspace is not None and not workspace.unseen else None
    semantics = action_semantics(pack, normalized, location, disk)
    if semantics is not None:
        semantics = assess(semantics, workspace)
    check = check_input(pack, normalized, location=location, semantics=semantics, tool=_tool_definition(policy, action))
    decision_of = {rule.id: policy.rules.decisions.get(rule.id, rule.decision) for rule in rules}
    results = [evaluate(rule, check) for rule in pre_constraints(rules) if rule.kind != "judge"]
    # A broken rule gives its own decision (deny, or ask for the harm rules); one that cannot be decided, the policy's.
    stops = [(r, decision_of[r.id]) for r in blocking(results)]
    if policy.rules.unknown != "none":
        stops += [(r, policy.rules.unknown) for r in results if r.status == "unknown" and r.severity == "error"]
    verdict, undecided = None, bool(stops) and not blocking(results) and _only_what_is_unknown(semantics)
    if stops:
        decision: Decision = "deny" if any(decision == "deny" for _, decision in stops) else "ask"
        by_id = {rule.id: rule for rule in rules}
        verdict = GuardVerdict(event="pre", decision=decision, domain=action.domain, rules=[r.id for r, _ in stops],
                               reason=answer([(by_id[r.id], r) for r, _ in stops], check),
                               rule_reasons={r.id: r.reason for r, _ in stops})
    # A judge before the call needs the model too, like a rule on the outcome; a warning never changes the decision.
    # A read changes nothing, so no outcome of it needs predicting.
    needs_model = [] if action.kind == "read" else [
        rule for rule in (*post_constraints(rules), *(r for r in pre_constraints(rules) if r.kind == "judge"))
        if rule.severity == "error"]
    return PreCheck(action, verdict, needs_model, undecided)


def _only_what_is_unknown(semantics: Semantics | None) -> bool:
    """The rules could not tell only what a part of the call does (code, a program or verb no table reads, SQL that
    does not parse), which a prediction can tell. An effect the call is known to have, in a place the text does not
    spell out or at a cost the guard cannot see, stays a question: no prediction may pass a known deletion."""
    if semantics is None:
        return False
    unread = [e for e in semantics.effects if e.kind == "remote-destruction" and e.loss == "unknown"]
    unseen = [e for e in semantics.effects if (e.where == "unknown" and e.path) or
              (e.loss == "unknown" and e.kind != "remote-destruction")]
    return bool(semantics.risky_opaque or unread) and not unseen


def _tool_definition(policy: GuardPolicy, action: HostAction) -> dict[str, Any] | None:
    """An MCP call's tool as the policy's `mcp_servers` lists it (its annotations decide before its name)."""
    if action.kind != "mcp":
        return None
    name = json.loads(action.action)["name"]
    return next((tool for tool in policy.rules.mcp_servers.get(action.mcp_server, []) if tool.get("name") == name),
                None)


def host_location(request: GuardRequest, pack: DomainPack) -> Location | None:
    """The host's working folder is the workspace; without one, where the domain's initial state puts the shell."""
    if request.cwd and request.cwd.startswith("/"):
        return Location(request.cwd, os.environ.get("HOME", ""))  # the host runs on this machine: its ~ is ours
    return pack.location


def rule_set(policy: GuardPolicy, tool_name: str, pack: DomainPack) -> list[Constraint]:
    file = policy.rules
    own = {preset["id"] for preset in pack.presets}
    default = sorted(own - _NOT_BY_DEFAULT)
    names = [name for name in file.presets if name in own] if file.presets is not None else default
    constraints = list(file.constraints)
    if section := file.tools.get(tool_name):
        names += [name for name in section.presets or [] if name in own and name not in names]
        constraints += section.constraints
    return constraint_set(pack, constraints, names)


def tool_input_object(value: Any) -> dict[str, Any]:
    """Hosts substitute objects as JSON text: either form is accepted."""
    if isinstance(value, dict):
        return dict(value)
    if value is None or value == "":
        return {}
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            raise ValueError("tool_input is neither an object nor JSON text of one") from None
        if isinstance(parsed, dict):
            return parsed
    raise ValueError("tool_input must be an object")
