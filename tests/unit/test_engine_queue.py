"""The engine's queue with a scripted backend: overload, priority, deadlines, cancellation, load."""

from __future__ import annotations

import asyncio
import threading

import pytest
from agentworld_mcp.engine import (
    DeadlineExpired,
    Engine,
    EngineBusy,
    GenerationRequest,
    ModelUnavailable,
    Priority,
)
from agentworld_mcp.engine.fake import FakeBackend, request
from agentworld_mcp.engine.queue import MAX_SKIPS

from ..waiting import until


@pytest.fixture
def backend():
    return FakeBackend()


@pytest.fixture
async def engine(backend):
    engine = Engine(backend, max_waiting=3)
    engine.start()
    await engine.wait_ready()
    yield engine
    if backend.gate is not None:
        backend.gate.set()
    engine.close()


async def _hold_worker(engine, backend, blocking: GenerationRequest | None = None) -> asyncio.Task:
    """Occupy the worker with a generation that waits on the gate, so later generations queue up."""
    backend.gate = threading.Event()
    blocker = asyncio.create_task(engine.generate(blocking or request("blocker")))
    while not backend.started.is_set():
        await asyncio.sleep(0.005)
    return blocker



async def test_runs_requests_on_one_worker_thread(engine, backend):
    results = await asyncio.gather(*(engine.generate(request(f"r{i}")) for i in range(3)))
    assert [r.text for r in results] == ["out:r0", "out:r1", "out:r2"]
    assert len(backend.thread_ids) == 1 and threading.get_ident() not in backend.thread_ids
    assert engine.stats().completed == 3


async def test_full_queue_rejects_at_once_with_the_waiting_count(engine, backend):
    blocker = await _hold_worker(engine, backend)
    waiting = [asyncio.create_task(engine.generate(request(f"w{i}"))) for i in range(3)]
    await until(lambda: engine.stats().queue_depth == 3)
    with pytest.raises(EngineBusy, match="3 requests are waiting"):
        await asyncio.wait_for(engine.generate(request("one too many")), timeout=1)
    assert engine.stats().rejected == 1
    backend.gate.set()
    await asyncio.gather(blocker, *waiting)


async def test_interactive_goes_ahead_of_plan_steps_and_fifo_within_a_priority(engine, backend):
    blocker = await _hold_worker(engine, backend)
    plan = [asyncio.create_task(engine.generate(request(f"plan{i}"), Priority.PLAN)) for i in range(2)]
    await until(lambda: engine.stats().queue_depth == 2)
    interactive = asyncio.create_task(engine.generate(request("interactive"), Priority.INTERACTIVE))
    await until(lambda: engine.stats().queue_depth == 3)
    backend.gate.set()
    await asyncio.gather(blocker, *plan, interactive)
    assert backend.ran == ["blocker", "interactive", "plan0", "plan1"]


def _in(conversation: str, label: str) -> GenerationRequest:
    return GenerationRequest(({"role": "system", "content": f"world {conversation}"}, {"role": "user", "content": label}))


async def test_jobs_sharing_the_cached_conversation_go_first_but_never_pass_a_job_more_than_the_bound(backend):
    engine = Engine(backend, max_waiting=16)
    engine.start()
    await engine.wait_ready()
    blocker = await _hold_worker(engine, backend, _in("a", "blocker"))
    other = asyncio.create_task(engine.generate(_in("b", "other")))
    await until(lambda: engine.stats().queue_depth == 1)
    same = []
    for index in range(MAX_SKIPS + 2):
        same.append(asyncio.create_task(engine.generate(_in("a", f"a{index}"))))
        await until(lambda: engine.stats().queue_depth == index + 2)
    backend.gate.set()
    await asyncio.gather(blocker, other, *same)
    engine.close()
    a = [f"a{index}" for index in range(MAX_SKIPS + 2)]
    assert backend.ran == ["blocker", *a[:MAX_SKIPS], "other", *a[MAX_SKIPS:]]
    assert engine.stats().affinity_picks == MAX_SKIPS


async def test_request_past_its_deadline_is_dropped_unrun(engine, backend):
    blocker = await _hold_worker(engine, backend)
    late = asyncio.create_task(engine.generate(request("late"), timeout=0.05))
    await asyncio.sleep(0.2)
    backend.gate.set()
    await blocker
    with pytest.raises(DeadlineExpired):
        await late
    assert "late" not in backend.ran and engine.stats().expired == 1


async def test_cancelling_a_waiting_request_removes_it(engine, backend):
    blocker = await _hold_worker(engine, backend)
    waiting = asyncio.create_task(engine.generate(request("withdrawn")))
    await until(lambda: engine.stats().queue_depth == 1)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert engine.stats().queue_depth == 0
    backend.gate.set()
    await blocker
    assert "withdrawn" not in backend.ran


