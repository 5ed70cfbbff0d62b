"""`agentworld-mcp bench --section 15`: what a team's store costs, and what a second replica buys.

Two figures from one run, each against a baseline taken in the same run:
- a committed plan's step latency, every step computed (no model), on PostgreSQL vs SQLite;
- zero-token guard decisions per second through one `serve --transport http --stateless` replica and
  through two on one PostgreSQL, the callers spread over them as a load balancer would.
PostgreSQL is a throwaway cluster (postgres_cluster.py); without one the section says why and stops.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import cycle
from pathlib import Path

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from ...tools.requests import PlanRequest
from ...tools.simulation.plan import dry_run_plan
from ...tools.worlds.stores import open_store
from ...tools.worlds.worlds import open_world
from ..model_files import GGUFInfo
from ..runtime import build_context, load_domain_packs
from ..settings import Settings
from .llama_server import free_port
from .postgres_cluster import cluster, unavailable

# A plan the virtual shell computes whole from an empty folder: every step is the store's and the shell's.
_PLAN = ["mkdir notes", "touch notes/a.txt", "echo hi > notes/b.txt", "cat notes/b.txt", "mv notes/a.txt notes/c.txt",
         "cat notes/c.txt"]
_STATE = "Working folder: /home/dev/site\n/home/dev/site is empty\nThe screen shows a fresh prompt: dev@sandbox:~/site$"
_GUARD_CALL = {"event": "pre", "tool_name": "Bash", "tool_input": {"command": "rm -rf / --no-preserve-root"},
               "format": "plain"}
_CALLERS, _SECONDS = 8, 10.0


async def store_costs(settings: Settings, model: GGUFInfo) -> None:
    print("15. a team's store: a computed plan's step on PostgreSQL vs SQLite, guard decisions through 1 vs 2 replicas")
    why = unavailable()
    if why:
        print(f"  skipped: {why}")
        return
    with cluster() as url, tempfile.TemporaryDirectory(prefix="agentworld-bench-store-") as folder:
        sqlite = await _plan_step_seconds(settings, model, str(Path(folder) / "worlds.sqlite3"))
        postgres = await _plan_step_seconds(settings, model, url)
        print(f"  a committed plan's computed step, p50 over {len(_PLAN) * 5}: SQLite {sqlite * 1000:.2f} ms, "
              f"PostgreSQL {postgres * 1000:.2f} ms ({postgres / sqlite:.2f}x)")
        one = await _guard_rate(url, replicas=1, folder=Path(folder))
        two = await _guard_rate(url, replicas=2, folder=Path(folder))
        print(f"  zero-token guard decisions per second, {_CALLERS} callers for {_SECONDS:.0f} s: one replica {one:.0f}, "
              f"two replicas {two:.0f} ({two / one:.2f}x) on {os.cpu_count()} CPUs")


async def _plan_step_seconds(settings: Settings, model: GGUFInfo, where: str) -> float:
    """Five committed runs of the plan into a world of this store: the p50 seconds of one step."""
    store = open_store(where)
    ctx = build_context(settings.model_copy(update={"computed": "on"}), model, load_domain_packs(settings), store=store)
    walls = []
    ctx.engine.start()  # no step should reach the model, but one the virtual shell refuses would wait for it
    try:
        await ctx.engine.wait_ready()
        for _ in range(5):
            world = open_world(ctx, "terminal", "", _STATE, None, []).world_id
            started = time.perf_counter()
            result = await dry_run_plan(ctx, PlanRequest(world_id=world, steps=_PLAN, commit=True))
            walls.append((time.perf_counter() - started) / len(_PLAN))
            assert all(step.prediction.effects.source == "computed" for step in result.steps), "a step was predicted"
    finally:
        ctx.engine.close()
        store.close()
    return statistics.median(walls)


async def _guard_rate(url: str, replicas: int, folder: Path) -> float:
    """Decisions per second from a pool of callers, each call on the next replica."""
    env = {**os.environ, "AGENTWORLD_STORE": url, "AGENTWORLD_N_CTX": "2048"}
    env.pop("AGENTWORLD_AUTH_TOKEN", None)
    servers = []
    for index in range(replicas):
        port = free_port()
        with (folder / f"replica-{replicas}-{index}.log").open("wb") as sink:
            servers.append((f"http://127.0.0.1:{port}/mcp", subprocess.Popen(
                [sys.executable, "-m", "agentworld_mcp", "serve", "--transport", "http", "--stateless", "--port",
                 str(port)], env=env, stdout=sink, stderr=subprocess.STDOUT)))
    try:
        for address, _ in servers:
            await _ready(address.removesuffix("/mcp"))
        addresses = cycle([address for address, _ in servers])
        done = 0
        deadline = time.monotonic() + _SECONDS

        async def caller(address: str) -> None:
            nonlocal done
            async with Client(streamable_http_client(address), mode="legacy") as client:
                while time.monotonic() < deadline:
                    await client.call_tool("guard", _GUARD_CALL)
                    done += 1

        started = time.monotonic()
        await asyncio.gather(*(caller(next(addresses)) for _ in range(_CALLERS)))
        return done / (time.monotonic() - started)
    finally:
        for _, process in servers:
            process.terminate()
            process.wait(20)


async def _ready(base: str) -> None:
    for _ in range(600):
        try:
            async with httpx2.AsyncClient() as client:
                if (await client.get(base + "/health", timeout=2)).status_code in (200, 503):
                    return
        except httpx2.HTTPError:
            await asyncio.sleep(0.1)
    raise RuntimeError(f"the replica at {base} did not come up")
