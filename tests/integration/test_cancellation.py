"""A client that gives up frees the model: over real stdio, with a read timeout and with a cancel.

Each test starts the real server, gives it work that would hold the model for many seconds (a
prompt of a few thousand tokens, a six-step plan), gives up on it, and then checks what a user
would: the worker is idle again soon (within FREE_WITHIN seconds: a prompt slice and a token,
not the rest of the work), no later step of the abandoned call runs, and the next call is
answered by the model with real usage, without waiting behind stale work.
"""

from __future__ import annotations

import json
import time

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

FREE_WITHIN = 3.0  # seconds from giving up until the worker is idle
# About 2,200 tokens: reading it holds the model for several seconds even on a fast machine.
LONG_STATE = "\n".join(f"-rw-r--r-- 1 dev dev {n * 37 % 9000:5d} Mar  3 10:{n % 60:02d} data_{n:04d}.csv" for n in range(64))
PLAN = {"domain": "terminal", "steps": ["ls -la /"] * 6, "max_tokens": 400, "state": LONG_STATE}
ABANDONED_SIMULATION = {"domain": "terminal", "action": "ls -la", "max_tokens": 400, "state": LONG_STATE}


@pytest.fixture
def server(server_argv, server_env):
    return StdioServerParameters(command=server_argv[0], args=server_argv[1:], env=server_env)


async def status(client: Client) -> dict:
    contents = (await client.read_resource("status://server")).contents
    return json.loads(contents[0].text)


async def warm_up(client: Client) -> None:
    """The model loads and reads the system prompt once, so what follows measures only our call (`uname -r`:
    a line the world cannot compute, so the model answers)."""
    result = await client.call_tool("simulate_action", {"domain": "terminal", "action": "uname -r", "max_tokens": 1})
    assert not result.is_error, result.content


async def seconds_until_idle(client: Client, gave_up: float, limit: float = 60.0) -> float:
    while True:
        now = status_now = await status(client)
        if not now["running"] and now["queue_depth"] == 0:
            return time.monotonic() - gave_up
        assert time.monotonic() - gave_up < limit, status_now
        await anyio.sleep(0.05)


async def assert_freed(client: Client, gave_up: float, completed_before: int) -> None:
    freed = await seconds_until_idle(client, gave_up)
    assert freed < FREE_WITHIN, f"the worker was busy {freed:.1f} s after the client gave up"
    await anyio.sleep(1.0)  # long enough for a later step to be queued, if one were
    after = await status(client)
    assert not after["running"] and after["queue_depth"] == 0
    assert after["completed"] == completed_before, "a step of the abandoned call ran after the client gave up"
    assert after["cancelled"] >= 1


async def assert_next_call_is_real(client: Client) -> None:
    result = await client.call_tool("simulate_action", {"domain": "terminal", "action": "whoami", "max_tokens": 16})
    assert not result.is_error, result.content
    usage = result.structured_content["usage"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0 and not usage["cached"]
    assert usage["queue_seconds"] < 1.0, usage


@pytest.mark.parametrize("tool, arguments", [("simulate_action", ABANDONED_SIMULATION), ("dry_run_plan", PLAN)])
async def test_a_read_timeout_frees_the_model(server, tool, arguments):
    async with Client(server, read_timeout_seconds=300) as client:
        await warm_up(client)
        completed = (await status(client))["completed"]
        with pytest.raises(MCPError, match="timed out"):
            await client.call_tool(tool, arguments, read_timeout_seconds=1.5)
        await assert_freed(client, time.monotonic(), completed)
        await assert_next_call_is_real(client)


async def test_cancelling_a_simulation_during_its_prompt_frees_the_model(server):
    async with Client(server, read_timeout_seconds=300) as client:
        await warm_up(client)
        completed = (await status(client))["completed"]
        with anyio.move_on_after(1.5):
            await client.call_tool("simulate_action", ABANDONED_SIMULATION)
            pytest.fail("the simulation finished before it was cancelled")
        await assert_freed(client, time.monotonic(), completed)
        await assert_next_call_is_real(client)


async def test_cancelling_a_plan_after_its_first_step_runs_no_later_step(server):
    async with Client(server, read_timeout_seconds=300) as client:
        await warm_up(client)
        with anyio.CancelScope() as scope:

            async def on_progress(done: float, total: float | None, message: str | None) -> None:
                scope.cancel()  # the first step is done; the second is under way

            await client.call_tool("dry_run_plan", PLAN, progress_callback=on_progress)
            pytest.fail("the plan finished before it was cancelled")
        gave_up = time.monotonic()
        completed = (await status(client))["completed"]  # step 1 and its effects: counted before the cancel
        await assert_freed(client, gave_up, completed)
        await assert_next_call_is_real(client)


async def test_cancelling_a_world_step_commits_nothing(server):
    async with Client(server, read_timeout_seconds=300) as client:
        await warm_up(client)
        opened = await client.call_tool("world", {"operation": "open", "domain": "terminal", "state": LONG_STATE})
        world_id = opened.structured_content["world_id"]
        completed = (await status(client))["completed"]
        with anyio.move_on_after(1.5):
            await client.call_tool("simulate_action", {"world_id": world_id, "action": "ls -la", "commit": True})
            pytest.fail("the world step finished before it was cancelled")
        await assert_freed(client, time.monotonic(), completed)
        world = await client.call_tool("world", {"operation": "get", "world_id": world_id})
        assert world.structured_content["steps"] == []
        await assert_next_call_is_real(client)


async def test_cancelling_a_job_frees_the_model(server):
    async with Client(server, read_timeout_seconds=300) as client:
        await warm_up(client)
        completed = (await status(client))["completed"]
        started = await client.call_tool("dry_run_plan", {**PLAN, "budget_seconds": 1})
        job_id = started.structured_content["job_id"]
        assert job_id, started.structured_content
        cancelled = await client.call_tool("job", {"job_id": job_id, "cancel": True})
        assert cancelled.structured_content["status"] == "cancelled"
        await assert_freed(client, time.monotonic(), completed)
        await assert_next_call_is_real(client)
