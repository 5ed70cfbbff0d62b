"""Many conversations on a backend with parallel slots: each keeps the slot that holds its prefix,
and a new one waits for a slot rather than evict a conversation that is coming back."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator

from agentworld_mcp.engine import Engine, GenerationRequest
from agentworld_mcp.engine.fake import FakeBackend
from agentworld_mcp.engine.slots import conversation_key

from ..waiting import until


def _step(world: str, step: int) -> GenerationRequest:
    """Step `step` of a world: its system prompt and first turn, then one turn per earlier step."""
    messages = [{"role": "system", "content": "a world model"}, {"role": "user", "content": f"{world}1"}]
    for number in range(2, step + 1):
        messages += [{"role": "assistant", "content": "..."}, {"role": "user", "content": f"{world}{number}"}]
    return GenerationRequest(tuple(messages))


@contextlib.asynccontextmanager
async def _two_slots(hold_seconds: float = 1.0) -> AsyncIterator[tuple[Engine, FakeBackend]]:
    backend = FakeBackend(slots=2, token_seconds=0.002)
    engine = Engine(backend, result_cache=0, hold_seconds=hold_seconds)
    engine.start()
    try:
        yield engine, backend
    finally:
        if backend.gate is not None:
            backend.gate.set()
        engine.close()


async def _occupy(engine: Engine, backend: FakeBackend, request: GenerationRequest) -> asyncio.Task:
    """Run `request` on one slot and keep it there until the gate opens."""
    backend.gate, backend.gated = threading.Event(), {request.messages[-1]["content"]}
    busy = asyncio.create_task(engine.generate(request))
    await until(lambda: engine.stats().running == 1)
    return busy


def test_every_step_of_a_conversation_has_its_first_turn_as_key():
    assert conversation_key(_step("a", 1).messages) == conversation_key(_step("a", 3).messages)
    assert conversation_key(_step("a", 2).messages) != conversation_key(_step("b", 2).messages)


async def test_each_conversation_keeps_its_slot():
    backend = FakeBackend(slots=2, token_seconds=0.002)
    engine = Engine(backend, result_cache=0)
    engine.start()

    async def world(name: str) -> None:
        for step in range(1, 5):
            await engine.generate(_step(name, step))

    try:
        await asyncio.gather(world("a"), world("b"))
    finally:
        engine.close()
    slots = {name: {backend.slot_of[f"{name}{step}"] for step in range(1, 5)} for name in "ab"}
    assert len(slots["a"]) == 1 and len(slots["b"]) == 1 and slots["a"] != slots["b"]


async def test_a_new_conversation_waits_for_a_returning_one_instead_of_evicting_it():
    async with _two_slots(hold_seconds=0.5) as (engine, backend):
        for step in (1, 2):  # a and b each come back once: both are returning conversations
            await asyncio.gather(engine.generate(_step("a", step)), engine.generate(_step("b", step)))
        a_slot = backend.slot_of["a2"]
        b3 = await _occupy(engine, backend, _step("b", 3))  # keeps b's slot busy
        newcomer = asyncio.create_task(engine.generate(_step("c", 1)))
        await until(lambda: engine.stats().held_back == 1)
        assert "c1" not in backend.ran
        await engine.generate(_step("a", 3))  # a's next step finds its slot free and its cache warm
        assert backend.slot_of["a3"] == a_slot and "c1" not in backend.ran
        await asyncio.wait_for(newcomer, 5)  # a's hold ran out: c takes the slot while b still runs
        assert backend.slot_of["c1"] == a_slot and not b3.done()
        backend.gate.set()
        await b3


async def test_one_off_calls_never_hold_a_slot():
    async with _two_slots(hold_seconds=30) as (engine, backend):
        await asyncio.gather(engine.generate(_step("x", 1)), engine.generate(_step("y", 1)))
        busy = await _occupy(engine, backend, _step("y", 2))
        await asyncio.wait_for(engine.generate(_step("z", 1)), 5)  # x ran once: its slot is free at once
        assert engine.stats().held_back == 0
        backend.gate.set()
        await busy


async def test_lockstep_episodes_beyond_the_slots_never_stall():
    """A vector env's step waits for all its episodes: waiting for a returning holder would stall it,
    so a free slot waits only while another slot is busy."""
    async with _two_slots(hold_seconds=30) as (engine, backend):
        for step in range(1, 4):
            await asyncio.wait_for(asyncio.gather(*(engine.generate(_step(name, step)) for name in "abcd")), 5)
    assert len(backend.ran) == 12


async def test_a_live_conversation_that_lost_its_slot_never_waits_for_one():
    async with _two_slots(hold_seconds=30) as (engine, backend):
        busy = await _occupy(engine, backend, _step("z", 1))  # one slot stays busy throughout
        await engine.generate(_step("x", 1))  # x runs on the other slot, then a takes it and comes back
        await engine.generate(_step("a", 1))
        await engine.generate(_step("a", 2))
        await asyncio.wait_for(engine.generate(_step("x", 2)), 5)  # live: it does not wait out a's 30 s
        assert engine.stats().held_back == 0
        newcomer = asyncio.create_task(engine.generate(_step("y", 1)))
        await engine.generate(_step("x", 3))  # x holds the slot now, and comes back
        await until(lambda: engine.stats().held_back == 1)  # a new conversation waits for x's next step
        assert not newcomer.done()
        backend.gate.set()
        await asyncio.gather(busy, newcomer)


async def test_holders_that_keep_coming_back_never_starve_a_new_conversation():
    async with _two_slots(hold_seconds=0.3) as (engine, backend):
        busy = await _occupy(engine, backend, _step("z", 1))  # one slot stays busy throughout
        for step in (1, 2):
            await engine.generate(_step("a", step))
        newcomer = asyncio.create_task(engine.generate(_step("n", 1)))
        for step in range(3, 30):  # a keeps coming back, well within its hold each time
            if newcomer.done():
                break
            await engine.generate(_step("a", step))
            await asyncio.sleep(0.05)
        assert newcomer.done()  # it waited at most its hold, not as long as a kept returning
        backend.gate.set()
        await busy
