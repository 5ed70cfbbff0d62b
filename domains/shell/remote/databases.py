"""Database clients, read by what they are asked to run: psql (psql(1)), mysql and mariadb (mysql(1)),
sqlite3 (sqlite.org/cli.html), clickhouse-client, redis-cli (redis.io/docs/latest/commands) and
mongosh (mongodb.com/docs/mongodb-shell).

SQL comes from `-c`/`-e`/`--query`, the operands sqlite3 takes, a here-document or here-string, or
standard input; it is read by its meaning, by remote/sql_effects.py's one rule. SQL the line does not show (a
file, a pipe from another program) is unknown, never allowed by default. A client started with no
SQL at all is interactive, and the agent's terminal sends it nothing. sqlite3's database is a file,
so what the SQL destroys is decided like any loss of a file: nothing where git holds a clean copy.
"""

from __future__ import annotations

import re

from ..reading.options import Spec, parse
from ..reading.call import Call
from ..reading.effects import Effect
from ..reading.registry import handles
from ..reading.words import Value
from .sql_effects import NO_COPY, run_sql
from .tables import destruction


def _unseen_sql(call: Call, where: str, holds: str) -> None:
    destruction(call, where, f"runs SQL the line does not show ({where}); it may destroy {holds}", loss="unknown")


def _file_sql(call: Call, script: Value, dialect: str, holds: str, meta: re.Pattern[str] | None = None) -> None:
    """SQL in a file: read where the world can read the file (the guard's workspace), else unknown."""
    text = call.text_of(script)
    if text is None:
        _unseen_sql(call, f"the file {script.text}", holds)
    else:
        run_sql(call, _without_meta(call, text, meta), dialect, holds)


def _stdin_sql(call: Call, dialect: str, holds: str, meta: re.Pattern[str] | None = None) -> None:
    """SQL on standard input: a here-document's or a literal echo's text, or a file's, is read; another
    program's output is not in the line; the terminal sends nothing."""
    stdin = call.stdin
    if stdin.text is not None:
        run_sql(call, _without_meta(call, stdin.text, meta), dialect, holds)
    elif stdin.source == "file" and stdin.path is not None:
        _file_sql(call, stdin.path, dialect, holds, meta)
    elif stdin.piped and stdin.from_program == "cat" and len(stdin.carries) == 1:
        _file_sql(call, Value(stdin.carries[0]), dialect, holds, meta)
    elif stdin.source in ("text", "pipe"):
        _unseen_sql(call, "its standard input", holds)


# --- psql ------------------------------------------------------------------------------------------
_PSQL = Spec(short_values="cdfhpUvPoLFRT", longs=(
    "command=", "dbname=", "file=", "host=", "port=", "username=", "set=", "variable=", "pset=", "output=",
    "log-file=", "field-separator=", "record-separator=", "table-attr=", "list", "no-psqlrc", "quiet", "tuples-only",
    "no-align", "single-transaction", "echo-queries", "echo-hidden", "expanded", "no-password", "password", "csv",
    "html", "version", "help?"))
# psql's meta-commands that only show or set how output looks (psql(1), "Meta-Commands"); \i, \ir, \include
# run a file and \! a shell command, so they are not among them.
_PSQL_READS = re.compile(r"\\(d[a-zA-Z+]*|l\+?|list|c|connect|conninfo|q|quit|x|timing|echo|qecho|pset|set|unset|\?|h|"
                         r"help|encoding|a|t|f|H|T|C|z|sf\+?|sv\+?|p|r|g|gx|watch|copyright|errverbose|prompt)\b")
_PSQL_META = re.compile(r"^\s*\\")


