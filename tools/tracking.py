"""A rollout's record of its world: the shell's place and the file tree its steps imply, and the
ledger of deletions that consistency warnings read.

Replayed from the world's initial state and every step (recorded reality and committed
predictions alike), then advanced by each new prediction of a plan. Effects come from each
action's own semantics; the screen only says which commands failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..domains import DomainPack, Turn
from ..domains.shell import Location, Requirement, Semantics, stated_location
from ..domains.shell.state import WorldState
from .consistency import EntityLedger


@dataclass
class Tracker:
    pack: DomainPack
    world: WorldState | None  # None: the domain says nothing of what its actions do
    ledger: EntityLedger = field(default_factory=EntityLedger)
    steps: int = 0

    @classmethod
    def replay(cls, pack: DomainPack, state: str, turns: Sequence[Turn],
               real: Sequence[bool] | None = None, effects: Sequence[dict | None] | None = None) -> Tracker:
        """The world after `turns`, from the state text (or the domain's initial state when it is empty)."""
        world = None
        if pack.semantics is not None:
            default = pack.location or Location("/")
            location = stated_location(state, default) if state else default
            world = WorldState.starting(location, pack.initial_paths if not state else ())
        tracker = cls(pack, world)
        for index, turn in enumerate(turns):
            tracker.advance(turn.action, turn.observation, real[index] if real else True,
                            effects[index] if effects else None)
        return tracker

    @property
    def location(self) -> Location | None:
        return self.world.location if self.world else None

    def semantics(self, action: str) -> Semantics | None:
        """What `action` does from where the world stands, knowing its files."""
        if self.world is None or self.pack.semantics is None:
            return None
        return self.pack.semantics(action, self.world.location, self.world.tree)

    def note(self) -> str:
        """What the world's steps taught it about its files (nothing before the first step: the
        state text already says what the world starts from)."""
        return self.world.tree.note(self.world.location.cwd) if self.world and self.steps else ""

    def missing(self, semantics: Semantics | None) -> list[Requirement]:
        """What the action needs that the world knows is not so (an operand gone, a folder already there):
        the command fails, with these error lines."""
        if semantics is None or self.world is None:
            return []
        return [r for r in semantics.requirements if self.world.tree.holds(r) is False]

    def advance(self, action: str, observation: str, real: bool, effects: dict | None = None) -> Semantics | None:
        """One more step happened with this screen; returns its effects as they happened."""
        self.steps += 1
        happened = None
        if self.world is not None:
            happened = self.world.step(self.semantics(action), observation, real)
        if happened is not None:  # the command's own effects, not a model's account of them
            effects = {"changed": [{"entity": e.path, "change": _ledger_kind(e.kind)} for e in happened.files()
                                   if not e.pattern]}
        self.ledger.apply(self.steps, effects)
        return happened


def _ledger_kind(kind: str) -> str:
    return "deleted" if kind in ("deleted", "moved-from") else "created" if kind in ("created", "moved-to") else "modified"
