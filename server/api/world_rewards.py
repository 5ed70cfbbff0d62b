"""An episode's reward from the world's own checks, as named components.

Trainers that score a whole episode (TRL's `get_reward`, NeMo Gym's `/verify`, a verifiers rubric) read these:

- `success`: 1.0 when the episode's success rules held at its last step, else 0.0 (only with success rules);
- `violations`: minus the number of rule violations over the episode (only with constraints or presets);
- `files`: the share of the goal's paths whose state (present or absent) the world's exact record confirms
  (only with a goal). A path the record cannot tell counts as unconfirmed: a reward never rests on a prediction;
- `commands`: the share of the episode's steps the world says succeeded (0.0 before the first step).

The total is their sum, so each component weighs one; a framework with weights of its own may weigh them again.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...domains import DomainPack, Turn
from ...tools.context import ToolContext
from ...tools.inputs import normalized_action
from ...tools.worlds.tracking import Tracker
from ...tools.worlds.worlds import starting_snapshot

GOAL_KEYS = ("present", "absent")


@dataclass(frozen=True)
class Goal:
    """Paths the episode should leave present, and paths it should leave absent."""

    present: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()

    @classmethod
    def parse(cls, value: Any) -> Goal | None:
        """A goal from `{"present": [paths], "absent": [paths]}` (or None for none); a ValueError says what is wrong."""
        if value is None or isinstance(value, Goal):
            return value
        shape = "give the goal as {'present': [paths], 'absent': [paths]}"
        if not isinstance(value, Mapping):
            raise ValueError(f"goal: {shape}, not {type(value).__name__}")
        unknown = sorted(set(value) - set(GOAL_KEYS))
        if unknown:
            raise ValueError(f"goal: unknown key {unknown[0]!r}; {shape}")
        lists = {}
        for key in GOAL_KEYS:
            paths = value.get(key) or []
            if isinstance(paths, str) or not all(isinstance(path, str) and path.strip() for path in paths):
                raise ValueError(f"goal[{key!r}] must be a list of paths")
            lists[key] = tuple(path.strip() for path in paths)
        if not lists["present"] and not lists["absent"]:
            raise ValueError(f"goal names no path; {shape}")
        return cls(lists["present"], lists["absent"])


def checked_goal(pack: DomainPack, value: Any) -> Goal | None:
    """`value` as a Goal (None for none), refused in a domain whose steps leave no record of files to check it by."""
    goal = Goal.parse(value)
    if goal is not None and pack.semantics is None:
        raise ValueError(f"the {pack.name} domain keeps no record of files, so a goal of paths cannot be checked")
    return goal


def confirmed_share(ctx: ToolContext, pack: DomainPack, state: str, history: Sequence[Mapping[str, str]],
                    goal: Goal, from_dir: str = "") -> float:
    """The share of the goal's paths the world's exact record confirms after `history`, from `state` (or from a
    snapshot of the real folder `from_dir`, as every step of such an episode starts).

    Relative paths and `~` are read from where the episode started. The record is replayed as the next step
    would see it: a predicted turn (`source: predicted`) teaches it nothing exact."""
    snapshot = starting_snapshot(ctx, from_dir, state)
    tracker = Tracker.replay(pack, snapshot.state_text() if snapshot is not None else state, [],
                             computed=ctx.computed, start=snapshot.shell() if snapshot is not None else None)
    knowledge = tracker.knowledge
    if knowledge is None:
        raise ValueError(f"the {pack.name} domain keeps no record of files, so a goal of paths cannot be checked")
    start, home = knowledge.cwd, knowledge.location.home
    # The turns were checked as they were stepped; the history's size limits bound the next prompt, not this replay.
    tracker.advance_all([Turn(normalized_action(ctx, pack, turn["action"]), turn["observation"],
                              real=turn.get("source", "real") == "real") for turn in history])
    wanted = [(path, "present") for path in goal.present] + [(path, "absent") for path in goal.absent]
    after = tracker.knowledge or knowledge
    confirmed = sum(where is not None and after.status(where) == status
                    for where, status in ((_absolute(path, start, home), status) for path, status in wanted))
    return confirmed / len(wanted)


def _absolute(path: str, start: str, home: str) -> str | None:
    """The path from where the episode started; None for `~/...` where the world does not know its home."""
    if path == "~" or path.startswith("~/"):
        if not home:
            return None
        path = home + path[1:]
    return posixpath.normpath(posixpath.join(start, path))
