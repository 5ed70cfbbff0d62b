"""The unknown, judged by the world model: where the rules cannot tell what a call does (a verb no table reads, code
the guard cannot follow, a loss it cannot see) they ask the user; where a model is configured, the effects it
predicts for the call decide instead.

A predicted deletion denies, with the prediction as the reason; a predicted change to what exists is still asked
about (that the model names it says nothing of whether it can be undone); a prediction that the call succeeds and
only reads or creates passes. An empty list of changes is no evidence on its own: a prediction that does not say
the call succeeds (it fails, or the model cannot tell), or says nothing usable (no structured effects, a reply that
does not parse, a model that fails or runs out of time), leaves the question standing: what nobody could judge is
never passed.
"""

from __future__ import annotations

from ..results import Effects, Prediction
from .policy import GuardVerdict

_NAMED = 3  # entities named in a reason; the rest are counted


def predicted_effects(prediction: Prediction) -> Effects | None:
    """What the prediction says the call changes: a computed step's exact changes, else the model's own answer to
    the effects question (the command's semantics, which replace it in `effects`, are what could not tell)."""
    if prediction.parse_error is not None:
        return None
    if prediction.effects is not None and prediction.effects.source == "computed":
        return prediction.effects
    return prediction._model_effects


def judged(asked: GuardVerdict, effects: Effects | None) -> GuardVerdict:
    """The verdict on an undecided call (`asked`: the rules' question) once the world model has predicted it."""
    could_not = f"the rules alone could not tell: {_first_line(asked.reason)}"
    if effects is None:
        return asked.model_copy(update={"reason": f"{asked.reason}\nthe world model's prediction gave no effects to "
                                                  "judge by, so the question stands"})
    deleted = [change.entity for change in effects.changed if change.change == "deleted"]
    modified = [change.entity for change in effects.changed if change.change == "modified"]
    ids = f"[{', '.join(asked.rules)}; predicted]"
    if deleted:
        return asked.model_copy(update={"decision": "deny",
                                        "reason": f"the world model predicts this deletes {_names(deleted)} {ids}\n"
                                                  f"{could_not}"})
    if modified:
        return asked.model_copy(update={"reason": f"the world model predicts this changes {_names(modified)}; whether "
                                                  f"that loses anything is not known {ids}\n{could_not}"})
    if effects.success is not True:
        said = "fails" if effects.success is False else "does not say whether it succeeds"
        return asked.model_copy(update={"reason": f"{asked.reason}\nthe world model predicts it changes nothing but "
                                                  f"{said}: no evidence that it only reads, so the question stands"})
    created = [change.entity for change in effects.changed if change.change == "created"]
    outcome = f"creates only {_names(created)}" if created else "changes nothing"
    return asked.model_copy(update={"decision": "none", "rules": [], "rule_reasons": {},
                                    "reason": f"the world model predicts this {outcome}, so it passes\n{could_not}"})


def _names(entities: list[str]) -> str:
    shown = ", ".join(entities[:_NAMED])
    return shown + (f" and {len(entities) - _NAMED} more" if len(entities) > _NAMED else "")


def _first_line(reason: str) -> str:
    return reason.split("\n", 1)[0]
