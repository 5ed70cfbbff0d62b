"""Which store an address names: `postgresql://...` (or `postgres://`) a team's PostgreSQL, `sqlite:///PATH`
(`sqlite:////abs/path` for an absolute one, as SQLAlchemy writes it) or a plain path a SQLite file."""

from __future__ import annotations

from pathlib import Path

from .store import Store, StoreError


def open_store(where: str | Path) -> Store:
    text = str(where)
    if text.startswith(("postgresql://", "postgres://")):
        from .postgres_store import PostgresStore  # psycopg is imported only for a PostgreSQL store

        return PostgresStore(text)
    if text.startswith("sqlite:"):
        if not text.startswith("sqlite:///") or text == "sqlite:///":
            raise StoreError(f"{where} names no file; write sqlite:///relative/path or sqlite:////absolute/path")
        text = text[len("sqlite:///"):]
    return Store(Path(text))