# Each client's escape to the system shell, run on this machine (psql(1) `\\! [command]`; mysql(1) `system
# command` and `\\! command`; sqlite.org/cli.html `.shell CMD` and `.system CMD`): the rest of the line is a command.
_SYSTEM_ESCAPES = {"psql": re.compile(r"\s*\\!\s*(.*)"), "mysql": re.compile(r"\s*(?:\\!|system\s)\s*(.*)", re.I),
                   "sqlite3": re.compile(r"\s*\.(?:shell|system)\s+(.*)")}
_SYSTEM_ESCAPES.update(mariadb=_SYSTEM_ESCAPES["mysql"], sqlite=_SYSTEM_ESCAPES["sqlite3"])


def _without_meta(call: Call, text: str, meta: re.Pattern[str] | None) -> str:
    """The SQL of a script, without the client's own commands; those that only show are dropped, an escape to
    the shell is read as the command it runs here, any other is unknown."""
    escape = _SYSTEM_ESCAPES.get(call.program)
    kept = []
    for line in text.splitlines():
        if escape is not None and (shell := escape.fullmatch(line)) is not None:
            if shell.group(1).strip():
                call.run_script(shell.group(1).rstrip(";"), scope=call.scope.copy())
            continue
        if meta is None:
            kept.append(line)
            continue
        if _PSQL_META.match(line) or (meta is _SQLITE_DOT and line.lstrip().startswith(".")):
            if not meta.match(line.strip()):
                destruction(call, line.strip()[:60], f"{line.strip()[:40]} is a {call.program} command that may run "
                                                     "a file, a shell or change the database", loss="unknown")
            continue
        kept.append(line)
    return "\n".join(kept)


@handles("psql")
def _psql(call: Call) -> None:
    holds = "PostgreSQL data"
    p = parse(call.args, _PSQL)
    if p.has("l", "list", "version", "V", "help"):
        return
    commands = p.flags.get("c", []) + p.flags.get("command", [])
    for command in commands:
        run_sql(call, _without_meta(call, command, _PSQL_READS), "postgres", holds)
    for script in p.flags.get("f", []) + p.flags.get("file", []):
        _file_sql(call, call.literal(script), "postgres", holds, _PSQL_READS)
    if not commands and not p.has("f", "file"):
        _stdin_sql(call, "postgres", holds, _PSQL_READS)


# --- mysql and mariadb -----------------------------------------------------------------------------
_MYSQL = Spec(short_values="eDhPuSO", short_optional="p", longs=(
    "execute=", "database=", "host=", "port=", "user=", "socket=", "password?", "defaults-file=",
    "defaults-extra-file=", "batch", "skip-column-names", "silent", "verbose", "table", "vertical", "force",
    "version", "help", "protocol=", "ssl-mode=", "default-character-set="))


@handles("mysql", "mariadb")
def _mysql(call: Call) -> None:
    holds = "the database's data"
    p = parse(call.args, _MYSQL)
    if p.has("version", "V", "help", "?"):
        return
    commands = p.flags.get("e", []) + p.flags.get("execute", [])
    for command in commands:
        run_sql(call, _without_meta(call, command, None), "mysql", holds)
    if not commands:
        _stdin_sql(call, "mysql", holds)


# --- clickhouse ------------------------------------------------------------------------------------
_CLICKHOUSE = Spec(short_values="qdhu", longs=("query=", "queries-file=", "database=", "host=", "port=", "user=",
                                               "password=", "multiquery", "multiline", "format=", "config-file="))


@handles("clickhouse-client")
def _clickhouse_client(call: Call) -> None:
    holds = "ClickHouse data"
    p = parse(call.args, _CLICKHOUSE)
    queries = p.flags.get("q", []) + p.flags.get("query", [])
    for query in queries:
        run_sql(call, query, "clickhouse", holds)
    for script in p.flags.get("queries-file", []):
        _file_sql(call, call.literal(script), "clickhouse", holds)
    if not queries and not p.has("queries-file"):
        _stdin_sql(call, "clickhouse", holds)


