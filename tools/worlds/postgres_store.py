"""The store over PostgreSQL, for a team: several server processes on several machines share one database.

The same schema, queries and invariants as the SQLite store (tools/worlds/store.py); what differs is
the driver (psycopg 3), the placeholders, REAL stored as DOUBLE PRECISION, and how writers are ordered:
a step holds its world for its whole length (`hold_world`), so two replicas stepping one world take
turns and the second starts from the first's steps; and every write to a world's steps takes a
transaction-scoped advisory lock on it, so even writers that hold nothing never interleave.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import psycopg

from .store import Store, StoreError

_PASSWORD = re.compile(r"(://[^:/@]*):[^@]*@")


def shown_url(url: str) -> str:
    """The URL as a person may read it: without its password."""
    return _PASSWORD.sub(r"\1:***@", url)


class PostgresStore(Store):
    shared = True

    def __init__(self, url: str):  # not super().__init__, which opens SQLite: this one connects its own way
        self.where = shown_url(url)
        self._url = url
        try:
            self._db = psycopg.connect(url, autocommit=True, connect_timeout=5)
            self._migrate()
        except psycopg.OperationalError as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise StoreError(f"{self.where} cannot be reached ({first}); start PostgreSQL there or pass another "
                             "--store") from None
        except psycopg.Error as exc:
            raise StoreError(f"{self.where} cannot hold the store ({exc}); check the role's rights or pass "
                             "another --store") from None

    def _execute(self, sql: str, params: tuple | list = ()) -> Any:
        return self._db.execute(_placeholders(sql), params)

    def _begin(self, world_id: str = "") -> None:
        self._execute("BEGIN")
        if world_id:  # held until COMMIT or ROLLBACK: the world's writers queue here
            self._execute("SELECT pg_advisory_xact_lock(hashtext(?))", (world_id,))

    def hold_world(self, world_id: str) -> Callable[[], None]:
        """A session-level advisory lock on a connection of its own, for the whole step (a prediction may take
        seconds). Its key space, two integers, is not the one-number space of the appends' transaction locks,
        so a holder never waits on itself. Closing the connection releases it, as a killed replica's end does."""
        holder = psycopg.connect(self._url, autocommit=True, connect_timeout=5)
        try:
            holder.execute("SELECT pg_advisory_lock(1, hashtext(%s))", (world_id,))
        except BaseException:
            holder.close()
            raise
        return holder.close

    def _columns(self, table: str) -> set[str]:
        rows = self._execute("SELECT column_name FROM information_schema.columns "
                             "WHERE table_schema = current_schema() AND table_name = ?", (table,))
        return {row[0] for row in rows}

    def _script(self, sql: str) -> None:
        super()._script(re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql))


def _placeholders(sql: str) -> str:
    """SQLite's `?` as psycopg's `%s` (the queries hold no literal `%` or `?` of their own)."""
    return sql.replace("%", "%%").replace("?", "%s")
