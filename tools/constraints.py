"""Constraints: what must never happen, checked against actions and predicted outcomes.

Three kinds:
- `rule`: a CEL expression (the policy language of Kubernetes admission and Google IAM) that must
  evaluate to true; false means violated, anything else (or an evaluation failure) is `error`.
- `pattern`: a regular expression or glob over the action or the observation that describes
  what is forbidden; a match means violated.
- `judge`: a rule in plain language, decided by the world model under a JSON schema.

Rules and patterns run in microseconds and decide the same way every time; no Python `eval`
anywhere. Regular expressions run on CEL's engine (Rust's `regex`), which has no backtracking and
so runs in time linear in its input: a "catastrophic" pattern cannot hang the server.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import cel
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..domains import DomainPack, Turn
from ..domains.shell import Effect, Location, PathState, Semantics
from ..engine.errors import InputError, validation_line

MAX_EXPRESSION_CHARS = 2_000
MAX_PATTERN_CHARS = 1_000
MAX_MATCHED_CHARS = 200_000  # longer targets are checked on their first part, and say so
MAX_COMPREHENSIONS = 3  # CEL macros nest multiplicatively; three over bounded lists stay fast
MAX_CONSTRAINTS = 64
_COMPREHENSION = re.compile(r"\.(all|exists|exists_one|map|filter)\s*\(")
_READS_OUTCOME = re.compile(r"(?<!\.)\b(observation|effects)\b")  # `semantics.effects` is known before
_READS_SEMANTICS = re.compile(r"\bsemantics\b")
_NO_SEMANTICS = Semantics("", "", "").as_variables()

Status = Literal["holds", "violated", "unknown", "error"]


class Constraint(BaseModel):
    """One constraint as a caller writes it (JSON)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=100, description="A name for the constraint, quoted in results.")
    kind: Literal["rule", "pattern", "judge"]
    expr: str | None = Field(default=None, description="rule: a CEL expression that must be true.")
    pattern: str | None = Field(default=None, description="pattern: what is forbidden, as a regex (or glob).")
    syntax: Literal["regex", "glob"] = Field(default="regex", description="pattern: how to read `pattern`.")
    text: str | None = Field(default=None, description="judge: the rule in plain language.")
    target: Literal["action", "observation"] = Field(default="action", description="pattern: what it is matched on.")
    phase: Literal["pre", "post"] | None = Field(
        default=None, description="pre: on the action, before simulating (no model tokens); post: on the outcome."
    )
    severity: Literal["error", "warning"] = "error"
    description: str = ""
    decision: Literal["deny", "ask"] = Field(
        default="deny", description="What the guard answers when this rule is broken before the call: deny it, or "
                                    "ask the user (the harm rules that depend on judgement, such as lost work).")

    def resolved_phase(self) -> Literal["pre", "post"]:
        if self.phase is not None:
            return self.phase
        if self.kind == "pattern":
            return "post" if self.target == "observation" else "pre"
        if self.kind == "rule":
            return "post" if _READS_OUTCOME.search(self.expr or "") else "pre"
        return "post"  # a judge costs model tokens: it never runs in the zero-token pre pass by default


class Evidence(BaseModel):
    field: str = Field(description="The input the decision rests on: action, observation, effects, ...")
    step: int | None = Field(default=None, description="The plan step (1-based), when checking a plan.")
    excerpt: str | None = Field(default=None, description="The matching text, for patterns.")


class ConstraintResult(BaseModel):
    id: str = Field(description="The constraint's id (a preset's, or the one given).")
    kind: Literal["rule", "pattern", "judge"] = Field(description="How it is checked: a CEL rule, a pattern, or the "
                                                      "model as judge.")
    phase: Literal["pre", "post"] = Field(description="`pre`: checked on the action before any prediction; `post`: "
                                          "on the predicted outcome.")
    severity: Literal["error", "warning"] = Field(description="`error` violations stop a plan and set `violated`; "
                                                  "`warning` ones are reported only.")
    status: Status = Field(description="`holds`, `violated`, `unknown` (the inputs do not decide it) or `error` "
                           "(it could not be evaluated).")
    reason: str = Field(description="Why it has that status, in words.")
    evidence: Evidence | None = Field(default=None, description="What the status rests on: the field, the plan "
                                      "step, the matching text.")
    model_judged: bool = Field(description="True when the world model decided this (judge constraints).")


