"""Programs with no table, read by the conventions command-line programs share.

A program nobody wrote a table for is still read, never passed unread. Its verb sits where CLIs put
their verbs: in the command words, the leading operands before its arguments (POSIX utility
syntax; the command groups of cobra, click and argparse: `nomad job stop`, `vault kv metadata delete`,
`eksctl delete cluster`; RPC-style `DeleteCluster`; namespaced `pg:backups:delete`), in an option that selects
an action (`kafka-topics --delete`), or in the program's own name (`dropdb`, `pg_dropcluster`). A verb that
destroys or takes away what it names (remote/verbs.py) is `remote-destruction`, with the scope and force
options given (`--all`, `--recursive`, `--force`, `--yes`) named in the reason. An argument that begins as an
SQL statement that may write is read by its meaning, by the rule every database client's SQL is read by
(remote/sql_effects.py).

The destroy lists give certain reasons; they are not the safety net, since a list is always one synonym
short (rebuild, reimage, expire, evict, rollback...). The net is the posture for what the guard does not
understand: a program with no table reaches beyond the folder (a service, a cloud, a cluster, a database, a
host), unless remote/safe.py's LOCAL gives it (or the verb given) as acting in the folder, on this machine's
tools and caches or on the project's own stack. Such a program passes only with a word of the closed safe
class (remote/safe.py's SAFE: reads, plans and previews, help, creation) or an option of SAFE_OPTIONS (dry
runs, what-if, --check, --help, --version); the first command word either list knows decides, the words
before it being command groups (`gh pr create`). Any other command word is an unknown verb: a
`remote-destruction` whose loss is unknown, which the policy asks about (never denies), naming the program,
its words and that the guard does not know what they do. A tabled program's verb that its table neither
lists nor has judged is read the same way (remote/tables.py).

A program given no command word (only paths, options and their values: `mytool ./data.json`, `mytool -o
out.txt`) keeps the reading every opaque program gets (launchers/dispatch.py's `_unknown`): judged by the
workspace rules, and asked about where it is given a path outside the workspace or a device. What this
reading cannot see: a verb spelled in another language or hidden in a variable, a verb right after an
option that may take a value (`mytool --verbose rollback`: `rollback` may be that option's value), and an
unknown verb followed by a read word (`mytool rollback list`), which reads as the read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..reading.call import Call
from .api_commands import read_untabled
from .sql_effects import run_sql
from .tables import destruction, unknown_verb
from .packages import LOCAL_VERBS
from .safe import COMMAND_WORD, SAFE_OPTIONS, known_word, parts, wholly_local
from .verbs import DESTROYS, READS, REVOKES

# Options named by a destroying verb select that action (`--delete`, `-purge`); `--rm` on a run is no verb.
_OPTION_VERBS = frozenset("delete drop purge destroy remove wipe erase prune uninstall unpublish terminate reset".split())
_OPTION_READS = frozenset({"list", "describe", "get", "show", "status"})
_NEGATIONS = frozenset({"no", "skip", "keep", "without", "ignore", "preserve", "not", "dry", "never", "disable"})
_OFF = frozenset({"false", "no", "0", "none", "off"})
# Options that widen a destruction or skip its confirmation: named in the reason.
_SCOPES = frozenset({"all", "all-namespaces", "recursive", "recurse", "r", "R", "force", "f", "yes", "y", "purge",
                     "cascade", "permanent", "hard", "skip-final-snapshot", "no-backup", "everything", "confirm",
                     "assume-yes", "auto-approve", "quiet", "q", "non-interactive", "delete-data", "include-data"})
_MAX_COMMAND_WORDS = 4  # `vault kv metadata delete`: groups nest three deep before the verb
# A destroying verb glued to its object in a program's name: `dropdb`, `deleteuser` (4+ letters, then 2+ more).
_NAME_VERB = re.compile(r"(" + "|".join(sorted((v for v in DESTROYS if len(v) >= 4), key=len, reverse=True)) + r")[a-z]{2,}")
# SQL an argument may carry (`cqlsh -e`, `bq query`, `snowsql -q`): read where it starts as a statement does, with
# the words its grammar requires (`DELETE FROM`, `UPDATE t SET`, `DROP TABLE`), so that a phrase ("update the
# docs") is no statement.
_SQL_OBJECTS = r"(table|database|schema|keyspace|index|view|collection|user|role|materialized|type|function|" \
               r"bucket|stream|topic|sequence)"
_SQL_STATEMENT = re.compile(r"\s*(delete\s+from\s|update\s+\S+\s+set\s|drop\s+" + _SQL_OBJECTS + r"\s|"
                            r"truncate\s+(table\s+)?[\w.\"`]+\s*(;|$)|alter\s+" + _SQL_OBJECTS + r"\s|"
                            r"with\s+\w+\s+as\s*\(|begin\s*;|start\s+transaction\b|merge\s+into\s)",
                            re.IGNORECASE)


@dataclass(frozen=True)
class Verb:
    """The word that decides what an unknown program does, and where it was read."""

    word: str
    where: str  # "its command word", "its option", "its name"
    destroys: bool  # False: a read
    named: tuple[str, ...] = ()  # the command words up to the verb and the two after it, for the reason


def read_unknown(call: Call) -> bool:
    """Read a program with no table by the shared conventions: a destruction becomes `remote-destruction`, and a
    verb outside the safe class (remote/safe.py) of a program not known to act locally an unknown one, asked about.
    Returns whether the program only reads (its first verb is a read, or it was asked for a dry run or help)."""
    texts = [arg.text for arg in call.args if arg.literal]
    options = _options(texts)
    if options & SAFE_OPTIONS or texts[-1:] == ["-h"]:  # `-h` with nothing after it to be its value asks for help
        return True
    if read_untabled(call, command_words(texts)) is not None:  # `glab api`, `cf curl`: the request is read, and
        return True  # its operands are the API's paths, which reach no file here
    _read_sql_arguments(call, texts)
    verb = decisive_verb(call.program, texts, options)
    if verb is not None and verb.destroys and not _only_local(call.program, verb.word):
        scopes = sorted(f"--{name}" if len(name) > 1 else f"-{name}" for name in options & _SCOPES - {verb.word})
        kind = "takes away" if verb.word in REVOKES else "destroys"
        widened = f", widened by {' '.join(scopes)}" if scopes else ""
        destruction(call, " ".join((call.program, *verb.named)) or call.program,
                    f"{call.program} has no table here, and by the conventions CLIs share {verb.where} "
                    f"'{verb.word}' {kind} what it names{widened}; nothing here can undo it")
        return False
    if verb is not None:
        return True  # a read, or a removal its documentation gives as only local (remote/packages.py)
    if wholly_local(call.program):
        return False  # a build, a test runner, a formatter...: judged by the workspace rules
    path = path_words(texts) or _capitalized_verb(texts)
    found = known_word(call.program, [word for word, _ in path])
    if found is not None:
        return found[1] in ("read", "plan", "help")  # a creation or local work: judged by the workspace rules
    if any(counted for _, counted in path):
        unknown_verb(call, call.program, [word for word, _ in path], f"{call.program} has no table here")
    return False


def decisive_verb(program: str, texts: list[str], options: set[str]) -> Verb | None:
    """The first verb among the command words, else an option that selects one, else the program's name."""
    words = command_words(texts)
    for at, word in enumerate(words):
        found = _verb_in(word)
        if found is not None:
            return Verb(found[0], "its command word", found[1], tuple(words[:at + 3]))
    destroying = sorted(name for name in options if _option_verb(name))
    if destroying:
        return Verb(destroying[0], "its option", True, tuple(words[:3]))
    if options & _OPTION_READS:
        return Verb(sorted(options & _OPTION_READS)[0], "its option", False)
    for part in re.split(r"[-_.]", program.lower()):
        if part in DESTROYS or part in REVOKES:
            return Verb(part, "its name", True, tuple(words[:2]))
        if (glued := _NAME_VERB.fullmatch(part)) is not None:
            return Verb(glued.group(1), "its name", True, tuple(words[:2]))
    return None