@handles("clickhouse")
def _clickhouse(call: Call) -> None:
    if call.args and call.args[0].text == "client":
        _clickhouse_client(Call(call.program, call.args[1:], call.scope, call.index, call.stdin, call.reader,
                                call.text))


# --- sqlite3 ---------------------------------------------------------------------------------------
_SQLITE_VALUES = frozenset({"cmd", "init", "separator", "newline", "nullvalue", "vfs", "maxsize", "mmap",
                            "pagecache", "lookaside", "heap", "A"})
_SQLITE_DOT = re.compile(r"\.(tables|schema|indexes|indices|databases|dbinfo|dump|fullschema|headers?|mode|help|"
                         r"show|quit|exit|width|nullvalue|separator|timer|eqp|stats|print|echo|changes|bail|"
                         r"lint|selftest|sha3sum|testcase|check|version)\b")


@handles("sqlite3", "sqlite")
def _sqlite(call: Call) -> None:
    operands: list[Value] = []
    commands: list[str] = []
    index = 0
    while index < len(call.args):
        text = call.args[index].text
        index += 1
        name = text.lstrip("-")
        if text.startswith("-") and operands == [] and name in _SQLITE_VALUES:
            if name == "cmd" and index < len(call.args):
                commands.append(call.args[index].text)
            index += 1
        elif text.startswith("-") and not operands:
            if name in ("version", "help"):
                return
        else:
            operands.append(call.args[index - 1])
    if not operands or operands[0].text == ":memory:":
        return  # a database in memory: nothing outlives the command
    database = operands[0]
    before = len(call.reader.effects)
    for text in (*commands, *(o.text for o in operands[1:])):
        run_sql(call, _without_meta(call, text, _SQLITE_DOT), "sqlite", f"data in {database.text}")
    if len(operands) == 1 and not commands:
        _stdin_sql(call, "sqlite", f"data in {database.text}", _SQLITE_DOT)
    # The database is a file: the loss is that file's, decided by the workspace like any other.
    path, where = call.scope.path(database)
    if not call.scope.cwd_known and not database.text.startswith("/"):
        where = "unknown"
    effects = call.reader.effects
    effects[before:] = [Effect(e.kind, path, where, target=e.target, fact=e.fact, program=e.program,
                               command=e.command, maybe=e.maybe, loss=e.loss)
                        if e.kind == "remote-destruction" and e.program == call.program and not e.path else e
                        for e in effects[before:]]  # a `.shell` command's effects are its own


# --- redis-cli -------------------------------------------------------------------------------------
_REDIS = Spec(short_values="hpsaunridD", longs=(
    "user=", "pass=", "askpass", "tls", "sni=", "cacert=", "cacertdir=", "cert=", "key=", "insecure", "raw",
    "no-raw", "csv", "json", "quoted-json", "scan", "pattern=", "quoted-pattern=", "count=", "bigkeys", "memkeys",
    "memkeys-samples=", "hotkeys", "stat", "latency", "latency-history", "latency-dist", "lru-test=", "rdb=",
    "functions-rdb=", "pipe", "pipe-timeout=", "eval=", "ldb", "ldb-sync-mode", "cluster=", "verbose",
    "no-auth-warning", "version", "help"), permute=False)
# Commands that remove keys or values (redis.io command reference: the @keyspace, @write and @dangerous
# commands whose summary is to delete, remove, trim or flush).
_REDIS_DESTROYS = frozenset({
    "FLUSHALL", "FLUSHDB", "DEL", "UNLINK", "GETDEL", "HDEL", "SREM", "ZREM", "ZREMRANGEBYLEX", "ZREMRANGEBYRANK",
    "ZREMRANGEBYSCORE", "LREM", "LTRIM", "XDEL", "XTRIM", "SWAPDB", "RENAME", "JSON.DEL", "JSON.FORGET"})
_REDIS_TWO_WORDS = {("FUNCTION", "FLUSH"), ("SHUTDOWN", "NOSAVE"), ("XGROUP", "DESTROY"), ("FT.DROPINDEX", "DD")}


