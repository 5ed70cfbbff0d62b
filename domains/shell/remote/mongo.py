"""MongoDB writes read from what a tool is given: a database command document (MongoDB manual, "Database
Commands": `{"delete": "users", "deletes": [...]}`, `{"drop": "users"}`, `{"dropDatabase": 1}`), a call in mongosh's
syntax (`db.users.deleteMany({})`, `db.dropDatabase()`, `db.getCollection("x").drop()`), and an operation named
by its method (`"operation": "deleteMany"`, the MongoDB MCP server's `delete-many` tool).

What loses data: deleting and updating documents, replacing them, dropping a collection, a database, an index, a
user or a role, renaming over a collection, and an aggregation that writes its result over one (`$out`,
`$merge`). A delete or update is bounded, as a SQL WHERE is (programs/sql_bounds.py), when its filter names a
value a field must equal (`{_id: 7}`, `{status: {$eq: "old"}}`, `{sku: {$in: [...]}}`): it then loses only the
documents named. An empty filter, or one of ranges and expressions, reaches documents nobody named. Reads
(find, aggregate without `$out`/`$merge`, count, distinct, ...) and creations (insert, createIndex, ...) pass; a
mongosh method that is none of these is unknown.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..reading.effects import Effect
from .sql_effects import NO_COPY

# Methods and commands that lose documents or what holds them (mongosh's collection and database methods; the
# database commands of the same names).
_FILTERED = frozenset({"deleteOne", "deleteMany", "remove", "findOneAndDelete", "findOneAndReplace", "findOneAndUpdate",
                       "replaceOne", "updateOne", "updateMany", "update", "findAndModify", "delete"})
_WHOLE = frozenset({"drop", "dropDatabase", "dropCollection", "dropIndex", "dropIndexes", "deleteIndexes",
                    "renameCollection", "dropUser", "dropAllUsers", "dropAllUsersFromDatabase", "dropRole",
                    "dropAllRoles", "dropAllRolesFromDatabase", "dropSearchIndex", "bulkWrite"})
DESTROYS = _FILTERED | _WHOLE
_READS = frozenset("""find findOne aggregate countDocuments estimatedDocumentCount count distinct getIndexes
    getIndexKeys stats dataSize storageSize totalSize explain getCollectionNames getCollectionInfos listCollections
    listDatabases listIndexes watch getName getCollection getSiblingDB getMongo getUsers getUser getRoles getRole
    hello isMaster ping serverStatus dbStats collStats version help exists latencyStats validate hint""".split())
_CREATES = frozenset("""insertOne insertMany insert createCollection createIndex createIndexes createView
    createUser createRole createSearchIndex""".split())
# `db.<collection>.<method>(`, `db.getCollection("x").<method>(`, `db["x"].<method>(`, `db.<method>(`: the chain is
# taken whole (possessive: never given back a segment at a time, which made a long `db.db.db...` quadratic), and its
# last `.name` is the method called.
_SHELL_CALL = re.compile(r"(?<![.\w$])db((?:\s*\.\s*getCollection\s*\([^)]*\)|\s*\[[^\]]*\]|\s*\.\s*[A-Za-z_]\w*)++)"
                         r"\s*\((?=([^;]*))")
_LAST_NAME = re.compile(r"\.\s*([A-Za-z_]\w*)$")
# A command document's first key, with the key its documented form requires beside it.
_COMMAND_COMPANIONS = {"delete": "deletes", "update": "updates"}
_SHOWN = 80
_READ_CHARS = 4_000


def _lower_names() -> dict[str, str]:
    return {name.lower(): name for name in DESTROYS}


def operation(word: str) -> str | None:
    """The destroying method `word` names, in its own spelling or split as a tool's name (`delete-many`,
    `drop_collection`); None for any other word."""
    if word in DESTROYS and any(c.isupper() for c in word):
        return word
    joined = re.sub(r"[-_]", "", word)  # a tool's name joins with - or _; words apart ("Drop user") are prose
    if joined != word and joined.lower() in _lower_names():
        return _lower_names()[joined.lower()]
    return None


def binds(value: Any) -> bool:
    """A filter that names values its fields must equal."""
    if not isinstance(value, Mapping):
        return False
    for key, condition in value.items():
        if str(key).startswith("$"):
            if key == "$and" and isinstance(condition, list) and any(binds(item) for item in condition):
                return True
            continue
        if not isinstance(condition, Mapping):
            return True
        if "$eq" in condition or ("$in" in condition and isinstance(condition["$in"], list)):
            return True
    return False


def command_effects(document: Mapping[str, Any], holds: str, program: str) -> list[Effect]:
    """A database command document's loss, if it is one that destroys."""
    if not document:
        return []
    for stage in ("$out", "$merge"):  # an aggregation stage that writes its result over a collection
        if stage in document:
            return [_lost(f"{{{stage}: {document[stage]!r}}}", holds, program)]
    name = str(next(iter(document)))
    value = document[name]
    if name not in DESTROYS or not isinstance(value, (str, int, float)) or isinstance(value, bool):
        return []
    companion = _COMMAND_COMPANIONS.get(name)
    if companion is not None:
        items = document.get(companion)
        if not isinstance(items, list):
            return []
        if items and all(isinstance(item, Mapping) and binds(item.get("q")) for item in items):
            return []
    elif name == "findAndModify" and binds(document.get("query")):
        return []
    return [_lost(f"{{{name}: {value!r}}}", holds, program)]


