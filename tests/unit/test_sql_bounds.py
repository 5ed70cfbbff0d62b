"""SQL's WHERE read by its meaning (domains/shell/programs/sql_bounds.py, domains/shell/programs/sql.py): a bound must bind.

The generated test checks the reader against real SQLite: random predicates from a grammar (tautologies,
open atoms, binding atoms, subqueries, AND/OR/NOT, parentheses, random column names and literals), spelled
in several dialects, each read as `DELETE`/`UPDATE ... WHERE <predicate>`. A predicate the reader says
binds must match no row of a table that holds only fresh rows (values beyond every value the predicate
names, and NULL unless it names NULL); one it says is open must match some fresh row, except in the
over-cautious classes listed in OVER_CAUTIOUS.
"""

from __future__ import annotations

import itertools
import os
import random
import sqlite3
import time
from dataclasses import dataclass, field

import pytest

from agentworld_mcp.domains.shell.programs.sql import read_sql

CASES = 400
DIALECTS = ("postgres", "mysql", "sqlite", None)  # None: an MCP tool's SQL, dialect unknown
FAR = 10 ** 12  # beyond every integer the grammar names (|literal| <= 1000)
# Where the reader asks though no fresh row matches, on purpose (the cautious side), and how each is told:
OVER_CAUTIOUS = {
    "gate": "an uncorrelated EXISTS whose own WHERE binds: false in a fresh world, but it gates the whole "
            "table, all rows or none, so it binds nothing",
    "negated subquery": "NOT IN / NOT EXISTS over a subquery: NULLs in the subquery's rows make it never true, "
                        "which the reader does not count on",
    "contradiction": "open conditions that contradict each other (`a <> a`, `s LIKE '%x' AND NOT s LIKE '%x'`): "
                     "no row at all matches; the reader does not decide satisfiability",
}


@dataclass
class Case:
    """One generated predicate: its spelling per dialect and in SQLite, and what it names."""
    rng: random.Random
    ints: tuple[str, str]
    text: str
    sub_ints: tuple[str, str]
    sub_text: str
    ints_named: set[int] = field(default_factory=set)
    texts_named: set[str] = field(default_factory=set)
    patterns: set[str] = field(default_factory=set)
    names_null: bool = False
    tags: set[str] = field(default_factory=set)

    # --- literals ---------------------------------------------------------------------------------
    def number(self) -> int:
        value = self.rng.randint(-1000, 1000)
        self.ints_named.add(value)
        return value

    def word(self) -> str:
        value = "".join(self.rng.choice("abcdefgh") for _ in range(self.rng.randint(1, 4)))
        self.texts_named.add(value)
        return value


def _quote(name: str, dialect: str | None, rng: random.Random) -> str:
    if dialect == "mysql" and rng.random() < 0.5:
        return f"`{name}`"
    if dialect in ("postgres", "sqlite") and rng.random() < 0.3:
        return f'"{name}"'
    return name


class Spell:
    """Renders one predicate twice at once: in the dialect under test and in SQLite."""

    def __init__(self, case: Case, dialect: str | None):
        self.case, self.dialect, self.rng = case, dialect, case.rng

    def both(self, text: str) -> tuple[str, str]:
        return text, text

    def column(self, name: str, table: str, qualify: bool) -> tuple[str, str]:
        quoted = _quote(name, self.dialect, self.rng)
        return (f"{table}.{quoted}", f"{table}.{name}") if qualify else (quoted, name)

    def neq(self) -> str:
        return self.rng.choice(["<>", "!="])

    def truth(self, value: bool) -> tuple[str, str]:
        spelled = ("TRUE" if value else "FALSE") if self.dialect != "sqlite" or self.rng.random() < 0.5 else (
            "1 = 1" if value else "1 = 0")
        return spelled, "TRUE" if value else "FALSE"


