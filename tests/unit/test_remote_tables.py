"""The tables of programs that destroy state elsewhere (domains/shell/remote), read from the text alone.

Lines are drawn from the tables themselves: every form of every program, with command words its
patterns match, the options it needs and a target. Each must be a `remote-destruction` when run, and
nothing at all when only mentioned: echoed, searched for, commented, written to a file by a
here-document. A dry run of the same line, where the program documents one, destroys nothing.
"""

from __future__ import annotations

import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.remote import TABLES, Form, RemoteProgram
from agentworld_mcp.domains.shell.programs.sql import read_sql

CWD = "/home/dev/project"
FORMS = [(program, table, form) for program, table in sorted(TABLES.items()) for form in table.forms]
# A word a pattern matches, drawn from the pattern itself (ASCII letters, digits and dashes, as CLI verbs are).
_VERB = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-:.", min_size=1, max_size=12)
_TARGET = st.sampled_from(["prod", "acme-backups", "payments", "web-1", "s3://acme/data", "db"])
QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _destructive(table: RemoteProgram, form: Form, draw) -> list[str]:
    words = [draw(st.from_regex(rf"\A(?:{pattern})\Z", fullmatch=True).filter(lambda w: not w.startswith("-")))
             for pattern in form.words]
    options = []
    if form.needs:
        name, _, value = draw(st.sampled_from(form.needs)).partition("=")
        options = [name, value] if value else [name, "main.db"] if name in table.value_options else [name]
    return [*words, draw(_TARGET), *options]


@st.composite
def destructive_lines(draw):
    program, table, form = draw(st.sampled_from(FORMS))
    words = _destructive(table, form, draw)
    return program, table, shlex.join([program, *words])


def _kinds(line: str) -> list[str]:
    return [effect.kind for effect in analyze(line, CWD, "/home/dev").effects]


def test_every_family_is_in_the_tables():
    for program in ("kubectl", "oc", "helm", "terraform", "tofu", "pulumi", "cdk", "aws", "gcloud", "gsutil", "az",
                    "doctl", "flyctl", "docker", "podman", "docker-compose", "gh", "heroku", "vercel", "netlify"):
        assert program in TABLES, program


@QUICK
@given(destructive_lines())
def test_a_run_of_a_destructive_form_destroys_and_a_mention_of_it_does_not(drawn):
    program, table, line = drawn
    effects = analyze(line, CWD, "/home/dev").effects
    assert [e.kind for e in effects] == ["remote-destruction"] and effects[0].program == program, (line, effects)
    quoted = shlex.quote(line)
    for mention in (f"echo {quoted}", f"grep -rn {quoted} docs", f"ls  # {line}", f"printf '%s\\n' {quoted}",
                    f"cat > notes.md <<'EOF'\n{line}\nEOF", f"git commit -m {quoted}"):
        assert "remote-destruction" not in _kinds(mention), mention


@QUICK
@given(destructive_lines(), st.data())
def test_a_documented_dry_run_or_the_help_destroys_nothing(drawn, data):
    program, table, line = drawn
    assert _kinds(f"{line} --help") == []
    if table.dry_runs:
        dry = data.draw(st.sampled_from(table.dry_runs))
        assert "remote-destruction" not in _kinds(f"{line} {dry}"), (line, dry)


@pytest.mark.parametrize(("sql", "destroys"), [
    ("DROP TABLE users", True), ("drop database app", True), ("TRUNCATE users", True), ("DELETE FROM users", True),
    ("UPDATE users SET admin = true", True), ("ALTER TABLE users DROP COLUMN email", True),
    ("BEGIN; DELETE FROM t; COMMIT;", True), ("SELECT * FROM users; DROP TABLE users", True),
    ("DELETE FROM users WHERE id = 7", False), ("UPDATE users SET a = 1 WHERE id = 7", False),
    ("SELECT 1", False), ("EXPLAIN SELECT 1", False), ("SHOW TABLES", False), ("INSERT INTO t VALUES (1)", False),
    ("CREATE TABLE t (a int)", False), ("ALTER TABLE t ADD COLUMN b int", False)])
def test_sql_destroys_by_its_meaning(sql, destroys):
    reading = read_sql(sql, "postgres")
    assert bool(reading.destroys) is destroys and not reading.unknown, reading


@pytest.mark.parametrize("text", ["DROP TABLE", "how to drop a table", "db.users.drop()", "CALL wipe()"])
def test_text_that_is_not_sql_a_parser_can_read_is_unknown(text):
    reading = read_sql(text)
    assert reading.unknown and not reading.harmless, reading
