"""SQL turned into effects, one way for every reader that meets it: a database client's `-c`, `-e`, script or
standard input (remote/databases.py), an argument of a program with no table that reads as a statement
(remote/conventions.py), and an MCP tool's SQL argument (domains/tool_arguments.py).

The text is read by its meaning (programs/sql.py). Each statement that destroys is a `remote-destruction`
naming the statement (and why its WHERE does not bind); its reason is one wording, built from what the target
holds: "destroys PostgreSQL data; the server keeps no copy unless a backup was made" (where the data is a
file, sqlite3's, the workspace decides the loss and no server is named).

What cannot be read has one rule: text that does not parse, a statement the parser keeps only as an opaque
command, and one whose shape the reader does not know, are a `remote-destruction` with loss `unknown`, whatever
the text begins with. The guard asks about it (the policy's `unknown`), never passes it and never takes it as a
certain loss: `DROP TABLE` with no name fails in the database and loses nothing, while `DROP KEYSPACE app`
(CQL, which sqlglot does not know) destroys a keyspace; the text alone cannot tell them apart. A caller
decides only which text is SQL; once it is, this rule holds for it (remote/conventions.py's gate says which
arguments are).
"""

from __future__ import annotations

from ..programs.sql import read_sql
from ..reading.call import Call
from ..reading.effects import Effect

NO_COPY = "the server keeps no copy unless a backup was made"
_TARGET = 160  # characters of a statement kept as an effect's target, as remote/tables.py's `destruction`
_SHOWN = 60  # characters of unreadable text named as the target
_SERVERLESS = frozenset({"sqlite"})  # a database that is a file (sqlite.org): the workspace decides its loss


def sql_effects(text: str, dialect: str | None, holds: str, program: str, command: int = 0) -> list[Effect]:
    """What running `text` as SQL in `dialect` (None: not known, every dialect is tried) does to `holds`, the
    data the target keeps ("PostgreSQL data", "data in app.db"), as the effects of `program`, the line's
    `command`th simple command."""
    reading = read_sql(text, dialect)
    kept = "" if dialect in _SERVERLESS else f"; {NO_COPY}"
    effects = [Effect("remote-destruction", "", "unknown", target=statement[:_TARGET], fact=f"destroys {holds}{kept}",
                      program=program, command=command) for statement in reading.destroys]
    if reading.unknown:
        shown = " ".join(text.split())[:_SHOWN]
        why = reading.unknown if shown in reading.unknown else f"{shown!r}: {reading.unknown}"  # the reason names it
        effects.append(Effect("remote-destruction", "", "unknown", target=shown, fact=f"{why}; it may destroy {holds}",
                              program=program, command=command, loss="unknown"))
    return effects


def run_sql(call: Call, text: str, dialect: str | None, holds: str) -> None:
    """`call` runs `text` as SQL on what holds `holds`: its effects, by `sql_effects`'s rule, join the line's."""
    for effect in sql_effects(text, dialect, holds, call.program, call.index):
        call.reader.add_effect(effect)
