"""A bounded priority queue of generations (one model request each), shared by the event loop and
the worker thread.

The event loop puts generations and may withdraw them; the worker thread takes them. Generations cancelled or
past their deadline while waiting are never run.

Within one priority the queue prefers *prefix affinity*: the generation whose conversation shares the
most leading messages with what the model ran last goes first, because the model's cache still
holds those tokens (several candidate actions from one state, say, run back to back instead of
interleaved with another world's). Ties go first in, first out. Fairness is bounded: a generation passed
over `max_skips` times by later arrivals runs next.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

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

    def finish(self, result: Completion | None = None, error: BaseException | None = None) -> None:
        self.result, self.error = result, error
        self.on_done()


@dataclass
class QueueCounters:
    rejected: int = 0
    expired: int = 0
    withdrawn: int = 0
    affinity_picks: int = 0  # generations run ahead of an older one because they shared more with the cache


def shared_messages(left: Sequence[dict], right: Sequence[dict]) -> int:
    count = 0
    for a, b in zip(left, right):
        if a != b:
            break
        count += 1
    return count


class GenerationQueue:
    def __init__(self, max_waiting: int, max_skips: int = MAX_SKIPS):
        self.max_waiting = max_waiting
        self.max_skips = max_skips
        self.counters = QueueCounters()
        self._waiting: list[Generation] = []  # in arrival order
        self._condition = threading.Condition()
        self._closed = False
        # The conversation the model ran last (its messages and reply); only the worker sets it.
        self._held: tuple[dict, ...] = ()

    def __len__(self) -> int:
        with self._condition:
            return len(self._waiting)

    def put(self, generation: Generation) -> None:
        with self._condition:
            if len(self._waiting) >= self.max_waiting:
                self.counters.rejected += 1
                raise EngineBusy(len(self._waiting), self.max_waiting)
            self._waiting.append(generation)
            self._condition.notify()

    def withdraw(self, generation: Generation) -> bool:
        """Remove a waiting generation; False if the worker already took it (or it is done)."""
        with self._condition:
            if generation not in self._waiting:
                return False
            self._waiting.remove(generation)
            self.counters.withdrawn += 1
            return True

    def ran(self, request: GenerationRequest, reply: str) -> None:
        """The worker ran `request`: later picks favour conversations that continue it."""
        self._held = (*request.messages, {"role": "assistant", "content": reply})

    def take(self) -> Generation | None:
        """Block until a runnable generation arrives; None once the queue is closed."""
        while True:
            expired: list[Generation] = []
            with self._condition:
                generation = self._pop_runnable(expired)
                while generation is None and not expired and not self._closed:
                    self._condition.wait()
                    generation = self._pop_runnable(expired)
            for stale in expired:  # finished outside the lock: on_done may call into the event loop
                stale.finish(error=DeadlineExpired(time.monotonic() - stale.submitted_at))
            if generation is not None or self._closed:
                return generation

    def _pop_runnable(self, expired: list[Generation]) -> Generation | None:
        now = time.monotonic()
        for stale in [generation for generation in self._waiting if generation.deadline is not None and now > generation.deadline]:
            self._waiting.remove(stale)
            self.counters.expired += 1
            expired.append(stale)
        if not self._waiting:
            return None
        first = min(generation.priority for generation in self._waiting)
        candidates = [generation for generation in self._waiting if generation.priority == first]
        chosen = candidates[0]
        if chosen.skipped < self.max_skips and len(candidates) > 1:
            chosen = max(candidates, key=lambda generation: shared_messages(generation.request.messages, self._held))  # first of equals
        for passed in itertools.takewhile(lambda generation: generation is not chosen, candidates):
            passed.skipped += 1
        if chosen is not candidates[0]:
            self.counters.affinity_picks += 1
        self._waiting.remove(chosen)
        chosen.started_at = now
        return chosen

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
