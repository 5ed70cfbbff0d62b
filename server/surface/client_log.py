"""The server's own events, sent to MCP clients as log messages at the level each client set.

A client that sends `logging/setLevel` receives the records of the `agentworld_mcp` loggers at that
level or above as `notifications/message`, whichever thread wrote them: the model loading, a model
server that went away and came back, a call that outlived its budget and became a job, a world
whose predictions drift from reality. A client that never sets a level gets none. stderr keeps its
own level (`--log-level`), and nothing is ever written to stdout.

The 2026-07-28 protocol deprecates logging; clients of the handshake protocols, most of them today,
still use it, and the MCP conformance suite checks it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import warnings
from dataclasses import dataclass

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server import MCPServer
from mcp.server.context import ServerRequestContext
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp.types import EmptyResult, LoggingLevel, SetLevelRequestParams

PACKAGE_LOGGER = "agentworld_mcp"
_LEVELS: dict[LoggingLevel, int] = {
    "debug": logging.DEBUG, "info": logging.INFO, "notice": logging.INFO + 5, "warning": logging.WARNING,
    "error": logging.ERROR, "critical": logging.CRITICAL, "alert": logging.CRITICAL + 5, "emergency": logging.CRITICAL + 10,
}
# llama.cpp's own lines (thousands per model load) are for debugging on stderr, not the server's events.
_STDERR_ONLY = "agentworld_mcp.llama_cpp"
_BACKLOG = 256  # messages waiting for one slow client; more are dropped rather than block the server

# The SDK warns on every log message it sends, since the newest protocol deprecates them.
warnings.filterwarnings("ignore", message="The logging capability is deprecated", category=MCPDeprecationWarning)


_Message = tuple[int, str, str]  # level number, logger name, text


@dataclass
class _Listener:
    level: int
    loop: asyncio.AbstractEventLoop
    send: MemoryObjectSendStream[_Message]
    forwarding: asyncio.Task | None = None


class ClientLog(logging.Handler):
    """One per process, on the package logger: servers register their sessions' levels with it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self._listeners: dict[ServerSession, _Listener] = {}
        self._lock = threading.Lock()

    def register(self, server: MCPServer) -> None:
        # MCPServer has no public hook for logging/setLevel; registering the handler also declares
        # the logging capability.
        server._lowlevel_server.add_request_handler("logging/setLevel", SetLevelRequestParams, self._set_level)

    async def _set_level(self, ctx: ServerRequestContext, params: SetLevelRequestParams) -> EmptyResult:
        session, level = ctx.session, _LEVELS[params.level]
        with self._lock:
            listener = self._listeners.get(session)
            if listener is None:
                send, receive = anyio.create_memory_object_stream[_Message](_BACKLOG)
                listener = self._listeners[session] = _Listener(level, asyncio.get_running_loop(), send)
                listener.forwarding = listener.loop.create_task(self._forward(session, receive))
            else:
                listener.level = level
        self._open_package_logger()
        return EmptyResult()

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == _STDERR_ONLY:
            return
        with self._lock:
            listeners = [(s, item) for s, item in self._listeners.items() if record.levelno >= item.level]
        if not listeners:
            return
        message = (record.levelno, record.name, record.getMessage())  # the line, never a traceback
        for session, listener in listeners:
            try:
                listener.loop.call_soon_threadsafe(_offer, listener.send, message)
            except RuntimeError:  # the session's event loop is closed: the server is gone
                self._forget(session)

    async def _forward(self, session: ServerSession, receive: MemoryObjectReceiveStream[_Message]) -> None:
        """In order, one message at a time; a session that can no longer be written to is forgotten."""
        try:
            async with receive:
                async for levelno, logger, text in receive:
                    await session.send_log_message(_mcp_level(levelno), text, logger)
        except Exception:  # the client went away; nothing is logged, or this would feed itself
            pass
        finally:
            self._forget(session)

    def _forget(self, session: ServerSession) -> None:
        with self._lock:
            listener = self._listeners.pop(session, None)
        if listener is not None:
            listener.send.close()
        self._open_package_logger()

    def _open_package_logger(self) -> None:
        """Records below the stderr level must still be made when a client asked for them."""
        with self._lock:
            wanted = min((listener.level for listener in self._listeners.values()), default=logging.CRITICAL + 10)
        stderr_level = logging.getLogger().getEffectiveLevel()
        logging.getLogger(PACKAGE_LOGGER).setLevel(min(wanted, stderr_level))
        native = logging.getLogger(_STDERR_ONLY)
        if native.level == logging.NOTSET:
            native.setLevel(stderr_level)


def _offer(send: MemoryObjectSendStream[_Message], message: _Message) -> None:
    try:
        send.send_nowait(message)
    except (anyio.WouldBlock, anyio.ClosedResourceError, anyio.BrokenResourceError):
        pass  # a full backlog drops the message; a closed one belongs to a session that ended


def _mcp_level(levelno: int) -> LoggingLevel:
    """The highest MCP level the record reaches (debug for anything below)."""
    reached = [name for name, number in _LEVELS.items() if levelno >= number]
    return reached[-1] if reached else "debug"


CLIENT_LOG = ClientLog()
logging.getLogger(PACKAGE_LOGGER).addHandler(CLIENT_LOG)