def command_words(texts: list[str]) -> list[str]:
    """The leading operands a CLI reads as its command path: bare words, options and what may be their values
    skipped, up to the first word that is an argument (a path, a URL, a quoted phrase) or the fourth word."""
    return [word for word, _ in path_words(texts)]


def path_words(texts: list[str]) -> list[tuple[str, bool]]:
    """command_words, each with whether it counts as a command word: one right after an option may be that
    option's value (`--region us-east-1`, `-e py`), so it is read for a verb but never taken for an unknown one."""
    words: list[tuple[str, bool]] = []
    counted = 0
    option_before = False
    for text in texts:
        if text == "--":
            break
        if text.startswith("-") and len(text) > 1:
            option_before = "=" not in text
            continue
        if not COMMAND_WORD.fullmatch(text):  # remote/safe.py: a path, a URL, a name ends it
            if option_before:  # the value of the option before it (`--config ./ops.yaml`)
                option_before = False
                continue
            break
        words.append((text, not option_before))
        counted += not option_before  # a word that may be an option's value (`--region us-east-1`) is not counted
        option_before = False
        if counted == _MAX_COMMAND_WORDS:
            break
    return words


def _capitalized_verb(texts: list[str]) -> list[tuple[str, bool]]:
    """A lone capitalized word where the verb would be (`tool Reimage web-1`, an RPC verb of one part): no
    command path by CLI conventions, but no path or name either, so the posture takes it for an unknown verb."""
    for text in texts:
        if text.startswith("-") and "=" in text:
            continue
        return [(text, True)] if re.fullmatch(r"[A-Z][a-z]{2,}", text) else []
    return []