# The names drivers and MCP servers give an operation's filter.
_FILTER_KEYS = ("filter", "query", "q", "where", "selector", "criteria", "match")


def operation_effects(name: str, arguments: Mapping[str, Any], holds: str, program: str) -> list[Effect]:
    """An operation named `name` (a tool's name, or a value beside its arguments): a loss unless its filter binds.
    The filter is the argument under a filter's name, else the one object beside the operation; with several
    objects and none named so (a filter beside options, a replacement), which one filters is not known: a loss."""
    named = [value for key, value in arguments.items() if str(key).lower() in _FILTER_KEYS]
    objects = [value for value in arguments.values() if isinstance(value, Mapping)]
    chosen = named[0] if named else objects[0] if len(objects) == 1 else None
    if name in _FILTERED and binds(chosen):
        return []
    return [_lost(name, holds, program)]


def shell_effects(text: str, holds: str, program: str) -> list[Effect] | None:
    """mongosh calls in `text`'s first _READ_CHARS characters: their losses; None when they hold no `db.` call (a
    longer text is then unread: a tool that runs it asks). The bound keeps the chain of `db.a.b...` from being
    matched again from every `db` of a long text."""
    calls = list(_SHELL_CALL.finditer(text[:_READ_CHARS]))
    if not calls:
        return None
    effects = []
    for call in calls:
        if (last := _LAST_NAME.search(call.group(1))) is None:
            continue  # `db["x"](`: no method is called
        method, rest = last.group(1), call.group(2)
        shown = " ".join(call.group(0).split())[:_SHOWN] + "...)"
        if method in DESTROYS:
            if method in _FILTERED and _shell_filter_binds(rest):
                continue
            effects.append(_lost(shown, holds, program))
        elif method == "aggregate" and re.search(r"\$(out|merge)\b", rest):
            effects.append(_lost(shown, holds, program))
        elif method in ("runCommand", "adminCommand", "eval") or method not in _READS | _CREATES:
            effects.append(Effect("remote-destruction", "", "unknown", target=shown,
                                  fact=f"{method} is not a MongoDB method the guard knows; it may change {holds}",
                                  program=program, loss="unknown"))
    return effects


def _shell_filter_binds(arguments: str) -> bool:
    """The first argument of a mongosh call, as written: an object with a field given a plain value or `$eq`/`$in`."""
    first = arguments.strip()
    if not first.startswith("{"):
        return False
    return re.match(r"\{\s*(?:[\"']?[A-Za-z_][\w.]*[\"']?)\s*:\s*(?:(?!\{)[^,}]|\{\s*[\"']?\$(?:eq|in)\b)", first) \
        is not None


def _lost(what: str, holds: str, program: str) -> Effect:
    return Effect("remote-destruction", "", "unknown", target=what[:160],
                  fact=f"deletes or overwrites documents of {holds}; {NO_COPY}", program=program)
