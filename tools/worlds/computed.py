"""Computed steps: a step the world's virtual shell determines becomes a prediction with exact content.

The observation comes from the domain (a terminal's screen: its prompt, the typed line, what the line
printed, the next prompt; a coding tool's output and exit code, or a file tool's own text), the exit
status and the changes from the virtual shell, and no model is asked: zero tokens. The step is then
history for later predictions like any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...domains import Turn
from ...domains.shell.world.screen import ShellStep
from ...domains.shell.virtual.shell import Outcome
from ..inputs import Scene
from ..results import Change, Effects, Prediction, Usage
from .state_check import command_effects
from .tracking import Tracker

# Programs that print nothing when they succeed: a line of only these has a known screen once its
# effects are known (the prompt, the line, the next prompt).
_SILENT = frozenset({"mkdir", "touch", "rm", "rmdir", "cp", "mv", "cd", "ln", "chmod", "chown", "export", "true", ":"})


def computed_prediction(scene: Scene, history: Sequence[Turn], action: str, tracker: Tracker
                        ) -> tuple[Prediction, Outcome] | None:
    """The step, computed, with the outcome the tracker advances by; None when it is the model's."""
    pack = scene.pack
    if tracker.shell is None:
        return None
    outcome = tracker.compute(action)
    if outcome is None:
        return None
    known = tracker.shell.knowledge
    observation = outcome.observation
    # Where the world does not know which folder the shell stands in, the prompt that shows it is the model's to
    # draw: the step is predicted, and the tracker keeps its exact outcome (Tracker._screenless).
    if observation is None and pack.computed_screen is not None and outcome.cwd_known:
        step = ShellStep(outcome.line, outcome.stdout + outcome.stderr, outcome.exit_code, known.cwd, outcome.cwd,
                         known.home, outcome.cwd == known.cwd and outcome.after.variables == known.variables)
        observation = pack.computed_screen(_previous(history), scene.state or pack.initial_state, step)
    if observation is None:
        return None
    error = outcome.stderr.strip().splitlines()[0] if outcome.exit_code and outcome.stderr.strip() else None
    effects = Effects(
        success=outcome.exit_code == 0, error=error, source="computed", exit_code=outcome.exit_code,
        changed=[Change(entity=c.path, change=c.change,  # type: ignore[arg-type]
                        kind={"created": "created", "deleted": "deleted"}.get(c.change, "overwritten"))
                 for c in outcome.changes],
    )
    prediction = Prediction(observation=observation, effects=effects, parse_error=None, truncated=False,
                            usage=Usage.nothing(), model=None)
    return prediction, outcome


def rendered_from_effects(scene: Scene, history: Sequence[Turn], action: str, tracker: Tracker,
                          failed: Prediction) -> Prediction | None:
    """When the model gave no usable observation for a line whose effects its semantics know, and whose
    programs print nothing on success, the step as those effects render it (a warning says so); else None."""
    pack = scene.pack
    semantics = tracker.semantics(action)
    line = pack.shell_line(action) if pack.shell_line is not None else None
    if semantics is None or line is None or pack.computed_screen is None or semantics.opaque or \
            not semantics.programs or any(program not in _SILENT for program in semantics.programs) or \
            tracker.missing(semantics) or tracker.knowledge is None:
        return None
    cwd = tracker.knowledge.cwd
    after = semantics.cwd_after or cwd
    step = ShellStep(line, "", 0, cwd, after, tracker.knowledge.location.home or cwd, after == cwd)
    screen = pack.computed_screen(_previous(history), scene.state or pack.initial_state, step)
    if screen is None:
        return None
    return Prediction(observation=screen, effects=command_effects(semantics, True, None), parse_error=None,
                      raw=failed.raw or None, truncated=failed.truncated, usage=failed.usage, model=failed.model,
                      warnings=[*failed.warnings, f"the world model gave no usable observation ({failed.parse_error}); "
                                "the step shows what the command's own effects imply: it succeeds and prints nothing"])


def _previous(history: Sequence[Turn]) -> str:
    return history[-1].observation if history else ""
