"""What a request's body and path say it does, by the protocols that put a verb there:

- JSON-RPC 2.0 (jsonrpc.org/specification §4): a request object's `method` names the procedure it calls; a batch
  is an array of them.
- GraphQL (spec §2.3): a `mutation`'s root fields are the writes it asks for; a `query` only fetches
  (graphql_operations.py). Carried as a JSON body's `query` member (GraphQL over HTTP) or as the raw body.
- Bulk and update APIs whose lines are action objects, `{"delete": {...}}` (Elasticsearch and OpenSearch `_bulk`,
  Solr's JSON update), and JSON Patch (RFC 6902) operations' `op` (`remove`).
- XML update messages whose root names the action (Solr's `<delete>`).
- A method override: `_method` in a form or the query string (Rails, Laravel), and the override headers
  (X-HTTP-Method-Override and its kin), which the server takes as the request's method.
- The path's segments (`/_delete_by_query`, `/admin/flush`, `/v1/search`): a word there counts only where it is a
  verb of the classes below; any other path word is a noun.

Every word found is classed as CLI verbs are: a destroy or revoke word (remote/verbs.py), a word of the closed
safe class (remote/safe.py: read, plan, help, create), or unknown."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import parse_qsl

from .graphql_operations import looks_like_graphql, operations
from .safe import parts, safe_kind
from .verbs import DESTROYS, READS, REVOKES

Kind = Literal["destroys", "revokes", "safe", "unknown"]
_OVERRIDE_HEADERS = ("x-http-method-override", "x-http-method", "x-method-override")
# A destroying verb glued to its object in one word: `FLUSHALL`, `flushdb`, `dropdb` (4+ letters, then 2+ more).
_GLUED = re.compile("(" + "|".join(sorted((verb for verb in DESTROYS if len(verb) >= 4), key=len, reverse=True))
                    + ")[a-z]{2,}")
_PATH_WORD = re.compile(r"_*[A-Za-z][A-Za-z0-9]*(?:[-_.:][A-Za-z0-9]+)*")
_MAX_BODY = 200_000  # a body larger than this is not read past its start


@dataclass(frozen=True)
class Said:
    """One thing the request says it does: the word, its class, and where it was read."""

    word: str
    kind: Kind
    where: str  # "its JSON-RPC method 'delete_user'", for the reason


def verb_kind(name: str) -> Kind:
    """A name's class by its words (`delete_user`, `deleteRepository`, `users.remove`, `tools/list`): a destroy or
    revoke word anywhere decides, else a read or safe word, else unknown."""
    pieces = [part for piece in re.split(r"[^A-Za-z0-9:_-]+", name) if piece for part in parts(piece)]
    if any(piece in DESTROYS or _GLUED.fullmatch(piece) for piece in pieces):
        return "destroys"
    if any(piece in REVOKES for piece in pieces):
        return "revokes"
    if any(piece in READS or safe_kind(piece) is not None for piece in pieces):
        return "safe"
    return "unknown"


def override(headers: list[str], fields: dict[str, str]) -> str | None:
    """The method a server is told to take instead of the one sent: an override header or a `_method` field."""
    for header in headers:
        name, _, value = header.partition(":")
        if name.strip().lower() in _OVERRIDE_HEADERS and value.strip():
            return value.strip().upper()
    method = fields.get("_method", "").strip()
    return method.upper() or None


def query_fields(url: str) -> dict[str, str]:
    return dict(parse_qsl(url.split("?", 1)[1].split("#")[0])) if "?" in url else {}


def path_said(path: str) -> list[Said]:
    """The verbs among the path's segments: a destroy or revoke word anywhere (`/_delete_by_query`, `/admin/flush`),
    a read or safe word only as the last segment, where an API names an action (`/_search`, `/v1/validate`): before
    it, `logs` or `status` is a collection's name. Other nouns and identifiers say nothing."""
    said = []
    segments = [segment for segment in path.split("?")[0].split("#")[0].split("/") if segment]
    for at, segment in enumerate(segments):
        if _PATH_WORD.fullmatch(segment) and not re.fullmatch(r"[0-9a-fA-F-]{8,}", segment):
            kind = verb_kind(segment.lstrip("_"))
            if kind in ("destroys", "revokes") or kind == "safe" and at == len(segments) - 1:
                said.append(Said(segment, kind, f"its path's '{segment}'"))
    return said


def body_said(text: str) -> tuple[list[Said], dict[str, str]]:
    """What a body says, and the form or JSON fields it carries (for a `_method` override)."""
    text = text[:_MAX_BODY].strip()
    if not text or text.startswith("@"):
        return [], {}  # a file's or stdin's content: not on the line
    try:
        value = json.loads(text)
    except ValueError:
        value = _json_lines(text)
    if value is not None:
        said: list[Said] = []
        for item in value if isinstance(value, list) else [value]:
            said += _object_said(item)
        fields = {key: val for key, val in value.items() if isinstance(val, str)} if isinstance(value, dict) else {}
        return said, fields
    if text.startswith("<"):
        # A comment's body never crosses its own `-->` (a lazy body could, trying every grouping of the comments).
        root = re.match(r"<(?:\?[^>]*\?>\s*)?(?:<!--(?:(?!-->)[\s\S])*-->\s*)*+<?([A-Za-z][\w.-]*)", text)
        if root and (kind := verb_kind(root.group(1))) != "unknown":
            return [Said(root.group(1), kind, f"its XML message <{root.group(1)}>")], {}
        return [], {}
    if looks_like_graphql(text):
        return graphql_said(text), {}
    fields = dict(parse_qsl(text)) if "=" in text else {}
    return fields_said(fields), fields


def fields_said(fields: dict[str, Any]) -> list[Said]:
    """Named parameters (a form, `gh api -f`, HTTPie's items) read as the JSON object they build."""
    return _object_said(fields)


def graphql_said(document: str) -> list[Said]:
    said = []
    for operation in operations(document):
        if operation.kind != "mutation":
            said.append(Said(operation.kind, "safe", f"its GraphQL {operation.kind}"))
            continue
        for name in operation.fields or ("",):
            said.append(Said(name or "mutation", verb_kind(name) if name else "unknown",
                             f"its GraphQL mutation '{name}'" if name else "its GraphQL mutation"))
    return said


def _object_said(item: Any) -> list[Said]:
    if not isinstance(item, dict):
        return []
    said: list[Said] = []
    method = item.get("method")
    if isinstance(method, str) and method and ({"jsonrpc", "params", "id"} & set(item)):
        said.append(Said(method, verb_kind(method), f"its JSON-RPC method '{method}'"))
    query = item.get("query")
    if isinstance(query, str) and looks_like_graphql(query):
        said += graphql_said(query)
    op = item.get("op")
    if isinstance(op, str) and "path" in item:
        said.append(Said(op, "safe" if op == "test" else verb_kind(op), f"its JSON Patch op '{op}'"))  # test reads
    for key, value in item.items():
        if isinstance(value, (dict, list)) and verb_kind(key) in ("destroys", "revokes"):
            said.append(Said(key, verb_kind(key), f"its action '{key}'"))
    return said


def _json_lines(text: str) -> list[Any] | None:
    """Newline-delimited JSON (a bulk body), or None where a line is no JSON."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return None
    try:
        return [json.loads(line) for line in lines]
    except ValueError:
        return None
