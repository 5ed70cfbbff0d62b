"""`bench --section 13`, the adapters: the same episodes through an RL framework's own client, at once and one
after another, on the llama-server the section already runs. Each framework's part drives the project's adapter
exactly as that framework would; `compare` times both ways and prints episodes per second and their ratio.

Every step is the model's (`--computed off`): the figures measure serving episodes, not the virtual shell.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager

import httpx2

from .llama_server import free_port

EPISODES = 8
STEPS = 4
MAX_TOKENS = 32
ROUNDS = 2  # the two ways alternate, so a slower minute of this shared machine falls on both

Episode = Callable[[int, str], Awaitable[None]]  # (index, a prefix no other episode's names share)


def actions(index: int, side: str) -> list[str]:
    """Each episode its own names, so no two share a prompt past the system prompt."""
    return [f"mkdir {side}{index}", f"cd {side}{index}", "touch a.txt", "ls"][:STEPS]


async def compare(label: str, episode: Episode) -> None:
    """Run EPISODES episodes one after another, then all at once, ROUNDS times; print episodes per second."""
    serial = together = 0.0
    for round_ in range(ROUNDS):
        began = time.perf_counter()
        for index in range(EPISODES):
            await episode(index, f"s{round_}-")
        serial += time.perf_counter() - began
        began = time.perf_counter()
        await asyncio.gather(*(episode(index, f"t{round_}-") for index in range(EPISODES)))
        together += time.perf_counter() - began
    done = EPISODES * ROUNDS
    print(f"  {label}: one after another {done / serial:5.2f} episodes/s, {EPISODES} at once "
          f"{done / together:5.2f} episodes/s: {serial / together:5.2f}x")


@contextmanager
def served(command: list[str], base_url: str) -> Iterator[str]:
    """`agentworld-mcp --base-url URL ... <command>` on a free port, answering /health; yields its address."""
    port = free_port()
    argv = [sys.executable, "-m", "agentworld_mcp", "--base-url", base_url, "--computed", "off", "--effects", "parser",
            "--result-cache", "0", *command, "--port", str(port)]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    address = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx2.get(address + "/health", timeout=2).status_code == 200:
                    break
            except httpx2.HTTPError:
                time.sleep(0.1)
            if process.poll() is not None:
                raise RuntimeError(f"{' '.join(command)} exited with {process.returncode}")
        yield address
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:  # a step still in flight holds it up: it measures nothing more
            process.kill()
            process.wait()


def openenv_sessions(base_url: str) -> None:
    """OpenEnv: `env serve`, each episode a WebSocket session of OpenEnv's own GenericEnvClient."""
    try:
        from openenv.core.generic_client import GenericEnvClient
    except ImportError:
        print("  OpenEnv: skipped (pip install -e '.[openenv]')")
        return

    async def episode(index: int, side: str) -> None:
        # A step waits its turn behind the other episodes' on the server's slots: no client timeout cuts it off.
        async with GenericEnvClient(base_url=address, message_timeout_s=600) as env:
            await env.reset(seed=index)
            for action in actions(index, side):
                await env.step({"action": action})

    command = ["env", "serve", "--max-sessions", str(EPISODES), "--max-steps", str(STEPS), "--temperature", "0",
               "--max-tokens", str(MAX_TOKENS)]
    with served(command, base_url) as address:
        asyncio.run(compare("OpenEnv (env serve, GenericEnvClient)", episode))


def trl_rollouts(base_url: str) -> None:
    """TRL: each episode a rollout of trl_environment's class, stepped as TRL's trainers step it. GRPOTrainer
    (TRL 1.16) calls a batch's tools on its own thread, rollout after rollout: one after another. Its experimental
    asynchronous GRPO calls them from a thread pool, one rollout a thread: at once. TRL itself is not needed."""
    from concurrent.futures import ThreadPoolExecutor

    from ..api.python_api import Simulator
    from ..api.trl_env import trl_environment

    def rollout(index: int, side: str) -> None:
        env = Env()
        env.reset()
        for action in actions(index, side):
            env.act(action)
        env.get_reward()

    async def episode(index: int, side: str) -> None:
        await asyncio.get_running_loop().run_in_executor(threads, rollout, index, side)

    with Simulator(base_url=base_url, computed="off", effects="parser", result_cache=0) as sim, \
            ThreadPoolExecutor(max_workers=EPISODES, thread_name_prefix="rollout") as threads:
        Env = trl_environment(sim, "terminal", max_steps=STEPS, temperature=0, max_tokens=MAX_TOKENS)
        asyncio.run(compare("TRL (trl_environment: GRPOTrainer's one thread, async GRPO's thread pool)", episode))


def verifiers_rollouts(base_url: str) -> None:
    """verifiers 0.4: `serve --transport http`, each episode a rollout of the taskset
    client_examples/verifiers/agentworld_world run by verifiers' own Python API (in its environment,
    .ci/verifiers: scripts/verifiers_episodes.py), with a scripted policy. One round: verifiers starts a
    harness process per rollout, so its figures include that."""
    import json
    import tempfile
    from pathlib import Path

    from .scripted_policy import scripted_policy

    python = Path(__file__).resolve().parents[2] / ".ci" / "verifiers" / "bin" / "python"
    if not python.exists():
        print("  verifiers: skipped (.ci/run installs it in .ci/verifiers)")
        return
    script = python.parents[3] / "scripts" / "verifiers_episodes.py"
    tasks = Path(tempfile.mkdtemp()) / "tasks.jsonl"  # one plain task: no goal or rules, so no checks but the steps
    tasks.write_text(json.dumps({"id": "bench", "prompt": "Make a folder and a file in it.", "max_steps": STEPS}))
    with served(["serve", "--transport", "http"], base_url) as address, \
            scripted_policy(lambda index: actions(index, "v")) as (policy, _):
        done = subprocess.run([str(python), str(script), "bench", "--server", f"{address}/mcp", "--policy", policy,
                               "--episodes", str(EPISODES), "--max-tokens", str(MAX_TOKENS), "--tasks", str(tasks)],
                              env={**os.environ, "PATH": f"{python.parent}:{os.environ['PATH']}"},
                              capture_output=True, text=True, check=False, timeout=1800)
    if done.returncode != 0:
        print(f"  verifiers: failed: {(done.stderr.strip().splitlines() or [str(done.returncode)])[-1]}")
        return
    sides = json.loads(done.stdout.splitlines()[-1])
    serial, together = sides["one_after_another"]["seconds"], sides["at_once"]["seconds"]
    print(f"  verifiers (vf Python API, serve --transport http): one after another {EPISODES / serial:5.3f} "
          f"episodes/s ({serial:.0f} s), {EPISODES} at once {EPISODES / together:5.3f} episodes/s ({together:.0f} s): "
          f"{serial / together:5.2f}x")
