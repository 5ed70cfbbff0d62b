"""Worlds: a domain, a task and initial state, simulated tools (mcp) and a history of steps, kept.

An agent opens a world once and then sends only actions. Worlds fork at any step (what-if
branches that share the past), rewind, and stay anchored to reality: after the agent really runs
an action it records the real observation, the world continues from it, and the server reports
how far the prediction was from what happened (the world's drift).
"""

from __future__ import annotations

import asyncio
import difflib
import hashlib
import json
import logging
import os
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio

from ...domains import Turn
from ...engine.errors import ConfigurationError, InputError
from ..constraints import ConstraintResult
from ..context import ToolContext
from ..data.redaction import Redactor
from ..data.session_split import session_key
from ..data.similarity import similarity
from ..inputs import Scene, normalized_action, validated_history, validated_scene
from ..requests import WorldRequest
from ..results import Drift, Prediction, RecordResult, WorldStep, WorldView
from .folder_snapshot import FolderSnapshot, take_snapshot
from .store import StepRow, Store, WorldRow
from .tracking import Tracker

_MAX_DIFF_CHARS = 20_000  # difflib's diff is quadratic; the first 20k characters are plenty to read
_MAX_DIFF_LINES = 24
# A world whose predictions match reality less than this on average is logged when it falls below:
# its simulations have stopped being a fair rehearsal.
DRIFT_WARNING = 0.5
_KEPT_TRACKERS = 256  # worlds whose last tracker is kept, so a call replays only the steps since

log = logging.getLogger(__name__)


def store_of(ctx: ToolContext) -> Store:
    """The server's world store; without one, worlds cannot be used and the error says how to get one."""
    if ctx.store is None:
        raise ConfigurationError("this server runs without a world store; start it with a --data-dir or a --store")
    return ctx.store


def _row(ctx: ToolContext, world_id: str) -> WorldRow:
    row = store_of(ctx).world(world_id)
    if row is None:
        raise InputError(f"unknown world {world_id!r}; open one with the world tool (operation 'open')")
    return row


def _open_row(ctx: ToolContext, world_id: str) -> WorldRow:
    row = _row(ctx, world_id)
    if row.closed:
        raise InputError(f"world {world_id!r} is closed; fork it to continue from its history")
    return row


@dataclass
class WorldSession:
    """A world held for one step or rollout; `commit` appends predicted steps to it."""

    ctx: ToolContext
    row: WorldRow
    scene: Scene
    turns: list[Turn]
    tracker: Tracker

    def commit(self, steps: Sequence[tuple[str, Prediction, Sequence[ConstraintResult]]]) -> None:
        """Each step: its action, its prediction, and the constraint verdicts it got (kept for viewing).
        A step the world cannot keep (no usable observation, or blocked) is never dropped in silence: its
        prediction says `committed: false` and why, and so does every step after it."""
        store = store_of(self.ctx)
        start = len(store.steps(self.row.id))
        rows: list[StepRow] = []
        why = ""
        for action, p, verdicts in steps:
            if not why and (p.parse_error is not None or p.blocked is not None):
                why = (f"the world model gave no usable observation ({p.parse_error})" if p.parse_error is not None
                       else f"the step was not simulated ({p.blocked})")
                p.committed = False
                p.warnings.append(f"not committed: {why}; the world is unchanged by this step, so try it again "
                                  "(another seed or more max_tokens) or record what really happened")
            elif why:
                p.committed = False
                p.warnings.append("not committed: an earlier step of this call was not, and this one follows it")
            else:
                p.committed = True
                rows.append(StepRow(start + len(rows) + 1, action, p.observation, p.observation, p.effects.model_dump(),
                                    "predicted", None, None, p.history_turn(action).reply, _details(p, verdicts)))
        store.append_steps(self.row.id, rows)


def _details(prediction: Prediction, verdicts: Sequence[ConstraintResult]) -> dict[str, Any]:
    return {
        "usage": prediction.usage.model_dump(),
        "constraints": [verdict.model_dump() for verdict in verdicts],
        "warnings": list(prediction.warnings),
        "state_note": prediction.history_turn("").note,
        "examples": prediction.history_turn("").examples,
    }


