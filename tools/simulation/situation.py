"""A simulate or plan request made into one validated situation, in one pass, before anything goes down.

Where it acts (a scene given inline, or a stored world held for the call), what came before (the
turns and the world they leave), the actions to simulate and the rules to apply: each checked once,
so the tools below receive nothing unchecked. Every problem is an InputError.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

from ...domains import Turn
from ..constraints import Constraint, constraint_set
from ..context import ToolContext
from ..inputs import Scene, check_world_arguments, validated_action, validated_history, validated_scene
from ..requests import SceneRequest
from ..worlds.tracking import Tracker
from ..worlds.worlds import WorldSession, starting_snapshot, world_session


@dataclass
class Situation:
    scene: Scene
    turns: list[Turn]
    tracker: Tracker  # the world the turns leave: files, folders, the working directory
    actions: list[str]  # canonical, and calls the simulated server accepts (mcp)
    rules: list[Constraint]
    session: WorldSession | None  # a stored world, held until the situation ends; commit through it


def check_where(ctx: ToolContext, request: SceneRequest, what: str) -> None:
    """The cheap part, checked before a call may become a job: a domain or a world, and nothing they contradict."""
    given = (request.history, request.state, request.task, request.tools, request.from_dir)
    check_world_arguments(ctx, request.domain or "", request.world_id, request.commit, given, what)


@asynccontextmanager
async def situation(
    ctx: ToolContext, request: SceneRequest, actions: Sequence[tuple[str, str]]
) -> AsyncIterator[Situation]:
    """`actions`: each action with where it came from in the request (for messages), e.g. ("ls", "steps[0]")."""
    if not request.world_id:
        snapshot = starting_snapshot(ctx, request.from_dir, request.state)
        state = snapshot.state_text() if snapshot is not None else request.state
        scene = validated_scene(ctx, request.domain or "", state, request.task, request.tools)
        checked = [validated_action(ctx, scene, action, where) for action, where in actions]
        turns = validated_history(ctx, scene.pack, request.history)
        tracker = Tracker.replay(scene.pack, scene.state, turns, computed=ctx.computed,
                                 start=snapshot.shell() if snapshot is not None else None)
        yield Situation(scene, turns, tracker, checked, _rules(scene, request), None)
        return
    async with world_session(ctx, request.world_id, request.domain or "") as session:
        checked = [validated_action(ctx, session.scene, action, where) for action, where in actions]
        yield Situation(session.scene, list(session.turns), session.tracker, checked, _rules(session.scene, request),
                        session)


def _rules(scene: Scene, request: SceneRequest) -> list[Constraint]:
    return constraint_set(scene.pack, request.constraints, request.presets)
