"""A bound must bind: SQL's WHERE, transactions and temporary tables, judged through the hook's own `decide`
as Claude Code sends a Bash call or an MCP SQL tool's call, in a real project (domains/shell/programs/sql.py).

A WHERE that binds nothing (`1=1`, `true`, `id > 0`) is asked about like no WHERE at all; a DELETE inside a
WITH is a statement; what a ROLLBACK undoes and a temporary table this SQL created lose nothing.
"""

from __future__ import annotations

import pytest

from ..hook_calls import git_project, verdict

RULE = "no-remote-destruction"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return git_project(tmp_path_factory.mktemp("sql-bounds") / "project", {}, {
        "app.db": "SQLite format 3\n",  # untracked: its rows have no copy
        "purge.sql": "BEGIN;\nDELETE FROM sessions WHERE 1 = 1;\nCOMMIT;\n",
        "trial.sql": "BEGIN;\nDELETE FROM sessions;\nDROP TABLE audit;\nROLLBACK;\n"})


def _verdict(repo, tool: str, tool_input: dict) -> dict:
    return verdict(repo, tool_input, tool)


ASKED = [
    ("psql -c 'DELETE FROM users WHERE 1=1'", "is always true"),
    ("mysql -e 'DELETE FROM users WHERE true' shop", "is always true"),
    ("psql app -c 'UPDATE users SET password = NULL WHERE id > 0'", "id > 0 does not bind rows to named values"),
    ("psql app <<'EOF'\nDELETE FROM sessions WHERE expires < now();\nEOF", "does not bind rows to named values"),
    ("psql -c 'WITH gone AS (DELETE FROM users RETURNING id) SELECT count(*) FROM gone'", "no WHERE"),
    ("mysql -e 'BEGIN; DROP TABLE users; ROLLBACK' shop", "DROP TABLE users"),  # MySQL commits before DDL
    ("psql -c 'CREATE TABLE ids (id int); DROP TABLE ids'", "DROP TABLE ids"),  # a failed CREATE: the real one
    ("psql -f purge.sql app", "is always true"),
    ("sqlite3 app.db 'DELETE FROM cache WHERE 1 = 1'", "is always true"),
]
PASSED = [
    "psql -c 'BEGIN; DELETE FROM users; ROLLBACK'", "psql -c 'BEGIN; DROP TABLE users; ROLLBACK'",
    "psql -c 'START TRANSACTION; UPDATE users SET admin = true; ROLLBACK'", "psql -f trial.sql app",
    "mysql -e 'START TRANSACTION; DELETE FROM carts; ROLLBACK' shop",
    "psql -c 'CREATE TEMP TABLE ids (id int); DROP TABLE ids'", "mysql -e 'DROP TEMPORARY TABLE ids' shop",
    "psql -c 'DELETE FROM users WHERE id IN (1, 2)'", "psql -c 'DELETE FROM logs WHERE day BETWEEN 1 AND 7'",
    "sqlite3 app.db 'BEGIN; DELETE FROM cache; ROLLBACK'",
]


@pytest.mark.parametrize(("line", "why"), ASKED)
def test_a_where_that_binds_nothing_is_asked_about_and_says_why(project, line, why):
    verdict = _verdict(project, "Bash", {"command": line})
    assert verdict["decision"] == "ask" and RULE in verdict["rules"], verdict
    assert why in verdict["reason"], verdict


@pytest.mark.parametrize("line", PASSED)
def test_what_a_rollback_undoes_a_temporary_table_or_a_real_bound_passes(project, line):
    verdict = _verdict(project, "Bash", {"command": line})
    assert verdict["decision"] == "none" and verdict["rules"] == [], verdict


@pytest.mark.parametrize(("tool", "arguments", "why"), [
    ("mcp__postgres__query", {"sql": "DELETE FROM users WHERE 1=1"}, "is always true"),
    ("mcp__postgres__query", {"sql": "UPDATE users SET password = NULL WHERE id > 0"}, "does not bind"),
    ("mcp__supabase__execute_sql", {"query": "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d"}, "no WHERE"),
    ("mcp__postgres__query", {"sql": "BEGIN; DROP TABLE users; ROLLBACK"}, "DROP TABLE users"),  # unknown: commits
])
def test_an_mcp_sql_tool_is_read_the_same_way(project, tool, arguments, why):
    verdict = _verdict(project, tool, arguments)
    assert verdict["decision"] == "ask" and RULE in verdict["rules"] and why in verdict["reason"], verdict


@pytest.mark.parametrize("sql", ["BEGIN; DELETE FROM users; ROLLBACK", "DELETE FROM users WHERE id = $1",
                                 "CREATE TEMP TABLE ids (id int); DROP TABLE ids"])
def test_an_mcp_sql_tool_whose_sql_loses_nothing_passes(project, sql):
    verdict = _verdict(project, "mcp__postgres__query", {"sql": sql})
    assert verdict["decision"] == "none" and verdict["rules"] == [], verdict


@pytest.mark.parametrize(("line", "why"), [
    ('psql -c "MERGE INTO users u USING staging s ON u.id=s.id WHEN MATCHED THEN UPDATE SET name=s.name"',
     "does not bind rows to named values"),
    ('psql -c "MERGE INTO users u USING staging s ON 1=1 WHEN MATCHED THEN DELETE"', "ON 1 = 1 is always true"),
    ('psql -c "DELETE a"', "what it changes is not a table"),
])
def test_a_merge_or_a_statement_the_reader_does_not_know_is_asked_about(project, line, why):
    verdict = _verdict(project, "Bash", {"command": line})
    assert verdict["decision"] == "ask" and why in verdict["reason"], verdict


def test_a_statement_the_reader_does_not_know_leaves_the_rest_of_the_line_judged(project):
    verdict = _verdict(project, "Bash", {"command": 'rm -rf ~/.ssh; psql -c "DELETE a"'})
    assert verdict["decision"] == "deny", verdict


def test_a_merge_whose_on_binds_passes(project):
    line = 'psql -c "MERGE INTO users u USING staging s ON u.id = 7 WHEN MATCHED THEN DELETE"'
    verdict = _verdict(project, "Bash", {"command": line})
    assert verdict["decision"] == "none" and verdict["rules"] == [], verdict


def test_a_rollback_after_prepare_transaction_undoes_nothing(project):
    line = "psql -c \"BEGIN; DELETE FROM users; PREPARE TRANSACTION 'x'; ROLLBACK;\""
    verdict = _verdict(project, "Bash", {"command": line})
    assert verdict["decision"] == "ask" and "DELETE FROM users" in verdict["reason"], verdict
