"""`agentworld-mcp bench`: where the time goes, measured in one run and printed as ratios.

This machine is shared and noisy, so every figure is compared with a baseline taken in the same
run, right before or after it, on the same model. Effects run in `parser` mode here so that each
prediction is one model call and the comparisons are like for like.
"""

from __future__ import annotations

import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TypedDict

from mcp import Client, StdioServerParameters

from ...domains.protocol import render_messages
from ...engine import GenerationRequest, Sampling
from ...engine.llama_backend import LlamaCppBackend
from ...tools.requests import PlanRequest, SimulateRequest
from ...tools.simulation.plan import dry_run_plan
from ...tools.simulation.simulate import simulate_action
from ...tools.worlds.store import Store
from ...tools.worlds.worlds import open_world
from ..model_files import GGUFInfo
from ..runtime import build_context, load_domain_packs
from ..settings import Settings
from ..surface.app import create_server

_MAX_TOKENS = 32
_PLAN = ["mkdir notes", "cd notes", "touch a.txt", "ls -la", "echo hi > b.txt", "cat b.txt", "cd ..", "du -sh notes"]


class _Greedy(TypedDict):
    """The scene and sampling both requests of section 2 share."""

    domain: str
    temperature: float
    max_tokens: int


def _line(label: str, ours: float, baseline: float, unit: str = "s", goal: str = "") -> None:
    ratio = ours / baseline if baseline else float("inf")
    print(f"  {label:<44} {ours:9.3f} {unit} vs {baseline:9.3f} {unit}   ratio {ratio:6.3f}  {goal}")


async def _server_overhead(settings: Settings, model: GGUFInfo) -> None:
    """1. One simulate_action through the real server over stdio vs the same prompt sent straight to llama.cpp."""
    print("1. simulate_action over stdio vs the same prompt straight to llama-cpp-python (warm prefix, greedy)")
    env = {**os.environ, "AGENTWORLD_EFFECTS": "parser", "AGENTWORLD_RESULT_CACHE": "0", "AGENTWORLD_N_CTX": str(settings.n_ctx)}
    params = StdioServerParameters(command=sys.executable, args=["-m", "agentworld_mcp", "--model", str(model.path)], env=env)
    call = {"domain": "terminal", "temperature": 0, "max_tokens": _MAX_TOKENS}
    async with Client(params, mode="legacy", read_timeout_seconds=600) as client:
        await client.call_tool("simulate_action", {**call, "action": "echo warm"})
        started = time.perf_counter()
        result = await client.call_tool("simulate_action", {**call, "action": "ls -la"})
        through_server = time.perf_counter() - started
    tokens = result.structured_content["usage"]["completion_tokens"]

    ctx = build_context(settings.model_copy(update={"effects": "parser", "result_cache": 0}), model, load_domain_packs(settings))
    backend = ctx.engine._backend  # the bench drives the model itself: no queue, no MCP, no parsing
    assert isinstance(backend, LlamaCppBackend)  # a model file always gets the in-process backend (make_backend)
    backend.load()
    pack = ctx.domains["terminal"]
    sampling = Sampling(temperature=0, max_tokens=_MAX_TOKENS)

    def direct(action: str) -> float:
        messages = render_messages(pack, [], pack.normalize_action(action), "", pack.initial_state, True)
        tokens_in = backend.render(GenerationRequest(tuple(messages), sampling))
        began = time.perf_counter()
        backend._loaded.create_completion(prompt=tokens_in, max_tokens=tokens, temperature=0, top_k=sampling.top_k)
        return time.perf_counter() - began

    direct("echo warm")
    straight = direct("ls -la")
    _line("server over stdio / direct llama.cpp", through_server, straight, goal="goal: within 1.05")


async def _plan_vs_cold(ctx) -> None:
    """2. An 8-step dry_run_plan vs the same 8 steps each rendered and evaluated from scratch."""
    print(f"2. an {len(_PLAN)}-step dry_run_plan vs the same steps each evaluated from scratch (max_tokens {_MAX_TOKENS})")
    greedy: _Greedy = {"domain": "terminal", "temperature": 0, "max_tokens": _MAX_TOKENS}
    started = time.perf_counter()
    plan = await dry_run_plan(ctx, PlanRequest(steps=_PLAN, **greedy))
    rolled = time.perf_counter() - started
    usage = plan.usage
    llm = ctx.engine._backend._llm
    cold = 0.0
    for index in range(len(plan.steps)):
        history = [{"action": s.action, "observation": s.prediction.observation} for s in plan.steps[:index]]
        llm.reset()  # forget the cached prefix: this step pays for its whole prompt
        began = time.perf_counter()
        await simulate_action(ctx, SimulateRequest(action=_PLAN[index], history=history, **greedy))
        cold += time.perf_counter() - began
    _line("rolled-out plan / steps from scratch", rolled, cold, goal="goal: at most 0.33")
    print(f"  reused prompt tokens: {usage.reused_prompt_tokens} of {usage.prompt_tokens} "
          f"({usage.reused_prompt_tokens / max(usage.prompt_tokens, 1):.0%})")


