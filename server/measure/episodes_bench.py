"""`bench --section 13`: many episodes at once through WorldModelVectorEnv on a llama-server with
parallel slots, against the same episodes one after another through WorldModelEnv on the same server.

Both sides use one Simulator on one server, so the ratio is what stepping episodes together buys
(or costs: a conversation that loses its slot's cached prefix re-reads its history).
"""

from __future__ import annotations

import time
from pathlib import Path

from ..settings import Settings

EPISODES = 8
STEPS = 4
SLOTS = 4
MAX_TOKENS = 32


def _episode(index: int, side: str) -> list[str]:
    """Each episode its own first command, so no two share a prefix past the system prompt; each side
    (`serial`, `vector`) its own names, so the side measured second finds none of the first's prompts cached."""
    return [f"mkdir {side}{index}", f"cd {side}{index}", "touch a.txt", "ls"][:STEPS]


def episodes_at_once(settings: Settings, model_path: Path) -> None:
    from ..api.gym_env import WorldModelEnv
    from ..api.python_api import Simulator
    from ..api.vector_env import WorldModelVectorEnv
    from . import llama_server

    print(f"\n13. {EPISODES} episodes of {STEPS} steps: WorldModelVectorEnv on llama-server -np {SLOTS} vs the same "
          "episodes one after another (WorldModelEnv) on the same server")
    try:
        server = llama_server.start(model_path, slots=SLOTS, n_ctx=SLOTS * settings.n_ctx, threads=settings.threads())
    except (llama_server.LlamaServerMissing, RuntimeError) as exc:
        print(f"  skipped: {exc}")
        return
    try:
        with Simulator(base_url=server.base_url, effects="parser", result_cache=0, n_ctx=settings.n_ctx) as sim:
            began = time.perf_counter()
            for index in range(EPISODES):
                env = WorldModelEnv(sim, "terminal", max_steps=STEPS, temperature=0, max_tokens=MAX_TOKENS)
                env.reset(seed=index)
                for action in _episode(index, "serial"):
                    env.step(action)
            serial = time.perf_counter() - began
            before = sim.context.engine.stats()
            envs = WorldModelVectorEnv(sim, "terminal", num_envs=EPISODES, max_steps=STEPS, temperature=0,
                                       max_tokens=MAX_TOKENS)
            envs.reset(seed=0)
            began = time.perf_counter()
            for step in range(STEPS):
                envs.step([_episode(index, "vector")[step] for index in range(EPISODES)])
            together = time.perf_counter() - began
            after = sim.context.engine.stats()
    finally:
        server.stop()
    read = after.prompt_tokens - before.prompt_tokens
    reused = after.reused_prompt_tokens - before.reused_prompt_tokens
    print(f"  one after another {serial:8.1f} s   at once {together:8.1f} s   "
          f"throughput ratio {serial / together:5.2f}x   (goal: at least 1.0x on this machine)")
    print(f"  at once: {read} prompt tokens, {reused} of them reused from the slots' caches "
          f"({reused / read if read else 0:.0%})")