def _verb_in(word: str) -> tuple[str, bool] | None:
    """A command word's verb: the word itself, else its first part that is one (`delete-bucket`,
    `instance-delete`, `db:drop`, `show-delete-markers` reads)."""
    for candidate in (word, *parts(word)):
        if candidate in DESTROYS or candidate in REVOKES:
            return candidate, True
        if candidate in READS:
            return candidate, False
    return None


def _only_local(program: str, verb: str) -> bool:
    """A verb the program's documentation gives for removing what an install or a download brings back."""
    local = LOCAL_VERBS.get(program, frozenset())
    return any(part in local for part in re.split(r"[-_:]", verb))


def _option_verb(name: str) -> bool:
    """An option that selects a destroying action: named by the verb (`--delete`, `-purge`) or holding it
    (`--force-reset`, `--delete-branch`), unless it turns something off or keeps it (`--no-delete`)."""
    parts = re.split(r"[-_]", name.lower())
    return parts[0] not in _NEGATIONS and any(part in _OPTION_VERBS for part in parts)


def _options(texts: list[str]) -> set[str]:
    """The names of the options given (dashes dropped), less those switched off (`--delete=false`);
    single-dash long options (`-purge`, Go's flag package) count as named."""
    names = set()
    for text in texts:
        if not text.startswith("-") or text == "-" or text == "--":
            continue
        name, eq, value = text.lstrip("-").partition("=")
        if eq and value.lower() in _OFF:
            continue
        names.add(name)
    return names


def _read_sql_arguments(call: Call, texts: list[str]) -> None:
    """An argument that begins as a statement that may write (`_SQL_STATEMENT`), wherever it sits (`-e`,
    `--query=`, an operand), is SQL the program runs, in a dialect nobody names: read by remote/sql_effects.py's
    one rule, so that one sqlglot cannot read is asked about. Any other argument is no SQL, even one that would
    parse (`SELECT ...` reads; a phrase is not a statement)."""
    for text in texts:
        sql = text.split("=", 1)[1] if text.startswith("-") and "=" in text else text
        if _SQL_STATEMENT.match(sql):
            run_sql(call, sql, None, f"the data {call.program} reaches")