async def _interleaved_worlds(settings: Settings, model: GGUFInfo, domains, rounds: int = 3) -> None:
    """3. Three worlds stepped in turn: with snapshots, switching back does not re-read a world."""
    print(f"3. three worlds stepped in turn, {rounds} rounds, with and without the snapshot cache")
    timings = {}
    for snapshot_mb in (settings.snapshot_mb or 2048, 0):
        with tempfile.TemporaryDirectory() as data:
            store = Store(Path(data) / "bench.sqlite3")
            tuned = settings.model_copy(update={"effects": "parser", "result_cache": 0, "snapshot_mb": snapshot_mb})
            ctx = build_context(tuned, model, domains, store)
            ctx.engine.start()
            await ctx.engine.wait_ready()
            worlds = [
                open_world(ctx, "terminal", f"inspect the {topic} logs", "", None, _log_listing(topic)).world_id
                for topic in ("alpha", "beta", "gamma")
            ]
            began = time.perf_counter()
            for turn in range(rounds):
                for world_id in worlds:
                    step = SimulateRequest(action=f"ls -l part{turn}", world_id=world_id, commit=True, temperature=0, max_tokens=16)
                    await simulate_action(ctx, step)
            timings[snapshot_mb] = time.perf_counter() - began
            ctx.engine.close()
            store.close()
    with_snapshots, without = timings.values()
    _line("with snapshots / without", with_snapshots, without, goal="goal: at most 0.5")


def _log_listing(topic: str) -> list[dict]:
    screen = "\n".join(f"{topic}-{index:03d}.log  {index * 37 % 1000:>4} KB" for index in range(90))
    return [{"action": f"ls /var/log/{topic}", "observation": screen}]


async def _cached_answer(ctx) -> None:
    """4. A repeated identical request: the cached answer's latency at the server."""
    print("4. a repeated identical greedy request: first answer vs the cached one")
    request = SimulateRequest(domain="terminal", action="uname -a", temperature=0, max_tokens=_MAX_TOKENS)
    began = time.perf_counter()
    await simulate_action(ctx, request)
    first = time.perf_counter() - began
    began = time.perf_counter()
    again = await simulate_action(ctx, request)
    cached = time.perf_counter() - began
    assert again.usage.cached
    _line("cached answer / first answer", cached * 1000, first * 1000, unit="ms", goal=f"goal: cached under 20 ms ({cached * 1000:.2f} ms)")


async def _concurrent_clients(ctx, clients: int = 32) -> None:
    """5. Concurrent clients: what the server adds to a request beyond its queue wait and model time.

    Each client makes one call first: the MCP SDK's client compiles the server's output schema on
    a session's first call (about 20 ms here), a cost of that client, not of the queue.
    """
    print(f"5. {clients} concurrent MCP clients (in memory, sessions warmed), all calling at once")
    server = create_server(ctx)
    ready, go = [], asyncio.Event()
    calls: list[tuple[float, float, dict]] = []  # start, end, usage

    async def one(index: int) -> None:
        arguments = {"domain": "terminal", "temperature": 0}
        async with Client(server, mode="legacy") as client:
            await client.call_tool("simulate_action", {**arguments, "action": f"echo warm {index}", "max_tokens": 1})
            ready.append(index)
            if len(ready) == clients:
                go.set()
            await go.wait()
            began = time.perf_counter()
            result = await client.call_tool("simulate_action", {**arguments, "action": f"echo {index}", "max_tokens": 8})
            calls.append((began, time.perf_counter(), result.structured_content["usage"]))

    await asyncio.gather(*(one(index) for index in range(clients)))
    at_server = sorted(u["seconds"] - u["queue_seconds"] - u["generation_seconds"] for _, _, u in calls)
    at_client = sorted(end - began - u["queue_seconds"] - u["generation_seconds"] for began, end, u in calls)
    span = max(end for _, end, _ in calls) - min(began for began, _, _ in calls)
    model_busy = sum(u["generation_seconds"] for _, _, u in calls) / span

    def percentiles(values: list[float]) -> str:
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        return f"p50 {statistics.median(values) * 1000:7.2f} ms   p99 {p99 * 1000:7.2f} ms"

    print(f"  at the server (checks, queue, parsing, result)   {percentiles(at_server)}   (goal: p50 under 5 ms)")
    print(f"  at the client (adds the MCP SDK on both ends)    {percentiles(at_client)}")
    print(f"  the model was busy {model_busy:.1%} of the {span:.1f} s the {clients} calls took")