class Node(tuple):
    """A predicate's two spellings (node[0] in the dialect, node[1] in SQLite) and how it was built, so
    that it can be spelled again with parts replaced. `positive`: not under a NOT."""

    def __new__(cls, template: str, *parts: tuple[str, str]):
        node = super().__new__(cls, (template.format(*(p[0] for p in parts)), template.format(*(p[1] for p in parts))))
        node.template, node.parts, node.kind, node.positive = template, parts, "atom", True
        return node

    def spelled(self, replaced) -> tuple[str, str]:
        """Both spellings, with each part `replaced(part)` says is never true written as `1 = 0`."""
        if replaced(self):
            return "1 = 0", "1 = 0"
        if self.kind not in ("and", "or", "not"):
            return self[0], self[1]
        parts = [part.spelled(replaced) for part in self.parts]
        return self.template.format(*(p[0] for p in parts)), self.template.format(*(p[1] for p in parts))


def _pair(template: str, *parts: tuple[str, str]) -> Node:
    return Node(template, *parts)


def _marked(node: Node, kind: str, positive: bool) -> Node:
    node.kind, node.positive = kind, positive
    return node


def _atom(spell: Spell, table: str, ints: tuple[str, str], text: str, qualify: bool, negated: bool,
          depth: int) -> tuple[str, str]:
    case, rng = spell.case, spell.rng
    number = rng.choice(ints)
    a = spell.column(number, table, qualify)
    b = spell.column(ints[1] if number == ints[0] else ints[0], table, qualify)
    s = spell.column(text, table, qualify)
    kind = rng.choice(["tautology", "contradiction", "eq", "eq-left", "in", "between", "is-null", "is-not-null",
                       "like", "like-prefix", "like-open", "range", "range-left", "neq", "not-in", "self",
                       "columns", "text-range", "null-compare"] + (["in-sub", "exists", "gate"] if depth else []))
    n = lambda: spell.both(str(case.number()))  # noqa: E731 - a fresh literal each call
    w = lambda: spell.both(f"'{case.word()}'")  # noqa: E731
    if kind == "tautology":
        return rng.choice([spell.truth(True), spell.both("1 = 1"), spell.both("'x' = 'x'"),
                           _pair("NOT {}", spell.truth(False)), spell.both("2 > 1")])
    if kind == "contradiction":
        return rng.choice([spell.truth(False), spell.both("1 = 0")])
    if kind == "eq":
        return _pair("{} = {}", a, n()) if rng.random() < 0.6 else _pair("{} = {}", s, w())
    if kind == "eq-left":
        return _pair("{} = {}", n(), a)
    if kind == "in":
        return _pair("{} IN ({}, {})", a, n(), n())
    if kind == "between":
        low, high = sorted((case.number(), case.number()))
        return _pair("{} BETWEEN {} AND {}", a, spell.both(str(low)), spell.both(str(high)))
    if kind in ("is-null", "is-not-null", "null-compare"):
        case.names_null = True
        if kind == "null-compare":
            return _pair("{} " + rng.choice(["=", spell.neq(), "<"]) + " NULL", a)
        return _pair("{} IS NULL" if kind == "is-null" else "{} IS NOT NULL", rng.choice([a, s]))
    if kind in ("like", "like-prefix", "like-open"):
        if kind == "like-open" and any(p[:1] in ("%", "_") for p in case.patterns):
            kind = "like-prefix"  # two open patterns may exclude each other: one per predicate
        word = case.word()
        pattern = {"like": word, "like-prefix": word + "%", "like-open": rng.choice(["%", "_"]) + word +
                   rng.choice(["", "%"])}[kind]
        case.texts_named.add(pattern)
        case.patterns.add(pattern)
        return _pair("{} LIKE {}", s, spell.both(f"'{pattern}'"))
    if kind == "range":
        return _pair("{} " + rng.choice([">", ">=", "<", "<="]) + " {}", a, n())
    if kind == "range-left":
        return _pair("{} " + rng.choice([">", "<="]) + " {}", n(), a)
    if kind == "text-range":
        return _pair("{} " + rng.choice([">", "<"]) + " {}", s, w())
    if kind == "neq":
        return _pair("{} " + spell.neq() + " {}", a, n())
    if kind == "not-in":
        return _pair("{} NOT IN ({}, {})", a, n(), n())
    if kind == "self":
        return _pair("{} = {}", a, a)
    if kind == "columns":  # `<>` only: `a = b` or `a < b` would carry a bound from one column to the other
        return _pair("{} " + spell.neq() + " {}", a, b)
    return _subquery(spell, kind, a, table, negated)


