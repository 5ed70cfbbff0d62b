"""A GraphQL document's operations and the fields each selects at its root (the GraphQL specification, §2.3
Operations and §2.4 Selection Sets): a `query` or `subscription` only fetches, a `mutation`'s root fields are
the writes it asks for (`deleteRepository`, `createIssue`), and a document that opens with `{` is a query.

Read by tokens, never evaluated: strings, comments, arguments (with any object values in them), directives
and fragment spreads are skipped, and an alias (`gone: deleteRepository`) gives way to the field it names."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r'"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|#[^\n]*|\.\.\.|[A-Za-z_][A-Za-z0-9_]*|[{}():@$!=\[\],|&]|\S')
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TYPES = ("query", "mutation", "subscription")
_START = re.compile(r"\s*(#[^\n]*\n\s*)*(query|mutation|subscription|fragment)\b|\s*\{\s*[A-Za-z_]")


@dataclass(frozen=True)
class Operation:
    kind: str  # query, mutation or subscription
    fields: tuple[str, ...]  # the root fields it selects, aliases resolved


def looks_like_graphql(text: str) -> bool:
    """Whether `text` opens as an executable GraphQL document does (an operation keyword or `{ field`)."""
    return bool(_START.match(text))


def operations(document: str) -> list[Operation]:
    """The operations of `document`, each with its root fields; [] where none is found. Fragments are left out:
    their fields count only where an operation spreads them, which a root spread does not name here."""
    found: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    depth = parens = 0
    before = ""
    for token in _TOKEN.findall(document):
        if token[0] in '"#':
            continue
        if parens:
            parens += {"(": 1, ")": -1}.get(token, 0)
            continue
        if token == "(":
            parens = 1
        elif token == "{":
            if depth == 0 and current is None:
                current = []
                found.append(("query", current))  # the query shorthand: `{ viewer { login } }`
            depth += 1
        elif token == "}":
            depth = max(depth - 1, 0)
            if depth == 0:
                current = None
        elif depth == 0 and token in _TYPES and before in ("", "}"):
            current = []
            found.append((token, current))
        elif depth == 0 and token == "fragment":
            current = []  # its fields are not an operation's
        elif token == ":" and depth == 1 and current:
            current.pop()  # the name before was an alias; the field follows
        elif depth == 1 and current is not None and _NAME.fullmatch(token) and before not in ("@", "...", "on", "$"):
            current.append(token)
        before = token
    return [Operation(kind, tuple(fields)) for kind, fields in found]