_ROLLOUTS, _ROLLOUT_STEPS, _SERVER_SLOTS = 8, 4, 4


def _rollouts() -> list[list[str]]:
    """8 independent 4-step plans, each from its own first command, so no two share a prefix past the system prompt."""
    return [[f"mkdir run{index}", f"cd run{index}", "touch a.txt", "ls"] for index in range(_ROLLOUTS)]


async def _run_rollouts(ctx, concurrently: bool) -> tuple[float, int]:
    async def one(steps: list[str]) -> int:
        result = await dry_run_plan(ctx, PlanRequest(domain="terminal", steps=steps, temperature=0, max_tokens=_MAX_TOKENS))
        return sum(step.prediction.usage.completion_tokens for step in result.steps)

    started = time.perf_counter()
    if concurrently:
        tokens = sum(await asyncio.gather(*(one(steps) for steps in _rollouts())))
    else:
        tokens = 0
        for steps in _rollouts():
            tokens += await one(steps)
    return time.perf_counter() - started, tokens


async def _remote_backend(settings: Settings, model: GGUFInfo, local) -> None:
    """6. A model server with parallel slots against the in-process model, and what the remote backend adds per call."""
    from ..runtime import resolve_source
    from . import llama_server

    print(f"6. {_ROLLOUTS} rollouts of {_ROLLOUT_STEPS} steps: concurrently on llama-server -np {_SERVER_SLOTS} "
          "vs one after another in process (same GGUF, same threads)")
    try:
        server = llama_server.start(model.path, slots=_SERVER_SLOTS, n_ctx=_SERVER_SLOTS * settings.n_ctx, threads=settings.threads())
    except (llama_server.LlamaServerMissing, RuntimeError) as exc:
        print(f"  skipped: {exc}")
        return
    remote_settings = settings.model_copy(update={"backend": "openai", "base_url": server.base_url, "effects": "parser",
                                                  "result_cache": 0})
    remote = build_context(remote_settings, resolve_source(remote_settings), local.domains)
    one_setting = remote_settings.model_copy(update={"parallel": 1})
    one_at_a_time = build_context(one_setting, resolve_source(one_setting), local.domains)
    remote.engine.start()
    one_at_a_time.engine.start()
    try:
        await remote.engine.wait_ready()
        await one_at_a_time.engine.wait_ready()
        serial_seconds, serial_tokens = await _run_rollouts(local, concurrently=False)
        parallel_seconds, parallel_tokens = await _run_rollouts(remote, concurrently=True)
        stats = remote.engine.stats()
        one_by_one_seconds, one_by_one_tokens = await _run_rollouts(one_at_a_time, concurrently=False)
        rows = [("in process, one after another", serial_seconds, serial_tokens),
                (f"llama-server, {_ROLLOUTS} at once", parallel_seconds, parallel_tokens),
                ("llama-server, one after another", one_by_one_seconds, one_by_one_tokens)]
        for label, seconds, tokens in rows:
            print(f"  {label:<34} {seconds:8.1f} s  {tokens / seconds:6.1f} completion tokens/s")
        print(f"  throughput, {_ROLLOUTS} at once on the server vs one after another in process: "
              f"{serial_seconds / parallel_seconds:5.2f}x   (goal: at least 1.8x)")
        print(f"  throughput, {_ROLLOUTS} at once vs one after another on the same server: {one_by_one_seconds / parallel_seconds:5.2f}x")
        print(f"  requests on the server at once: up to {stats.backend['in_flight_peak']}; prompt tokens "
              f"{stats.prompt_tokens}, of which the server reported {stats.reused_prompt_tokens} reused")
        await _remote_overhead(remote, server.base_url)
    finally:
        remote.engine.close()
        one_at_a_time.engine.close()
        server.stop()


