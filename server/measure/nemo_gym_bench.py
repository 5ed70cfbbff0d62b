"""`bench --section 13`, NeMo Gym's part: the adapters' episodes through `env serve --api nemo-gym`, each a
resources-server session as NeMo Gym's Environment Server runs one: seed under its own id, the steps at the
agent's `/act` tool with the session cookie, verify, close. NeMo Gym's own package lives in a virtual
environment of its own (it declares Python>=3.13.14 and mcp<2), so this speaks its protocol over plain HTTP;
tests/e2e/test_nemo_gym.py is where NeMo Gym's own client drives the same routes."""

from __future__ import annotations

import asyncio
from typing import Any

from .adapters_bench import EPISODES, MAX_TOKENS, STEPS, actions, compare, served


def nemo_gym_sessions(base_url: str) -> None:
    import httpx2

    async def episode(index: int, side: str) -> None:
        session = f"{side}{index}"
        seed: dict[str, Any] = {"resources_session_id": session, "episode_id": {"rollout_id": session},
                                "task_id": {"taskset": "bench", "task_id": str(index)}, "task_data": {}}
        async with httpx2.AsyncClient(base_url=address, timeout=600) as client:  # a client each: its own cookie
            (await client.post("/seed_session", json=seed)).raise_for_status()
            for action in actions(index, side):
                (await client.post("/act", json={"action": action})).raise_for_status()
            (await client.post("/verify", json={})).raise_for_status()
            (await client.post("/close_session", json={"resources_session_id": session,
                                                       "episode_id": seed["episode_id"]})).raise_for_status()

    command = ["env", "serve", "--api", "nemo-gym", "--max-sessions", str(EPISODES), "--max-steps", str(STEPS),
               "--temperature", "0", "--max-tokens", str(MAX_TOKENS)]
    with served(command, base_url) as address:
        asyncio.run(compare("NeMo Gym (env serve --api nemo-gym, its resources-server routes)", episode))
