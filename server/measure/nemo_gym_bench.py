"""`bench --section 13`, through the NeMo Gym resources server: section 13's episodes over HTTP, each one a
session (seed, its steps at /act, verify, close), 8 sessions at once against the same episodes one after
another, on one server and one llama-server with parallel slots. Episodes per second on each side, twice:
with the steps the world computes (the server's own cost), and with every step the model's."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..settings import Settings
from .episodes_bench import EPISODES, MAX_TOKENS, ROUNDS, SLOTS, STEPS, _episode


def nemo_gym_episodes(settings: Settings, model_path: Path) -> None:
    from . import llama_server

    print(f"\n13b. the same {EPISODES} episodes through the NeMo Gym resources server (env serve --api nemo-gym) "
          f"over HTTP: {EPISODES} sessions at once vs one after another; {ROUNDS} rounds, alternated")
    try:
        server = llama_server.start(model_path, slots=SLOTS, n_ctx=SLOTS * settings.n_ctx, threads=settings.threads())
    except (llama_server.LlamaServerMissing, RuntimeError) as exc:
        print(f"  skipped: {exc}")
        return
    try:
        # First as the world runs them (mkdir, cd, touch and ls are all computed: the server's own cost), then
        # every step the model's, as in section 13 (the server and the model server together).
        for computed, label in (("on", "computed by the world"), ("off", "every step the model's")):
            serial, together = _rates(settings, server.base_url, computed)
            print(f"  {label:22s} one after another {serial:7.2f} episodes/s   at once {together:7.2f} episodes/s   "
                  f"ratio {together / serial:5.2f}x   (goal: at least 1.0x on this machine)", flush=True)
    finally:
        server.stop()


def _rates(settings: Settings, base_url: str, computed: str) -> tuple[float, float]:
    """Episodes per second one after another and at once, over ROUNDS rounds that alternate the sides."""
    from ..api.nemo_gym_server import nemo_gym_app
    from ..api.python_api import Simulator, run_sync

    seconds = {False: 0.0, True: 0.0}
    with Simulator(base_url=base_url, effects="parser", result_cache=0, n_ctx=settings.n_ctx, computed=computed) as sim:
        app = nemo_gym_app(sim, "terminal", max_steps=STEPS, max_sessions=EPISODES, temperature=0,
                           max_tokens=MAX_TOKENS)
        with _served(app) as base:
            for round_ in range(ROUNDS):
                for at_once in (False, True):
                    side = f"gym{computed}{round_}{'v' if at_once else 's'}-"
                    seconds[at_once] += run_sync(_episodes(base, side, at_once))
    done = EPISODES * ROUNDS
    return done / seconds[False], done / seconds[True]


async def _episodes(base: str, side: str, at_once: bool) -> float:
    began = time.perf_counter()
    if at_once:
        await asyncio.gather(*(_episode_over_http(base, index, side) for index in range(EPISODES)))
    else:
        for index in range(EPISODES):
            await _episode_over_http(base, index, side)
    return time.perf_counter() - began


async def _episode_over_http(base: str, index: int, side: str) -> None:
    import httpx

    session = f"{side}{index}"
    seed: dict[str, Any] = {"resources_session_id": session, "episode_id": {"rollout_id": session},
                            "task_id": {"taskset": "bench", "task_id": str(index)}, "task_data": {}}
    async with httpx.AsyncClient(base_url=base, timeout=600) as client:  # a client each: its own session cookie
        (await client.post("/seed_session", json=seed)).raise_for_status()
        for action in _episode(index, side):
            (await client.post("/act", json={"action": action})).raise_for_status()
        (await client.post("/verify", json={})).raise_for_status()
        (await client.post("/close_session", json={"resources_session_id": session,
                                                   "episode_id": seed["episode_id"]})).raise_for_status()


@contextlib.contextmanager
def _served(app: Any) -> Iterator[str]:
    """`app` on a loopback port in a thread of its own, for as long as the block runs."""
    import uvicorn

    from .llama_server import free_port

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the NeMo Gym resources server did not start")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
