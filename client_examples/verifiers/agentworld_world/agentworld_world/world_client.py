"""The agentworld-mcp server as this taskset sees it: tool calls over streamable HTTP with the MCP
SDK that verifiers itself depends on (mcp 2.0.0).

Every call opens its own connection, so a rollout holds nothing of the server's between calls and
many rollouts (and the shared tool server) can call at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

logger = logging.getLogger(__name__)

# A predicted step may take a while on a small CPU model; a computed one takes milliseconds.
READ_TIMEOUT_SECONDS = 300.0


class WorldError(Exception):
    """The server refused a call; the message is the server's own."""


class WorldLost(WorldError):
    """The world is gone: closed, or an id this server does not know."""


class ServerUnreachable(WorldError):
    """The server did not answer at all (down, wrong address): nothing about the world is known."""


def _lost(message: str) -> bool:
    # The world tool's own wording (tools/worlds/worlds.py) for a closed or unknown world.
    return "unknown world" in message or "is closed" in message


@dataclass(frozen=True)
class WorldServer:
    url: str  # the MCP endpoint, e.g. http://127.0.0.1:8765/mcp
    token_var: str = "AGENTWORLD_AUTH_TOKEN"  # the environment variable holding the bearer token, if any

    def _headers(self) -> dict[str, str]:
        token = os.environ.get(self.token_var, "")
        return {"Authorization": f"Bearer {token}"} if token else {}

    @contextlib.asynccontextmanager
    async def _client(self) -> AsyncIterator[Client]:
        timeout = httpx2.Timeout(30.0, read=READ_TIMEOUT_SECONDS)
        try:
            async with (
                httpx2.AsyncClient(headers=self._headers(), timeout=timeout, follow_redirects=True) as http,
                Client(streamable_http_client(self.url, http_client=http), mode="legacy") as client,
            ):
                yield client
        except (httpx2.HTTPError, OSError) as exc:
            raise ServerUnreachable(f"the world server at {self.url} did not answer: {exc}") from exc

    async def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The tool's structured result; WorldLost / WorldError when the server refuses."""
        async with self._client() as client:
            result = await client.call_tool(tool, arguments)
        if result.is_error:
            message = " ".join(getattr(part, "text", "") for part in result.content).strip()
            message = message.removeprefix(f"Error executing tool {tool}: ")
            raise (WorldLost if _lost(message) else WorldError)(message)
        if result.structured_content is None:
            raise WorldError(f"{tool} answered without a structured result")
        return dict(result.structured_content)

    async def list_worlds(self) -> list[dict[str, Any]]:
        """Every world the server keeps (its world://list resource)."""
        async with self._client() as client:
            listed = await client.read_resource("world://list")
        return list(json.loads(getattr(listed.contents[0], "text", "[]")))

    async def close_world(self, world_id: str) -> None:
        """Close the world; one already gone is fine (closing is what we wanted)."""
        try:
            await self.call("world", {"operation": "close", "world_id": world_id})
        except WorldLost:
            pass


# Worlds this process opened and has not closed yet. A task object may serve several rollouts at
# once, so the record is per world, not per task.
_open_worlds: set[str] = set()
# Closes started when a rollout ended without its finalize (a cancel, a failure).
_pending_closes: set[threading.Thread] = set()


def close_when_rollout_ends(server: WorldServer, world_id: str) -> None:
    """Close the world when the asyncio task running this rollout ends, unless the rollout already
    did (`world_closed`). verifiers runs each rollout in a task of its own and skips `finalize` on a
    cancel or a failure; this is what keeps such a rollout's world from staying open."""
    task = asyncio.current_task()
    if task is None:
        return
    _open_worlds.add(world_id)

    def on_done(_: asyncio.Task[Any]) -> None:
        if world_id not in _open_worlds:
            return
        _open_worlds.discard(world_id)
        # A thread of its own, not a task: after a Ctrl-C the event loop cancels every task it still
        # has, and the interpreter waits for a non-daemon thread before it exits.
        closing = threading.Thread(target=_close_quietly, args=(server, world_id), name=f"close {world_id}")
        _pending_closes.add(closing)
        closing.start()

    task.add_done_callback(on_done)


def _close_quietly(server: WorldServer, world_id: str) -> None:
    try:
        asyncio.run(server.close_world(world_id))
    except WorldError as exc:
        logger.warning("could not close world %s after its rollout ended: %s", world_id, exc)


def world_closed(world_id: str) -> None:
    _open_worlds.discard(world_id)


async def wait_for_pending_closes() -> None:
    """Wait until every close started by a cancelled or failed rollout has reached the server."""
    while _pending_closes:
        closing = _pending_closes.pop()
        await asyncio.to_thread(closing.join)
