"""The episodes a NeMo Gym resources server holds: one per session, under the id its caller assigns.

NeMo Gym 0.7's Environment Server names a session itself (`resources_session_id` in the seed's body)
and from then on reaches it by the cookie the seed answered with: tool calls and `/verify` carry the
cookie, `/close_session` names the id again. The rules its session contract states are kept here:
seeding an id twice for the same episode returns the same session; a closed id, or one closed before
it was ever seeded, is never seeded again; closing twice, or closing what never existed, succeeds.

The cookie is the session id with an HMAC of it under a key this process draws at start, so a client
can only name sessions it was given (the same guarantee NeMo Gym's signed session cookie gives).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .episodes import Episode

COOKIE = "agentworld_session"
_REMEMBERED_CLOSED = 65_536  # closed ids kept to refuse a late seed; the oldest are forgotten past this


class SessionRefused(Exception):
    """A seed the table will not take; `status` is the HTTP status that says why."""

    def __init__(self, status: int, detail: str):
        super().__init__(detail)
        self.status, self.detail = status, detail


@dataclass
class Session:
    id: str
    episode: Episode
    identity: Any  # what the caller bound the id to (episode and task ids); None for a seed without an id
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one step at a time: a step extends the history
    running: set[asyncio.Task[Any]] = field(default_factory=set)
    closed: bool = False


class SessionTable:
    def __init__(self, max_sessions: int):
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be at least 1, got {max_sessions}")
        self.max_sessions = max_sessions
        self._open: dict[str, Session] = {}
        self._closed: OrderedDict[str, None] = OrderedDict()
        self._key = secrets.token_bytes(32)

    def __len__(self) -> int:
        return len(self._open)

    def seed(self, session_id: str, identity: Any, begin: Callable[[], Episode]) -> tuple[Session, bool]:
        """The session under `session_id`, begun now if new (and whether it was); nothing here awaits,
        so no other request runs between the checks and the insert."""
        if session_id in self._closed:
            raise SessionRefused(409, f"session {session_id!r} is closed; seed a new id")
        known = self._open.get(session_id)
        if known is not None:
            if known.identity != identity:
                raise SessionRefused(409, f"session {session_id!r} is already bound to another episode or task")
            return known, False
        if len(self._open) >= self.max_sessions:
            raise SessionRefused(503, f"{self.max_sessions} sessions are open, the most this server holds; "
                                      "close one first")
        session = Session(session_id, begin(), identity)
        self._open[session_id] = session
        return session, True

    def get(self, session_id: str | None) -> Session | None:
        return self._open.get(session_id) if session_id is not None else None

    def close(self, session_id: str, identity_matches: Callable[[Any], bool] = lambda _: True) -> bool:
        """Close `session_id` (open, closed or never seen) and cancel its step in flight; False when the
        caller names another episode than the one the session is bound to."""
        session = self._open.get(session_id)
        if session is not None:
            if not identity_matches(session.identity):
                return False
            del self._open[session_id]
            session.closed = True
            for task in session.running:
                task.cancel()
        self._closed[session_id] = None
        self._closed.move_to_end(session_id)
        while len(self._closed) > _REMEMBERED_CLOSED:
            self._closed.popitem(last=False)
        return True

    def cookie(self, session_id: str) -> str:
        return f"{session_id}.{self._signature(session_id)}"

    def id_from_cookie(self, cookie: str | None) -> str | None:
        """The session id a cookie names, or None when it is missing or not one this server signed."""
        if not cookie or "." not in cookie:
            return None
        session_id, _, signature = cookie.rpartition(".")
        return session_id if hmac.compare_digest(signature, self._signature(session_id)) else None

    def _signature(self, session_id: str) -> str:
        return hmac.new(self._key, session_id.encode(), hashlib.sha256).hexdigest()[:32]
