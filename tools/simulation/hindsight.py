"""Hindsight: what the model would have predicted for a step that really happened, measured.

A world recorded from reality can be checked step by step afterwards: the model predicts step k
from the real steps before it only (teacher-forced: it never sees step k's outcome), and the
prediction is kept beside reality with its similarity. This is how a twin in shadow mode learns
how far to trust the model, without making the agent wait for it.
"""

from __future__ import annotations

from ...domains import Turn
from ...engine import Priority
from ...engine.errors import InputError
from ..context import ToolContext
from ..inputs import validated_scene
from ..results import Prediction
from ..worlds.worlds import compare_observations, store_of
from .simulate import SamplingOverrides, predict


async def predict_recorded_step(
    ctx: ToolContext, world_id: str, position: int, overrides: SamplingOverrides = SamplingOverrides()
) -> tuple[Prediction, float | None]:
    """Predict real step `position` of a world from the steps before it and store the comparison.
    Returns the prediction and its similarity to reality (None when it could not be compared:
    no usable prediction, or the step was rewound away meanwhile)."""
    store = store_of(ctx)
    row = store.world(world_id)
    if row is None:
        raise InputError(f"unknown world {world_id!r}")
    steps = store.steps(world_id, up_to=position)
    if len(steps) != position or steps[-1].source != "real":
        raise InputError(f"world {world_id!r} has no real step {position}")
    scene = validated_scene(ctx, row.domain, row.state, row.task, row.tools)
    past = [Turn(step.action, step.observation, step.reply) for step in steps[:-1]]
    real = steps[-1]
    # Background work: a live agent's calls go first.
    prediction = await predict(ctx, scene, past, real.action, overrides, False, Priority.PLAN)
    if prediction.parse_error is not None:
        return prediction, None
    similarity, diff = compare_observations(prediction.observation, real.observation)
    kept = store.set_prediction(world_id, position, prediction.observation, similarity, diff)
    return prediction, similarity if kept else None
