"""The worlds that hold a real session's steps: one per session and domain (per MCP server for mcp).

The guard records a host's live session into them, and `import` a session transcript; both name
them the same way, so a session is never split over two naming schemes.
"""

from __future__ import annotations

import hashlib
import re

_SESSION_CHARS = re.compile(r"[^A-Za-z0-9_.-]")
_MAX_ID = 64  # long session ids or server names keep a readable start and a hash of the whole


def session_world_id(prefix: str, session_id: str, domain: str, mcp_server: str = "") -> str:
    place = domain + (f"-{mcp_server}" if mcp_server else "")
    world_id = f"{prefix}{_SESSION_CHARS.sub('-', session_id or 'no-session')}-{place}"
    if len(world_id) > _MAX_ID:
        world_id = f"{world_id[:_MAX_ID - 13]}-{hashlib.sha256(world_id.encode()).hexdigest()[:12]}"
    return world_id
