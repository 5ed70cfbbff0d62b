"""Serving an OpenEnv environment over HTTP and WebSocket, as safely as `serve` serves MCP.

The routes are openenv-core's own (`create_fastapi_app`: /reset, /step, /state, /schema, /metadata,
/health, the /ws session socket and /mcp), without its Gradio page. In front of them:
- a Host allowlist against DNS rebinding (Starlette's TrustedHostMiddleware): this machine's names,
  the bind address and each --allowed-host;
- an Origin allowlist: a browser page may open a WebSocket to any address, so a request or
  handshake that names an Origin must name this machine or an --allowed-origin;
- the bearer token, when one is given (and one must be, off loopback): every HTTP request but
  GET /health, and every WebSocket handshake, carries `Authorization: Bearer <token>`, compared in
  constant time (a handshake refused before it is accepted reaches the client as HTTP 403);
- a bound on request bodies and WebSocket messages.
"""

from __future__ import annotations

import hmac
import json
from typing import Any
from urllib.parse import urlsplit

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .http_serving import HttpOptions
from .loopback import LOOPBACK_NAMES, loopback_hosts


class BearerToken:
    """Refuses any HTTP request or WebSocket handshake without the token (401, or close code 1008)."""

    def __init__(self, app: ASGIApp, token: str):
        self.app, self._expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(b"authorization", b"")
        probe = scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and scope["path"] == "/health"
        if hmac.compare_digest(given, self._expected) or probe:  # a load balancer's probe needs no token
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "a bearer token is required"})
        else:
            await _refuse(send, 401, "send the server's token as `Authorization: Bearer <token>`",
                          [(b"www-authenticate", b"Bearer")])


class BodyLimit:
    """Refuses an HTTP body past `limit` bytes (413) before the app parses it, declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await _refuse(send, 413, f"the request body is larger than {self.limit} bytes")
            return
        # A body sent in chunks is read here first, up to the limit, and handed on whole.
        received: list[Message] = []
        size = 0
        while True:
            message = await receive()
            received.append(message)
            size += len(message.get("body", b""))
            if size > self.limit:
                await _refuse(send, 413, f"the request body is larger than {self.limit} bytes")
                return
            if message["type"] != "http.request" or not message.get("more_body"):
                break

        async def replay() -> Message:
            return received.pop(0) if received else await receive()

        await self.app(scope, replay, send)


class OriginCheck:
    """Refuses a request or WebSocket handshake whose Origin is not this machine's or an allowed one."""

    def __init__(self, app: ASGIApp, allowed: list[str]):
        self.app, self._allowed = app, {origin.rstrip("/").lower() for origin in allowed}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        origin = dict(scope.get("headers", [])).get(b"origin")
        if scope["type"] not in ("http", "websocket") or origin is None or self._permits(origin.decode("latin-1")):
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "this Origin is not allowed"})
        else:
            await _refuse(send, 403, "this Origin is not allowed; start the server with --allowed-origin to add it")

    def _permits(self, origin: str) -> bool:
        origin = origin.rstrip("/").lower()
        host = urlsplit(origin).hostname or ""
        return origin in self._allowed or host in LOOPBACK_NAMES


async def _refuse(send: Send, status: int, detail: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


def allowed_hosts(options: HttpOptions) -> list[str]:
    """Host names (the port aside) a request may name: this machine's, the bind address, and the user's."""
    return sorted({*loopback_hosts(), options.host.strip("[]"), *options.allowed_hosts})


def create_env_app(env_class: type, action_cls: type, observation_cls: type, options: HttpOptions,
                   max_sessions: int) -> Any:
    from openenv.core.env_server.http_server import create_fastapi_app

    return guarded(create_fastapi_app(env_class, action_cls, observation_cls, max_concurrent_envs=max_sessions),
                   options)


def guarded(app: ASGIApp, options: HttpOptions) -> Any:
    """`app` behind the checks every env server has: body bound, bearer token, Origin and Host allowlists."""
    app = BodyLimit(app, options.max_body_bytes)
    if options.auth_token:
        app = BearerToken(app, options.auth_token)
    app = OriginCheck(app, list(options.allowed_origins))
    return TrustedHostMiddleware(app, allowed_hosts=allowed_hosts(options))


def serve_env(app: Any, options: HttpOptions) -> None:
    """Run the app until interrupted; WebSocket messages are bounded like request bodies."""
    import uvicorn

    uvicorn.run(app, host=options.host, port=options.port, log_level="warning", ws_max_size=options.max_body_bytes)
