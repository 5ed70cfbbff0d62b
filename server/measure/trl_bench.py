"""`bench --section 13`, through the TRL adapter: the section's episodes as TRL's trainers step them.

GRPOTrainer (TRL 1.16) calls a batch's tools on its own thread, turn by turn and rollout by rollout: one
after another. TRL's experimental asynchronous GRPO calls them in a thread pool, each rollout on a thread
of its own: at once. Both drive the same trl_environment class over one Simulator on one llama-server
with parallel slots, so the ratio is what stepping the rollouts side by side buys.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..settings import Settings
from .episodes_bench import EPISODES, MAX_TOKENS, ROUNDS, SLOTS, STEPS, _episode


def trl_episodes_at_once(settings: Settings, model_path: Path, episodes: int = EPISODES, steps: int = STEPS,
                         max_tokens: int = MAX_TOKENS, rounds: int = ROUNDS) -> tuple[float, float] | None:
    """Prints episodes per second both ways and their ratio; returns (one after another, at once) in
    episodes per second, or None where no llama-server could start."""
    from ..api.python_api import Simulator
    from ..api.trl_env import trl_environment
    from . import llama_server

    print(f"\n13. (TRL) {episodes} episodes of {steps} steps through trl_environment on llama-server -np {SLOTS}: "
          f"GRPOTrainer's way (one rollout after another) vs a thread per rollout (TRL's async GRPO); "
          f"{rounds} rounds, alternated")
    try:
        server = llama_server.start(model_path, slots=SLOTS, n_ctx=SLOTS * settings.n_ctx, threads=settings.threads())
    except (llama_server.LlamaServerMissing, RuntimeError) as exc:
        print(f"  skipped: {exc}")
        return None
    serial = together = 0.0
    try:
        # Every step the model's (`mkdir serial0` would be computed): this measures the model server.
        with Simulator(base_url=server.base_url, effects="parser", result_cache=0, n_ctx=settings.n_ctx,
                       computed="off") as sim:
            Env = trl_environment(sim, "terminal", max_steps=steps, temperature=0, max_tokens=max_tokens)
            for round_ in range(rounds):
                serial += _as_grpo_trainer(Env, episodes, steps, f"trl-serial{round_}-")
                together += _a_thread_each(Env, episodes, steps, f"trl-threads{round_}-")
    finally:
        server.stop()
    one_by_one, at_once = rounds * episodes / serial, rounds * episodes / together
    print(f"  one after another {one_by_one:6.3f} episodes/s ({serial:.1f} s)   at once {at_once:6.3f} episodes/s "
          f"({together:.1f} s)   ratio {at_once / one_by_one:5.2f}x   (goal: at least 1.0x on this machine)")
    return one_by_one, at_once


def _as_grpo_trainer(Env: Any, episodes: int, steps: int, side: str) -> float:
    """GRPOTrainer's order: every rollout reset, then each turn's tool call rollout by rollout."""
    envs = [Env() for _ in range(episodes)]
    began = time.perf_counter()
    for env in envs:
        env.reset()
    for step in range(steps):
        for index, env in enumerate(envs):
            env.act(_episode(index, side)[step])
    for env in envs:
        env.get_reward()
    return time.perf_counter() - began


def _a_thread_each(Env: Any, episodes: int, steps: int, side: str) -> float:
    def rollout(index: int) -> float:
        env = Env()
        env.reset()
        for action in _episode(index, side)[:steps]:
            env.act(action)
        return env.get_reward()

    began = time.perf_counter()
    with ThreadPoolExecutor(max_workers=episodes) as pool:
        list(pool.map(rollout, range(episodes)))
    return time.perf_counter() - began
