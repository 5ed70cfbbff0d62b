"""Two real `serve --transport http --stateless` replicas over one real PostgreSQL, with calls spread between
them as a load balancer without sticky sessions would: one world opened, recorded, stepped, forked and
rewound through both, with computed and predicted steps, and stepped through both at once. Every
acknowledged step is there once, in order."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from itertools import cycle

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from agentworld_mcp.server.measure.llama_server import free_port

from ..tool_calls import call_ok

QUICK = {"temperature": 0, "max_tokens": 48}
_EMPTY = "Working folder: /home/dev/site\n/home/dev/site is empty\nThe screen shows a fresh prompt: dev@sandbox:~/site$"


@pytest.fixture(scope="module")
def replicas(postgres_url, tmp_path_factory):
    """Two stateless HTTP servers sharing the cluster's store: their addresses."""
    folder = tmp_path_factory.mktemp("replicas")
    env = {**os.environ, "AGENTWORLD_STORE": postgres_url, "AGENTWORLD_N_CTX": "4096"}
    env.pop("AGENTWORLD_AUTH_TOKEN", None)
    started = []
    for name in ("a", "b"):
        port = free_port()
        with (folder / f"{name}.log").open("wb") as sink:
            started.append((f"http://127.0.0.1:{port}", subprocess.Popen(
                [sys.executable, "-m", "agentworld_mcp", "serve", "--transport", "http", "--stateless", "--port",
                 str(port)], env=env, stdout=sink, stderr=subprocess.STDOUT)))
    for base, _ in started:
        for _ in range(300):
            try:
                if httpx2.get(base + "/health", timeout=2).status_code in (200, 503):
                    break
            except httpx2.HTTPError:
                time.sleep(0.1)
    yield [base for base, _ in started]
    for _, process in started:
        process.terminate()
        process.wait(20)


async def _call(base: str, tool: str, arguments: dict) -> dict:
    """One call through its own connection: nothing of an earlier call's session is needed."""
    async with Client(streamable_http_client(base + "/mcp"), mode="legacy", read_timeout_seconds=300) as client:
        return await call_ok(client, tool, arguments)


async def test_one_world_through_two_stateless_replicas(replicas):
    turn = cycle(replicas)
    world = (await _call(next(turn), "world", {"operation": "open", "domain": "terminal", "state": _EMPTY}))["world_id"]
    await _call(next(turn), "world", {"operation": "record", "world_id": world, "action": "pwd",
                                      "observation": "$ pwd\n/home/dev/site\n$ "})
    # Computed steps: each replica computes from the folder the other one's step made.
    for action in ("mkdir notes", "touch notes/a.txt"):
        computed = await _call(next(turn), "simulate_action", {"world_id": world, "action": action, "commit": True})
        assert computed["committed"] and computed["effects"]["source"] == "computed", computed
    stepped = await _call(next(turn), "simulate_action", {"world_id": world, "action": "ls", "commit": True, **QUICK})
    seen = await _call(next(turn), "world", {"operation": "get", "world_id": world})
    assert [s["step"] for s in seen["steps"]] == list(range(1, 4 + stepped["committed"]))
    fork = (await _call(next(turn), "world", {"operation": "fork", "world_id": world, "step": 1}))["world_id"]
    forked = await _call(next(turn), "world", {"operation": "get", "world_id": fork})
    assert [s["step"] for s in forked["steps"]] == [1] and "pwd" in forked["steps"][0]["action"]
    await _call(next(turn), "world", {"operation": "rewind", "world_id": world, "step": 1})

    # Both replicas step the world at once: each step holds the world, so they take turns.
    results = await asyncio.gather(*(
        _call(base, "simulate_action", {"world_id": world, "action": action, "commit": True, **QUICK})
        for base, action in zip(replicas * 2, ["date", "whoami", "uname", "hostname"])))
    view = await _call(replicas[0], "world", {"operation": "get", "world_id": world})
    committed = sum(1 for result in results if result["committed"])
    assert [s["step"] for s in view["steps"]] == list(range(1, 2 + committed))  # once each, in order, no gap
