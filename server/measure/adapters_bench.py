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
        process.wait(20)


def openenv_sessions(base_url: str) -> None:
    """OpenEnv: `env serve`, each episode a WebSocket session of OpenEnv's own GenericEnvClient."""
    try:
        from openenv.core.generic_client import GenericEnvClient
    except ImportError:
        print("  OpenEnv: skipped (pip install -e '.[openenv]')")
        return

    async def episode(index: int, side: str) -> None:
        async with GenericEnvClient(base_url=address) as env:
            await env.reset(seed=index)
            for action in actions(index, side):
                await env.step({"action": action})

    command = ["env", "serve", "--max-sessions", str(EPISODES), "--max-steps", str(STEPS), "--temperature", "0",
               "--max-tokens", str(MAX_TOKENS)]
    with served(command, base_url) as address:
        asyncio.run(compare("OpenEnv (env serve, GenericEnvClient)", episode))
