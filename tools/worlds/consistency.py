"""Consistency warnings: a prediction that contradicts what earlier steps did to the world.

The ledger replays the `effects.changed` of a world's steps (created, modified, deleted) and
flags a new prediction that touches an entity already deleted, or shows a deleted entity again
("a deleted file is listed again"), the commonest form of world decoherence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any


class EntityLedger:
    def __init__(self) -> None:
        self._deleted_at: dict[str, int] = {}  # entity -> the step that deleted it

    def apply(self, step: int, effects: dict[str, Any] | None) -> None:
        for change in (effects or {}).get("changed", []):
            entity, kind = change.get("entity"), change.get("change")
            if not entity:
                continue
            if kind == "deleted":
                self._deleted_at[entity] = step
            elif kind == "created":
                self._deleted_at.pop(entity, None)  # re-created: it exists again

    @classmethod
    def replay(cls, steps: Iterable[tuple[int, dict[str, Any] | None]]) -> EntityLedger:
        ledger = cls()
        for step, effects in steps:
            ledger.apply(step, effects)
        return ledger

    def warnings(
        self, effects: dict[str, Any] | None, observation: str, action_text: str, error_markers: Sequence[str]
    ) -> list[str]:
        found = []
        for change in (effects or {}).get("changed", []):
            entity, kind = change.get("entity"), change.get("change")
            if entity in self._deleted_at and kind in ("modified", "deleted"):
                found.append(f"{entity!r} was deleted at step {self._deleted_at[entity]} but this step {kind} it")
        shown = _listing_lines(observation, action_text, error_markers)
        for entity, step in self._deleted_at.items():
            if any(_names(entity, line) for line in shown):
                found.append(f"{entity!r} was deleted at step {step} but appears in this observation again")
        return found


def _listing_lines(observation: str, action_text: str, error_markers: Sequence[str]) -> list[str]:
    """Lines that show state: not the echoed command, not error messages (which name missing things)."""
    command = action_text.strip()
    markers = [marker.lower() for marker in error_markers]
    return [
        line
        for line in observation.splitlines()
        if not (command and command in line) and not any(marker in line.lower() for marker in markers)
    ]


def _names(entity: str, line: str) -> bool:
    """`entity` (or its last path part) appears in `line` as a whole word."""
    name = entity.rstrip("/").rsplit("/", 1)[-1]
    if len(name) < 3:
        return False
    return re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", line) is not None