def _lock(ctx: ToolContext, world_id: str) -> asyncio.Lock:
    return ctx.world_locks.setdefault(world_id, asyncio.Lock())


@asynccontextmanager
async def _held_across_processes(ctx: ToolContext, world_id: str) -> AsyncIterator[None]:
    """A store other servers share holds the world in the database for the step, so replicas take turns."""
    if ctx.store is None or not ctx.store.shared:
        yield
        return
    with anyio.CancelScope(shield=True):  # a hold taken while the call is cancelled must still be let go
        release = await anyio.to_thread.run_sync(ctx.store.hold_world, world_id)
    try:
        yield
    finally:
        release()


@asynccontextmanager
async def world_session(ctx: ToolContext, world_id: str, domain: str = "") -> AsyncIterator[WorldSession]:
    """Hold a world for a step: steps on one world run one at a time (in this process, and across the servers
    that share a PostgreSQL store), other worlds are not held up."""
    async with _lock(ctx, world_id), _held_across_processes(ctx, world_id):
        row = _open_row(ctx, world_id)
        if domain and domain != row.domain:
            raise InputError(f"world {world_id!r} simulates domain {row.domain!r}, not {domain!r}")
        scene = validated_scene(ctx, row.domain, row.state, row.task, row.tools)
        steps = store_of(ctx).steps(world_id)
        turns = [Turn(step.action, step.observation, step.reply, (step.details or {}).get("state_note", ""),
                      (step.details or {}).get("examples", "")) for step in steps]
        yield WorldSession(ctx, row, scene, turns, _replayed(ctx, row, scene, turns, steps))


def _replayed(ctx: ToolContext, row: WorldRow, scene: Scene, turns: Sequence[Turn],
              steps: Sequence[StepRow]) -> Tracker:
    """The world's tracker after its steps. Replaying runs every computed step again, so the tracker of the
    world's last call is kept, and only the steps stored since are replayed onto a copy of it."""
    digests, chain = [], hashlib.sha256(f"{row.id}|{row.state}|{ctx.computed}".encode())
    for step in steps:
        chain.update(json.dumps([step.position, step.action, step.observation, step.source,
                                 (step.effects or {}).get("source")]).encode())
        digests.append(chain.copy().hexdigest())
    known = ctx.trackers.get(row.id)
    if known is not None and 0 < known[0] <= len(steps) and digests[known[0] - 1] == known[1]:
        tracker, done = known[2].copy(), known[0]
    else:
        snapshot = (row.origin or {}).get("snapshot")
        tracker = Tracker.replay(scene.pack, row.state, [], computed=ctx.computed,
                                 start=FolderSnapshot.from_json(snapshot).shell() if snapshot else None)
        done = 0
    rest = steps[done:]
    tracker.advance_all(turns[done:], [step.source == "real" for step in rest], [step.effects for step in rest])
    if steps:
        ctx.trackers[row.id] = (len(steps), digests[-1], tracker.copy())
        ctx.trackers.move_to_end(row.id)
        while len(ctx.trackers) > _KEPT_TRACKERS:
            ctx.trackers.popitem(last=False)
    return tracker


async def world_operation(ctx: ToolContext, request: WorldRequest) -> WorldView:
    """The world tool: one of its operations, with the arguments that operation reads."""
    r = request
    if r.operation != "open" and not r.world_id:
        raise InputError(f"operation {r.operation!r} needs world_id")
    if r.operation == "open":
        if not r.domain:
            raise InputError("open needs domain")
        return open_world(ctx, r.domain, r.task, r.state, r.tools, r.history, r.from_dir)
    if r.operation == "fork":
        return await fork_world(ctx, r.world_id, r.step)
    if r.operation == "rewind":
        return await rewind_world(ctx, r.world_id, r.step)
    if r.operation == "record":
        return await record_reality(ctx, r.world_id, r.action, r.observation, r.domain)
    if r.operation == "close":
        return await close_world(ctx, r.world_id)
    return world_view(ctx, r.world_id)