async def test_cancelling_a_running_request_stops_generation_and_the_worker_moves_on(backend):
    backend.tokens, backend.token_seconds = 10_000, 0.001  # ~10 s if never stopped
    engine = Engine(backend)
    engine.start()
    try:
        running = asyncio.create_task(engine.generate(request("long")))
        await until(backend.started.is_set)
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
        backend.tokens = 3
        follow_up = await asyncio.wait_for(engine.generate(request("next")), timeout=5)
        assert follow_up.text == "out:next"
        assert backend.ran == ["long", "next"]
        stats = engine.stats()
        assert stats.cancelled == 1 and stats.completion_tokens < 1000  # stopped long before 10,000 tokens
    finally:
        engine.close()


async def test_requests_wait_for_the_load_and_fail_clearly_when_it_fails():
    engine = Engine(FakeBackend(fail_load="no such tensor"))
    pending = asyncio.create_task(engine.generate(request("early")))
    await asyncio.sleep(0.01)
    engine.start()
    with pytest.raises(ModelUnavailable, match="no such tensor"):
        await pending
    with pytest.raises(ModelUnavailable, match="no such tensor"):
        await engine.generate(request("later"))
    assert engine.stats().state == "failed"
    engine.close()


async def test_identical_greedy_requests_are_answered_from_the_cache(backend):
    from agentworld_mcp.engine import GenerationRequest, Sampling

    engine = Engine(backend, result_cache=2)
    engine.start()
    try:
        greedy = GenerationRequest(({"role": "user", "content": "same"},), Sampling(temperature=0))
        first, second = await engine.generate(greedy), await engine.generate(greedy)
        assert backend.ran == ["same"] and not first.cached and second.cached and second.text == first.text
        sampled = GenerationRequest(({"role": "user", "content": "sampled"},), Sampling(temperature=0.7))
        await engine.generate(sampled), await engine.generate(sampled)
        assert backend.ran == ["same", "sampled", "sampled"]  # sampling is never cached
        for label in ("a", "b"):  # capacity 2: "same" is evicted
            await engine.generate(GenerationRequest(({"role": "user", "content": label},), Sampling(temperature=0)))
        await engine.generate(greedy)
        assert backend.ran[-1] == "same" and engine.stats().cache_hits == 1
    finally:
        engine.close()


async def test_a_zero_capacity_cache_is_off(backend):
    from agentworld_mcp.engine import GenerationRequest, Sampling

    engine = Engine(backend, result_cache=0)
    engine.start()
    try:
        greedy = GenerationRequest(({"role": "user", "content": "same"},), Sampling(temperature=0))
        await engine.generate(greedy), await engine.generate(greedy)
        assert backend.ran == ["same", "same"]
    finally:
        engine.close()


async def test_a_backend_with_slots_gets_one_worker_per_slot_and_keeps_priorities():
    backend = FakeBackend(slots=2, token_seconds=0.04)  # 0.2 s a generation: the third to start ends last
    backend.gate = threading.Event()
    engine = Engine(backend, max_waiting=8)
    engine.start()
    try:
        first = [asyncio.create_task(engine.generate(request(f"busy{i}"))) for i in range(2)]
        await until(lambda: engine.stats().running == 2)  # both slots taken, nothing waits
        assert engine.stats().queue_depth == 0 and engine.stats().workers == 2
        later = [
            asyncio.create_task(engine.generate(request("plan1"), priority=Priority.PLAN)),
            asyncio.create_task(engine.generate(request("plan2"), priority=Priority.PLAN)),
            asyncio.create_task(engine.generate(request("interactive"))),
        ]
        await until(lambda: engine.stats().queue_depth == 3)
        backend.gate.set()
        await asyncio.gather(*first, *later)
        assert len(backend.thread_ids) == 2
        # Two slots free at once take the interactive generation and the older plan step; the newer one waits.
        assert backend.ran[-1] == "plan2" and set(backend.ran[2:4]) == {"interactive", "plan1"}
    finally:
        engine.close()
    assert backend.closed


async def test_cancelling_one_of_several_running_requests_stops_only_that_one():
    backend = FakeBackend(tokens=400, token_seconds=0.005, slots=2)  # ~2 s each if never stopped
    engine = Engine(backend)
    engine.start()
    try:
        cancelled = asyncio.create_task(engine.generate(request("cancelled")))
        kept = asyncio.create_task(engine.generate(request("kept")))
        await until(lambda: engine.stats().running == 2)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        assert (await kept).completion_tokens == 400
        await until(lambda: engine.stats().cancelled == 1)
    finally:
        engine.close()
