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
# The episodes (their count, steps, tokens, rounds and actions) are the adapters' too: one set for the section.
from .adapters_bench import EPISODES, MAX_TOKENS, ROUNDS, STEPS, actions

SLOTS = 4
DECODE_TOKENS = 64


def episodes_at_once(settings: Settings, model_path: Path) -> None:
    from ..api.python_api import Simulator, run_sync
    from . import adapters_bench, llama_server, nemo_gym_bench

    print(f"\n13. {EPISODES} episodes of {STEPS} steps: WorldModelVectorEnv on llama-server -np {SLOTS} vs the same "
          f"episodes one after another (WorldModelEnv) on the same server; {ROUNDS} rounds, alternated")
    try:
        server = llama_server.start(model_path, slots=SLOTS, n_ctx=SLOTS * settings.n_ctx, threads=settings.threads())
    except (llama_server.LlamaServerMissing, RuntimeError) as exc:
        print(f"  skipped: {exc}")
        return
    serial = together = 0.0
    read = reused = 0
    decoding = {False: [0.0, 0], True: [0.0, 0]}  # at once: seconds, completion tokens
    try:
        # Every step the model's (`mkdir serial0` would be computed): this measures the model server.
        with Simulator(base_url=server.base_url, effects="parser", result_cache=0, n_ctx=settings.n_ctx,
                       computed="off") as sim:
            for round_ in range(ROUNDS):
                serial += _one_after_another(sim, f"serial{round_}-")
                before = sim.context.engine.stats()
                together += _at_once(sim, f"vector{round_}-")
                after = sim.context.engine.stats()
                read += after.prompt_tokens - before.prompt_tokens
                reused += after.reused_prompt_tokens - before.reused_prompt_tokens
                for at_once in (False, True):
                    seconds, tokens = run_sync(_decode_bound(sim, at_once, first=(2 * round_ + at_once) * SLOTS))
                    decoding[at_once][0] += seconds
                    decoding[at_once][1] += tokens
        _report(serial, together, read, reused, decoding)
        print("  the same episodes through each RL framework's own client:")
        adapters_bench.openenv_sessions(server.base_url)
        adapters_bench.trl_rollouts(server.base_url)
        nemo_gym_bench.nemo_gym_sessions(server.base_url)
        adapters_bench.verifiers_rollouts(server.base_url)
    finally:
        server.stop()


def _report(serial: float, together: float, read: int, reused: int, decoding: dict[bool, list[float]]) -> None:
    done = EPISODES * ROUNDS
    print(f"  one after another {serial:8.1f} s   at once {together:8.1f} s   "
          f"throughput ratio {serial / together:5.2f}x   (goal: at least 1.0x on this machine)")
    print(f"  WorldModelVectorEnv: one after another {done / serial:5.2f} episodes/s, {EPISODES} at once "
          f"{done / together:5.2f} episodes/s")
    print(f"  at once: {read} prompt tokens, {reused} of them reused from the slots' caches "
          f"({reused / read if read else 0:.0%})")
    (serial_decode, serial_tokens), (parallel_decode, parallel_tokens) = decoding[False], decoding[True]
    one_by_one, together_rate = serial_tokens / serial_decode, parallel_tokens / parallel_decode
    # A call may end before DECODE_TOKENS: the ratio is of completion tokens per second, not of seconds.
    print(f"  decode-bound: {SLOTS} independent calls of up to {DECODE_TOKENS} tokens, one after another "
          f"{one_by_one:5.1f} tokens/s ({serial_tokens} in {serial_decode:.1f} s), at once {together_rate:5.1f} tokens/s "
          f"({parallel_tokens} in {parallel_decode:.1f} s): {together_rate / one_by_one:5.2f}x   (goal: at least 1.8x)")


def _one_after_another(sim, side: str) -> float:
    from ..api.gym_env import WorldModelEnv

    began = time.perf_counter()
    for index in range(EPISODES):
        env = WorldModelEnv(sim, "terminal", max_steps=STEPS, temperature=0, max_tokens=MAX_TOKENS)
        env.reset(seed=index)
        for action in actions(index, side):
            env.step(action)
    return time.perf_counter() - began


def _at_once(sim, side: str) -> float:
    from ..api.vector_env import WorldModelVectorEnv

    envs = WorldModelVectorEnv(sim, "terminal", num_envs=EPISODES, max_steps=STEPS, temperature=0, max_tokens=MAX_TOKENS)
    envs.reset(seed=0)
    began = time.perf_counter()
    for step in range(STEPS):
        envs.step([actions(index, side)[step] for index in range(EPISODES)])
    return time.perf_counter() - began


async def _decode_bound(sim, at_once: bool, first: int) -> tuple[float, int]:
    """SLOTS short prompts (numbered from `first`, so none is cached) that each ask for a long answer."""
    from ...engine import GenerationRequest, Sampling

    def request(index: int) -> GenerationRequest:
        ask = f"Write out the numbers from {index * 1000} upward, one per line, without stopping."
        return GenerationRequest(({"role": "user", "content": ask},),
                                 Sampling(temperature=0, max_tokens=DECODE_TOKENS, seed=index))

    engine = sim.context.engine
    indexes = range(first, first + SLOTS)
    began = time.perf_counter()
    if at_once:
        completions = await asyncio.gather(*(engine.generate(request(index)) for index in indexes))
    else:
        completions = [await engine.generate(request(index)) for index in indexes]
    return time.perf_counter() - began, sum(completion.completion_tokens for completion in completions)