def open_world(ctx: ToolContext, domain: str, task: str, state: str, tools: Any, history: Sequence[dict],
               from_dir: str = "") -> WorldView:
    snapshot = starting_snapshot(ctx, from_dir, state)
    state = snapshot.state_text() if snapshot is not None else state
    scene = validated_scene(ctx, domain, state, task, tools)
    turns = validated_history(ctx, scene.pack, history)
    store = store_of(ctx)
    world_id = store.create_world(domain, task, state, tools,
                                  origin={"snapshot": snapshot.as_json()} if snapshot is not None else None)
    store.append_steps(world_id, [StepRow(i, t.action, t.observation, None, None, "real", None, None) for i, t in enumerate(turns, 1)])
    view = world_view(ctx, world_id)
    view.warnings = list(snapshot.warnings) if snapshot is not None else []
    return view


def starting_snapshot(ctx: ToolContext, from_dir: str, state: str) -> FolderSnapshot | None:
    """The snapshot a call's `from_dir` asks for (None without one), from a folder this client may see."""
    if not from_dir:
        return None
    if state:
        raise InputError("give state or from_dir, not both: a snapshot of the folder is the starting state")
    return take_snapshot(allowed_folder(ctx, from_dir), ctx.snapshot_bounds)


def allowed_folder(ctx: ToolContext, folder: str) -> str:
    """`folder`, resolved (symlinks too), when it lies inside a folder this client may see; else a clear refusal."""
    if not os.path.isabs(folder):
        raise InputError(f"from_dir must be an absolute path, got {folder!r}")
    real = os.path.realpath(folder)
    allowed = [os.path.realpath(path) for path in ctx.visible_dirs() if path]
    if not any(real == place or real.startswith(place.rstrip("/") + "/") for place in allowed):
        where = ", ".join(allowed) or "no folder (start the server with --allow-dir DIR)"
        raise InputError(f"from_dir {folder!r} lies outside the folders this client may snapshot ({where}); "
                         "give a folder inside one, or add one with --allow-dir")
    return real


async def fork_world(ctx: ToolContext, world_id: str, step: int | None) -> WorldView:
    async with _lock(ctx, world_id):
        row = _row(ctx, world_id)
        length = len(store_of(ctx).steps(world_id))
        at = length if step is None else step
        if not 0 <= at <= length:
            raise InputError(f"world {world_id!r} has {length} steps; fork at a step from 0 to {length}")
        store = store_of(ctx)
        # A fork holds its parent's steps, so it stays on its parent's side of the train/test split.
        origin = {**(row.origin or {}), "session": session_key(world_id, row.origin)}
        child = store.create_world(row.domain, row.task, row.state, row.tools, parent=(world_id, at), origin=origin)
        store.copy_steps(world_id, child, at)
    return world_view(ctx, child)


async def rewind_world(ctx: ToolContext, world_id: str, step: int | None) -> WorldView:
    if step is None:
        raise InputError("rewind needs `step`: the number of steps to keep (0 empties the world)")
    async with _lock(ctx, world_id):
        _open_row(ctx, world_id)
        length = len(store_of(ctx).steps(world_id))
        if not 0 <= step <= length:
            raise InputError(f"world {world_id!r} has {length} steps; rewind to a step from 0 to {length}")
        store_of(ctx).truncate(world_id, step)
    return world_view(ctx, world_id)


async def close_world(ctx: ToolContext, world_id: str) -> WorldView:
    async with _lock(ctx, world_id):
        _open_row(ctx, world_id)
        store_of(ctx).close_world(world_id)
    return world_view(ctx, world_id)


