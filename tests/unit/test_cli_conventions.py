"""The conventions that read a program with no table (domains/shell/remote/conventions.py) and the launchers'
own argument shapes (domains/shell/remote/elsewhere.py), without the hook."""

from __future__ import annotations

import pytest

from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.remote.conventions import command_words, decisive_verb
from agentworld_mcp.domains.shell.remote.elsewhere import _ssm_commands


@pytest.mark.parametrize(("args", "words"), [
    (["kv", "metadata", "delete", "secret/app"], ["kv", "metadata", "delete"]),
    (["--config", "./ops.yaml", "delete-topic", "--name", "x"], ["delete-topic", "x"]),
    (["-f", "drop", "shop"], ["drop", "shop"]),
    (["a", "b", "c", "d", "e"], ["a", "b", "c", "d"]),
    (["Build", "delete"], []),  # an uppercase word is an argument: the path ends there
    (["run", "--", "delete"], ["run"]),
])
def test_the_command_path_is_the_leading_bare_words(args, words):
    assert command_words(args) == words


@pytest.mark.parametrize(("program", "args", "word", "destroys"), [
    ("eksctl", ["delete", "cluster"], "delete", True), ("supabase", ["db", "reset"], "reset", True),
    ("rails", ["db:drop"], "drop", True), ("tool", ["delete-bucket", "--name", "b"], "delete", True),
    ("tool", ["list", "delete"], "list", False), ("kafka-topics", ["--delete", "--topic", "t"], "delete", True),
    ("kafka-topics", ["--list"], "list", False), ("dropdb", ["prod"], "drop", True),
    ("pg_dropcluster", ["16", "main"], "drop", True), ("vault", ["token", "revoke", "-self"], "revoke", True),
])
def test_the_first_verb_decides(program, args, word, destroys):
    options = {arg.lstrip("-") for arg in args if arg.startswith("-")}
    verb = decisive_verb(program, args, options)
    assert verb is not None and (verb.word, verb.destroys) == (word, destroys)


@pytest.mark.parametrize("program", ["zorbctl", "deploy-tool", "kafka-topics"])
def test_a_program_with_no_verb_anywhere_has_none(program):
    assert decisive_verb(program, ["prod", "--verbose"], {"verbose"}) is None


@pytest.mark.parametrize(("line", "destroys"), [
    ("mytool --message 'update the docs'", False), ("mytool -m 'delete old stuff'", False),
    ("mytool -m 'truncate the log'", False), ("cqlsh -e 'DROP KEYSPACE app'", True),
    ("bq query 'TRUNCATE TABLE ds.t'", True), ("duckdb app.duckdb 'DELETE FROM t'", True),
    ("mytool --dry-run delete cluster", False), ("mytool delete cluster --help", False),
])
def test_sql_arguments_need_a_statements_grammar_and_dry_runs_change_nothing(line, destroys):
    effects = [e for e in analyze(line, "/w").effects if e.kind == "remote-destruction"]
    assert bool(effects) == destroys, effects


@pytest.mark.parametrize(("text", "commands"), [
    ('{"commands":["rm -rf /srv","ls"]}', ["rm -rf /srv", "ls"]), ('commands=["df -h"]', ["df -h"]),
    ("commands=uptime", ["uptime"]), ("file://params.json", None), ('{"other": 1}', None),
])
def test_ssm_commands_are_read_from_json_or_the_cli_shorthand(text, commands):
    assert _ssm_commands(text) == commands


@pytest.mark.parametrize(("line", "destroys"), [
    ("ibmcloud resource service-instance-delete db1", True), ("prisma db push --force-reset", True),
    ("mytool up --no-delete", False), ("mytool sync --keep-deleted", False), ("mytool show-delete-markers", False),
])
def test_a_verb_inside_a_compound_word_or_option_counts_unless_negated(line, destroys):
    """A destruction read for certain; `mytool up` is still asked about as a verb the guard does not know."""
    assert any(e.kind == "remote-destruction" and e.loss != "unknown"
               for e in analyze(line, "/w").effects) == destroys
