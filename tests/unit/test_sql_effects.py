"""SQL turned into effects by one rule (domains/shell/remote/sql_effects.py), whoever runs it: a database client,
a program with no table given SQL as an argument, or an MCP tool's SQL argument."""

from __future__ import annotations

import json

import pytest

from agentworld_mcp.domains.shell import Location, analyze
from agentworld_mcp.domains.tool_arguments import semantics


def _remote(line: str) -> list:
    return [e for e in analyze(line, "/w").effects if e.kind == "remote-destruction"]


def _tool(sql: str) -> list:
    call = json.dumps({"name": "mcp__postgres__query", "arguments": {"sql": sql}})
    return [e for e in semantics(call, Location("/w", "/w"), None).effects if e.kind == "remote-destruction"]


@pytest.mark.parametrize("line", [
    "psql -c 'DROP TABLE' app",  # no name: psql errors and loses nothing, yet the text cannot tell
    "cqlsh -e 'DROP KEYSPACE app'",  # CQL, which sqlglot does not read: destroys a keyspace
    "mytool -e 'WITH x AS (SELECT 1) SELEC x'",  # a WITH may hold a DELETE: it may write
])
def test_sql_that_cannot_be_read_is_one_unknown_loss_naming_it(line):
    effects = _remote(line)
    assert [e.loss for e in effects] == ["unknown"], effects
    assert effects[0].target in effects[0].fact and "it may destroy" in effects[0].fact, effects


@pytest.mark.parametrize("line", ["mytool -m 'update the docs'", "mytool -q 'SELECT garbage((('"])
def test_an_argument_that_does_not_begin_as_a_writing_statement_is_no_sql(line):
    assert _remote(line) == []


def test_each_reader_gives_a_destroying_statement_the_same_reason_from_what_is_held():
    # (bq's `query`, a verb the guard does not know, is asked about besides: remote/safe.py; only certain losses here)
    facts = {e.fact for e in _remote("psql -c 'TRUNCATE users'") + _remote("bq query 'TRUNCATE TABLE users'")
             + _tool("TRUNCATE users") if e.loss != "unknown"}
    assert facts == {"destroys PostgreSQL data; the server keeps no copy unless a backup was made",
                     "destroys the data bq reaches; the server keeps no copy unless a backup was made",
                     "destroys a database's data; the server keeps no copy unless a backup was made"}
    assert [e.loss for e in _tool("DROP TABLE")] == ["unknown"]
