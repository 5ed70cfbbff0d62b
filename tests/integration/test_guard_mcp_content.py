"""An MCP tool call is read by what its arguments hold, not by what they or the tool are called
(domains/argument_content.py): SQL, Cypher, MongoDB writes, an HTTP method beside a URL and a plain command line
are read under invented argument names, nested at random depths, in tools with invented names; reads of each kind
pass. Everyday MCP calls whose arguments are prose (issues, messages, searches, notes, docs questions) pass.

The content forms are written from each language's reference (PostgreSQL's SQL commands, the Neo4j Cypher Manual's
clauses, the MongoDB manual's mongosh methods and database commands, RFC 9110's methods, the programs' own CLIs).
The fixed seed runs as parametrized cases; a held-out seed range, with forms and names the fixed seed never draws,
runs apart and reports its own result.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from agentworld_mcp.domains.argument_content import KEEPS, RUNS, name_words

from ..hook_calls import git_project, held_out_wrong, verdict

SEED = 1865
HELD_OUT = range(9100, 9110)
_SYLLABLES = ["zor", "quib", "vex", "trul", "mab", "snor", "plin", "gort", "yeb", "dax", "wum", "frel"]
_HELD_SYLLABLES = ["kiv", "blor", "tesh", "umra", "pox", "genn"]
# {t}: a table, collection or label; {h}: a host.
_NAMES = ["orders", "users", "sessions", "Invoice", "events"]
_HELD_NAMES = ["ledger", "Customer", "audit_log"]

# (family, form): a write whose loss the guard must ask about, whatever it is called.
WRITES = [
    ("sql", "DROP TABLE {t}"), ("sql", "DELETE FROM {t}"), ("sql", "TRUNCATE TABLE {t}"),
    ("sql", "UPDATE {t} SET status = 'void'"), ("sql", "ALTER TABLE {t} DROP COLUMN email"),
    ("sql", "delete from {t} where created_at < now()"), ("sql", "drop database {t}"),
    ("sql", "WITH gone AS (DELETE FROM {t} RETURNING *) SELECT count(*) FROM gone"),
    ("cypher", "MATCH (n:{t}) DETACH DELETE n"), ("cypher", "MATCH (n:{t}) DELETE n"),
    ("cypher", "MATCH (n:{t}) SET n.active = false"), ("cypher", "MATCH (n:{t}) REMOVE n.email"),
    ("cypher", "DROP CONSTRAINT {t}_id"),
    ("mongo", "db.{t}.deleteMany({{}})"), ("mongo", "db.{t}.drop()"), ("mongo", "db.dropDatabase()"),
    ("mongo", "db.{t}.updateMany({{}}, {{$set: {{archived: true}}}})"),
    ("mongo", "db.getCollection('{t}').remove({{}})"),
    ("mongo-command", {"delete": "{t}", "deletes": [{"q": {}, "limit": 0}]}), ("mongo-command", {"drop": "{t}"}),
    ("mongo-command", {"dropDatabase": 1}),
    ("mongo-operation", "deleteMany"), ("mongo-operation", "dropDatabase"),
    ("http", ("DELETE", "https://api.{h}.com/v1/{t}/7")), ("http", ("PUT", "https://{h}.io/{t}/7")),
    ("http", ("delete", "/v2/{t}/42")), ("http-text", "DELETE https://api.{h}.com/v1/{t}"),
    ("http", ("POST", "https://{h}.io/{t}")),  # says nothing more: asked, as curl's is (remote/requests.py)
    ("shell", "rm -rf /srv/{t}"), ("shell", "kubectl delete namespace {t}"), ("shell", "psql -c 'DROP TABLE {t}'"),
    ("shell", "docker volume rm {t}"), ("shell", "terraform destroy -auto-approve"),
]
HELD_WRITES = [
    ("sql", "DROP VIEW {t}"), ("sql", "TRUNCATE {t} CASCADE"), ("sql", "UPDATE {t} SET total = 0 WHERE total > 0"),
    ("sql", "ALTER TABLE {t} DROP CONSTRAINT {t}_pkey"), ("sql", "DELETE FROM {t} USING stale WHERE 1 = 1"),
    ("cypher", "MATCH (a)-[r:OWNS]->(b:{t}) DELETE r"), ("cypher", "MERGE (n:{t} {{id: 1}}) ON MATCH SET n.seen = 0"),
    ("cypher", "OPTIONAL MATCH (n:{t}) DETACH DELETE n"), ("cypher", "DROP INDEX {t}_idx"),
    ("mongo", "db.{t}.findOneAndDelete({{}})"), ("mongo", "db.{t}.replaceOne({{}}, {{x: 1}})"),
    ("mongo", "db.{t}.dropIndexes()"), ("mongo", "db['{t}'].bulkWrite([])"),
    ("mongo-command", {"update": "{t}", "updates": [{"q": {}, "u": {"$set": {"x": 1}}, "multi": True}]}),
    ("mongo-operation", "findOneAndReplace"), ("mongo-operation", "drop-collection"),
    ("http", ("MOVE", "https://dav.{h}.net/{t}")), ("http-text", "PUT /api/{t}/settings"),
    ("shell", "helm uninstall {t}"), ("shell", "aws s3 rb s3://{t} --force"), ("shell", "git push --force origin main"),
]
# (family, form): a read or a creation, which passes.
READS = [
    ("sql", "SELECT * FROM {t} WHERE id = 7"), ("sql", "select count(*) from {t}"),
    ("sql", "DELETE FROM {t} WHERE id = 42"), ("sql", "INSERT INTO {t} (name) VALUES ('a')"),
    ("cypher", "MATCH (n:{t}) RETURN n LIMIT 25"), ("cypher", "MATCH (a)-[r:KNOWS]->(b:{t}) RETURN a, b"),
    ("cypher", "CREATE (n:{t} {{id: 9}})"), ("cypher", "MERGE (n:{t} {{id: 1}}) ON CREATE SET n.made = timestamp()"),
    ("mongo", "db.{t}.find({{status: 'open'}})"), ("mongo", "db.{t}.countDocuments()"),
    ("mongo", "db.{t}.deleteOne({{_id: 7}})"), ("mongo", "db.{t}.insertOne({{a: 1}})"),
    ("mongo-command", {"find": "{t}", "filter": {}}),
    ("http", ("GET", "https://api.{h}.com/v1/{t}")), ("http", ("OPTIONS", "https://{h}.io/{t}")),
    ("shell", "ls -la /srv/{t}"), ("shell", "kubectl get pods -A"), ("shell", "git log --oneline -5"),
]
HELD_READS = [
    ("sql", "EXPLAIN SELECT * FROM {t}"), ("sql", "UPDATE {t} SET seen = true WHERE id = 3"),
    ("cypher", "CALL db.labels()"), ("cypher", "OPTIONAL MATCH (n:{t}) RETURN count(n)"),
    ("mongo", "db.{t}.aggregate([{{$match: {{a: 1}}}}])"), ("mongo", "db.{t}.updateOne({{_id: 5}}, {{$set: {{a: 2}}}})"),
    ("mongo-operation-bound", "deleteMany"),
    ("http", ("HEAD", "https://{h}.io/{t}")), ("http-text", "GET https://api.{h}.com/{t}"),
    ("shell", "docker ps -a"), ("shell", "helm list -A"),
]


def _word(rng: random.Random, syllables: list[str]) -> str:
    while True:
        parts = [rng.choice(syllables) for _ in range(rng.randint(1, 3))]
        name = rng.choice(["_".join(parts), parts[0] + "".join(p.title() for p in parts[1:]), "-".join(parts)])
        if not set(name_words(name)) & (KEEPS | RUNS | {"query"}):
            return name


def _fill(form: Any, rng: random.Random, names: list[str]) -> Any:
    if isinstance(form, str):
        return form.format(t=rng.choice(names), h=rng.choice(["acme", "globex", "initech"]))
    if isinstance(form, dict):
        return {_fill(key, rng, names): _fill(value, rng, names) for key, value in form.items()}
    if isinstance(form, (list, tuple)):
        return type(form)(_fill(item, rng, names) for item in form)
    return form


def _value(family: str, form: Any, rng: random.Random, syllables: list[str], names: list[str]) -> Any:
    """The form as what one argument holds: an object of invented keys where it is structured."""
    filled = _fill(form, rng, names)
    first, second = _words(rng, syllables, 2)
    if family == "http":
        method, url = filled
        return {first: method, second: url}
    if family == "mongo-operation":
        return {first: filled, second: {}}
    if family == "mongo-operation-bound":
        return {first: filled, second: {"_id": rng.randint(1, 99)}}
    return filled


def _words(rng: random.Random, syllables: list[str], count: int) -> list[str]:
    """`count` distinct invented names, for the keys of one object."""
    names: list[str] = []
    while len(names) < count:
        if (name := _word(rng, syllables)) not in names:
            names.append(name)
    return names


def _nest(value: Any, rng: random.Random, syllables: list[str]) -> Any:
    for _ in range(rng.randint(0, 4)):
        value = [value] if rng.random() < 0.4 else {_word(rng, syllables): value}
    return value


def cases(seed: int, held_out: bool = False) -> list[tuple[str, dict[str, Any], str, str]]:
    """(tool, arguments, expected, family): `stopped` for a write, `none` for a read."""
    rng = random.Random(seed)
    syllables = _HELD_SYLLABLES if held_out else _SYLLABLES
    names = _HELD_NAMES if held_out else _NAMES
    out = []
    for forms, expected in (((HELD_WRITES if held_out else WRITES), "stopped"), ((HELD_READS if held_out else READS),
                                                                                 "none")):
        for family, form in forms:
            key, beside = _words(rng, syllables, 2)
            arguments = {key: _nest(_value(family, form, rng, syllables, names), rng, syllables)}
            if rng.random() < 0.5:  # beside an everyday argument
                arguments[beside] = rng.choice(["prod", 30, True, "eu-west-1", {"limit": 10}])
            out.append((f"mcp__{_word(rng, syllables)}__{_word(rng, syllables)}", arguments, expected, family))
    return out


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return git_project(tmp_path_factory.mktemp("mcp-content") / "project", {"README.md": "# app\n"})


def _wrong(repo: Path, tool: str, arguments: dict[str, Any], expected: str, family: str) -> str | None:
    result = verdict(repo, arguments, tool)
    shown = f"{family}: {tool} {json.dumps(arguments)[:160]}"
    if expected == "none":
        return None if result["decision"] == "none" else f"{shown} was stopped: {result['reason'][:200]}"
    if result["decision"] == "none":
        return f"{shown} passed"
    return None


@pytest.mark.parametrize(("tool", "arguments", "expected", "family"), cases(SEED))
def test_an_argument_is_read_by_what_it_holds(project, tool, arguments, expected, family):
    assert _wrong(project, tool, arguments, expected, family) is None


def test_held_out_seeds_forms_and_names_are_read_the_same_way(project):
    assert not held_out_wrong("", HELD_OUT,
                              lambda seed: (_wrong(project, *case) for case in cases(seed, held_out=True)))


def test_a_write_is_asked_about_with_what_it_destroys(project):
    result = verdict(project, {"zorQuib": {"snor": ["MATCH (n:User) DETACH DELETE n"]}}, "mcp__graphy__go")
    assert result["decision"] == "ask" and "no-remote-destruction" in result["rules"]
    assert "DETACH DELETE" in result["reason"]
    result = verdict(project, {"verb": "DELETE", "where": "https://api.acme.com/v1/users/7"}, "mcp__api__call")
    assert "DELETE https://api.acme.com/v1/users/7" in result["reason"]


def test_unreadable_text_given_to_a_tool_that_runs_code_is_asked_about(project):
    for tool, arguments in (("mcp__box__execute", {"input": "zorctl purge prod"}),
                            ("mcp__box__run", {"line": "dropdb orders"}),
                            ("mcp__py__exec_code", {"code": "shutil.rmtree(root)"}),
                            ("mcp__cass__run_cql", {"text": "DROP KEYSPACE app"})):
        result = verdict(project, arguments, tool)
        assert result["decision"] == "ask", (tool, result)
    # A name, a number or a path given to such a tool is no code: it passes.
    assert verdict(project, {"name": "nightly", "retries": 2}, "mcp__ci__run_workflow")["decision"] == "none"


# Everyday MCP calls whose arguments are prose, code kept as text, or a read, on real servers' tools.
EVERYDAY_MCP = [
    ("mcp__github__create_issue", {"owner": "acme", "repo": "api", "title": "DROP TABLE in migration 12 fails",
                                   "body": "Running `DELETE FROM sessions` by hand works, but\n```sql\nDROP TABLE "
                                           "users;\n```\nfails on CI. Also `rm -rf node_modules` did not help."}),
    ("mcp__github__add_issue_comment", {"owner": "acme", "repo": "api", "issue_number": 12,
                                        "body": "I'll delete the old branch after the merge."}),
    ("mcp__github__create_pull_request", {"owner": "acme", "repo": "api", "title": "Drop Python 3.8 support",
                                          "head": "drop-py38", "base": "main", "body": "Removes the 3.8 CI job."}),
    ("mcp__github__merge_pull_request", {"owner": "acme", "repo": "api", "pull_number": 7,
                                         "commit_title": "Update the docs and delete unused fixtures"}),
    ("mcp__github__push_files", {"owner": "acme", "repo": "api", "branch": "main", "message": "Add down migration",
                                 "files": [{"path": "migrations/012_down.sql", "content": "DROP TABLE invoices;\n"}]}),
    ("mcp__github__search_code", {"q": "rm -rf repo:acme/api"}),
    ("mcp__github__get_file_contents", {"owner": "acme", "repo": "api", "path": "scripts/reset.sh"}),
    ("mcp__github__list_commits", {"owner": "acme", "repo": "api", "sha": "main"}),
    ("mcp__slack__slack_post_message", {"channel_id": "C01", "text": "Heads up: I'm going to drop the staging DB "
                                                                     "tonight, then run kubectl delete ns staging."}),
    ("mcp__slack__slack_reply_to_thread", {"channel_id": "C01", "thread_ts": "1.2", "text": "make sure the tests pass"}),
    ("mcp__memory__create_entities", {"entities": [{"name": "prod-db", "entityType": "database",
                                                    "observations": ["DELETE FROM users wiped prod once"]}]}),
    ("mcp__memory__add_observations", {"observations": [{"entityName": "cli", "contents": ["rm -rf build is safe"]}]}),
    ("mcp__brave-search__brave_web_search", {"query": "postgres drop table if exists cascade", "count": 5}),
    ("mcp__tavily__tavily-search", {"query": "how to delete a kubernetes namespace stuck terminating"}),
    ("mcp__context7__resolve-library-id", {"libraryName": "mongodb"}),
    ("mcp__context7__query-docs", {"libraryId": "/mongodb/docs", "query": "how do I drop a collection in mongosh"}),
    ("mcp__context7__get-library-docs", {"context7CompatibleLibraryID": "/neo4j/docs", "topic": "detach delete"}),
    ("mcp__fetch__fetch", {"url": "https://docs.python.org/3/library/shutil.html", "max_length": 5000}),
    ("mcp__playwright__browser_navigate", {"url": "https://example.com/settings"}),
    ("mcp__playwright__browser_click", {"element": "Delete account button", "ref": "e12"}),
    ("mcp__playwright__browser_evaluate", {"function": "() => document.title"}),
    ("mcp__filesystem__read_text_file", {"path": "README.md"}),
    ("mcp__filesystem__list_directory", {"path": "."}),
    ("mcp__filesystem__search_files", {"path": ".", "pattern": "*.sql"}),
    ("mcp__filesystem__write_file", {"path": "notes/plan.md", "content": "1. DROP TABLE legacy\n2. rm -rf old/\n"}),
    ("mcp__git__git_commit", {"repo_path": ".", "message": "Remove the deprecated delete endpoint"}),
    ("mcp__git__git_log", {"repo_path": ".", "max_count": 10}),
    ("mcp__linear__create_issue", {"title": "Purge stale sessions", "description": "Write a job that deletes "
                                                                                   "sessions older than 30 days."}),
    ("mcp__notion__notion-search", {"query": "runbook: restore the database from backup"}),
    ("mcp__sentry__get_issue_details", {"issue_id": "API-123"}),
    ("mcp__time__get_current_time", {"timezone": "Europe/Berlin"}),
    ("mcp__sequential-thinking__sequentialthinking", {"thought": "First I should delete the cache, then rerun the "
                                                                 "build to see if the error persists.",
                                                      "nextThoughtNeeded": True, "thoughtNumber": 1,
                                                      "totalThoughts": 3}),
    ("mcp__postgres__query", {"sql": "SELECT id, email FROM users WHERE created_at > now() - interval '1 day'"}),
    ("mcp__sqlite__read_query", {"query": "SELECT count(*) FROM orders"}),
    ("mcp__sqlite__append_insight", {"insight": "Deleting unpaid orders would shrink the table by 40%."}),
    ("mcp__neo4j__read_neo4j_cypher", {"query": "MATCH (n:Person) RETURN n.name LIMIT 10", "params": {}}),
    ("mcp__mongodb__find", {"database": "app", "collection": "users", "filter": {"status": "active"}, "limit": 10}),
    ("mcp__mongodb__aggregate", {"database": "app", "collection": "orders",
                                 "pipeline": [{"$match": {"paid": False}}, {"$count": "unpaid"}]}),
    ("mcp__mongodb__insert-many", {"database": "app", "collection": "logs", "documents": [{"msg": "drop table"}]}),
    ("mcp__shell__run_command", {"command": "git status", "description": "Show the working tree status"}),
    ("mcp__atlassian__jira_update_issue", {"issue_key": "OPS-9", "fields": {"summary": "Delete old backups"}}),
    ("mcp__stripe__list_customers", {"limit": 3, "email": "a@b.co"}),
]


# The preset that asks about every tool named to send a message, whatever it says: no reading of its text.
SENDING = {"no-sending-messages"}


def test_everyday_mcp_calls_with_prose_arguments_pass(project):
    stopped = [(tool, result["reason"][:200]) for tool, arguments in EVERYDAY_MCP
               if (result := verdict(project, arguments, tool))["decision"] != "none"
               and not set(result["rules"]) <= SENDING]
    print(f"everyday MCP calls: {len(stopped)}/{len(EVERYDAY_MCP)} stopped")
    for tool, reason in stopped:
        print(f"  {tool}: {reason}")
    assert not stopped


def test_odd_arguments_never_crash_the_reader(project):
    rng = random.Random(4)
    atoms: list[Any] = ["", " ", "db.", "db.x.(", "MATCH (", "DELETE", "DELETE /", "SELECT", "((", "\x00", "'", "{",
                        "rm", "rm -rf", "--", "*** Begin Patch", 0, -1, 1e308, None, True, [], {}]
    for _ in range(150):
        value: Any = rng.choice(atoms)
        for _ in range(rng.randint(0, 12)):
            value = rng.choice([[value, rng.choice(atoms)], {rng.choice(["a", "delete", "$out", "method", "q"]): value}])
        result = verdict(project, {"x": value}, f"mcp__s__{rng.choice(['go', 'exec', 'write_file', 'delete-many'])}")
        assert result["decision"] in ("none", "ask", "deny")
    deep: Any = "DROP TABLE users"
    for _ in range(200):  # deeper than the reader goes: what lies below is not read, and nothing breaks
        deep = {"k": deep}
    assert verdict(project, deep, "mcp__s__go")["decision"] in ("none", "ask")
