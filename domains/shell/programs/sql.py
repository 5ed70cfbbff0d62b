"""SQL read by its meaning, with sqlglot's parser: which statements destroy data, and where the text
cannot be read as SQL at all.

Destructive: DROP (of any object), TRUNCATE, ALTER ... DROP (a column, a partition, a constraint), and
DELETE or UPDATE whose WHERE does not bind, wherever they sit in a statement (a DELETE in a WITH of a
SELECT is a statement too). A WHERE bounds the loss only where it constrains rows to values the
statement names: it binds when, in a database whose every table holds only fresh rows (values beyond
every value the statement names, or NULL where it names none), it matches no row of the changed table
(domains/shell/programs/sql_bounds.py reads it, atom by atom). So `WHERE id = 7` binds, and `WHERE 1 = 1`,
`WHERE id > 0`, `WHERE expires < now()` do not. An upsert (ON CONFLICT DO UPDATE, ON DUPLICATE KEY
UPDATE) overwrites the rows its source names: a VALUES list binds, a SELECT must bind as a WHERE does.
A MERGE's WHEN MATCHED THEN DELETE or UPDATE changes the target rows its ON matches: its ON must bind as
a WHERE does; WHEN NOT MATCHED BY SOURCE THEN DELETE or UPDATE reaches rows no value names, so it never binds.

Nothing is lost by what a ROLLBACK undoes: statements between BEGIN (START TRANSACTION) and ROLLBACK,
or between SAVEPOINT s and ROLLBACK TO s, with no COMMIT between (nor PREPARE TRANSACTION: a prepared
transaction is no longer the session's, and a later ROLLBACK does not undo it). DDL is transactional in PostgreSQL
and SQLite; MySQL (and MariaDB) commit implicitly before DDL (MySQL manual, "Statements That Cause an
Implicit Commit"), so there, and where the dialect is unknown, only DML is undone. A transaction
never ended is taken as committed. Nothing is lost by dropping, truncating or deleting from a table
this same SQL created as TEMPORARY (a temporary table shadows a permanent one of its name), nor by
MySQL's DROP TEMPORARY TABLE; a plain CREATE followed by DROP is not safe (a CREATE that fails because
the table exists leaves the DROP to hit it, and psql goes on after an error).

SELECT, SHOW, EXPLAIN, INSERT, CREATE and the rest pass. Text that does not parse, a statement the
parser only keeps as an opaque command, one whose target is not a table (`DELETE a`), and one whose tree
the reader fails on, is unknown, never allowed by default. sqlglot is imported on
first use: a line with no SQL pays nothing for it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

# The dialects tried, in order, where the client does not say (an MCP tool's argument).
_ANY_DIALECT = ("", "postgres", "mysql", "sqlite", "tsql", "bigquery", "snowflake", "duckdb", "clickhouse")
# Statements sqlglot keeps as a bare command that change no data (PostgreSQL's and MySQL's manuals).
_HARMLESS_COMMANDS = frozenset({"EXPLAIN", "SHOW", "DESCRIBE", "DESC", "ANALYZE", "VACUUM", "LISTEN", "NOTIFY",
                                "PREPARE", "EXECUTE", "DEALLOCATE", "RESET", "CHECKPOINT", "FETCH", "CLOSE",
                                "DECLARE", "START", "SAVEPOINT", "RELEASE", "LOCK", "UNLOCK", "OPTIMIZE", "CHECK",
                                "KILL", "FLUSH"})
_SHOWN = 60  # characters of a statement quoted in a reason
# What sqlglot gives for a statement; anything else it parsed (a bare name, `db.drop()`) is an expression,
# not SQL a database client would run.
_STATEMENTS = ("Query", "Insert", "Update", "Delete", "Merge", "Create", "Drop", "Alter", "TruncateTable", "Command",
               "Show", "Describe", "Use", "Set", "Transaction", "Commit", "Rollback", "Pragma", "Grant", "Revoke",
               "Comment", "Cache", "Uncache", "Copy", "Analyze", "LoadData", "Refresh", "Kill", "Summarize")
# Transaction words some dialects' parsers leave as a bare name (`START TRANSACTION` in PostgreSQL, `END`
# and `ABORT`), as sqlglot writes them back.
_TRANSACTION_WORDS = {"START AS TRANSACTION": "begin", "END": "commit", "END AS TRANSACTION": "commit",
                      "ABORT": "rollback", "ABORT AS TRANSACTION": "rollback", "ABORT AS WORK": "rollback"}
_READ_COMMANDS = frozenset({"EXPLAIN", "SHOW", "DESCRIBE", "DESC", "FETCH"})  # commit nothing anywhere
_TRANSACTIONAL_DDL = frozenset({"postgres", "sqlite"})  # their manuals: DDL inside a transaction rolls back
_NO_TRANSACTIONS = frozenset({"clickhouse"})  # ROLLBACK undoes nothing there outside an experimental mode
_TEMP_SCHEMAS = ("pg_temp", "temp")  # where PostgreSQL and SQLite keep a session's temporary tables


@dataclass(frozen=True)
class SqlReading:
    destroys: tuple[str, ...] = ()  # each destructive statement, shortened for the reason
    unknown: str = ""  # why the text could not be read as SQL; '' when it could

    @property
    def harmless(self) -> bool:
        return not self.destroys and not self.unknown


def read_sql(text: str, dialect: str | None = None) -> SqlReading:
    """What `text` does to the data, read as `dialect` (None: the first dialect that parses it, with
    DDL taken as committing, the cautious side, since the database is not known)."""
    if not text.strip():
        return SqlReading()
    sqlglot, errors = _sqlglot()
    problem = ""
    for name in ((dialect,) if dialect is not None else _ANY_DIALECT):
        try:
            statements = [s for s in sqlglot.parse(text, read=name or None) if s is not None]
        except (errors.ParseError, errors.TokenError) as exc:
            problem = problem or str(exc).splitlines()[0]
            continue
        return _reading(statements, dialect, name or None)
    return SqlReading(unknown=f"the SQL does not parse ({problem[:120]})")


@dataclass
class _Ledger:
    """What the statements so far lose for good, what a ROLLBACK could still undo, and which temporary
    tables exist, as a session running them in order would have them."""
    dialect: str | None
    lost: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)  # lost unless rolled back
    in_transaction: bool = False
    marks: list[tuple[str, int, frozenset[str]]] = field(default_factory=list)  # savepoint, pending, temps
    temporary: set[str] = field(default_factory=set)

    def begin(self) -> None:
        if self.in_transaction and self.dialect in _TRANSACTIONAL_DDL:
            return  # PostgreSQL warns, SQLite refuses: the open transaction goes on
        self.commit()  # MySQL commits the open transaction first (and so, cautiously, an unknown dialect)
        self.in_transaction = self.dialect not in _NO_TRANSACTIONS
        self.marks = [("", 0, frozenset(self.temporary))]

    def commit(self) -> None:
        self.lost += self.pending
        self.pending, self.in_transaction, self.marks = [], False, []

    def rollback(self, savepoint: str = "") -> None:
        names = [name for name, _, _ in self.marks]
        if not self.in_transaction or (savepoint and savepoint not in names):
            return  # nothing open, or a savepoint that does not exist: an error that undoes nothing
        at = len(names) - 1 - names[::-1].index(savepoint) if savepoint else 0
        _, length, temporary = self.marks[at]
        self.pending, self.temporary = self.pending[:length], set(temporary)
        if savepoint:
            self.marks = self.marks[:at + 1]  # ROLLBACK TO keeps the savepoint itself
        else:
            self.in_transaction, self.marks = False, []

    def savepoint(self, name: str) -> None:
        if not self.in_transaction and self.dialect == "sqlite":
            self.begin()  # SQLite: a SAVEPOINT outside a transaction opens one, its RELEASE commits it
            self.marks[0] = (name, 0, frozenset(self.temporary))
        elif self.in_transaction:
            self.marks.append((name, len(self.pending), frozenset(self.temporary)))

    def release(self, name: str) -> None:
        names = [mark for mark, _, _ in self.marks]
        if name and name in names:
            at = len(names) - 1 - names[::-1].index(name)
            self.marks = self.marks[:at]
            if not self.marks:
                self.commit()

    def record(self, destroys: list[str], commits: bool) -> None:
        if commits:
            self.commit()
        (self.pending if self.in_transaction else self.lost).extend(destroys)


def _reading(statements: list[Any], dialect: str | None, spelling: str | None) -> SqlReading:
    """`dialect`: the one the client named (None: unknown); `spelling`: the one that parsed, for reasons."""
    ledger, unknown = _Ledger(dialect), ""
    for statement in statements:
        why = _guarded(statement, ledger, dialect, spelling)  # every statement reaches the ledger
        unknown = unknown or why
    ledger.commit()  # a transaction never ended may still be committed: its losses count
    return SqlReading(tuple(ledger.lost), unknown)


class _Unreadable(Exception):
    """A statement whose shape the reader does not know (a target that is not a table): unknown, not allowed."""


def _guarded(statement: Any, ledger: _Ledger, dialect: str | None, spelling: str | None) -> str:
    """One statement read into the ledger; why it is unknown, or ''. An error of the reader's own (a tree shape
    sqlglot gives that it does not expect) makes the statement unknown: read_sql never raises."""
    try:
        return _read_statement(statement, ledger, dialect, spelling)
    except _Unreadable as exc:
        return f"{_shown(statement, spelling)!r} is not read: {exc}"
    except Exception as exc:  # noqa: BLE001 - an unexpected tree must ask, never let the line through
        return f"a statement could not be read ({type(exc).__name__})"


def _read_statement(statement: Any, ledger: _Ledger, dialect: str | None, spelling: str | None) -> str:
    from sqlglot import exp

    statement_types = tuple(getattr(exp, name) for name in _STATEMENTS if hasattr(exp, name))
    shown = _shown(statement, spelling)
    word = _TRANSACTION_WORDS.get(" ".join(statement.sql().upper().split()))
    if isinstance(statement, exp.Transaction) or word == "begin":
        ledger.begin()
    elif isinstance(statement, exp.Commit) or word == "commit":
        ledger.commit()
    elif isinstance(statement, exp.Rollback) or word == "rollback":
        savepoint = statement.args.get("savepoint") if isinstance(statement, exp.Rollback) else None
        ledger.rollback(savepoint.name.lower() if savepoint is not None else "")
    elif _prepares_transaction(statement):
        ledger.commit()  # two-phase commit: the transaction leaves the session, and no ROLLBACK in it undoes it
    elif not isinstance(statement, statement_types):
        return f"{shown!r} is not an SQL statement"
    elif isinstance(statement, exp.Command) and str(statement.this).upper() in ("SAVEPOINT", "RELEASE"):
        words = str(statement.expression.this if statement.expression else "").lower().split()
        name = (words[1:] if words[:1] == ["savepoint"] else words)[:1]
        (ledger.savepoint if str(statement.this).upper() == "SAVEPOINT" else ledger.release)(name[0] if name else "")
    elif isinstance(statement, exp.Command) and str(statement.this).upper() not in _HARMLESS_COMMANDS:
        return f"{shown!r} is a statement the SQL parser cannot read"
    else:
        ledger.record(_destroys(statement, ledger.temporary, spelling), _commits(statement, dialect))
    return ""


def _prepares_transaction(statement: Any) -> bool:
    """PostgreSQL's PREPARE TRANSACTION 'id' (not PREPARE name AS ..., a prepared statement), which sqlglot
    keeps as a bare command."""
    from sqlglot import exp

    rest = str(statement.expression.this if statement.expression else "") if isinstance(statement, exp.Command) else ""
    return str(statement.this).upper() == "PREPARE" and rest.upper().split()[:1] == ["TRANSACTION"]


def _shown(node: Any, spelling: str | None) -> str:
    return " ".join(node.sql(dialect=spelling).split())[:_SHOWN]


def _destroys(statement: Any, temporary: set[str], spelling: str | None) -> list[str]:
    """What one statement destroys, anywhere in its tree, given the temporary tables that exist;
    a CREATE TEMPORARY adds to them and a DROP of one takes it away."""
    from sqlglot import exp

    if isinstance(statement, exp.Create) and _creates_temporary(statement):
        temporary.add(_table_name(statement.this.this if isinstance(statement.this, exp.Schema) else statement.this))
    shown = _shown(statement, spelling)
    if isinstance(statement, exp.Drop):
        tables = [table for table in statement.args.get("tables") or () if isinstance(table, exp.Table)]
        if statement.args.get("temporary") or (str(statement.args.get("kind") or "").upper() == "TABLE" and tables
                                               and all(_on_temporary(table, temporary) for table in tables)):
            temporary.difference_update(_table_name(table) for table in tables)
            return []
        return [shown]
    if isinstance(statement, exp.TruncateTable):
        tables = [table for table in statement.expressions if isinstance(table, exp.Table)]
        return [] if tables and all(_on_temporary(table, temporary) for table in tables) else [shown]
    if isinstance(statement, exp.Alter) and not _on_temporary(statement.this, temporary) and any(
            isinstance(action, (exp.Drop, exp.DropPartition)) or type(action).__name__.startswith("Drop")
            for action in statement.args.get("actions") or ()):
        return [shown]
    return [loss for node in statement.find_all(exp.Delete, exp.Update, exp.Insert, exp.Merge)
            for loss in _row_losses(node, temporary, spelling)]


def _row_losses(node: Any, temporary: set[str], spelling: str | None) -> list[str]:
    """What one DELETE, UPDATE, upsert or MERGE inside a statement loses of the rows it changes."""
    from sqlglot import exp

    from .sql_bounds import unbound, unbound_source

    shown = _shown(node, spelling)
    if isinstance(node, exp.Merge):
        return _merge_losses(node, temporary, spelling)
    if isinstance(node.parent, exp.When):
        return []  # a MERGE's own action: read with its MERGE, whose ON chooses the rows
    if isinstance(node, exp.Insert):
        conflict = node.args.get("conflict")
        updates = conflict is not None and "UPDATE" in str(conflict.args.get("action") or "").upper()
        why = unbound_source(node.expression, spelling) if updates and node.expression is not None else ""
        return [f"{shown} (it overwrites the rows its SELECT yields; {why})"] if why else []
    if not isinstance(node.this, exp.Table) or not all(isinstance(table, exp.Table) for table in _changed(node)):
        raise _Unreadable("what it changes is not a table")  # `DELETE a`, `DELETE FROM (SELECT ...)`
    if all(_on_temporary(table, temporary) for table in _changed(node)):
        return []
    why = unbound(node, spelling)
    return [f"{shown} ({why})"] if why else []


def _merge_losses(merge: Any, temporary: set[str], spelling: str | None) -> list[str]:
    """A MERGE's WHEN MATCHED THEN DELETE or UPDATE changes the target rows its ON matches (and the WHEN's own
    AND), bound as a WHERE is; WHEN NOT MATCHED BY SOURCE reaches the rows no source row matches: any row."""
    from sqlglot import exp

    from .sql_bounds import unbound_merge

    if not isinstance(merge.this, exp.Table):
        raise _Unreadable("what it merges into is not a table")
    if _on_temporary(merge.this, temporary):
        return []
    losses = []
    whens = merge.args.get("whens")
    for when in whens.expressions if whens is not None else ():
        action = _merge_action(when.args.get("then"))
        if not action:
            continue
        shown = f"MERGE INTO {_shown(merge.this, spelling)} ... {_shown(when, spelling)}"[:2 * _SHOWN]
        if not when.args.get("matched"):
            losses.append(f"{shown} (it {action.lower()}s every target row no source row matches)")
        elif why := unbound_merge(merge, when.args.get("condition"), spelling):
            losses.append(f"{shown} ({why})")
    return losses


def _merge_action(then: Any) -> str:
    """'DELETE' or 'UPDATE' for a WHEN's action that changes target rows; '' for INSERT and DO NOTHING."""
    from sqlglot import exp

    if isinstance(then, exp.Update):
        return "UPDATE"
    if isinstance(then, exp.Delete) or (isinstance(then, exp.Var) and then.name.upper() == "DELETE"):
        return "DELETE"
    return ""


