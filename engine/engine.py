"""The engine: worker threads that feed the backend from the generation queue, awaited from asyncio.

The model loads on the first worker thread in the background, so the MCP handshake answers at
once; generations submitted meanwhile wait in the queue and run when the load finishes (or fail with
the load error). A backend that takes several requests at once (`slots`, a model server with
parallel slots) gets one worker per slot, all taking from the same queue, so priorities,
deadlines and the bound keep their meaning; each worker tells the backend its slot, and the queue
keeps each conversation on the slot that holds its prefix. Cancelling the awaiting coroutine withdraws a
waiting generation or stops a running one; its worker then moves on to the next generation.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass

from .queue import Generation, GenerationQueue
from .result_cache import ResultCache
from .slots import HOLD_SECONDS, SlotTable
from .types import (
    Backend,
    Completion,
    EngineError,
    GenerationRequest,
    ModelDescription,
    ModelUnavailable,
    Priority,
)

log = logging.getLogger(__name__)
_RECENT = 256  # how many finished generations the wait/speed figures are computed over


@dataclass
class EngineStats:
    state: str
    model: ModelDescription | None
    load_error: str | None
    load_seconds: float | None
    queue_depth: int
    queue_limit: int
    running: int  # requests the backend is working on now
    workers: int  # requests it may work on at once
    completed: int
    cancelled: int
    expired: int
    rejected: int
    failed: int
    prompt_tokens: int
    reused_prompt_tokens: int
    completion_tokens: int
    wait_seconds_p50: float | None
    wait_seconds_max: float | None
    tokens_per_second: float | None
    cache_hits: int
    affinity_picks: int
    held_back: int  # generations that waited for a slot rather than evict a returning conversation
    backend: dict


class Engine:
    def __init__(self, backend: Backend, max_waiting: int = 64, result_cache: int = 256,
                 hold_seconds: float = HOLD_SECONDS):
        self._backend = backend
        self._cache = ResultCache(result_cache)
        self._queue = GenerationQueue(max_waiting, slots=SlotTable(hold_seconds))
        self._ready = threading.Event()
        self._model: ModelDescription | None = None
        self._load_error: str | None = None
        self._load_seconds: float | None = None
        self._running: set[Generation] = set()
        self._figures_lock = threading.Lock()  # workers finish generations concurrently
        self._counts = {"completed": 0, "cancelled": 0, "failed": 0}
        self._tokens = {"prompt": 0, "reused": 0, "completion": 0}
        self._recent: deque[tuple[float, int, float]] = deque(maxlen=_RECENT)  # wait, tokens, seconds
        self._threads = [threading.Thread(target=self._work, name="agentworld-model", daemon=True)]

    # --- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        self._threads[0].start()

    def close(self, timeout: float = 5.0) -> None:
        self._queue.close()
        with self._figures_lock:
            running = list(self._running)
        for generation in running:
            generation.stop.set()
        for generation in self._queue.drain():
            generation.finish(error=ModelUnavailable("the server is shutting down"))
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            if thread.is_alive():
                thread.join(max(0.0, deadline - time.monotonic()))
        self._backend.close()

    @property
    def model(self) -> ModelDescription | None:
        """What the backend serves, as it describes it now (a model server may be found after the load)."""
        return self._backend.describe() if self._model is not None else None

    async def wait_ready(self) -> ModelDescription:
        """Wait for the background load; raise its error if it failed."""
        while not self._ready.is_set():
            await asyncio.sleep(0.05)
        if self._model is None:
            raise ModelUnavailable(self._load_error or "the model is not loaded")
        if self._backend.stale:  # a model server not reached yet: ask it now, so the tools know what it serves
            await asyncio.to_thread(self._backend.refresh)
        return self._backend.describe()

    # --- the async side ----------------------------------------------------------------------
    async def generate(
        self, request: GenerationRequest, priority: Priority = Priority.INTERACTIVE, timeout: float | None = None
    ) -> Completion:
        """Run one request. `timeout` bounds only the wait in the queue (a deadline, in seconds)."""
        if self._load_error is not None:
            raise ModelUnavailable(self._load_error)
        key = self._cache.key(request) if self._cache.capacity > 0 else None
        if key is not None and (hit := self._cache.get(key)) is not None:
            return hit
        loop = asyncio.get_running_loop()
        done = asyncio.Event()
        deadline = time.monotonic() + timeout if timeout is not None else None

        def wake() -> None:  # runs on the worker thread
            try:
                loop.call_soon_threadsafe(done.set)
            except RuntimeError:  # the caller's event loop is gone; nobody is waiting
                pass

        generation = Generation(request, priority, deadline, on_done=wake)
        self._queue.put(generation)
        try:
            await done.wait()
        except BaseException:  # cancelled by the client (or the task group): stop the model work
            if not self._queue.withdraw(generation):
                generation.stop.set()
            raise
        if generation.error is not None:
            raise generation.error
        assert generation.result is not None
        if key is not None:
            self._cache.put(key, generation.result)
        return generation.result

    def stats(self) -> EngineStats:
        waits = sorted(wait for wait, _, _ in self._recent)
        tokens = sum(count for _, count, _ in self._recent)
        seconds = sum(spent for _, _, spent in self._recent)
        counters = self._queue.counters
        return EngineStats(
            state="ready" if self._model else ("failed" if self._load_error else "loading"),
            model=self.model,
            load_error=self._load_error,
            load_seconds=self._load_seconds,
            queue_depth=len(self._queue),
            queue_limit=self._queue.max_waiting,
            running=len(self._running),
            workers=len(self._threads),
            completed=self._counts["completed"],
            cancelled=self._counts["cancelled"] + counters.withdrawn,
            expired=counters.expired,
            rejected=counters.rejected,
            failed=self._counts["failed"],
            prompt_tokens=self._tokens["prompt"],
            reused_prompt_tokens=self._tokens["reused"],
            completion_tokens=self._tokens["completion"],
            wait_seconds_p50=waits[len(waits) // 2] if waits else None,
            wait_seconds_max=waits[-1] if waits else None,
            tokens_per_second=tokens / seconds if seconds > 0 else None,
            cache_hits=self._cache.hits,
            affinity_picks=counters.affinity_picks,
            held_back=counters.held_back,
            backend=self._backend.figures(),
        )

    # --- the worker thread -------------------------------------------------------------------
    def _work(self) -> None:
        """The first worker: load the model, start one more worker per extra slot, then serve."""
        started = time.monotonic()
        try:
            self._model = self._backend.load()
            self._load_seconds = time.monotonic() - started
            log.info("model %s loaded in %.1f s", self._model.name, self._load_seconds)
        except Exception as exc:  # reported to every caller; the server keeps answering
            self._load_error = str(exc) if isinstance(exc, EngineError) else f"the model failed to load: {exc}"
            log.error("%s", self._load_error)
        finally:
            self._ready.set()
        if self._model is None:
            for generation in self._queue.drain():
                generation.finish(error=ModelUnavailable(self._load_error or "the model failed to load"))
            return
        for slot in range(1, self._backend.slots):
            worker = threading.Thread(target=self._serve, args=(slot,), name=f"agentworld-model-{slot}", daemon=True)
            self._threads.append(worker)
            worker.start()
        self._serve(0)

    def _serve(self, slot: int) -> None:
        while (generation := self._queue.take(slot)) is not None:
            self._run(generation, slot)

    def _run(self, generation: Generation, slot: int) -> None:
        with self._figures_lock:
            self._running.add(generation)
        queue_seconds = (generation.started_at or generation.submitted_at) - generation.submitted_at
        try:
            completion = self._backend.generate(generation.request, generation.stop, slot)
        except Exception as exc:
            self._queue.ran(slot, generation.request, None)
            with self._figures_lock:
                self._counts["failed"] += 1
            if not isinstance(exc, EngineError):
                log.exception("generation failed")
            generation.finish(error=exc)
            return
        finally:
            with self._figures_lock:
                self._running.discard(generation)
        completion.queue_seconds = queue_seconds
        self._queue.ran(slot, generation.request, completion.text)
        with self._figures_lock:
            self._counts["cancelled" if completion.finish_reason == "cancelled" else "completed"] += 1
            self._tokens["prompt"] += completion.prompt_tokens
            self._tokens["reused"] += completion.reused_tokens
            self._tokens["completion"] += completion.completion_tokens
            self._recent.append((queue_seconds, completion.completion_tokens, completion.generation_seconds))
        generation.finish(result=completion)
