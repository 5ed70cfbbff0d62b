"""`bench --section 13`: many episodes at once through WorldModelVectorEnv on a llama-server with
parallel slots, against the same episodes one after another through WorldModelEnv on the same server;
then the decode-bound case, independent calls that each write 64 tokens, at once and one by one.

Both sides use one Simulator on one server, so the ratio is what stepping episodes together buys
(or costs: a conversation that loses its slot's cached prefix re-reads its history).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from ..settings import Settings

EPISODES = 8
STEPS = 4
SLOTS = 4
MAX_TOKENS = 32
DECODE_TOKENS = 64


def _episode(index: int, side: str) -> list[str]:
    """Each episode its own first command, so no two share a prefix past the system prompt; each side
    (`serial`, `vector`) its own names, so the side measured second finds none of the first's prompts cached."""
    return [f"mkdir {side}{index}", f"cd {side}{index}", "touch a.txt", "ls"][:STEPS]


def episodes_at_once(settings: Settings, model_path: Path) -> None:
    from ..api.gym_env import WorldModelEnv
    from ..api.python_api import Simulator, run_sync
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
            decoding = [run_sync(_decode_bound(sim, at_once)) for at_once in (False, True)]
    finally:
        server.stop()
    read = after.prompt_tokens - before.prompt_tokens
    reused = after.reused_prompt_tokens - before.reused_prompt_tokens
    print(f"  one after another {serial:8.1f} s   at once {together:8.1f} s   "
          f"throughput ratio {serial / together:5.2f}x   (goal: at least 1.0x on this machine)")
    print(f"  at once: {read} prompt tokens, {reused} of them reused from the slots' caches "
          f"({reused / read if read else 0:.0%})")
    (serial_decode, serial_tokens), (parallel_decode, parallel_tokens) = decoding
    one_by_one, together_rate = serial_tokens / serial_decode, parallel_tokens / parallel_decode
    # A call may end before DECODE_TOKENS: the ratio is of completion tokens per second, not of seconds.
    print(f"  decode-bound: {SLOTS} independent calls of up to {DECODE_TOKENS} tokens, one after another "
          f"{one_by_one:5.1f} tokens/s ({serial_tokens} in {serial_decode:.1f} s), at once {together_rate:5.1f} tokens/s "
          f"({parallel_tokens} in {parallel_decode:.1f} s): {together_rate / one_by_one:5.2f}x   (goal: at least 1.8x)")


async def _decode_bound(sim, at_once: bool) -> tuple[float, int]:
    """SLOTS short prompts that each ask for a long answer, written to DECODE_TOKENS tokens."""
    from ...engine import GenerationRequest, Sampling

    def request(index: int) -> GenerationRequest:
        ask = f"Write out the numbers from {index * 1000} upward, one per line, without stopping."
        return GenerationRequest(({"role": "user", "content": ask},),
                                 Sampling(temperature=0, max_tokens=DECODE_TOKENS, seed=index))

    engine = sim.context.engine
    began = time.perf_counter()
    if at_once:
        completions = await asyncio.gather(*(engine.generate(request(index)) for index in range(SLOTS)))
    else:
        completions = [await engine.generate(request(SLOTS + index)) for index in range(SLOTS)]
    return time.perf_counter() - began, sum(completion.completion_tokens for completion in completions)
