"""Serving MCP over streamable HTTP to more than this machine's own clients, safely.

Everything here is the MCP SDK's own machinery, configured: bearer tokens through its
`TokenVerifier` and `AuthSettings`, DNS-rebinding protection through `TransportSecuritySettings`
(on for every bind, not only loopback), and its request-body limit. One server is one trust
domain: every client holding the token sees every world and job.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import AnyHttpUrl

from ...engine.errors import ConfigurationError
from .loopback import LOOPBACK_NAMES, is_loopback, url_host

MAX_BODY_BYTES = 4 * 1024 * 1024  # a plan of 50 steps with a large state fits many times over


class HttpServingError(ConfigurationError, ValueError):
    """A serving setup that would be unsafe or cannot work; the message names the flag that fixes it."""


@dataclass(frozen=True)
class HttpOptions:
    host: str = "127.0.0.1"
    port: int = 8765
    auth_token: str | None = None
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    stateless: bool = False
    max_body_bytes: int = MAX_BODY_BYTES

    def check(self) -> None:
        if not is_loopback(self.host) and not self.auth_token:
            raise HttpServingError(
                f"--host {self.host} is reachable from other machines: give a bearer token with --auth-token "
                "(or AGENTWORLD_AUTH_TOKEN), or serve on 127.0.0.1"
            )
        if self.auth_token is not None and len(self.auth_token) < 16:
            raise HttpServingError("--auth-token must be at least 16 characters; `openssl rand -hex 32` makes one")


class StaticTokenVerifier:
    """Accepts exactly one bearer token, compared in constant time."""

    def __init__(self, token: str):
        self._token = token.encode()
        # Who calls, without the secret: tools may tell clients apart by it, logs may show it.
        self._client_id = "token-" + hashlib.sha256(self._token).hexdigest()[:12]

    async def verify_token(self, token: str) -> AccessToken | None:
        if not hmac.compare_digest(token.encode(), self._token):
            return None
        return AccessToken(token=token, client_id=self._client_id, scopes=[])


def auth_settings(options: HttpOptions) -> AuthSettings:
    """The SDK needs an issuer even for a static token: this server stands for itself."""
    base = f"http://{url_host(options.host)}:{options.port}"
    return AuthSettings(issuer_url=AnyHttpUrl(base), resource_server_url=AnyHttpUrl(f"{base}/mcp"),
                        validate_token_resource=False)


def transport_security(options: HttpOptions) -> TransportSecuritySettings:
    """Host and Origin allowlists: this machine's own names, the bind address, and what the user adds."""
    hosts = [*(url_host(name) for name in LOOPBACK_NAMES), url_host(options.host), *options.allowed_hosts]
    allowed_hosts = sorted({pattern for host in hosts for pattern in (host, f"{host}:*")})
    origins = [f"http://{url_host(name)}" for name in LOOPBACK_NAMES] + list(options.allowed_origins)
    allowed_origins = sorted({pattern for origin in origins for pattern in (origin, f"{origin}:*")})
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=allowed_hosts, allowed_origins=allowed_origins
    )


def serve(server, options: HttpOptions) -> None:
    """Run `server` (made with `create_server(ctx, http=options)`) until interrupted."""
    server.run(
        "streamable-http",
        host=options.host,
        port=options.port,
        stateless_http=options.stateless,
        max_request_body_size=options.max_body_bytes,
        transport_security=transport_security(options),
    )
