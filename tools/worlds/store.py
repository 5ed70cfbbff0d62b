"""Durable state: worlds, their steps, and long-running jobs, in one SQLite file (WAL mode) by default,
or in PostgreSQL for a team (tools/worlds/postgres_store.py); tools/worlds/stores.py picks by the URL.

Every committed step and every job update is one transaction, so a crash or a restart loses
nothing that was acknowledged. The store, not its caller, keeps a world's steps in order: an append
must continue from the world's last step, so two writers can never interleave, lose or repeat one.
The schema is made and migrated at start by a numbered list of migrations, each recorded once.
Calls are short (milliseconds) and run on the event loop thread.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...engine.errors import ConfigurationError

# The schema, one numbered migration at a time; each runs once per database and is recorded in `migrations`.
# Written for both engines: REAL is a double in SQLite and becomes DOUBLE PRECISION for PostgreSQL.
_MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (1, "worlds, steps and jobs", """
CREATE TABLE IF NOT EXISTS worlds (
    id TEXT PRIMARY KEY,
    domain TEXT NOT NULL,
    task TEXT NOT NULL,
    state TEXT NOT NULL,
    tools TEXT,
    parent_id TEXT,
    forked_at INTEGER,
    closed INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS worlds_by_parent ON worlds(parent_id);
CREATE TABLE IF NOT EXISTS steps (
    world_id TEXT NOT NULL REFERENCES worlds(id),
    position INTEGER NOT NULL,
    action TEXT NOT NULL,
    observation TEXT NOT NULL,
    predicted TEXT,
    effects TEXT,
    source TEXT NOT NULL,
    similarity REAL,
    diff TEXT,
    created_at REAL NOT NULL,
    PRIMARY KEY (world_id, position)
);
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    tool TEXT NOT NULL,
    status TEXT NOT NULL,
    progress TEXT,
    result TEXT,
    error TEXT,
    created_at REAL NOT NULL,
    finished_at REAL
)"""),
    (2, "a predicted step's reply and details", "steps.reply TEXT; steps.details TEXT"),
    (3, "a world's revision and origin", "worlds.revision INTEGER NOT NULL DEFAULT 0; worlds.origin TEXT"),
    (4, "a job's lease and a cancellation asked for elsewhere",
     "jobs.lease_until REAL; jobs.cancel_requested INTEGER NOT NULL DEFAULT 0"),
)
# A running job's lease: its process renews it every second; one not renewed for this long ran in a process that
# is gone, and the next process that looks marks it interrupted.
JOB_LEASE_SECONDS = 10.0
_INTERRUPTED = "the server stopped while this job ran; progress shows where it got to"


class StoreError(ConfigurationError):
    """The data file cannot be used; the message names the file and the fix."""


class StoreConflict(StoreError):
    """A write lost a race: the world moved on (another writer appended first). Reload the world and retry."""


@dataclass(frozen=True)
class WorldRow:
    id: str
    domain: str
    task: str
    state: str
    tools: Any
    parent_id: str | None
    forked_at: int | None
    closed: bool
    created_at: float
    # Where a world of real steps came from: {"host", "session", "file"} for an imported session.
    origin: dict[str, Any] | None = None


@dataclass(frozen=True)
class StepRow:
    position: int
    action: str
    observation: str
    predicted: str | None
    effects: dict[str, Any] | None
    source: str  # "predicted" or "real"
    similarity: float | None
    diff: str | None
    # A predicted step's reply as history shows it (verbatim, less any reasoning): the next
    # step's prompt then extends the tokens the model holds. A recorded real step has none.
    reply: str | None = None
    # What a viewer shows beside a predicted step: its usage (tokens, seconds), constraint verdicts, warnings.
    details: dict[str, Any] | None = None


@dataclass(frozen=True)
class JobRow:
    id: str
    tool: str
    status: str
    progress: dict[str, Any] | None
    result: dict[str, Any] | None
    error: str | None
    created_at: float
    finished_at: float | None


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "agentworld-mcp"


def _new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:12]}"


def _nothing_to_release() -> None:
    return None


_NO_LIMIT = 1 << 62  # LIMIT for "all": both engines take a number


def _loads(text: str | None) -> Any:
    return json.loads(text) if text is not None else None


_WORLD_COLUMNS = "w.id, w.domain, w.task, w.state, w.tools, w.parent_id, w.forked_at, w.closed, w.created_at, w.origin"


def _world_row(row: tuple) -> WorldRow:
    return WorldRow(row[0], row[1], row[2], row[3], _loads(row[4]), row[5], row[6], bool(row[7]), row[8], _loads(row[9]))


class Store:
    """The store over SQLite; PostgresStore (tools/worlds/postgres_store.py) is the same store over PostgreSQL."""

    _db: Any  # the engine's connection: sqlite3's here, psycopg's there
    # Whether other processes may step this store's worlds (so a step holds its world in the database too): a
    # SQLite file is one process's (a second is refused while it runs), a PostgreSQL database a team's.
    shared = False

    def __init__(self, path: Path):
        self.path = path
        self.where = str(path)  # what a person reads: the file, or the database's URL without its password
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, timeout=2.0, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at each commit on power-safe disks
            self._db.execute("PRAGMA foreign_keys=ON")
            if self._db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
            self._migrate()
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc):
                raise StoreError(f"{path} is locked by another process; stop it or pass another --data-dir") from None
            raise StoreError(f"{path} cannot be opened ({exc}); check its permissions or pass another --data-dir") from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path} is not a usable database ({exc}); move it aside or pass another --data-dir") from None
        except OSError as exc:  # its folder cannot be made: a read-only or missing parent, a file in the way
            raise StoreError(f"{path.parent} cannot hold the store ({exc.strerror}); pass another --data-dir") from None

    # --- what differs between the engines (PostgresStore overrides these) -----------------------
    def _execute(self, sql: str, params: tuple | list = ()) -> Any:
        return self._db.execute(sql, params)

    def _begin(self, world_id: str = "") -> None:
        """Start a write transaction; with `world_id`, one that no other writer of that world runs beside."""
        self._db.execute("BEGIN IMMEDIATE")  # SQLite: one writer at a time, whatever the world

    def _columns(self, table: str) -> set[str]:
        return {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}

    def _script(self, sql: str) -> None:
        for statement in filter(str.strip, sql.split(";")):
            self._execute(statement)

    # --- schema ------------------------------------------------------------------------------
    def _migrate(self) -> None:
        """Each migration not yet recorded, in order, in one transaction (a second process waits, then finds
        them done). A data file from before the list existed has its tables: what it lacks is added."""
        with self._transaction("migrations"):  # PostgreSQL: its advisory lock, so racing replicas take turns
            self._script("CREATE TABLE IF NOT EXISTS migrations (number INTEGER PRIMARY KEY, description TEXT NOT NULL, "
                         "applied_at REAL NOT NULL)")
            done = {row[0] for row in self._execute("SELECT number FROM migrations")}
            for number, description, sql in _MIGRATIONS:
                if number in done:
                    continue
                if sql.lstrip().upper().startswith("CREATE"):
                    self._script(sql)
                else:  # `table.column TYPE; ...`: columns added where missing
                    for column in filter(str.strip, sql.split(";")):
                        table_column, kind = column.strip().split(" ", 1)
                        table, name = table_column.split(".")
                        if name not in self._columns(table):
                            self._script(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")  # the engine's types
                self._execute("INSERT INTO migrations (number, description, applied_at) VALUES (?,?,?)",
                              (number, description, time.time()))

    def hold_world(self, world_id: str) -> Callable[[], None]:
        """Hold `world_id` against every other process stepping it, until the returned release is called; blocks
        while another holds it. A SQLite file has one process, whose own per-world lock is enough."""
        return _nothing_to_release

    def migrations(self) -> list[int]:
        """The migrations this database has had, in order."""
        return [row[0] for row in self._execute("SELECT number FROM migrations ORDER BY number")]

    def close(self) -> None:
        self._db.close()

    # --- worlds ------------------------------------------------------------------------------
    def create_world(
        self, domain: str, task: str, state: str, tools: Any, parent: tuple[str, int] | None = None, world_id: str = "",
        origin: dict[str, Any] | None = None,
    ) -> str:
        """A new world; `world_id` names it (a twin's world keeps its name across restarts), else one is made."""
        world_id = world_id or _new_id("w")
        self._execute(
            "INSERT INTO worlds (id, domain, task, state, tools, parent_id, forked_at, created_at, origin) "
            "VALUES (?,?,?,?,?,?,?,?,?)",
            (world_id, domain, task, state, json.dumps(tools) if tools is not None else None,
             parent[0] if parent else None, parent[1] if parent else None, time.time(),
             json.dumps(origin) if origin is not None else None),
        )
        if parent:
            self._changed(parent[0])  # its forks are part of what a viewer shows of it
        return world_id

    def world(self, world_id: str) -> WorldRow | None:
        row = self._execute(f"SELECT {_WORLD_COLUMNS} FROM worlds w WHERE w.id = ?", (world_id,)).fetchone()
        return _world_row(row) if row is not None else None

    def worlds(self, limit: int | None = 200, prefix: str = "") -> list[tuple[WorldRow, int]]:
        """Recent worlds with their step counts, newest first (one query); `limit=None`: all of them;
        `prefix`: only worlds whose id starts so."""
        rows = self._execute(
            f"SELECT {_WORLD_COLUMNS}, COUNT(s.position) FROM worlds w LEFT JOIN steps s ON s.world_id = w.id "
            "WHERE substr(w.id, 1, ?) = ? GROUP BY w.id ORDER BY w.created_at DESC LIMIT ?",
            (len(prefix), prefix, _NO_LIMIT if limit is None else limit),
        ).fetchall()
        return [(_world_row(row), row[-1]) for row in rows]

    def children(self, world_id: str) -> list[WorldRow]:
        """The worlds forked from this one, oldest first."""
        rows = self._execute(
            f"SELECT {_WORLD_COLUMNS} FROM worlds w WHERE w.parent_id = ? ORDER BY w.created_at", (world_id,)).fetchall()
        return [_world_row(row) for row in rows]

    def set_world_scene(self, world_id: str, state: str, tools: Any) -> None:
        """A named world reopened against a server whose tools (or described state) changed."""
        self._execute(
            "UPDATE worlds SET state = ?, tools = ?, revision = revision + 1 WHERE id = ?",
            (state, json.dumps(tools) if tools is not None else None, world_id),
        )

    def version(self, world_id: str = "") -> str:
        """A token that changes whenever the worlds change (or, given one, that world): a viewer polls it.
        Every change to a world or its steps counts its revision up."""
        if world_id:
            row = self._execute("SELECT revision FROM worlds WHERE id = ?", (world_id,)).fetchone()
            return str(row[0]) if row else "gone"
        count, revisions = self._execute("SELECT COUNT(*), COALESCE(SUM(revision), 0) FROM worlds").fetchone()
        return f"{count}:{revisions}"

    def _changed(self, world_id: str) -> None:
        self._execute("UPDATE worlds SET revision = revision + 1 WHERE id = ?", (world_id,))

    def close_world(self, world_id: str) -> None:
        self._execute("UPDATE worlds SET closed = 1, revision = revision + 1 WHERE id = ?", (world_id,))

    def steps(self, world_id: str, up_to: int | None = None) -> list[StepRow]:
        rows = self._execute(
            "SELECT position, action, observation, predicted, effects, source, similarity, diff, reply, details FROM steps "
            "WHERE world_id = ? AND position <= ? ORDER BY position",
            (world_id, _NO_LIMIT if up_to is None else up_to),
        ).fetchall()
        return [StepRow(r[0], r[1], r[2], r[3], _loads(r[4]), r[5], r[6], r[7], r[8], _loads(r[9])) for r in rows]

    def real_steps_version(self) -> str:
        """A token that changes whenever a real step is added or removed (retrieval rereads on it)."""
        count, latest = self._execute(
            "SELECT COUNT(*), COALESCE(MAX(created_at), 0) FROM steps WHERE source = 'real'").fetchone()
        return f"{count}:{latest}"

    def real_steps(self) -> list[tuple[str, str, dict[str, Any] | None, str, str]]:
        """Every real step as (world id, domain, the world's origin, action, observation), in one query."""
        rows = self._execute(
            "SELECT s.world_id, w.domain, w.origin, s.action, s.observation FROM steps s JOIN worlds w ON w.id = s.world_id "
            "WHERE s.source = 'real' ORDER BY s.world_id, s.position").fetchall()
        return [(row[0], row[1], _loads(row[2]), row[3], row[4]) for row in rows]

    def similarities(self, world_id: str) -> list[float]:
        """The similarity of each step compared with reality, in step order (no step text is read)."""
        rows = self._execute(
            "SELECT similarity FROM steps WHERE world_id = ? AND similarity IS NOT NULL ORDER BY position", (world_id,))
        return [row[0] for row in rows]

    def append_steps(self, world_id: str, steps: list[StepRow]) -> None:
        """Steps after the world's last one, in order; StoreConflict if another writer appended first."""
        with self._transaction(world_id):
            last = self._execute("SELECT COALESCE(MAX(position), 0) FROM steps WHERE world_id = ?", (world_id,)).fetchone()[0]
            expected = list(range(last + 1, last + 1 + len(steps)))
            if [step.position for step in steps] != expected:
                raise StoreConflict(f"world {world_id} moved on: its last step is {last}, so the next ones are "
                                    f"{expected[:3]}, not {[step.position for step in steps][:3]}; reload it and retry")
            for step in steps:
                self._insert_step(world_id, step)
            self._changed(world_id)

    def replace_step(self, world_id: str, step: StepRow) -> None:
        with self._transaction(world_id):
            self._execute("DELETE FROM steps WHERE world_id = ? AND position = ?", (world_id, step.position))
            self._insert_step(world_id, step)
            self._changed(world_id)

    def set_prediction(self, world_id: str, position: int, predicted: str, similarity: float, diff: str) -> bool:
        """A real step gains the prediction it is measured against; False if the step is gone or not real."""
        with self._transaction(world_id):
            kept = self._execute(
                "UPDATE steps SET predicted = ?, similarity = ?, diff = ? "
                "WHERE world_id = ? AND position = ? AND source = 'real'",
                (predicted, similarity, diff, world_id, position),
            ).rowcount == 1
            self._changed(world_id)
        return kept

    def truncate(self, world_id: str, keep: int) -> int:
        """Drop the steps after position `keep`; returns how many went."""
        with self._transaction(world_id):
            dropped = self._execute("DELETE FROM steps WHERE world_id = ? AND position > ?", (world_id, keep)).rowcount
            self._changed(world_id)
        return dropped

    def copy_steps(self, source: str, target: str, up_to: int) -> None:
        """A fork: the exact prefix of `source` up to `up_to`, read and written in one transaction."""
        with self._transaction(target):
            for step in self.steps(source, up_to):
                self._insert_step(target, step)
            self._changed(target)

    def _insert_step(self, world_id: str, step: StepRow) -> None:
        self._execute(
            "INSERT INTO steps (world_id, position, action, observation, predicted, effects, source, similarity, diff, "
            "created_at, reply, details) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (world_id, step.position, step.action, step.observation, step.predicted,
             json.dumps(step.effects) if step.effects is not None else None, step.source, step.similarity, step.diff,
             time.time(), step.reply, json.dumps(step.details) if step.details is not None else None),
        )

    # --- jobs --------------------------------------------------------------------------------
    def create_job(self, tool: str) -> str:
        job_id = _new_id("job")
        now = time.time()
        self._execute("INSERT INTO jobs (id, tool, status, created_at, lease_until) VALUES (?,?,?,?,?)",
                      (job_id, tool, "running", now, now + JOB_LEASE_SECONDS))
        return job_id

    def renew_leases(self, job_ids: list[str]) -> set[str]:
        """The running process's jobs live on; returns those of them whose cancellation was asked for."""
        if not job_ids:
            return set()
        marks = ",".join("?" * len(job_ids))
        self._execute(f"UPDATE jobs SET lease_until = ? WHERE status = 'running' AND id IN ({marks})",
                      (time.time() + JOB_LEASE_SECONDS, *job_ids))
        rows = self._execute(f"SELECT id FROM jobs WHERE cancel_requested = 1 AND id IN ({marks})", tuple(job_ids))
        return {row[0] for row in rows}

    def request_cancel(self, job_id: str) -> bool:
        """Ask the process running the job to cancel it (it looks every second); False if it is not running."""
        return self._execute("UPDATE jobs SET cancel_requested = 1 WHERE id = ? AND status = 'running'",
                             (job_id,)).rowcount == 1

    def interrupt_lapsed_jobs(self, every: bool = False) -> int:
        """Running jobs whose lease lapsed (their process is gone) become interrupted, or `every` running job;
        returns how many."""
        now = time.time()
        return self._execute(
            "UPDATE jobs SET status = 'interrupted', finished_at = ?, error = ? "
            "WHERE status = 'running' AND (? OR lease_until IS NULL OR lease_until < ?)",
            (now, _INTERRUPTED, every, now)).rowcount

    def update_job(self, job_id: str, progress: dict[str, Any] | None = None, result: dict[str, Any] | None = None) -> None:
        self._execute(
            "UPDATE jobs SET progress = COALESCE(?, progress), result = COALESCE(?, result) WHERE id = ?",
            (json.dumps(progress) if progress is not None else None, json.dumps(result) if result is not None else None, job_id),
        )

    def finish_job(self, job_id: str, status: str, result: dict[str, Any] | None = None, error: str | None = None) -> None:
        self._execute(
            "UPDATE jobs SET status = ?, result = COALESCE(?, result), error = ?, finished_at = ? WHERE id = ?",
            (status, json.dumps(result) if result is not None else None, error, time.time(), job_id),
        )

    def job(self, job_id: str) -> JobRow | None:
        row = self._execute(
            "SELECT id, tool, status, progress, result, error, created_at, finished_at FROM jobs WHERE id = ?", (job_id,)
        ).fetchone()
        if row is None:
            return None
        return JobRow(row[0], row[1], row[2], _loads(row[3]), _loads(row[4]), row[5], row[6], row[7])

    def settle_jobs_at_start(self, retention_seconds: float) -> None:
        """Jobs whose process is gone were interrupted; finished ones expire. A SQLite file's jobs all ran in an
        earlier process; on a shared store only those whose lease lapsed did (another live server runs the rest)."""
        now = time.time()
        with self._transaction():
            self.interrupt_lapsed_jobs(every=not self.shared)
            self._execute("DELETE FROM jobs WHERE finished_at IS NOT NULL AND finished_at < ?", (now - retention_seconds,))

    @contextmanager
    def _transaction(self, world_id: str = "") -> Iterator[None]:
        self._begin(world_id)
        try:
            yield
        except BaseException:
            self._execute("ROLLBACK")
            raise
        self._execute("COMMIT")

