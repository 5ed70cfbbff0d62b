"""Serving an OpenEnv environment over HTTP and WebSocket, as safely as `serve` serves MCP.

The routes are openenv-core's own (`create_fastapi_app`: /reset, /step, /state, /schema, /metadata,
/health, the /ws session socket and /mcp), without its Gradio page. In front of them:
- a Host allowlist against DNS rebinding (Starlette's TrustedHostMiddleware): this machine's names,
  the bind address and each --allowed-host;
- the bearer token, when one is given (and one must be, off loopback): every HTTP request but
  GET /health, and every WebSocket handshake, carries `Authorization: Bearer <token>`, compared in
  constant time;
- a bound on request bodies and WebSocket messages.
"""

from __future__ import annotations

import hmac
import json
from typing import Any

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .http_serving import HttpOptions


class BearerToken:
    """Refuses any HTTP request or WebSocket handshake without the token (401, or close code 1008)."""

    def __init__(self, app: ASGIApp, token: str):
        self.app, self._expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(b"authorization", b"")
        if hmac.compare_digest(given, self._expected) or scope["path"] == "/health":  # a load balancer's probe
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "a bearer token is required"})
        else:
            await _refuse(send, 401, "send the server's token as `Authorization: Bearer <token>`",
                          [(b"www-authenticate", b"Bearer")])


class BodyLimit:
    """Refuses an HTTP body past `limit` bytes (413) before the app parses it."""

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
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise ValueError(f"the request body is larger than {self.limit} bytes")
            return message

        await self.app(scope, counted, send)


async def _refuse(send: Send, status: int, detail: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


def allowed_hosts(options: HttpOptions) -> list[str]:
    """Host names (the port aside) a request may name: this machine's, the bind address, and the user's."""
    return sorted({"127.0.0.1", "localhost", "::1", "[::1]", options.host.strip("[]"), *options.allowed_hosts})


def create_env_app(env_class: type, action_cls: type, observation_cls: type, options: HttpOptions,
                   max_sessions: int) -> Any:
    from openenv.core.env_server.http_server import create_fastapi_app

    app: ASGIApp = create_fastapi_app(env_class, action_cls, observation_cls, max_concurrent_envs=max_sessions)
    app = BodyLimit(app, options.max_body_bytes)
    if options.auth_token:
        app = BearerToken(app, options.auth_token)
    return TrustedHostMiddleware(app, allowed_hosts=allowed_hosts(options))


def serve_env(app: Any, options: HttpOptions) -> None:
    """Run the app until interrupted; WebSocket messages are bounded like request bodies."""
    import uvicorn

    uvicorn.run(app, host=options.host, port=options.port, log_level="warning", ws_max_size=options.max_body_bytes)
