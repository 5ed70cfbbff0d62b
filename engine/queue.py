"""A bounded priority queue of generations (one model request each), shared by the event loop and
the backend's workers (one per slot).

The event loop puts generations and may withdraw them; each worker takes them for its slot.
Generations cancelled or past their deadline while waiting are never run.

Within one priority a worker prefers *prefix affinity*: its slot's own conversation first, then the
generation that shares the most leading messages with what the slot ran last, because its cache
still holds those tokens (several candidate actions from one state, say, run back to back instead of
interleaved with another world's). A new conversation never evicts a returning one that may still
come back (slots.py says when). Ties go first in, first out. Fairness is bounded: a generation passed
over `max_skips` times by later arrivals runs next wherever it may.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .slots import SlotTable, conversation_key
from .types import Completion, DeadlineExpired, EngineBusy, GenerationRequest, Priority, StopSignal

MAX_SKIPS = 4  # later generations that may overtake a waiting one through affinity


@dataclass(eq=False)
class Generation:
    request: GenerationRequest
    priority: Priority
    deadline: float | None  # time.monotonic() value, None for no deadline
    on_done: Callable[[], None]
    submitted_at: float = field(default_factory=time.monotonic)
    started_at: float | None = None
    stop: StopSignal = field(default_factory=StopSignal)
    result: Completion | None = None
    error: BaseException | None = None
    skipped: int = 0  # times a later generation went first because of affinity
    conversation: str = ""  # conversation_key of the request's messages
    held_back: bool = False  # a free slot waited for its returning conversation instead of running this

    def __post_init__(self) -> None:
        self.conversation = conversation_key(self.request.messages)

    def finish(self, result: Completion | None = None, error: BaseException | None = None) -> None:
        self.result, self.error = result, error
        self.on_done()


@dataclass
class QueueCounters:
    rejected: int = 0
    expired: int = 0
    withdrawn: int = 0
    affinity_picks: int = 0  # generations run ahead of an older one because they shared more with the cache
    held_back: int = 0  # generations that waited for a slot rather than evict a returning conversation


def shared_messages(left: Sequence[dict], right: Sequence[dict]) -> int:
    count = 0
    for a, b in zip(left, right):
        if a != b:
            break
        count += 1
    return count


class GenerationQueue:
    def __init__(self, max_waiting: int, max_skips: int = MAX_SKIPS, slots: SlotTable | None = None):
        self.max_waiting = max_waiting
        self.max_skips = max_skips
        self.counters = QueueCounters()
        self._waiting: list[Generation] = []  # in arrival order
        self._condition = threading.Condition()
        self._closed = False
        self._slots = slots or SlotTable()

    def __len__(self) -> int:
        with self._condition:
            return len(self._waiting)

    def put(self, generation: Generation) -> None:
        with self._condition:
            if len(self._waiting) >= self.max_waiting:
                self.counters.rejected += 1
                raise EngineBusy(len(self._waiting), self.max_waiting)
            self._waiting.append(generation)
            self._condition.notify_all()  # the generation may be for one worker's slot in particular

    def withdraw(self, generation: Generation) -> bool:
        """Remove a waiting generation; False if the worker already took it (or it is done)."""
        with self._condition:
            if generation not in self._waiting:
                return False
            self._waiting.remove(generation)
            self.counters.withdrawn += 1
            return True

    def ran(self, slot: int, request: GenerationRequest, reply: str | None) -> None:
        """The worker of `slot` finished `request` (`reply` None: it failed, and the slot's cache is unknown)."""
        held = (*request.messages, {"role": "assistant", "content": reply}) if reply is not None else ()
        with self._condition:
            self._slots.finish(slot, held)
            self._condition.notify_all()  # a slot fell idle: a held-back generation may now go

    def take(self, slot: int = 0) -> Generation | None:
        """Block until a generation may run on `slot`; None once the queue is closed."""
        while True:
            expired: list[Generation] = []
            with self._condition:
                generation, wait = self._pop_runnable(slot, expired)
                while generation is None and not expired and not self._closed:
                    self._condition.wait(wait)
                    generation, wait = self._pop_runnable(slot, expired)
            for stale in expired:  # finished outside the lock: on_done may call into the event loop
                stale.finish(error=DeadlineExpired(time.monotonic() - stale.submitted_at))
            if generation is not None or self._closed:
                return generation

    def _pop_runnable(self, slot: int, expired: list[Generation]) -> tuple[Generation | None, float | None]:
        """The generation `slot` runs next, or None and how long to wait at most before looking again."""
        now = time.monotonic()
        for stale in [generation for generation in self._waiting if generation.deadline is not None and now > generation.deadline]:
            self._waiting.remove(stale)
            self.counters.expired += 1
            expired.append(stale)
        if not self._waiting:
            return None, None
        first = min(generation.priority for generation in self._waiting)
        candidates = [generation for generation in self._waiting if generation.priority == first]
        chosen, wait, allowed = self._choose(slot, candidates, now)
        if chosen is None:
            return None, wait
        for passed in itertools.takewhile(lambda generation: generation is not chosen, candidates):
            passed.skipped += 1
        if chosen is not candidates[0] and candidates[0] in allowed:
            self.counters.affinity_picks += 1
        self._waiting.remove(chosen)
        chosen.started_at = now
        self._slots.start(slot, chosen.conversation, counts=not chosen.request.detour)
        if self._waiting:  # this slot is busy now: what waited for it as an idle holder may go elsewhere
            self._condition.notify_all()
        return chosen, None

    def _choose(self, slot: int, candidates: list[Generation],
                now: float) -> tuple[Generation | None, float | None, list[Generation]]:
        """The generation for `slot`, or None and how long to wait at most; and what the slot may run."""
        state = self._slots[slot]
        reserved = self._slots.reserved_for(slot, now)
        hold = self._slots.hold_seconds
        # What this slot may run: its own conversation, or one no other idle slot holds. While the slot
        # is reserved for its returning holder, a new conversation waits, but never longer than the hold.
        allowed, waiting = [], []
        for generation in candidates:
            key = generation.conversation
            elsewhere = self._slots.waits_elsewhere(key, slot)
            held = reserved and not self._slots.known(key) and now - generation.submitted_at < hold
            if key == state.key or not (elsewhere or held):
                allowed.append(generation)
            elif held and not elsewhere:
                waiting.append(generation)
        for generation in waiting:
            if not generation.held_back:
                generation.held_back = True
                self.counters.held_back += 1
        if not allowed:
            waits = [hold - (now - generation.submitted_at) for generation in waiting]
            return None, min([reserved, *waits]) if waiting else (reserved or None), allowed
        oldest = candidates[0]
        if oldest in allowed and oldest.skipped >= self.max_skips:
            return oldest, None, allowed
        # A conversation a busy slot runs now goes last: a step of it there would start from its cache.
        fresh = [generation for generation in allowed if not self._slots.running(generation.conversation)] or allowed
        chosen = max(fresh, key=lambda generation: shared_messages(generation.request.messages, state.held))  # first of equals
        return chosen, None, allowed

    def drain(self) -> list[Generation]:
        """Take every waiting generation out at once (used when the model cannot run them)."""
        with self._condition:
            generations = sorted(self._waiting, key=lambda generation: generation.priority)  # stable: arrival order within a priority
            self._waiting.clear()
            return generations

    def close(self) -> None:
        with self._condition:
            self._closed = True
            self._condition.notify_all()
