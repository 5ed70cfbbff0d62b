"""A prediction checked against the world's known files.

A command that needs a path the world knows is absent (`cat gone.txt`, `rm gone.txt`, `cd gone`)
fails, and the program itself defines the line it prints. If the predicted screen does not show
that failure, the model is asked once more with the state as a hint; if it still disagrees, the
prediction is corrected: its effects, and on a terminal its screen, where the error line is the
program's own. A warning says so. `--state-check warn` only warns; `off` leaves predictions alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ...domains import DomainPack
from ...domains.boundaries import prompt_prefix
from ...domains.effects import first_error_line
from ...domains.shell import FILE_KINDS, Requirement, Semantics
from ..results import Change, Effects

_CHANGE: dict[str, Literal["created", "modified", "deleted"]] = {
    "created": "created", "moved-to": "created", "deleted": "deleted", "moved-from": "deleted"}


def command_effects(semantics: Semantics, success: bool | None, error: str | None) -> Effects:
    """Effects from the command itself; whether it failed, and how, from the screen."""
    changed = [Change(entity=e.path, change=_CHANGE.get(e.kind, "modified"), kind=e.kind, tree=e.tree or None,
                      pattern=e.pattern or None)
               for e in semantics.files() if e.path]
    return Effects(success=success, error=error, changed=changed, source="command",
                   other=[_other(e) for e in semantics.effects if e.kind not in FILE_KINDS],
                   opaque=[f"{part.text}: {part.reason}" for part in semantics.opaque])


def _other(effect) -> str:
    where = effect.path or effect.target
    return f"{effect.kind}: {where}" + (f" ({effect.target})" if effect.path and effect.target else "")


def shows_failure(observation: str, previous: str, missing: Sequence[Requirement], markers: Sequence[str]) -> bool:
    """The new part of the screen shows each missing operand's failure: its error line, or an error naming it."""
    new = new_part(observation, previous)
    for requirement in missing:
        if requirement.error in new:
            continue
        lines = [line for line in new.splitlines() if requirement.operand in line]
        if not any(first_error_line(line, markers) for line in lines):
            return False
    return True


def hint(note: str, missing: Sequence[Requirement]) -> str:
    facts = "; ".join(dict.fromkeys(_fact(r) for r in missing))
    return (note + "\n" if note else "") + f"Note: {facts}."


def _fact(requirement: Requirement) -> str:
    if requirement.condition == "absent":
        return f"{requirement.operand} already exists"
    if requirement.condition == "empty":
        return f"{requirement.operand} is not empty"
    return f"{requirement.operand} does not exist"


def corrected_screen(pack: DomainPack, observation: str, previous: str, typed: str,
                     missing: Sequence[Requirement]) -> str | None:
    """A terminal screen with the programs' own error lines after the echoed command, then the prompt."""
    if pack.observation_end != "shell-prompt":
        return None
    command = typed.strip().splitlines()[0] if typed.strip() else ""
    lines = observation.splitlines()
    echoes = [index for index, line in enumerate(lines) if command and line.rstrip().endswith(command)]
    if echoes:
        head = lines[: echoes[-1] + 1]
        prompt = head[-1].rstrip()[: -len(command)]
    else:  # the model never echoed the command: the screen so far, then the prompt and the command
        before = previous.rstrip().splitlines() or lines
        prompt = prompt_prefix(before[-1]) if before else ""
        prompt = prompt or "$ "
        head = [*previous.rstrip().splitlines(), f"{prompt}{command}"]
    errors = list(dict.fromkeys(r.error for r in missing))
    return "\n".join([*head, *errors, prompt.rstrip()])


def new_part(observation: str, previous: str) -> str:
    if previous.strip() and observation.startswith(previous.rstrip()):
        return observation[len(previous.rstrip()):]
    return observation


def first_failing(missing: Sequence[Requirement]) -> list[int]:
    return sorted({requirement.command for requirement in missing})


def mismatch_warning(missing: Sequence[Requirement], corrected: bool, screen_corrected: bool) -> str:
    named = "; ".join(f"{r.error}" for r in missing[:3])
    if screen_corrected:
        action = "the prediction was corrected: the program's own error line, and no effects for what did not run"
    elif corrected:
        action = ("its effects were corrected (nothing that did not run); the observation is the model's, since this "
                  "domain's error text is not a program's own")
    else:
        action = "the prediction was left as the model gave it"
    return f"the world's known files say this step fails ({named}), but the model predicted otherwise; {action}"