class ConstraintReport(BaseModel):
    violated: bool = Field(description="True when any constraint of severity error is violated.")
    results: list[ConstraintResult] = Field(description="One result per constraint checked, in order.")


@dataclass(frozen=True)
class CheckInput:
    """The variables a constraint sees. `observation` None means: not predicted (yet)."""

    domain: str
    action: str
    action_text: str
    parsed: Any
    observation: str | None = None
    effects: dict[str, Any] | None = None
    step: int | None = None
    history: tuple[dict[str, str], ...] = ()
    semantics: Semantics | None = None  # what the action does by its own definition (zero tokens)
    tool: dict[str, Any] | None = None  # mcp: the called tool's definition where the server's tools are known

    def variables(self, worst_case: bool = False) -> dict[str, Any]:
        known = self.semantics
        return {
            "semantics": (known.worst_case() if worst_case else known.as_variables()) if known else _NO_SEMANTICS,
            "domain": self.domain,
            "action": self.action_text,
            "parsed": self.parsed,
            "observation": self.observation or "",
            "effects": self.effects if self.effects is not None else {},
            "step": self.step or 1,
            "history": list(self.history),
            "tool": self.tool or {},
        }


# --- parsing and compiling -------------------------------------------------------------------
def parse_constraints(raw: Sequence[Any], presets: dict[str, Constraint], preset_names: Sequence[str]) -> list[Constraint]:
    """Caller constraints plus named presets, each compiled once; a bad one is an InputError."""
    unknown = [name for name in preset_names if name not in presets]
    if unknown:
        known = ", ".join(sorted(presets)) or "none"
        raise InputError(f"unknown preset(s) {', '.join(unknown)}; this domain's presets: {known}")
    constraints = [presets[name] for name in preset_names]
    for index, item in enumerate(raw):
        try:
            constraints.append(Constraint.model_validate(item))
        except ValidationError as exc:
            raise InputError(f"constraints[{index}]: {validation_line(exc, 'the constraint', most=1)}") from None
    if len(constraints) > MAX_CONSTRAINTS:
        raise InputError(f"{len(constraints)} constraints given; the limit is {MAX_CONSTRAINTS}")
    seen: set[str] = set()
    for constraint in constraints:
        if constraint.id in seen:
            raise InputError(f"constraint id {constraint.id!r} is used twice; ids must be unique")
        seen.add(constraint.id)
        _check_body(constraint)
    return constraints


def preset_problem(preset: Any) -> str | None:
    """Why a domain pack's preset cannot be used, or None; the pack loader asks once per preset."""
    try:
        constraint = Constraint.model_validate(preset)
    except ValidationError as exc:
        return validation_line(exc, "the preset", most=1)
    return _body_problem(constraint)  # the loader names the preset already


def _check_body(constraint: Constraint) -> None:
    problem = _body_problem(constraint)
    if problem is not None:
        raise InputError(f"constraint {constraint.id!r}: {problem}")


def _body_problem(constraint: Constraint) -> str | None:
    if constraint.kind == "rule":
        if not constraint.expr:
            return "a rule needs `expr`, a CEL expression that must be true"
        if len(constraint.expr) > MAX_EXPRESSION_CHARS:
            return f"expr is longer than {MAX_EXPRESSION_CHARS} characters"
        if len(_COMPREHENSION.findall(constraint.expr)) > MAX_COMPREHENSIONS:
            return f"expr uses more than {MAX_COMPREHENSIONS} comprehensions (all/exists/map/filter)"
        return _compile_problem(constraint.expr)
    if constraint.kind == "pattern":
        if not constraint.pattern:
            return "a pattern constraint needs `pattern`, what is forbidden"
        if len(constraint.pattern) > MAX_PATTERN_CHARS:
            return f"pattern is longer than {MAX_PATTERN_CHARS} characters"
        try:
            _REGEX_PROGRAM.execute({"text": "", "regex": _regex_of(constraint)})
        except Exception as exc:
            return f"the pattern is not a valid regular expression: {_first_line(exc)}"
        return None
    return None if constraint.text else "a judge constraint needs `text`, the rule in plain language"


