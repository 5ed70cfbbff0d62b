"""Computed steps: a line the world's virtual shell determines becomes a prediction with exact content.

The screen comes from the domain (its prompt, the typed line, what the line printed, the next prompt),
the exit status and the changes from the virtual shell, and no model is asked: zero tokens. The step
is then history for later predictions like any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..domains import Turn
from ..domains.shell.virtual.shell import Outcome
from .inputs import Scene
from .results import Change, Effects, Prediction, Usage
from .state_check import command_effects
from .tracking import Tracker


def computed_prediction(scene: Scene, history: Sequence[Turn], action: str, tracker: Tracker
                        ) -> tuple[Prediction, Outcome] | None:
    """The step, computed, with the outcome the tracker advances by; None when it is the model's."""
    pack = scene.pack
    if pack.computed_screen is None or tracker.shell is None:
        return None
    outcome = tracker.compute(action)
    if outcome is None:
        return None
    known = tracker.shell.knowledge
    previous = history[-1].observation if history else ""
    screen = pack.computed_screen(previous, scene.state or pack.initial_state, outcome.line,
                                  outcome.stdout + outcome.stderr, known.cwd, outcome.cwd, known.home)
    if screen is None:
        return None
    error = outcome.stderr.strip().splitlines()[0] if outcome.exit_code and outcome.stderr.strip() else None
    effects = Effects(
        success=outcome.exit_code == 0, error=error, source="computed", exit_code=outcome.exit_code,
        changed=[Change(entity=c.path + ("/" if c.kind == "folder" else ""), change=c.change,  # type: ignore[arg-type]
                        kind=_kind(c.change)) for c in outcome.changes],
    )
    prediction = Prediction(observation=screen, effects=effects, parse_error=None, truncated=False,
                            usage=Usage.nothing(), model=None)
    return prediction, outcome


def _kind(change: str) -> str:
    return {"created": "created", "deleted": "deleted"}.get(change, "overwritten")


# Programs that print nothing when they succeed: a line of only these has a known screen once its
# effects are known (the prompt, the line, the next prompt).
_SILENT = frozenset({"mkdir", "touch", "rm", "rmdir", "cp", "mv", "cd", "ln", "chmod", "chown", "export", "true", ":"})


def rendered_from_effects(scene: Scene, history: Sequence[Turn], action: str, tracker: Tracker,
                          failed: Prediction) -> Prediction | None:
    """When the model gave no usable observation for a line whose effects its semantics know, and whose
    programs print nothing on success, the step as those effects render it (a warning says so); else None."""
    pack = scene.pack
    semantics = tracker.semantics(action)
    line = pack.shell_line(action) if pack.shell_line is not None else None
    if semantics is None or line is None or pack.computed_screen is None or semantics.opaque or \
            not semantics.programs or any(program not in _SILENT for program in semantics.programs) or \
            tracker.missing(semantics) or tracker.world is None:
        return None
    cwd = tracker.world.location.cwd
    home = tracker.world.location.home or cwd
    previous = history[-1].observation if history else ""
    screen = pack.computed_screen(previous, scene.state or pack.initial_state, line, "", cwd,
                                  semantics.cwd_after or cwd, home)
    if screen is None:
        return None
    effects = command_effects(semantics, True, None)
    prediction = Prediction(observation=screen, effects=effects, parse_error=None, raw=failed.raw or None,
                            truncated=failed.truncated, usage=failed.usage, model=failed.model,
                            warnings=[*failed.warnings, f"the world model gave no usable observation "
                                      f"({failed.parse_error}); the step shows what the command's own effects "
                                      "imply: it succeeds and prints nothing"])
    return prediction