def _redis_command(call: Call, words: list[str]) -> None:
    if not words:
        return
    name = words[0].upper()
    pair = (name, words[1].upper()) if len(words) > 1 else None
    if name in _REDIS_DESTROYS or pair in _REDIS_TWO_WORDS or (name == "FT.DROPINDEX" and "DD" in map(str.upper, words)):
        destruction(call, " ".join(words[:3]), f"removes keys or values; {NO_COPY} (an RDB or AOF file)")


@handles("redis-cli", "valkey-cli", "keydb-cli")
def _redis(call: Call) -> None:
    p = parse(call.args, _REDIS)
    if p.has("version", "help", "scan", "bigkeys", "memkeys", "hotkeys", "stat", "latency", "latency-history",
             "latency-dist"):
        return
    if p.has("pipe", "eval", "cluster"):
        destruction(call, "redis-cli " + next(n for n in ("pipe", "eval", "cluster") if p.has(n)),
                    "runs commands the line does not show", loss="unknown")
        return
    if any(not word.literal for word in p.rest[:2]):
        destruction(call, " ".join(w.text for w in p.rest[:2]), "the command is only known when it runs",
                    loss="unknown")
    elif p.rest:
        _redis_command(call, [word.text for word in p.rest])
    elif call.stdin.text is not None:  # a here-document, or a literal echo piped in
        for line in call.stdin.text.splitlines():
            _redis_command(call, line.split())
    elif call.stdin.source in ("text", "pipe", "file"):
        destruction(call, "commands on standard input", "runs commands the line does not show", loss="unknown")


# --- mongosh ---------------------------------------------------------------------------------------
_MONGO = Spec(short_values="fup", longs=("eval=", "file=", "host=", "port=", "username=", "password=",
                                          "authenticationDatabase=", "authenticationMechanism=", "nodb", "quiet",
                                          "shell", "norc", "tls", "json?", "version", "help"))
# Calls that drop a database, a collection or users (indexes are rebuilt from their definition: not a loss).
_MONGO_DROPS = re.compile(r"\.(dropDatabase|drop|dropUser|dropAllUsers|dropRole|dropAllRoles)\s*\(")
# Deletes and updates with an empty filter reach every document, as DELETE or UPDATE without WHERE.
_MONGO_UNBOUNDED = re.compile(r"\.(deleteMany|remove|updateMany|update|replaceMany)\s*\(\s*(\{\s*\}\s*)?[,)]")
_MONGO_COMMANDS = re.compile(r"\b(dropDatabase|drop|delete)\s*:")


def _mongo_code(call: Call, code: str) -> None:
    for pattern, why in ((_MONGO_DROPS, "drops it with its documents"),
                         (_MONGO_UNBOUNDED, "reaches every document: its filter is empty"),
                         (_MONGO_COMMANDS, "runs a database command that drops or deletes")):
        if found := pattern.search(code):
            destruction(call, code[max(0, found.start() - 20):found.end() + 20].strip(), f"{why}; {NO_COPY}")
            return


@handles("mongosh", "mongo")
def _mongosh(call: Call) -> None:
    p = parse(call.args, _MONGO)
    if p.has("version", "help"):
        return
    code = p.flags.get("eval", [])
    for text in code:
        _mongo_code(call, text)
    scripts = [*p.flags.get("f", []), *p.flags.get("file", []),
               *(o.text for o in p.operands if o.text.endswith((".js", ".mongodb")))]
    for script in scripts:
        destruction(call, script, f"runs the script {script}, which the line does not show", loss="unknown")
    if not code and not scripts:
        if call.stdin.text is not None:
            _mongo_code(call, call.stdin.text)
        elif call.stdin.source in ("text", "pipe", "file"):
            destruction(call, "code on standard input", "runs code the line does not show", loss="unknown")