@functools.lru_cache(maxsize=512)
def _compiled(expr: str) -> cel.Program:
    return cel.compile(expr)


def _compile_problem(expr: str) -> str | None:
    try:
        _compiled(expr)
    except ValueError as exc:
        position = re.search(r"<input>:(\d+):(\d+)", str(exc))
        where = f" at line {position.group(1)}, column {position.group(2)}" if position else ""
        detail = str(exc).split("Syntax error:", 1)[-1].split("\n", 1)[0].strip()
        return f"the CEL expression does not compile{where}: {detail}"
    return None


_REGEX_PROGRAM = cel.compile("text.matches(regex)")


def _regex_of(constraint: Constraint) -> str:
    pattern = constraint.pattern or ""
    return _glob_to_regex(pattern) if constraint.syntax == "glob" else pattern


def _glob_to_regex(glob: str) -> str:
    """`*` any run of characters, `?` one character, `[...]` a class; matched anywhere in the text."""
    out, index = [], 0
    while index < len(glob):
        char = glob[index]
        if char == "*":
            out.append(".*")
        elif char == "?":
            out.append(".")
        elif char == "[" and "]" in glob[index + 1 :]:
            end = glob.index("]", index + 1)
            body = glob[index + 1 : end]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]")
            index = end
        else:
            out.append(re.escape(char))
        index += 1
    return "(?s)" + "".join(out)


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


# --- evaluation ------------------------------------------------------------------------------
def evaluate(constraint: Constraint, check: CheckInput) -> ConstraintResult:
    """A rule or pattern decided deterministically (judges go through `judge_prompt`)."""
    phase = constraint.resolved_phase()

    def result(status: Status, reason: str, evidence: Evidence | None = None) -> ConstraintResult:
        return ConstraintResult(
            id=constraint.id, kind=constraint.kind, phase=phase, severity=constraint.severity,
            status=status, reason=reason, evidence=evidence, model_judged=False,
        )

    if phase == "post" and check.observation is None:
        return result("unknown", "needs a predicted outcome (observation/effects), and none was given")
    if constraint.kind == "rule":
        try:
            value = _compiled(constraint.expr or "").execute(check.variables())
        except Exception as exc:  # undefined variable, type mismatch, division by zero...
            return result("error", f"the expression failed to evaluate: {_first_line(exc)}", Evidence(field="expr", step=check.step))
        if value is True and (unknown := _undecided(constraint, check)):
            return result("unknown", unknown, Evidence(field="semantics", step=check.step))
        if value is True:
            return result("holds", "the expression is true")
        if value is False:
            reason = constraint.description or f"the rule `{constraint.expr}` is false"
            return result("violated", reason + _culprits(constraint, check),
                          Evidence(field=_fields_read(constraint.expr or ""), step=check.step))
        return result("error", f"the expression must be true or false, not {type(value).__name__} {value!r:.80}")
    # pattern
    text = check.action_text if constraint.target == "action" else (check.observation or "")
    clipped = len(text) > MAX_MATCHED_CHARS
    regex = _regex_of(constraint)
    match = _search(regex, text[:MAX_MATCHED_CHARS])
    note = f" (checked the first {MAX_MATCHED_CHARS} characters only)" if clipped else ""
    if match is None:
        return result("holds", f"no match in the {constraint.target}{note}")
    return result(
        "violated",
        (constraint.description or f"the {constraint.target} matches the forbidden pattern {constraint.pattern!r}") + note,
        Evidence(field=constraint.target, step=check.step, excerpt=match),
    )


def _undecided(constraint: Constraint, check: CheckInput) -> str | None:
    """Why a rule over `semantics` that holds on what is known could still be broken: it fails when
    every unknown is at its worst (an opaque part that could delete or overwrite, a path of unknown place)."""
    known = check.semantics
    if known is None or not _READS_SEMANTICS.search(constraint.expr or ""):
        return None
    unknown_places = [e for e in known.effects if e.where == "unknown" and e.path]
    unseen = [e for e in known.effects if e.loss == "unknown"]
    if not known.risky_opaque and not unknown_places and not unseen:
        return None
    try:
        worst = _compiled(constraint.expr or "").execute(check.variables(worst_case=True))
    except Exception:
        return None
    if worst is not False:
        return None
    named = [f"{part.text} ({part.reason})" for part in known.risky_opaque[:2]] or [
        f"{effect.program} {effect.kind} {effect.path}, a path the line does not spell out" for effect in unknown_places[:2]
    ] or [f"{effect.program} {effect.kind} {effect.path}: what it would lose is unknown ({effect.fact})"
          for effect in unseen[:2]]
    return "cannot be decided from the command alone: " + "; ".join(named)


