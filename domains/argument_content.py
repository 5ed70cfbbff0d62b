"""An MCP tool call's arguments read by what they hold, not by what they are called: every string, in nested objects
and arrays too (bounded), is taken for what it parses as.

- SQL, where it opens as a statement does, with the words its grammar requires (`DELETE FROM`, `UPDATE t SET`,
  `DROP TABLE`), and then parses; "delete the old records" has no FROM, "update the docs" no SET. An unparsable
  statement is SQL still where its keyword is written in capitals or the tool runs code; its reading is
  remote/sql_effects.py's one rule.
- Cypher (remote/cypher.py), a MongoDB shell call, command document or operation name (remote/mongo.py), an HTTP
  method beside a URL or before one (remote/http_request.py).
- A shell command, only where the text is plainly a command line: one line, opening with a program the shell reader
  knows, written as a program's name is (`rm`, not `Remove`), with no English function word among its operands and
  no sentence's full stop. Then it is read as a line run on the server's machine (remote/elsewhere.py); in a tool
  not named to run commands only the losses it states count. A tool named to run commands has any line that opens
  with a program-like word read, known program or not.

What a tool does with its text is said by its name: a tool named to keep, send or search text (`write_file`,
`add_note`, `post_message`, `web_search`) is given data, not code, unless its name also says it runs something
(`write_query`, `run_and_save`); its free text is not read as code, while structured requests (a method beside a
URL, a command document) still are. A tool named to run code (`exec`, `run`, `execute_sql`, `eval`, `cypher`)
whose every multi-word text parses as nothing the guard reads is asked about: what it runs is unknown.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .shell import Effect
from .shell.remote import cypher, http_request, mongo
from .shell.remote.sql_effects import sql_effects
from .shell.programs.sql import read_sql

MAX_DEPTH = 8  # nesting read below the arguments object
MAX_TEXTS = 200  # strings read per call
MAX_CHARS = 20_000  # a longer string is a document, not a statement
_OPENING_CHARS = 2_000  # a statement's opening words stand in its first characters: the shapes look no further
# Words of a tool's name that say it runs what it is given, and those that say it keeps, sends or searches text.
RUNS = frozenset("exec execute run shell command cmd terminal bash ssh eval script console repl sql cypher cql "
                 "gremlin mongosh psql".split())
KEEPS = frozenset("write save create add append insert update set put upload push commit post send reply comment note "
                  "notes remember memorize store publish draft compose message email mail notify edit replace search "
                  "translate summarize".split())
# Statement openings with the words their grammar requires after the keyword (the SQL standard's and the dialects'
# reference pages): prose that starts with the same verb lacks them.
_SQL_OBJECTS = (r"(table|database|schema|keyspace|index|view|materialized\s+view|sequence|function|procedure|trigger|"
                r"user|role|type|extension|column|constraint|collection|stage|warehouse|dataset)")
_SQL_SHAPE = re.compile(
    r"\s*(select\s+.+?(\s+from\s|\s*$|;)|with\s+(recursive\s+)?\w+\s*(\([^)]*\)\s*)?as\s*(not\s+)?(materialized\s*)?\(|"
    r"insert\s+(ignore\s+)?into\s|replace\s+into\s|upsert\s+into\s|update\s+[\w.\"`\[\]]+\s+(as\s+\w+\s+)?set\s|"
    r"delete\s+from\s|merge\s+into\s|drop\s+(temporary\s+)?" + _SQL_OBJECTS + r"\s|truncate\s+(table\s+)?[\w.\"`]+\s*"
    r"(;|$|cascade|restart)|alter\s+" + _SQL_OBJECTS + r"\s|create\s+(or\s+replace\s+)?(temp(orary)?\s+)?"
    + _SQL_OBJECTS + r"\s|(grant|revoke)\s+[^;]*?\son\s|begin\s*(transaction\s*)?;|start\s+transaction\b|"
    r"explain\s+(analyze\s+)?(select|insert|update|delete|with)\b|show\s+(tables|databases|schemas|columns)\b|"
    r"pragma\s+\w+|vacuum\b)", re.IGNORECASE | re.DOTALL)
# English words that open no command operand: text holding one is prose ("kill the process", "make sure it builds").
_PROSE_WORDS = frozenset("the an of is are was were be been please should would could will shall we you it its this "
                         "that these those my our your their i me us them then than when why how what which who "
                         "because about into onto also just".split())
_SENTENCE_END = re.compile(r"[A-Za-z]{2,}[.!?]$")
_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=")
_PROGRAM_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*")
# Text a tool that runs code could be running: more than one word, or code's punctuation (`f(x)`, `a;b`, `$x`);
# a name, a number, a path or a URL is not.
_CODE_LIKE = re.compile(r"\s|[();=|&<>$`{}]")


@dataclass
class ContentReading:
    """What the strings of one call do, and whether any of them was read as code at all."""
    tool: str
    program: str
    runs: Callable[[str], list[Effect]]  # a command line read where the tool's server runs it
    effects: list[Effect] = field(default_factory=list)
    read_some: bool = False
    unread: list[str] = field(default_factory=list)  # multi-word texts nothing could read
    texts: int = 0


def name_words(name: str) -> list[str]:
    """A tool's name as words: `write_neo4j_cypher`, `runCommand`, `delete-many`."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return [word for word in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if word]


