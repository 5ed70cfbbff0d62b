"""Which conversation each of the backend's slots holds, and whether a new one may take it.

A slot (the one context of the in-process model, or one of a model server's parallel slots) keeps
the tokens of the last conversation it ran; that conversation's next step reads only what it adds
when it lands there again. Many conversations at once pay only if they keep their slots, so a slot
whose holder is coming back is not handed to another while it may still come:

- A conversation is *returning* once a second step of it has run: worlds, plans and episodes are;
  a one-off call never is, so its slot is free the moment it ends.
- A returning holder keeps its idle slot for `hold_seconds` after its step ends. A new conversation
  (one that never ran) waits for it rather than evicting it, unless no slot is busy (then nothing
  else can free one, so waiting would only stall), and never longer than `hold_seconds` in all:
  holders that keep coming back cannot starve it.
- A conversation that ran before but lost its slot is live too, and never waits: episodes stepped
  in lockstep (a vector env waits for all of them before any goes on) take turns on the slots, and
  holding a slot for one of them would only delay the others.

Only the queue uses this, under its own lock.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

HOLD_SECONDS = 1.0  # how long an idle slot waits for its returning conversation's next step
REMEMBERED = 4096  # conversations whose step count is remembered, most recent first


def conversation_key(messages: Sequence[dict]) -> str:
    """The system prompt and the first turn: the same for every step of one world, plan or episode."""
    return hashlib.blake2b(json.dumps(list(messages[:2]), sort_keys=True).encode(), digest_size=12).hexdigest()


@dataclass
class Slot:
    key: str | None = None  # the conversation it holds
    held: tuple[dict, ...] = ()  # that conversation's messages and reply, as last run
    busy: bool = False
    idle_since: float = field(default_factory=time.monotonic)
    returning: bool = False


class SlotTable:
    def __init__(self, hold_seconds: float = HOLD_SECONDS):
        self.hold_seconds = hold_seconds
        self._slots: list[Slot] = []
        self._steps: OrderedDict[str, int] = OrderedDict()  # steps run per conversation

    def __getitem__(self, slot: int) -> Slot:
        while len(self._slots) <= slot:  # the engine learns its slot count only once the model loads
            self._slots.append(Slot())
        return self._slots[slot]

    def waits_elsewhere(self, key: str, slot: int) -> bool:
        """Another idle slot holds this conversation: its worker takes it there."""
        return any(index != slot and other.key == key and not other.busy for index, other in enumerate(self._slots))

    def known(self, key: str) -> bool:
        """This conversation has run before (it is live, not new)."""
        return key in self._steps

    def running(self, key: str) -> bool:
        """A step of this conversation runs now (a branch of it may run beside it, on another slot)."""
        return any(other.key == key and other.busy for other in self._slots)

    def reserved_for(self, slot: int, now: float) -> float:
        """Seconds this idle slot stays reserved for its returning holder; 0 when anyone may take it."""
        state = self[slot]
        if not state.returning or not any(other.busy for other in self._slots):
            return 0.0
        return max(0.0, state.idle_since + self.hold_seconds - now)

    def start(self, slot: int, key: str, counts: bool) -> None:
        """`slot` begins a step of conversation `key`; a side question (`counts` false) is no step."""
        state = self[slot]
        state.busy = True
        if key != state.key:
            state.key, state.held = key, ()
        if counts:
            self._steps[key] = self._steps.pop(key, 0) + 1
            while len(self._steps) > REMEMBERED:
                self._steps.popitem(last=False)
        state.returning = self._steps.get(key, 0) > 1

    def finish(self, slot: int, held: tuple[dict, ...]) -> None:
        state = self[slot]
        state.busy, state.idle_since = False, time.monotonic()
        state.held = held
