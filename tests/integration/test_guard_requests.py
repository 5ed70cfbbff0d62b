"""What a request says (domains/shell/remote/requests.py, request_bodies.py, api_commands.py): the method (RFC 9110),
and where the method leaves the effect to the server, the body and path by the protocols that carry a verb there
(JSON-RPC 2.0's `method`, a GraphQL mutation's fields, bulk actions, a method override), read the same way for
curl, wget, HTTPie, xh and the CLIs' generic API commands (`gh api`, `glab api`, `az rest`, `cf curl`, ...).

Generated: method x body kind x host (remote, a data store on this machine, the project's own server on this
machine) x client. A destructive request is stopped (asked, by no-remote-destruction) with a reason naming the
method or verb; a request that only reads is not stopped; one that says nothing more is asked about, except to the
project's own server on a loopback address. The fixed seed runs as parametrized cases over one half of each
vocabulary; the held-out seeds run apart over the other half (verbs, nouns and hosts the fixed cases never show)
and report their own result.
"""

from __future__ import annotations

import json
import random
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..hook_calls import git_project, held_out_wrong, verdict

RULE = "no-remote-destruction"
SEED = 6565
HELD_OUT = range(7100, 7104)


@dataclass(frozen=True)
class Words:
    """One half of the vocabulary: destroy verbs, unknown verbs (no list holds them), read verbs, nouns, hosts."""

    destroys: tuple[str, ...]
    unknown: tuple[str, ...]
    reads: tuple[str, ...]
    nouns: tuple[str, ...]
    remote: tuple[str, ...]
    stores: tuple[str, ...]  # loopback data stores: host:port
    apps: tuple[str, ...]  # loopback servers of the project itself


SHOWN = Words(destroys=("delete", "remove", "drop", "purge", "destroy", "wipe", "truncate"),
              unknown=("rebuild", "rotate", "archive", "reindex", "rollback", "merge"),
              reads=("get", "list", "describe", "search"),
              nouns=("user", "repository", "index", "project", "bucket"),
              remote=("api.example.com", "rpc.internal.example", "graphql.example.org"),
              stores=("localhost:9200", "127.0.0.1:5984", "localhost:8086"),
              apps=("localhost:3000", "127.0.0.1:8000"))
HELD = Words(destroys=("erase", "terminate", "flush", "expunge", "obliterate", "uninstall", "prune", "nuke"),
             unknown=("reimage", "evict", "expire", "recycle", "failover", "scrub"),
             reads=("show", "view", "inspect", "count"),
             nouns=("cluster", "dataset", "tenant", "queue", "invoice"),
             remote=("hooks.example.net", "api.staging.example.io", "10.2.3.4:8443"),
             stores=("localhost:8123", "127.0.0.1:6333", "localhost:7700", "[::1]:8983"),
             apps=("localhost:5173", "127.0.0.1:4000"))


@dataclass(frozen=True)
class Case:
    line: str
    expected: str  # "none" or "ask"
    named: str  # a word the reason must name ('' for none)


def _name(rng: random.Random, verb: str, noun: str) -> str:
    """A procedure or field name in one of the spellings APIs use: snake, camel, dotted, slashed."""
    style = rng.choice(["snake", "camel", "dotted", "slash"])
    if style == "snake":
        return f"{verb}_{noun}"
    if style == "camel":
        return verb + noun[:1].upper() + noun[1:]
    return f"{noun}.{verb}" if style == "dotted" else f"{noun}s/{verb}"


def _url(rng: random.Random, host: str, noun: str, tail: str = "") -> str:
    scheme = "http://" if host.startswith("[") else rng.choice(["http://", "https://", ""])
    return f"{scheme}{host}/v1/{noun}s/{rng.randint(1, 999)}{tail}"


def _jsonrpc(name: str, rng: random.Random) -> str:
    return json.dumps({"jsonrpc": "2.0", "method": name, "params": {"id": rng.randint(1, 99)}, "id": 1})


def _graphql(kind: str, field: str) -> str:
    if kind == "query":
        return f'query {{ {field}(id: "1") {{ id }} }}'
    alias = "gone: " if len(field) % 2 else ""
    return f'mutation Op($id: ID!) {{ {alias}{field}(input: {{id: $id, note: "drop it"}}) {{ clientMutationId }} }}'


def _send(rng: random.Random, client: str, method: str | None, url: str, body: str | None,
          header: str | None = None) -> str:
    """The line `client` sends the request with: its own spelling of the method, the body and a header."""
    q = shlex.quote
    if client == "curl":
        parts = ["curl", "-s"]
        if method:
            parts.append(rng.choice([f"-X {method}", f"--request {method}", f"-X{method}"]))
        if body is not None:
            parts.append(f"{rng.choice(['-d', '--data', '--data-raw', '--json', '--data-binary'])} {q(body)}")
        if header:
            parts.append(f"-H {q(header)}")
        return " ".join([*parts, q(url)])
    if client == "wget":
        parts = ["wget", "-qO-"]
        if method:
            parts.append(f"--method={method}")
        if body is not None:
            parts.append(f"--body-data={q(body)}" if method else f"--post-data={q(body)}")
        if header:
            parts.append(f"--header={q(header)}")
        return " ".join([*parts, q(url)])
    parts = [client]  # http, xh
    if body is not None:
        parts.append(f"--raw={q(body)}")
    parts += [method or "", q(url)] if method else [q(url)]
    if header:
        parts.append(q(header.replace(": ", ":")))
    return " ".join(part for part in parts if part)