def _culprits(constraint: Constraint, check: CheckInput) -> str:
    """For a rule over `semantics`: the effects that break it on their own, named for the agent."""
    named = [effect_words(effect) for effect in culprits(constraint, check)]
    return f" ({'; '.join(named[:3])})" if named else ""


def culprits(constraint: Constraint, check: CheckInput) -> list[Effect]:
    """The effects that break a rule over `semantics` on their own (none for a rule that reads anything else)."""
    known = check.semantics
    if known is None or not _READS_SEMANTICS.search(constraint.expr or ""):
        return []
    program, variables, found = _compiled(constraint.expr or ""), check.variables(), []
    for effect in known.effects:
        alone = {**variables, "semantics": {**variables["semantics"], "effects": [effect.as_dict()]}}
        try:
            if program.execute(alone) is False:
                found.append(effect)
        except Exception:
            continue
    return found


def effect_words(effect: Effect) -> str:
    """An effect as the agent reads it: `rm: deleted tree /x [what the workspace says it loses]`."""
    place = " ".join(part for part in (effect.path, f"({effect.target})" if effect.target else "",
                                       f"[{effect.fact}]" if effect.fact else "") if part)
    return f"{effect.program}: {effect.kind}{' tree' if effect.tree else ''} {place}".rstrip()


def _search(regex: str, text: str) -> str | None:
    """The matching line (for evidence), or None. Linear time: both calls run on the Rust engine."""
    if not _REGEX_PROGRAM.execute({"text": text, "regex": regex}):
        return None
    for line in text.splitlines() or [text]:
        if _REGEX_PROGRAM.execute({"text": line, "regex": regex}):
            return line[:300]
    return text[:300]  # the match spans lines


def _fields_read(expr: str) -> str:
    read = [name for name in ("action", "parsed", "semantics", "observation", "effects", "history", "step", "domain")
            if re.search(rf"(?<!\.)\b{name}\b", expr)]
    return ", ".join(read) or "expr"


def report(results: Sequence[ConstraintResult]) -> ConstraintReport:
    return ConstraintReport(
        violated=any(r.status == "violated" and r.severity == "error" for r in results), results=list(results)
    )


# --- a domain's constraints, and what they see (no model: the guard's hook imports only this) ---
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
    location: Location | None = None,
    state: PathState | None = None,
    semantics: Semantics | None = None,
    tool: dict[str, Any] | None = None,
) -> CheckInput:
    """`action` is already normalized by the pack (when there is one). Its semantics are derived here
    unless given: in `location` (default: where the domain's initial state puts the shell), knowing `state`."""
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
        semantics=semantics if semantics is not None else action_semantics(pack, action, location, state),
        tool=tool,
    )


def action_semantics(pack: DomainPack | None, action: str, location: Location | None = None,
                     state: PathState | None = None) -> Semantics | None:
    """What a normalized action does by its pack's own definition, or None where the pack does not say."""
    if pack is None or pack.semantics is None:
        return None
    place = location or pack.location or Location("/")
    return pack.semantics(action, place, state)


def pre_constraints(constraints: Sequence[Constraint]) -> list[Constraint]:
    return [c for c in constraints if c.resolved_phase() == "pre"]


def post_constraints(constraints: Sequence[Constraint]) -> list[Constraint]:
    return [c for c in constraints if c.resolved_phase() == "post"]


def violations(results: Sequence[ConstraintResult]) -> list[ConstraintResult]:
    """What a verdict reports: everything that was violated or could not be decided by error."""
    return [r for r in results if r.status in ("violated", "error")]


def blocking(results: Sequence[ConstraintResult]) -> list[ConstraintResult]:
    return [r for r in results if r.status == "violated" and r.severity == "error"]
