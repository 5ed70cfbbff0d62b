"""This machine's own names, for the checks every HTTP front end makes (MCP over HTTP, `env serve`,
the viewer): a bind address only this machine can reach needs no token, and a Host or Origin that
names this machine is no DNS-rebinding attack."""

from __future__ import annotations

import ipaddress

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def is_loopback(host: str) -> bool:
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url_host(host: str) -> str:
    """A host as a URL or a Host header writes it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def loopback_hosts() -> set[str]:
    """This machine's names as a Host header may carry them, IPv6 with and without brackets."""
    return {*LOOPBACK_NAMES, *(url_host(name) for name in LOOPBACK_NAMES)}