_HOSTED = ["gh", "glab", "az", "cf"]


def _api(rng: random.Random, client: str, method: str | None, noun: str, body: str | None,
         graphql: str | None = None) -> str:
    """A hosting or cloud CLI's generic API command."""
    q = shlex.quote
    if client in ("gh", "glab"):
        if graphql is not None:
            return f"{client} api graphql -f query={q(graphql)}"
        parts = [client, "api", f"repos/acme/{noun}"]
        if method:
            parts.insert(2, rng.choice([f"-X {method}", f"--method {method}", f"--method={method}"]))
        if body is not None:
            parts += [f"-f {q(f'{key}={value}')}" for key, value in json.loads(body).items() if isinstance(value, str)]
        return " ".join(parts)
    if client == "az":
        parts = ["az", "rest", f"--url https://management.azure.com/subscriptions/s/{noun}s/x"]
        parts.append(f"--method {(method or 'get').lower()}")
        if body is not None:
            parts.append(f"--body {q(body)}")
        return " ".join(parts)
    parts = ["cf", "curl", f"/v3/{noun}s/guid"]
    if method:
        parts.append(f"-X {method}")
    if body is not None:
        parts.append(f"-d {q(body)}")
    return " ".join(parts)


def cases(seed: int, words: Words) -> list[Case]:
    """Every request kind once per client and host, the words drawn by `seed` from `words`."""
    rng = random.Random(seed)
    out: list[Case] = []
    pick = rng.choice
    hosts = [("remote", h) for h in words.remote] + [("store", h) for h in words.stores] + \
            [("app", h) for h in words.apps]
    for client in ("curl", "wget", "http", "xh"):
        for place, host in hosts:
            noun = pick(words.nouns)
            url = _url(rng, host, noun)
            out.append(Case(_send(rng, client, pick([None, "GET", "HEAD", "OPTIONS"]), url, None), "none", ""))
            method = pick(["DELETE", "PUT"])
            out.append(Case(_send(rng, client, method, url, None if method == "DELETE" else "{}"), "ask", method))
            if client != "wget":
                out.append(Case(_send(rng, client, "PURGE", url, None), "ask", "PURGE"))
            verb = pick(words.destroys)
            name = _name(rng, verb, noun)
            out.append(Case(_send(rng, client, pick([None, "POST"]), _url(rng, host, "rpc"), _jsonrpc(name, rng)),
                            "ask", name))
            name = _name(rng, pick(words.reads), noun)
            out.append(Case(_send(rng, client, "POST", _url(rng, host, "rpc"), _jsonrpc(name, rng)), "none", ""))
            name = _name(rng, pick(words.unknown), noun)
            out.append(Case(_send(rng, client, "POST", _url(rng, host, "rpc"), _jsonrpc(name, rng)), "ask", name))
            field = _name(rng, pick(words.destroys), noun).replace(".", "_").replace("/", "_")
            out.append(Case(_send(rng, client, "POST", _url(rng, host, "graphql"),
                                  json.dumps({"query": _graphql("mutation", field)})), "ask", field))
            out.append(Case(_send(rng, client, "POST", _url(rng, host, "graphql"),
                                  json.dumps({"query": _graphql("query", noun)})), "none", ""))
            bulk = "\n".join([json.dumps({verb: {"_index": noun, "_id": "1"}}), json.dumps({"index": {"_id": "2"}})])
            out.append(Case(_send(rng, client, "POST", _url(rng, host, noun, "/_bulk"), bulk), "ask", verb))
            out.append(Case(_send(rng, client, "POST", url, "{}", "X-HTTP-Method-Override: DELETE"), "ask", "DELETE"))
            tail = f"/_{verb}_by_query" if rng.random() < 0.5 else f"/admin/{verb}-cache"
            out.append(Case(_send(rng, client, "POST", _url(rng, host, noun, tail), "{}"), "ask", verb))
            form = json.dumps({"name": noun, "size": rng.randint(1, 9)})
            out.append(Case(_send(rng, client, pick(["POST", "PATCH"]), url, form),
                            "none" if place == "app" else "ask", "" if place == "app" else "POST|PATCH"))
    for client in _HOSTED:
        noun = pick(words.nouns)
        out.append(Case(_api(rng, client, pick([None, "GET"]), noun, None), "none", ""))
        method = pick(["DELETE", "PUT"])
        out.append(Case(_api(rng, client, method, noun, None), "ask", method))
        out.append(Case(_api(rng, client, "PATCH", noun, json.dumps({"name": noun})), "ask", "PATCH"))
        if client in ("gh", "glab"):
            field = _name(rng, pick(words.destroys), noun).replace(".", "_").replace("/", "_")
            out.append(Case(_api(rng, client, None, noun, None, _graphql("mutation", field)), "ask", field))
            field = _name(rng, pick(words.unknown), noun).replace(".", "_").replace("/", "_")
            out.append(Case(_api(rng, client, None, noun, None, _graphql("mutation", field)), "ask", field))
            out.append(Case(_api(rng, client, None, noun, None, _graphql("query", noun)), "none", ""))
        else:
            name = _name(rng, pick(words.destroys), noun)
            out.append(Case(_api(rng, client, "POST", noun, _jsonrpc(name, rng)), "ask", name))
    return out


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return git_project(tmp_path_factory.mktemp("requests") / "project", {"README.md": "# app\n"})