async def _remote_overhead(remote, base_url: str, calls: int = 30) -> None:
    """The whole remote path (queue, worker thread, portal, stream reading) against a bare streamed POST of the
    same request, alternated so that both see the same server and the same load."""
    import httpx2

    backend = remote.engine._backend
    request = GenerationRequest(messages=({"role": "user", "content": "Say OK."},), sampling=Sampling(temperature=0, max_tokens=4))
    body = {**backend._body(request, None), "stream": True}  # the very body the backend sends
    ours, bare = [], []
    async with httpx2.AsyncClient(timeout=60) as client:
        for _ in range(calls):
            started = time.perf_counter()
            await remote.engine.generate(request)
            ours.append(time.perf_counter() - started)
            started = time.perf_counter()
            async with client.stream("POST", base_url + "/chat/completions", json=body) as response:
                async for _line in response.aiter_lines():
                    pass
            bare.append(time.perf_counter() - started)
    added = statistics.median(ours) - statistics.median(bare)
    print(f"  per call, the remote backend vs a bare streamed POST (4 tokens, {calls} calls each): "
          f"p50 {statistics.median(ours) * 1000:.1f} ms vs {statistics.median(bare) * 1000:.1f} ms, "
          f"adds {added * 1000:.2f} ms   (goal: under 5 ms)")
    print(f"  stream time beyond the server's own timings, p50: {remote.engine.stats().backend['overhead_ms_p50']} ms")


async def run_bench(settings: Settings, model: GGUFInfo, sections: set[int] | None = None) -> int:
    """Sections 1-16 (all by default)."""
    wanted = sections or set(range(1, 17))
    # These sections measure the model and the server around it: every step is the model's, none computed
    # (`python -m agentworld_mcp.server.measure.computed_bench` measures computed steps).
    settings = settings.model_copy(update={"computed": "off"})
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.python_implementation()} {platform.python_version()}")
    print(f"model: {model.name} ({model.quantization}, {model.size_bytes / 1e6:.0f} MB), threads {settings.threads()}, n_ctx {settings.n_ctx}")
    if 1 in wanted:
        await _server_overhead(settings, model)
    if 9 in wanted:
        from .semantics_bench import semantics_costs

        semantics_costs()
    if wanted & {2, 3, 4, 5, 6, 8, 10}:
        await _model_sections(settings, model, wanted)
    if 7 in wanted:
        from ..twin.bench import twin_overhead

        await twin_overhead()
    if 11 in wanted:
        from ..twin.bench import schema_refusals

        await schema_refusals()
    if 12 in wanted:
        from .kernels_bench import kernel_speeds

        kernel_speeds(str(model.path), settings.threads())
    if 13 in wanted:
        from .episodes_bench import episodes_at_once

        episodes_at_once(settings, model.path)
    if 14 in wanted:
        from .retrieval_bench import retrieval_costs

        retrieval_costs(model.path)
    if 15 in wanted:
        from .store_bench import store_costs

        await store_costs(settings, model)
    if 16 in wanted:
        from .everyday_bench import everyday_figures

        await everyday_figures(model.path, n_ctx=settings.n_ctx)
    return 0


async def _model_sections(settings: Settings, model: GGUFInfo, wanted: set[int]) -> None:
    domains = load_domain_packs(settings)
    # The result cache would answer the from-scratch steps of 2 and the clients of 5 without the model.
    uncached = build_context(settings.model_copy(update={"effects": "parser", "result_cache": 0}), model, domains)
    cached = build_context(settings.model_copy(update={"effects": "parser"}), model, domains)
    for ctx in (uncached, cached):
        ctx.engine.start()
    try:
        await uncached.engine.wait_ready()
        if 2 in wanted:
            await _plan_vs_cold(uncached)
        if 3 in wanted:
            await _interleaved_worlds(settings, model, domains)
        await cached.engine.wait_ready()
        if 4 in wanted:
            await _cached_answer(cached)
        if 5 in wanted:
            await _concurrent_clients(uncached)
        if 6 in wanted:
            await _remote_backend(settings, model, uncached)
        if 8 in wanted:
            from ..hosts.bench import guard_costs

            await guard_costs(cached)
        if 10 in wanted:
            from .semantics_bench import state_check_costs

            await state_check_costs(uncached)
    finally:
        for ctx in (uncached, cached):
            ctx.engine.close()