async def record_reality(ctx: ToolContext, world_id: str, action: str, observation: str, domain: str = "") -> WorldView:
    """The agent ran `action` for real and saw `observation`: the world continues from that.

    Reality is matched with the earliest step still only predicted (the next one the agent was
    going to run: the last step after a committed simulate_action, the first of a committed plan).
    If that step predicted this action, reality replaces the prediction and the drift is measured.
    If the agent did something else, the predicted steps from there on grew from a future that did
    not happen: they are dropped and the real step takes their place.
    """
    if not observation.strip():
        raise InputError("record needs the real `observation` the action produced")
    async with world_session(ctx, world_id, domain) as session:
        normalized = normalized_action(ctx, session.scene.pack, action)
        store = store_of(ctx)
        steps = store.steps(world_id)
        pending = next((step for step in steps if step.source == "predicted"), None)
        redact = _redactor(ctx, world_id)
        kept_action, kept_observation = redact(normalized), redact(observation)
        if pending is not None and pending.action == normalized:
            # Compared as kept: the diff is stored too, and a prediction may echo a secret it was shown.
            predicted = redact(pending.observation)
            close, diff = compare_observations(predicted, kept_observation)
            anchored = StepRow(pending.position, kept_action, kept_observation,
                               redact(pending.predicted) if pending.predicted is not None else None, pending.effects,
                               "real", close, diff, details=pending.details)
            store.replace_step(world_id, anchored)
            recorded = RecordResult(step=pending.position, anchored=True, similarity=close, diff=diff)
        else:
            position = pending.position if pending is not None else len(steps) + 1
            dropped = store.truncate(world_id, position - 1)
            store.append_steps(world_id, [StepRow(position, kept_action, kept_observation, None, None, "real", None,
                                                  None)])
            recorded = RecordResult(step=position, anchored=False, dropped_steps=dropped)
    view = world_view(ctx, world_id)
    view.recorded = recorded
    if recorded.anchored:
        _log_drift(world_id, rounded_mean([s.similarity for s in steps if s.similarity is not None]), view.drift)
    return view


def _redactor(ctx: ToolContext, world_id: str) -> Callable[[str], str]:
    """How a real step's text is kept: secrets replaced by a marker (what a real command printed may
    hold keys). One redactor per world, so a secret one step showed is redacted where a later one
    prints it again (`echo $DB_PASSWORD`), as in an imported session."""
    if not ctx.redact_real_steps:
        return lambda text: text
    redactor = ctx.redactors.get(world_id) or ctx.redactors.setdefault(world_id, Redactor())
    return lambda text: redactor.redact(text)[0]


def _log_drift(world_id: str, before: float | None, drift: Drift) -> None:
    after = drift.mean_similarity
    if after is not None and after < DRIFT_WARNING <= (before if before is not None else 1.0):
        log.warning("world %s drifts from reality: its predictions match what happened %.2f on average over %d "
                    "steps (below %.2f)", world_id, after, drift.compared_steps, DRIFT_WARNING)


def compare_observations(predicted: str, real: str) -> tuple[float, str]:
    """Similarity (0-1) of a prediction to reality, and their diff, cut to a readable length."""
    a, b = predicted[:_MAX_DIFF_CHARS], real[:_MAX_DIFF_CHARS]
    diff_lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "predicted", "real", lineterm="", n=1))
    if len(diff_lines) > _MAX_DIFF_LINES:
        diff_lines = diff_lines[:_MAX_DIFF_LINES] + [f"... ({len(diff_lines) - _MAX_DIFF_LINES} more diff lines)"]
    return similarity(predicted, real), "\n".join(diff_lines)


def rounded_mean(values: Sequence[float]) -> float | None:
    """The mean as worlds report it (drift, agreement): four decimals, None before any value."""
    return round(sum(values) / len(values), 4) if values else None


def world_view(ctx: ToolContext, world_id: str) -> WorldView:
    row = _row(ctx, world_id)
    steps = store_of(ctx).steps(world_id)
    compared = [step.similarity for step in steps if step.similarity is not None]
    pack = ctx.domains.get(row.domain)
    shown = pack.action_shown if pack is not None else str
    return WorldView(
        world_id=row.id,
        domain=row.domain,
        task=row.task,
        closed=row.closed,
        parent_id=row.parent_id,
        forked_at=row.forked_at,
        steps=[
            WorldStep(
                step=step.position, action=step.action, action_text=shown(step.action), observation=step.observation,
                source=step.source,  # type: ignore[arg-type]
                predicted=step.predicted if step.source == "real" else None, similarity=step.similarity,
            )
            for step in steps
        ],
        drift=Drift(
            compared_steps=len(compared),
            mean_similarity=rounded_mean(compared),
        ),
    )


def world_listing(ctx: ToolContext) -> list[dict[str, Any]]:
    return [
        {"world_id": row.id, "domain": row.domain, "task": row.task, "steps": count, "closed": row.closed,
         "uri": f"world://{row.id}"}
        for row, count in store_of(ctx).worlds()
    ]