def tool_kind(name: str) -> str:
    """`runs`, `queries`, `keeps` or '' (none), from the tool's name; running wins. A `query` tool (`write_query`,
    `query-docs`) may run its text or take it for a question: its text is read as any tool's is, never kept as
    data, and text that parses as nothing is no question to ask."""
    words = set(name_words(name))
    if words & RUNS:
        return "runs"
    if "query" in words:
        return "queries"
    return "keeps" if words & KEEPS else ""


def content_effects(name: str, arguments: Mapping[str, Any], program: str, runs: Callable[[str], list[Effect]],
                    read_already: bool = False, skip: frozenset[str] = frozenset()) -> list[Effect]:
    """The effects of what `arguments` hold, for the tool `name` (`skip`: top-level keys read by their name already,
    `read_already`: whether those held code the guard read)."""
    reading = ContentReading(name, program, runs, read_some=read_already)
    kind = tool_kind(name)
    if (operation := mongo.operation(name)) is not None:
        reading.effects += mongo.operation_effects(operation, arguments, "a MongoDB database", program)
        reading.read_some = True
    _walk_object(reading, arguments, 0, kind != "keeps", skip)
    if kind == "runs" and not reading.read_some and reading.unread:
        shown = " ".join(reading.unread[0].split())[:60]
        reading.effects.append(Effect(
            "remote-destruction", "", "unknown", target=shown, program=program, loss="unknown",
            fact=f"{name} runs what it is given, and {shown!r} is no SQL, Cypher, MongoDB call, HTTP request or "
                 "command line the guard can read: what it does is unknown"))
    return reading.effects


def _walk(reading: ContentReading, value: Any, depth: int, free_text: bool) -> None:
    if depth > MAX_DEPTH or reading.texts >= MAX_TEXTS:
        return
    if isinstance(value, Mapping):
        _walk_object(reading, value, depth, free_text)
    elif isinstance(value, list):
        for item in value[:MAX_TEXTS]:
            _walk(reading, item, depth + 1, free_text)
    elif isinstance(value, str) and free_text:
        reading.texts += 1
        _read_text(reading, value)


def _walk_object(reading: ContentReading, value: Mapping[str, Any], depth: int, free_text: bool,
                 skip: frozenset[str] = frozenset()) -> None:
    """One object: as a command document, a request (a method beside a URL), an operation beside its filter; then
    each value not in `skip` (keys already read by their name, which still count as a request's URL)."""
    program, holds = reading.program, "a MongoDB database"
    if found := mongo.command_effects(value, holds, program):
        reading.effects += found
        reading.read_some = True
    texts = [item for item in value.values() if isinstance(item, str)]
    methods = [text for text in texts if http_request.is_method(text)]
    urls = [text for text in texts if http_request.is_url(text)]
    if methods and urls:
        reading.effects += http_request.request_effects(methods[0], _named(value, _URL_KEYS) or urls[0], program,
                                                        *_request_parts(value))
        reading.read_some = True
    for text in texts:
        if (operation := mongo.operation(text.strip())) is not None:
            reading.effects += mongo.operation_effects(operation, value, holds, program)
            reading.read_some = True
    for key, item in value.items():
        if str(key).lower() in skip or (isinstance(item, str) and (item in methods or mongo.operation(item.strip())
                                                                    is not None)):
            continue
        _walk(reading, item, depth + 1, free_text)


