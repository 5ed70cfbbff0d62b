"""What an HTTP request does, judged the same way whichever client sends it (curl, wget, HTTPie, xh, and the
generic API commands of hosting and cloud CLIs: remote/api_commands.py).

The method decides first (RFC 9110 §9): GET, HEAD, OPTIONS and TRACE are safe (§9.2.1), as are WebDAV's PROPFIND
(RFC 4918 §9.1) and REPORT (RFC 3253 §3.6) and SEARCH (RFC 5323): they pass. DELETE removes the target resource
(§9.3.5) and PUT replaces its state (§9.3.4): a loss. Any other method name is a word read by the verb classes
(`PURGE` destroys). POST, PATCH and the rest leave the effect to the server, so the request is read for what it
says (remote/request_bodies.py): a method override, a JSON-RPC method, a GraphQL mutation's fields, bulk actions,
the path's verbs. A destroy word there is a loss; a word outside the safe class is asked about, naming it; a
request that says only reads or creations passes.

A request that says nothing more (a form POSTed, a PATCH of fields) is an effect beyond the folder that no table
reads: asked about, loss unknown. The one exemption is a loopback address on a port no data store listens on by
default: that is the project's own server under development, and testing it is everyday work. Loopback is no
exemption for anything else: what a request says is read wherever it goes (`curl -X DELETE localhost:9200/x`
deletes an index all the same), and on a data store's default port (DATA_PORTS) even a request that says nothing
is asked about, and a safe method whose path names a destroy verb is read too, since some stores run commands
from a GET (Webdis: `GET /FLUSHALL`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..reading.call import Call
from ..reading.effects import Effect
from .request_bodies import Said, body_said, fields_said, override, path_said, query_fields, verb_kind

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PROPFIND", "REPORT", "SEARCH", "QUERY"})
_REPLACING = {"DELETE": "removes the target resource (RFC 9110 §9.3.5)",
              "PUT": "replaces the target resource's state with the request's content (RFC 9110 §9.3.4)"}
_OPEN = frozenset({"POST", "PATCH"})  # the server defines what they do (RFC 9110 §9.3.3; RFC 5789)
_LOOPBACK = re.compile(r"(localhost|.*\.localhost|127(\.\d+){3}|\[?::1\]?|0\.0\.0\.0|\[?0:0:0:0:0:0:0:1\]?)",
                       re.IGNORECASE)
# Data stores' default ports (each store's install or configuration documentation), where a request to this
# machine reaches data and not the project's own server.
DATA_PORTS: dict[int, str] = {
    9200: "Elasticsearch/OpenSearch", 5984: "CouchDB", 8086: "InfluxDB", 8123: "ClickHouse", 7474: "Neo4j",
    8529: "ArangoDB", 6333: "Qdrant", 8108: "Typesense", 7700: "Meilisearch", 8983: "Solr", 9000: "MinIO",
    2379: "etcd", 8500: "Consul", 8200: "Vault", 7379: "Webdis (Redis over HTTP)", 6379: "Redis",
    8091: "Couchbase", 9091: "Milvus", 4566: "LocalStack", 10000: "Azurite", 8098: "Riak", 9090: "Prometheus",
    3100: "Loki", 8428: "VictoriaMetrics", 15672: "RabbitMQ's management API", 9870: "HDFS (WebHDFS)",
    8001: "kubectl proxy (a cluster's API)", 6443: "a Kubernetes API server", 2375: "the Docker Engine API",
    27017: "MongoDB", 5432: "PostgreSQL", 3306: "MySQL", 9042: "Cassandra", 11211: "memcached"}


@dataclass(frozen=True)
class Request:
    """One request as its client will send it."""

    client: str  # "curl", "gh api": for the reason
    method: str  # as the client resolves it (its default included), upper case; "" where the line does not set it
    url: str  # the URL, or the path an API command is given
    bodies: tuple[str, ...] = ()  # the bodies spelled on the line
    fields: Mapping[str, object] = field(default_factory=dict)  # named parameters (`gh api -f`, HTTPie's items)
    headers: tuple[str, ...] = ()
    service: str = ""  # what a path-only API command reaches ("GitHub's API"); else the URL's host
    operation: str = ""  # an API operation's name that a CLI calls instead of a path (`netlify api deleteSite`)


def judge(call: Call, request: Request) -> bool:
    """Add what the request destroys or may change beyond the folder; True where it only reads."""
    losses, reads = judged(request, call.program, call.index)
    for effect in losses:
        call.reader.add_effect(effect)
    return reads


def judged(request: Request, program: str, command: int = 0) -> tuple[list[Effect], bool]:
    """What the request destroys or may change beyond the folder, as `remote-destruction` effects of `program`,
    and whether it only reads (no effects, and not the project's own server taken on trust)."""
    host, port, path = ("", None, request.url) if request.service else split_url(request.url)
    where = request.service or host or "the server"
    store = DATA_PORTS.get(port) if port is not None else None
    said, fields = _said(request, path)
    method = override(list(request.headers), {**query_fields(request.url), **fields}) or request.method
    shown = " ".join(part for part in (request.client, method or "?", request.operation or request.url) if part)

    def loss(why: str, unknown: bool = False) -> tuple[list[Effect], bool]:
        return [Effect("remote-destruction", "", "unknown", target=shown[:160], fact=why, program=program,
                       command=command, loss="unknown" if unknown else "")], False

    if not method or not re.fullmatch(r"[A-Za-z]+", method):
        return loss(f"the request's method is only known when it runs, and the guard does not know what it does to "
                    f"{where}", unknown=True)
    if method in SAFE_METHODS:
        gone = [item for item in path_said(path) if item.kind in ("destroys", "revokes")] if store else []
        return loss(_destroys(gone[0], f"{store} runs what its path names, whatever the method")) if gone else ([], True)
    if method in _REPLACING:
        return loss(f"{method} {_REPLACING[method]}; {where} keeps no copy of the old state unless it was built to"
                    + (f" ({store})" if store else ""))
    if method not in _OPEN:
        said = [Said(method, verb_kind(method), f"its method {method}"), *said]
    if (gone := [item for item in said if item.kind in ("destroys", "revokes")]):
        return loss(_destroys(gone[0], f"sent to {where}" + (f" ({store})" if store else "")))
    if (unknown := [item for item in said if item.kind == "unknown"]):
        return loss(f"{request.client} sends {method} to {where}, and the guard does not know what "
                    f"{unknown[0].where} does: it is no read, plan, help or creation it knows, and may change or "
                    f"destroy what {where} holds", unknown=True)
    if said:
        return [], True  # it says only reads or creations
    if not request.service and _LOOPBACK.fullmatch(host or "localhost") and store is None:
        return [], False  # the project's own server under development
    return loss(f"{method} leaves what it does to the server, nothing in the request says more, and the guard does "
                f"not know what it changes on {where}" + (f" ({store})" if store else ""), unknown=True)


def _said(request: Request, path: str) -> tuple[list[Said], dict[str, str]]:
    said = path_said(path)
    fields: dict[str, str] = {key: value for key, value in request.fields.items() if isinstance(value, str)}
    if request.operation:
        said.append(Said(request.operation, verb_kind(request.operation),
                         f"its API operation '{request.operation}'"))
    if request.fields:
        said += fields_said(dict(request.fields))
    for body in request.bodies:
        found, carried = body_said(body)
        said += found
        fields.update(carried)
    return said, fields


def _destroys(item: Said, context: str) -> str:
    verb = "takes away" if item.kind == "revokes" else "destroys"
    return f"{item.where} {verb} what it names, {context}; nothing here can undo it"


def split_url(url: str) -> tuple[str, int | None, str]:
    """(host, port, path) of a URL, a scheme-less one (`localhost:9200/x`) or HTTPie's `:8000/x` (localhost)."""
    if url.startswith(":"):
        url = "localhost" + url
    match = re.match(r"^(?:([a-z][\w+.-]*)://)?(?:[^@/]*@)?(\[[^\]]*\]|[^/:?#]*)(?::(\d+))?([^#]*)", url, re.IGNORECASE)
    if not match:
        return url, None, ""
    scheme, host, port, path = match.groups()
    number = int(port) if port and len(port) < 6 else {"http": 80, "https": 443}.get((scheme or "").lower())
    return host, number, path or ""