def _wrong(repo: Path, case: Case) -> str | None:
    result = verdict(repo, case.line)
    if case.expected == "none":
        return None if result["decision"] == "none" else f"{case.line!r} was stopped: {result['reason'][:240]}"
    if result["decision"] != "ask" or RULE not in result["rules"]:
        return f"{case.line!r} gave {result['decision']} {result['rules']}, not ask by {RULE}"
    if not any(named in result["reason"] for named in case.named.split("|")):
        return f"{case.line!r}: the reason does not name {case.named}: {result['reason'][:240]}"
    return None


@pytest.mark.parametrize("case", cases(SEED, SHOWN), ids=lambda case: case.line[:90])
def test_a_request_is_judged_by_what_it_says(project, case):
    assert _wrong(project, case) is None


def test_held_out_seeds_and_words_are_judged_the_same_way(project):
    assert not held_out_wrong(", held-out words", HELD_OUT,
                              lambda seed: (_wrong(project, case) for case in cases(seed, HELD)))


@pytest.mark.parametrize(("line", "named"), [
    ("databricks api delete /api/2.0/clusters/permanent-delete --json '{\"cluster_id\": \"c1\"}'", "DELETE"),
    ("auth0 api delete actions/actions/a1 --force", "DELETE"),
    ("oci raw-request --http-method DELETE --target-uri https://objectstorage.example.oraclecloud.com/n/x/b", "DELETE"),
    ("netlify api deleteSite --data '{\"site_id\": \"s1\"}'", "deleteSite"),
    ("az rest -m put --uri https://management.azure.com/x --body '{}'", "PUT"),
    ("gh api repos/acme/app -X DELETE", "DELETE"),
    ("curl -X POST 'https://api.example.com/items/3?_method=DELETE'", "DELETE"),
    ("curl -X POST https://solr.example.com/solr/core/update -H 'Content-Type: text/xml' "
     "-d '<delete><query>*:*</query></delete>'", "delete"),
    ("curl -X PATCH https://api.example.com/x -d '[{\"op\": \"remove\", \"path\": \"/a\"}]'", "remove"),
    ("curl http://localhost:7379/FLUSHALL", "FLUSHALL"),
    ("curl -X \"$METHOD\" https://api.example.com/x", "only known when it runs"),
    ("http POST rpc.example.com jsonrpc=2.0 method=delete_user id:=1", "delete_user"),
    ("curl -X POST localhost:9200/logs/_close", "Elasticsearch"),
])
def test_documented_forms_of_other_clients_are_read(project, line, named):
    result = verdict(project, line)
    assert result["decision"] == "ask" and RULE in result["rules"], (line, result)
    assert named in result["reason"], (line, result["reason"])


@pytest.mark.parametrize("line", [
    "gh api repos/acme/app", "gh api -X GET search/issues -f q=bug", "gh api graphql -f query='{ viewer { login } }'",
    "glab api projects/1", "databricks api get /api/2.0/clusters/list", "auth0 api stats/daily",
    "oci raw-request --http-method GET --target-uri https://iaas.example.oraclecloud.com/20160918/instances",
    "cf curl /v3/apps", "netlify api listSites", "az rest --method get --url https://management.azure.com/x",
    "curl -X POST localhost:9200/logs/_search -d '{\"query\": {\"match_all\": {}}}'",
    "curl -G -d q=1 https://api.example.com/search", "http :8000/api/items name=x", "curl -I https://example.com",
    "curl --json '{\"jsonrpc\": \"2.0\", \"method\": \"eth_getBalance\", \"id\": 1}' https://rpc.example.com",
])
def test_reads_and_the_projects_own_server_pass(project, line):
    assert verdict(project, line)["decision"] == "none", line


@pytest.mark.parametrize("line", [
    "curl -d '{' https://x.example", "curl --json '[1, [2, {\"method\": 3}]]' https://x.example",
    "curl -d '{\"query\": \"mutation {\"}' https://x.example", "curl -d '<' https://x.example",
    "http POST x.example 'a\\:b=c' ':=' '=' '@'", "gh api graphql -f query='mutation { a: }'", "gh api -X",
    "curl -X POST 'http://[::1' -d x", "wget --method= https://x.example", "cf curl", "auth0 api",
    "curl -d $'{\"jsonrpc\": \"2.0\", \"method\": \"\\u0000\"}' https://x.example",
])
def test_odd_requests_never_break_the_guard(project, line):
    assert verdict(project, line)["decision"] in ("none", "ask", "deny"), line
