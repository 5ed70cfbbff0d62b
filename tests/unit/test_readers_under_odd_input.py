"""The readers of what a call says, on input written to break them: long runs that a backtracking pattern would take
minutes over, and forms that hide what they run (a call through a variable, a substitute's expression, a method in
another case, a request's body beside its URL). Each case here was once read wrong or slowly."""

from __future__ import annotations

import time

import pytest

from agentworld_mcp.domains.argument_content import _is_sql
from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.remote import cypher, mongo
from agentworld_mcp.domains.shell.remote.http_request import is_method
from agentworld_mcp.domains.shell.remote.request_bodies import body_said

from ..hook_calls import git_project, verdict

LONG = 19_000


@pytest.mark.parametrize("read", [
    lambda: _is_sql("grant" + " " * LONG + "x", True),
    lambda: _is_sql("select" + " " * LONG + "x", False),
    lambda: cypher.is_cypher("create (" + " " * LONG + "x"),
    lambda: cypher.is_cypher("unwind x" + " a" * (LONG // 2)),
    lambda: mongo.shell_effects("db." * (LONG // 3), "a database", "mcp x"),
    lambda: body_said("<?x?>" + "<!---->" * 40 + "!"),
], ids=["sql-grant", "sql-select", "cypher-node", "cypher-unwind", "mongo-chain", "xml-comments"])
def test_a_long_or_nested_input_is_read_in_linear_time(read):
    started = time.perf_counter()
    read()
    assert time.perf_counter() - started < 2  # the backtracking forms took minutes


@pytest.mark.parametrize("line", [
    """php -r '$f="sys"."tem"; $f("rm -rf ~");'""",
    """node -e '[]["constructor"]["constructor"]("return process")().exit()'""",
    """vim -es -c '%s/^/\\=delete("important.txt")/' -c 'q!' notes.txt""",
    "tmux source-file ~/.tmux/deploy.conf",
    "tmux set -g default-command 'rm -rf ~'",
])
def test_code_the_words_do_not_name_is_never_read_as_harmless(line):
    semantics = analyze(line, "/home/dev/project", "/home/dev")
    assert semantics.effects or any(part.risky for part in semantics.opaque), line


def test_a_git_setting_that_runs_a_program_is_read_as_that_program():
    for line in ("git -c interactive.diffFilter='rm -rf ~' add -p", "git -c submodule.x.update='!rm -rf ~' submodule update",
                 "git -c core.alternateRefsCommand='rm -rf ~' fetch"):
        assert any(effect.kind == "deleted" for effect in analyze(line, "/p", "/home/dev").effects), line


def test_vim_writes_quits_by_the_whole_command_name():
    effects = analyze("vim -es -c '%s/a/b/g' -c 'wq' f.txt", "/p", "/home/dev").effects
    assert [(effect.kind, effect.path) for effect in effects] == [("modified", "/p/f.txt")]


def test_a_core_method_is_one_in_any_case_and_other_words_are_not():
    assert is_method("Delete") and is_method("delete") and is_method("PURGE")
    assert not is_method("copy") and not is_method("Update")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return git_project(tmp_path_factory.mktemp("odd") / "project", {"README.md": "# app\n"})


@pytest.mark.parametrize("arguments", [
    {"method": "POST", "url": "http://localhost:8080/rpc",
     "body": {"jsonrpc": "2.0", "method": "delete_all_users", "id": 1}},
    {"method": "POST", "url": "http://localhost:8080/items", "headers": {"X-HTTP-Method-Override": "DELETE"}},
    {"method": "Delete", "url": "https://api.example.com/v1/users/7"},
    {"operation": "deleteMany", "filter": {}, "options": {"ordered": True}},
    {"operation": "replaceOne", "filter": {}, "replacement": {"name": "bob"}},
])
def test_an_mcp_request_or_operation_is_read_with_what_stands_beside_it(project, arguments):
    assert verdict(project, arguments, "mcp__service__call")["decision"] != "none", arguments


def test_prose_and_a_bound_operation_pass(project):
    assert verdict(project, {"title": "Drop user", "body": "The drop user button fails"},
                   "mcp__tracker__create_issue")["decision"] == "none"
    assert verdict(project, {"operation": "deleteMany", "filter": {"_id": 7}, "options": {"ordered": True}},
                   "mcp__service__call")["decision"] == "none"