def _commits(statement: Any, dialect: str | None) -> bool:
    """Whether the statement ends an open transaction by itself: DDL where DDL is not transactional
    (MySQL's implicit commit; an unknown dialect, cautiously), and PostgreSQL's DROP DATABASE, which
    cannot run inside one."""
    from sqlglot import exp

    if isinstance(statement, (exp.Query, exp.Insert, exp.Update, exp.Delete, exp.Merge, exp.Show, exp.Describe,
                              exp.Use)):
        return False
    if isinstance(statement, exp.Command) and str(statement.this).upper() in _READ_COMMANDS:
        return False
    if isinstance(statement, exp.Set):
        return "autocommit" in statement.sql().lower()
    if isinstance(statement, (exp.Create, exp.Drop)) and (
            statement.args.get("temporary") or (isinstance(statement, exp.Create) and _creates_temporary(statement))):
        return False  # MySQL: CREATE and DROP TEMPORARY TABLE do not commit
    if dialect in _TRANSACTIONAL_DDL:
        return isinstance(statement, exp.Drop) and str(statement.args.get("kind") or "").upper() == "DATABASE"
    return True


def _changed(node: Any) -> list[Any]:
    return list(node.args.get("tables") or [node.this])


def _creates_temporary(create: Any) -> bool:
    from sqlglot import exp

    properties = create.args.get("properties")
    return (str(create.args.get("kind") or "").upper() == "TABLE" and properties is not None
            and any(isinstance(p, exp.TemporaryProperty) for p in properties.expressions))


def _on_temporary(table: Any, temporary: set[str]) -> bool:
    """A table this SQL created as temporary: unqualified, or in the temporary schema."""
    from sqlglot import exp

    if not isinstance(table, exp.Table):
        return False
    schema = table.db.lower()
    return (not schema or schema.startswith(_TEMP_SCHEMAS)) and table.name.lower() in temporary


def _table_name(table: Any) -> str:
    return str(getattr(table, "name", "") or "").lower()


def _sqlglot() -> tuple[Any, Any]:
    import sqlglot
    from sqlglot import errors

    logging.getLogger("sqlglot").setLevel(logging.ERROR)  # "falling back to a command" is our `unknown`
    return sqlglot, errors