def _subquery(spell: Spell, kind: str, outer: tuple[str, str], table: str, negated: bool) -> tuple[str, str]:
    case = spell.case
    if negated:
        case.tags.add("negated subquery")
    # the inner condition leaves the selected column alone, which carries no bound into the outer one
    other = (case.sub_ints[1], case.sub_ints[1])
    inner = _predicate(spell, "u", other, case.sub_text, True, negated, depth=0, size=2)
    tid = spell.column(case.sub_ints[0], "u", True)
    if kind == "in-sub":
        return _pair("{} IN (SELECT {} FROM u WHERE {})", outer, tid, inner)
    if kind == "exists":
        outer_qualified = spell.column(spell.rng.choice(case.ints), table, True)
        return _pair("EXISTS (SELECT 1 FROM u WHERE {} = {} AND ({}))", tid, outer_qualified, inner)
    return _marked(_pair("EXISTS (SELECT 1 FROM u WHERE {})", inner), "gate", not negated)


def _predicate(spell: Spell, table: str, ints: tuple[str, str], text: str, qualify: bool, negated: bool,
               depth: int, size: int) -> tuple[str, str]:
    rng = spell.rng
    if size <= 1 or rng.random() < 0.3:
        atom = _pair("{}", _atom(spell, table, ints, text, qualify, negated, depth))
        return atom.parts[0] if getattr(atom.parts[0], "kind", "") == "gate" else _marked(atom, "atom", not negated)
    shape = rng.choice(["AND", "OR", "NOT", "AND", "OR"])
    if shape == "NOT":
        inner = _predicate(spell, table, ints, text, qualify, not negated, depth, size - 1)
        return _marked(_pair("NOT ({})", inner), "not", not negated)
    left = _predicate(spell, table, ints, text, qualify, negated, depth, size // 2)
    right = _predicate(spell, table, ints, text, qualify, negated, depth, size - size // 2)
    # without parentheses AND binds tighter than OR in every dialect and in SQLite alike
    template = "({}) " + shape + " ({})" if rng.random() < 0.7 else "{} " + shape + " {}"
    return _marked(_pair(template, left, right), shape.lower(), not negated)


def _name(rng: random.Random) -> str:
    return "c_" + "".join(rng.choice("klmnopqrstuvwxyz") for _ in range(rng.randint(2, 6)))


def _case(seed: int) -> tuple[Case, str | None, str, Node]:
    rng = random.Random(seed)
    names = iter(dict.fromkeys(_name(rng) for _ in range(40)))
    case = Case(rng, (next(names), next(names)), next(names), (next(names), next(names)), next(names))
    dialect = rng.choice(DIALECTS)
    spell = Spell(case, dialect)
    predicate = _predicate(spell, "t", case.ints, case.text, rng.random() < 0.3, False, 1, rng.randint(1, 6))
    head = ("DELETE FROM t WHERE " if rng.random() < 0.6 else
            f"UPDATE t SET {_quote(case.ints[0], dialect, rng)} = 0 WHERE ")
    return case, dialect, head, predicate


def _fresh(case: Case) -> tuple[list, list]:
    """Values beyond all the case names: integers past every literal (two apart, for `a < b` beyond a
    bound), strings sorting below (a leading space) or above (a tilde) every named one, among them the
    two that match each leading-wildcard pattern from below and from above."""
    texts = [" zz", "~zz"] + ["".join(edge if c in "%_" else c for c in p) for p in case.patterns
                              if p[:1] in ("%", "_") for edge in " ~"]
    ints: list = [FAR, -FAR, 2 * FAR, -2 * FAR]
    if not case.names_null:
        ints, texts = ints + [None], texts + [None]
    return ints, texts


def _rich(case: Case) -> tuple[list, list]:
    """Named values, their neighbours, and the fresh ones: where a contradiction still matches nothing."""
    ints, texts = _fresh(case)
    named = sorted(case.ints_named)[:4]
    return (ints + named + [v + 1 for v in named])[:8], (texts + sorted(case.texts_named)[:4])[:8]


def _count(case: Case, predicate: str, ints: list, texts: list, extra: str = "") -> int:
    db = sqlite3.connect(":memory:")
    (i1, i2), s, (u1, u2), us = case.ints, case.text, case.sub_ints, case.sub_text
    db.execute(f"CREATE TABLE t ({i1} INTEGER, {i2} INTEGER, {s} TEXT)")
    db.execute(f"CREATE TABLE u ({u1} INTEGER, {u2} INTEGER, {us} TEXT)")
    rows = list(itertools.product(ints, ints, texts))
    db.executemany("INSERT INTO t VALUES (?, ?, ?)", rows)
    db.executemany("INSERT INTO u VALUES (?, ?, ?)", rows)
    return db.execute(extra or f"SELECT count(*) FROM t WHERE {predicate}").fetchone()[0]


def _explained(case: Case, dialect: str | None, head: str, predicate: Node) -> str:
    """Which over-cautious class explains an open reading that no fresh row matches: the predicate with
    each part that is never true written as FALSE (a gate false in the fresh world; a part not under a
    NOT that no row of a richer world matches) reads as binding. '' where nothing explains it."""
    if case.tags:
        return sorted(case.tags)[0]
    fresh, rich, classes = _fresh(case), _rich(case), []

    def replaced(node: Node) -> bool:
        if node.kind == "gate" and _count(case, "", *fresh, extra=f"SELECT {node[1]}") == 0:
            classes.append("gate")
            return True
        if node.positive and _count(case, node[1], *rich) == 0:
            classes.append("contradiction")
            return True
        return False

    spelled, _ = predicate.spelled(replaced)
    return classes[0] if classes and read_sql(head + spelled, dialect).harmless else ""


def test_a_where_the_reader_says_binds_matches_no_fresh_row_and_an_open_one_does():
    seed = int(os.environ.get("SQL_BOUNDS_SEED", random.randrange(10 ** 9)))
    started, verdicts = time.monotonic(), {"binds": 0, "open": 0, **{name: 0 for name in OVER_CAUTIOUS}}
    for index in range(CASES):
        case, dialect, head, predicate = _case(seed + index)
        statement = head + predicate[0]
        reading = read_sql(statement, dialect)
        assert not reading.unknown, (seed + index, statement, reading.unknown)
        matched = _count(case, predicate[1], *_fresh(case))
        where = f"seed {seed + index} (SQL_BOUNDS_SEED={seed}), {dialect}: {statement}\nSQLite: {predicate[1]}"
        if not reading.destroys:
            verdicts["binds"] += 1
            assert matched == 0, f"the reader says it binds, yet {matched} fresh rows match: {where}"
        elif matched:
            verdicts["open"] += 1
        else:
            why = _explained(case, dialect, head, predicate)
            assert why in OVER_CAUTIOUS, f"the reader says open, yet no fresh row matches: {where}\n{reading}"
            verdicts[why] += 1
    assert verdicts["binds"] > CASES // 10 and verdicts["open"] > CASES // 10, verdicts  # both sides exercised
    assert time.monotonic() - started < 30, verdicts


# --- each rule, one line each --------------------------------------------------------------------------
@pytest.mark.parametrize(("sql", "dialect", "reason"), [
    ("DELETE FROM users WHERE 1=1", "postgres", "WHERE 1 = 1 is always true"),
    ("DELETE FROM users WHERE true", "mysql", "is always true"),
    ("DELETE FROM users WHERE 'x' = 'x'", "sqlite", "is always true"),
    ("DELETE FROM users WHERE NOT FALSE", "postgres", "is always true"),
    ("DELETE FROM users WHERE id = 7 OR 1 = 1", "postgres", "is always true"),
    ("UPDATE users SET password = NULL WHERE id > 0", "postgres", "id > 0 does not bind rows to named values"),
    ("DELETE FROM sessions WHERE expires < now()", "postgres", "does not bind rows to named values"),
    ("DELETE FROM users WHERE id <> 7", "postgres", "does not bind"),
    ("DELETE FROM users WHERE id != 7", "mysql", "does not bind"),
    ("DELETE FROM users WHERE id NOT IN (1, 2)", "postgres", "does not bind"),
    ("DELETE FROM users WHERE email IS NOT NULL", "postgres", "does not bind"),
    ("DELETE FROM users WHERE email LIKE '%@example.com'", "postgres", "does not bind"),
    ("DELETE FROM users WHERE email LIKE $1", "postgres", "does not bind"),  # the parameter may be '%'
    ("DELETE FROM users WHERE id = id", "postgres", "does not bind"),
    ("DELETE FROM users WHERE NOT (id = 7)", "postgres", "does not bind"),
    ("DELETE FROM users WHERE id = 7 OR id > 100", "postgres", "does not bind"),
    ("DELETE FROM users WHERE lower(email) = 'a@b.c'", "postgres", "does not bind"),
    ("DELETE FROM users WHERE id IN (SELECT user_id FROM bans)", "postgres", "does not bind"),
    ("DELETE FROM users WHERE EXISTS (SELECT 1 FROM flags WHERE flags.on = 1)", "postgres", "does not bind"),
    ("DELETE FROM orders USING customers WHERE orders.customer_id = customers.id", "postgres", "does not bind"),
    ("DELETE FROM users", "postgres", "no WHERE: every row"),
    ("WITH gone AS (DELETE FROM users RETURNING id) SELECT count(*) FROM gone", "postgres", "no WHERE"),
    ("WITH x AS (UPDATE users SET admin = true WHERE id > 0 RETURNING id) SELECT 1", "postgres", "does not bind"),
    ("INSERT INTO users SELECT * FROM staging ON CONFLICT (id) DO UPDATE SET name = excluded.name", "postgres",
     "overwrites the rows its SELECT yields"),
])
def test_a_where_that_does_not_bind_destroys_and_says_why(sql, dialect, reason):
    reading = read_sql(sql, dialect)
    assert reading.destroys and reason in reading.destroys[0], reading


@pytest.mark.parametrize(("sql", "dialect"), [
    ("DELETE FROM users WHERE id = 7", "postgres"), ("DELETE FROM users WHERE id = $1", "postgres"),
    ("DELETE FROM users WHERE id = ?", "sqlite"), ("DELETE FROM users WHERE id = :id", "sqlite"),
    ("DELETE FROM users WHERE id IN (1, 2, 3)", "mysql"), ("DELETE FROM logs WHERE day BETWEEN 1 AND 7", "postgres"),
    ("DELETE FROM logs WHERE day >= 1 AND day < 8", "postgres"), ("DELETE FROM users WHERE email IS NULL", "postgres"),
    ("DELETE FROM users WHERE email LIKE 'a@b.c'", "postgres"),
    ("DELETE FROM users WHERE name LIKE 'tmp_%'", "postgres"),  # a prefix: a closed range of strings
    ("DELETE FROM users WHERE id = 7 OR email = 'a@b.c'", "postgres"),
    ("DELETE FROM users WHERE id = 7 AND age > 3", None),
    ("DELETE FROM users WHERE NOT (id <> 7)", "postgres"),
    ("DELETE FROM users WHERE NOT (id < 5 OR id > 9)", "postgres"),
    ("DELETE FROM users WHERE created = now()", "postgres"), ("DELETE FROM users WHERE id = NULL", "postgres"),
    ("DELETE FROM users WHERE 1 = 0", "postgres"),
    ("DELETE FROM users WHERE id IN (SELECT user_id FROM bans WHERE reason = 'spam')", "postgres"),
    ("DELETE FROM users WHERE EXISTS (SELECT 1 FROM bans WHERE bans.user_id = users.id AND bans.id = 4)", "postgres"),
    ("DELETE FROM orders USING customers c WHERE orders.customer_id = c.id AND c.name = 'acme'", "postgres"),
    ("DELETE o FROM orders o JOIN customers c ON o.customer_id = c.id WHERE c.name = 'acme'", "mysql"),
    ("UPDATE t SET a = 1 FROM u WHERE t.k = u.k AND u.id = 9", "postgres"),
    ("WITH gone AS (DELETE FROM users WHERE id = 7 RETURNING id) SELECT count(*) FROM gone", "postgres"),
    ("INSERT INTO users VALUES (1, 'a') ON CONFLICT (id) DO UPDATE SET name = excluded.name", "postgres"),
    ("INSERT INTO users SELECT * FROM staging WHERE id = 4 ON DUPLICATE KEY UPDATE name = 'a'", "mysql"),
])
def test_a_where_that_binds_destroys_nothing(sql, dialect):
    assert read_sql(sql, dialect).harmless, read_sql(sql, dialect)


@pytest.mark.parametrize(("sql", "dialect", "destroys"), [
    ("BEGIN; DELETE FROM t; ROLLBACK", "postgres", False),
    ("START TRANSACTION; DELETE FROM t; ROLLBACK;", "postgres", False),
    ("START TRANSACTION; UPDATE t SET a = 1; ROLLBACK", "mysql", False),
    ("BEGIN; DELETE FROM t; ABORT", "postgres", False),
    ("BEGIN; DROP TABLE t; ROLLBACK", "postgres", False),  # PostgreSQL's DDL is transactional
    ("BEGIN; DROP TABLE t; ROLLBACK", "sqlite", False),
    ("BEGIN; DROP TABLE t; ROLLBACK", "mysql", True),  # MySQL commits before DDL
    ("BEGIN; DROP TABLE t; ROLLBACK", None, True),  # an unknown database: as MySQL
    ("BEGIN; DELETE FROM t; CREATE TABLE x (a int); ROLLBACK", "mysql", True),  # the CREATE commits the DELETE
    ("BEGIN; DELETE FROM t; ROLLBACK", None, False),
    ("BEGIN; DELETE FROM t; COMMIT; ROLLBACK", "postgres", True),
    ("BEGIN; DELETE FROM t", "postgres", True),  # never ended: may yet be committed
    ("DELETE FROM t; ROLLBACK", "postgres", True),  # no transaction was open
    ("BEGIN; SAVEPOINT s; DELETE FROM t; ROLLBACK TO SAVEPOINT s; COMMIT", "postgres", False),
    ("BEGIN; DELETE FROM t; SAVEPOINT s; ROLLBACK TO s; COMMIT", "postgres", True),  # undone only back to s
    ("BEGIN; SAVEPOINT s; RELEASE SAVEPOINT s; DELETE FROM t; ROLLBACK TO s; COMMIT", "postgres", True),
    ("SAVEPOINT s; DELETE FROM t; ROLLBACK TO s; RELEASE s", "sqlite", False),
    ("BEGIN; DELETE FROM t; ROLLBACK", "clickhouse", True),
])
def test_what_a_rollback_undoes_loses_nothing(sql, dialect, destroys):
    assert bool(read_sql(sql, dialect).destroys) is destroys, read_sql(sql, dialect)


@pytest.mark.parametrize(("sql", "dialect", "destroys"), [
    ("CREATE TEMP TABLE ids (id int); DROP TABLE ids", "postgres", False),
    ("CREATE TEMPORARY TABLE ids AS SELECT id FROM users; DELETE FROM ids; DROP TABLE ids", "postgres", False),
    ("CREATE TEMPORARY TABLE ids (id int); TRUNCATE ids; DROP TABLE ids", "mysql", False),
    ("CREATE TEMP TABLE ids (id int); DROP TABLE temp.ids", "sqlite", False),
    ("DROP TEMPORARY TABLE ids", "mysql", False),  # never a permanent table
    ("CREATE TABLE ids (id int); DROP TABLE ids", "postgres", True),  # a failed CREATE leaves the DROP to hit it
    ("CREATE TEMP TABLE ids (id int); DROP TABLE ids; DROP TABLE ids", "postgres", True),  # the second: permanent
    ("CREATE TEMP TABLE ids (id int); DROP TABLE public.ids", "postgres", True),
    ("BEGIN; CREATE TEMP TABLE ids (id int); ROLLBACK; DROP TABLE ids", "postgres", True),
    ("DROP TABLE ids; CREATE TEMP TABLE ids (id int)", "postgres", True),
])
def test_a_temporary_table_this_sql_created_loses_nothing(sql, dialect, destroys):
    assert bool(read_sql(sql, dialect).destroys) is destroys, read_sql(sql, dialect)


@pytest.mark.parametrize(("sql", "dialect", "destroys"), [
    ("MERGE INTO users u USING staging s ON u.id = s.id WHEN MATCHED THEN UPDATE SET name = s.name", "postgres", True),
    ("MERGE INTO users u USING staging s ON u.id = s.id WHEN MATCHED THEN DELETE", None, True),
    ("MERGE INTO users u USING staging s ON 1 = 1 WHEN MATCHED THEN DELETE", "tsql", True),
    ("MERGE INTO users u USING staging s ON u.id = s.id AND s.id IN (1, 2) WHEN MATCHED THEN DELETE", "postgres",
     False),  # the ties reach a pinned source row: as a WHERE binds
    ("MERGE INTO users u USING staging s ON u.id = 7 WHEN MATCHED THEN DELETE", "postgres", False),
    ("MERGE INTO users u USING staging s ON u.id = s.id WHEN MATCHED AND u.id = 3 THEN DELETE", "postgres", False),
    ("MERGE INTO users u USING staging s ON u.id = s.id WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)", None,
     False),
    ("MERGE INTO users u USING staging s ON u.id = 7 WHEN NOT MATCHED BY SOURCE THEN DELETE", "tsql", True),
    ("CREATE TEMP TABLE t (id int); MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", "postgres", False),
])
def test_a_merge_loses_the_target_rows_its_on_matches_unless_it_binds(sql, dialect, destroys):
    reading = read_sql(sql, dialect)
    assert not reading.unknown and bool(reading.destroys) is destroys, reading


@pytest.mark.parametrize(("sql", "dialect"), [("DELETE a", None), ("DELETE a", "postgres"),
                                              ("DELETE FROM (SELECT 1) x", "postgres")])
def test_a_statement_whose_target_is_not_a_table_is_unknown(sql, dialect):
    assert read_sql(sql, dialect).unknown, read_sql(sql, dialect)


def test_an_error_while_reading_a_statement_makes_it_unknown_and_the_rest_is_still_read(monkeypatch):
    from agentworld_mcp.domains.shell.programs import sql_bounds

    def broken(*_args, **_kwargs):
        raise AttributeError("an unexpected tree")

    monkeypatch.setattr(sql_bounds, "unbound", broken)
    reading = read_sql("DELETE FROM users WHERE id = 1; DROP TABLE audit", "postgres")
    assert "AttributeError" in reading.unknown and reading.destroys == ("DROP TABLE audit",), reading



@pytest.mark.parametrize(("sql", "destroys"), [
    ("BEGIN; DELETE FROM users; PREPARE TRANSACTION 'x'; ROLLBACK", True),  # prepared: no longer the session's
    ("BEGIN; DELETE FROM users; ROLLBACK", False),
    ("PREPARE fetch_user AS SELECT * FROM users WHERE id = $1", False),  # a prepared statement commits nothing
])
def test_a_prepared_transaction_is_not_undone_by_a_rollback(sql, destroys):
    reading = read_sql(sql, "postgres")
    assert bool(reading.destroys) is destroys, reading
