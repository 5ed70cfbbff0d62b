"""The real MCP server behind a twin: started (stdio) or reached (streamable HTTP) through the SDK client.

Its stderr goes to the twin's stderr, never to the twin's stdout (the wire). When it stops, every
later call raises RealServerGone at once with the reason, so the twin can say so and go on
simulating.
"""

from __future__ import annotations

import logging
import os
import shlex
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp.types import CONNECTION_CLOSED, CallToolResult, Implementation, TextContent, Tool

from ...engine.errors import AgentWorldError

log = logging.getLogger("agentworld_mcp.twin")

_MAX_TOOL_PAGES = 100
# A real tool runs as long as it runs (the host has its own limit); this only stops a call waiting forever.
_REAL_CALL_SECONDS = 24 * 3600


class RealServerGone(AgentWorldError):
    """The real server stopped or cannot be reached; the message says which and what to do."""


@dataclass(frozen=True)
class RealServerAddress:
    command: tuple[str, ...] = ()  # stdio: the server's command line
    url: str = ""  # or a streamable-HTTP endpoint

    def describe(self) -> str:
        return self.url or shlex.join(self.command)


class RealServer:
    """Open with `async with`; `tools`, `info` and `instructions` are read once at the start."""

    def __init__(self, address: RealServerAddress, start_seconds: float = 60.0):
        self.address = address
        self.start_seconds = start_seconds
        self.tools: list[Tool] = []
        self.info = Implementation(name="", version="")
        self.instructions: str | None = None
        self.gone: str | None = None  # why it can no longer be called
        self._client: Client | None = None
        self._exits = AsyncExitStack()

    async def __aenter__(self) -> RealServer:
        # The client's request timeout bounds the start (the handshake, the tool listing); real calls set their own.
        if self.address.url:
            client = Client(self.address.url, read_timeout_seconds=self.start_seconds)
        else:
            command, *args = self.address.command
            # The twin stands where the real server stood: it gets the environment the host gave the twin,
            # less the twin's own settings (its auth token and model keys are not the real server's business).
            env = {key: value for key, value in os.environ.items() if not key.startswith("AGENTWORLD_")}
            client = Client(StdioServerParameters(command=command, args=args, env=env), read_timeout_seconds=self.start_seconds)
        try:
            self._client = await self._exits.enter_async_context(client)
            self.tools = await self._all_tools()
        except BaseException:
            await self._exits.aclose()
            raise
        self.info = self._client.server_info or self.info
        self.instructions = self._client.instructions
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.close("the twin closed it")

    async def close(self, why: str) -> None:
        """Stop the server (a stdio one exits); calls from now on raise RealServerGone. Idempotent."""
        self.gone = self.gone or why
        await self._exits.aclose()

    async def _all_tools(self) -> list[Tool]:
        assert self._client is not None
        tools, cursor = [], None
        for _ in range(_MAX_TOOL_PAGES):
            page = await self._client.list_tools(cursor=cursor)
            tools += page.tools
            cursor = page.next_cursor
            if not cursor:
                return tools
        raise RealServerGone(f"{self.address.describe()} lists more than {_MAX_TOOL_PAGES} pages of tools")

    async def call(self, name: str, arguments: dict[str, Any]) -> CallToolResult:
        """The real result. Raises MCPError where the real server answered with a protocol error,
        RealServerGone where it no longer answers."""
        if self.gone is not None or self._client is None:
            raise RealServerGone(self._gone_message())
        try:
            return await self._client.call_tool(name, arguments, read_timeout_seconds=_REAL_CALL_SECONDS)
        except MCPError as exc:
            if exc.code != CONNECTION_CLOSED:
                raise
            self.gone = exc.message
            log.warning("the real server %s stopped: %s", self.address.describe(), exc.message)
            raise RealServerGone(self._gone_message()) from None
        except (OSError, httpx2.HTTPError, anyio.BrokenResourceError, anyio.ClosedResourceError) as exc:
            # An HTTP server that is down or dropped the connection: later calls try again.
            raise RealServerGone(
                f"the real server ({self.address.describe()}) did not answer ({type(exc).__name__}: {exc}); "
                "this call may not have run there"
            ) from None
        except Exception as exc:  # it answered, but the client could not accept the result (its own output schema)
            return CallToolResult(is_error=True, content=[TextContent(
                text=f"agentworld twin: the real server ran {name}, but its result could not be read: "
                     f"{type(exc).__name__}: {exc}")])

    def _gone_message(self) -> str:
        return (f"the real server ({self.address.describe()}) no longer answers ({self.gone}); "
                "this call did not run there; restart the twin to reach it again")