_URL_KEYS = ("url", "uri", "endpoint", "href", "path")
_BODY_KEYS = ("body", "data", "json", "payload", "content", "form")


def _named(value: Mapping[str, Any], keys: tuple[str, ...]) -> str | None:
    """The string under the first of `keys` (any case) that `value` has."""
    found = {str(key).lower(): item for key, item in value.items()}
    return next((found[key] for key in keys if isinstance(found.get(key), str)), None)


def _request_parts(value: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A request object's bodies (objects as their JSON) and headers (`Name: value`), for the request's judge."""
    bodies, headers = [], []
    for key, item in value.items():
        name = str(key).lower()
        if name in _BODY_KEYS and isinstance(item, (str, Mapping, list)):
            bodies.append(item if isinstance(item, str) else json.dumps(item, default=str))
        elif name == "headers" and isinstance(item, Mapping):
            headers += [f"{header}: {text}" for header, text in item.items() if isinstance(text, str)]
    return tuple(bodies), tuple(headers)


def _read_text(reading: ContentReading, text: str) -> None:
    if len(text) > MAX_CHARS or not text.strip():
        return
    program = reading.program
    if (request := http_request.method_and_url(text)) is not None:
        reading.effects += http_request.request_effects(*request, program)
    elif cypher.is_cypher(text):
        reading.effects += cypher.cypher_effects(text, "a graph database's data", program)
    elif (found := mongo.shell_effects(text, "a MongoDB database", program)) is not None:
        reading.effects += found
    elif _is_sql(text, tool_kind(reading.tool) == "runs"):
        reading.effects += sql_effects(text, None, "a database's data", program)
    elif (shape := command_shape(text)) and (found := _command_losses(reading, text, shape)) is not None:
        reading.effects += found
    else:
        if _CODE_LIKE.search(text.strip()):
            reading.unread.append(text)
        return
    reading.read_some = True


def _is_sql(text: str, runs: bool) -> bool:
    """A statement by its shape, and by its parse unless the keyword is in capitals or the tool runs code."""
    if not _SQL_SHAPE.match(text[:_OPENING_CHARS]):
        return False
    return runs or text.split()[0].isupper() or not read_sql(text).unknown


def _command_losses(reading: ContentReading, text: str, shape: str) -> list[Effect] | None:
    """What a command line loses where the tool's server runs it; None where the text is not taken for one. A tool
    named to run commands runs it whatever its program; in any other tool only a program the shell reader knows
    makes a command line (a phrase such as "detach delete" looks like `program verb` too), and since the tool is
    not known to run it, only the losses the line states count, not what the reader cannot tell."""
    runs = tool_kind(reading.tool) == "runs"
    if not runs and shape != "known":
        return None
    found = reading.runs(text)
    return found if runs else [effect for effect in found if effect.loss != "unknown"]


def command_shape(text: str) -> str:
    """`known` for one line that opens with a program the shell reader knows, written as its name is, and reads as
    no prose; `program` for such a line whose first word only looks like a program's name (`dropdb app`); else ''."""
    line = text.strip()
    if "\n" in line or _SENTENCE_END.search(line):
        return ""
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    while words and _ASSIGNMENT.match(words[0]):
        words = words[1:]
    if not words or any(word.lower() in _PROSE_WORDS for word in words[1:] if not word.startswith("-")):
        return ""
    if words[0] in known_programs():
        return "known"
    return "program" if len(words) > 1 and _PROGRAM_NAME.fullmatch(words[0]) else ""


_KNOWN: set[str] = set()


def known_programs() -> set[str]:
    """Every program the shell reader has a reader, a table or a family for (filled when the reader is imported)."""
    if not _KNOWN:
        from .shell.launchers.wrappers import WRAPPERS
        from .shell.reading.registry import HANDLERS, INTERPRETERS, PRIVILEGE, READ_ONLY, SHELLS, WRITES_NAMED
        from .shell.remote.safe import LOCAL
        from .shell.remote.tables import TABLES

        _KNOWN.update(HANDLERS, READ_ONLY, SHELLS, INTERPRETERS, PRIVILEGE, WRITES_NAMED, WRAPPERS, TABLES,
                      (name for name in LOCAL if " " not in name), {"git", "find", "xargs", "python", "python3"})
    return _KNOWN
