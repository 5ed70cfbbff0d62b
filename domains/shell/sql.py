"""SQL read by its meaning, with sqlglot's parser: which statements destroy data, and where the text
cannot be read as SQL at all.

Destructive: DROP (of any object), TRUNCATE, DELETE or UPDATE with no WHERE, and ALTER ... DROP (a
column, a partition, a constraint). A WHERE bounds the loss to the rows it matches, so DELETE and
UPDATE with one pass; so do SELECT, SHOW, EXPLAIN, INSERT, CREATE and the rest. Text that does not
parse, or a statement the parser only keeps as an opaque command, is unknown, never allowed by
default. sqlglot is imported on first use: a line with no SQL pays nothing for it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
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


@dataclass(frozen=True)
class SqlReading:
    destroys: tuple[str, ...] = ()  # each destructive statement, shortened for the reason
    unknown: str = ""  # why the text could not be read as SQL; '' when it could

    @property
    def harmless(self) -> bool:
        return not self.destroys and not self.unknown


def read_sql(text: str, dialect: str | None = None) -> SqlReading:
    """What `text` does to the data, read as `dialect` (None: the first dialect that parses it)."""
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
        return _reading(statements)
    return SqlReading(unknown=f"the SQL does not parse ({problem[:120]})")


def _reading(statements: list[Any]) -> SqlReading:
    from sqlglot import exp

    destroys, unknown = [], ""
    statement_types = tuple(getattr(exp, name) for name in _STATEMENTS if hasattr(exp, name))
    for statement in statements:
        shown = " ".join(statement.sql().split())[:_SHOWN]
        if not isinstance(statement, statement_types):
            unknown = unknown or f"{shown!r} is not an SQL statement"
        elif isinstance(statement, (exp.Drop, exp.TruncateTable)):
            destroys.append(shown)
        elif isinstance(statement, (exp.Delete, exp.Update)) and not statement.args.get("where"):
            destroys.append(f"{shown} (no WHERE: every row)")
        elif isinstance(statement, exp.Alter) and any(
                isinstance(action, (exp.Drop, exp.DropPartition)) or type(action).__name__.startswith("Drop")
                for action in statement.args.get("actions") or ()):
            destroys.append(shown)
        elif isinstance(statement, exp.Command):
            keyword = str(statement.this).upper()
            if keyword not in _HARMLESS_COMMANDS:
                unknown = unknown or f"{shown!r} is a statement the SQL parser cannot read"
    return SqlReading(tuple(destroys), unknown)


def _sqlglot() -> tuple[Any, Any]:
    import sqlglot
    from sqlglot import errors

    logging.getLogger("sqlglot").setLevel(logging.ERROR)  # "falling back to a command" is our `unknown`
    return sqlglot, errors
