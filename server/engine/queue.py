"""A bounded priority queue of generation jobs, shared by the event loop and the worker thread.

The event loop puts jobs and may withdraw them; the worker thread takes them. Within one priority
jobs run first in, first out. Jobs cancelled or past their deadline while waiting are never run.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .types import Completion, DeadlineExpired, EngineBusy, GenerationRequest, Priority


@dataclass(eq=False)
class Job:
    request: GenerationRequest
    priority: Priority
    deadline: float | None  # time.monotonic() value, None for no deadline
    on_done: Callable[[], None]
    submitted_at: float = field(default_factory=time.monotonic)
    started_at: float | None = None
    cancel_event: threading.Event = field(default_factory=threading.Event)
    result: Completion | None = None
    error: BaseException | None = None

    def finish(self, result: Completion | None = None, error: BaseException | None = None) -> None:
        self.result, self.error = result, error
        self.on_done()


@dataclass
class QueueCounters:
    rejected: int = 0
    expired: int = 0
    withdrawn: int = 0


class JobQueue:
    def __init__(self, max_waiting: int):
        self.max_waiting = max_waiting
        self.counters = QueueCounters()
        self._heap: list[tuple[int, int, Job]] = []
        self._sequence = itertools.count()
        self._waiting: set[Job] = set()
        self._condition = threading.Condition()
        self._closed = False

    def __len__(self) -> int:
        with self._condition:
            return len(self._waiting)

    def put(self, job: Job) -> None:
        with self._condition:
            if len(self._waiting) >= self.max_waiting:
                self.counters.rejected += 1
                raise EngineBusy(len(self._waiting), self.max_waiting)
            heapq.heappush(self._heap, (int(job.priority), next(self._sequence), job))
            self._waiting.add(job)
            self._condition.notify()

    def withdraw(self, job: Job) -> bool:
        """Remove a waiting job; False if the worker already took it (or it is done)."""
        with self._condition:
            if job not in self._waiting:
                return False
            self._waiting.discard(job)  # its heap entry is skipped lazily by take()
            self.counters.withdrawn += 1
            return True

    def take(self) -> Job | None:
        """Block until a runnable job arrives; None once the queue is closed."""
        while True:
            expired: list[Job] = []
            with self._condition:
                job = self._pop_runnable(expired)
                while job is None and not expired and not self._closed:
                    self._condition.wait()
                    job = self._pop_runnable(expired)
            for stale in expired:  # finished outside the lock: on_done may call into the event loop
                stale.finish(error=DeadlineExpired(time.monotonic() - stale.submitted_at))
            if job is not None or self._closed:
                return job

    def _pop_runnable(self, expired: list[Job]) -> Job | None:
        while self._heap:
            _, _, job = heapq.heappop(self._heap)
            if job not in self._waiting:
                continue
            self._waiting.discard(job)
            now = time.monotonic()
            if job.deadline is not None and now > job.deadline:
                self.counters.expired += 1
                expired.append(job)
                continue
            job.started_at = now
            return job
        return None

    def drain(self) -> list[Job]:
        """Take every waiting job out at once (used when the model cannot run them)."""
        with self._condition:
            jobs = [job for _, _, job in sorted(self._heap) if job in self._waiting]
            self._heap.clear()
            self._waiting.clear()
            return jobs

    def close(self) -> None:
        with self._condition:
            self._closed = True
            self._condition.notify_all()
