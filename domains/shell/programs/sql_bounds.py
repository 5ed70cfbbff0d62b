"""Whether a DELETE's or UPDATE's WHERE bounds its loss, read from sqlglot's tree by SQL's own meaning.

A WHERE bounds the loss only where it confines the changed table's rows to values the statement
names. Precisely: call a value fresh when it lies beyond every value the statement names (above the
largest or below the smallest in its column's order), or is NULL where the statement names no NULL.
A WHERE binds when, in a database whose every table holds only rows of fresh values, it matches no
row of the changed table, and it reaches that table's rows through their own columns (a condition on
another table alone is a gate, all rows or none, and binds nothing). Read off the tree:

- an atom binds a table when it pins one of its columns to values the statement supplies: `col = v`
  with `v` free of columns (a literal, a parameter `$1` `?` `:id`, a function of constants), `col IN
  (values)`, `col BETWEEN a AND b`, `col IS NULL`, `col LIKE 'prefix...'` (no leading wildcard), or a
  lower and an upper bound on the same column in one conjunction;
- a column equal to another table's column ties the two tables (a join, `IN (SELECT ...)`, a
  correlated `EXISTS`): the changed table is bound when a tie leads it to a bound table, so a join
  with no bound row anywhere (`DELETE FROM t USING u WHERE t.id = u.id`) binds nothing;
- open, binding nothing: one-sided ranges (`id > 0`, `created < now()`), `<>`, `NOT IN`, `IS NOT
  NULL`, `LIKE '%...'`, a column compared with itself (`a = a`) or a column of its own table, a
  function of a column (`lower(email) = 'x'`), and whatever sqlglot's simplifier folds to TRUE (`1 = 1`,
  `true`); a comparison with NULL, `a <> a`, or a condition that folds to FALSE, matches nothing and so
  binds;
- AND binds where any conjunct does, OR only where every disjunct does, NOT is pushed inward (De
  Morgan; `NOT a < 5` is `a >= 5`), and NOT of a pinning atom is open.

A condition is kept as a set of alternatives (its disjunctive form), each a set of facts: `pin`,
`lo`/`hi` (one side of a range) and `tie`; past _MOST_ALTERNATIVES the facts all alternatives share
stand for them, which can only lose facts (the cautious side).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import count
from typing import Optional

from sqlglot import exp
from sqlglot.optimizer.simplify import simplify

Fact = tuple[str, ...]  # ("pin", table) | ("lo"|"hi", table, column) | ("tie", table, table)
Alternatives = tuple[frozenset, ...]  # OR of ANDs of facts; () matches nothing

OPEN: Alternatives = (frozenset(),)  # may match any row
NOTHING: Alternatives = ()
_MOST_ALTERNATIVES = 64
_SHOWN = 60
_OPERATORS: dict[type, str] = {exp.EQ: "=", exp.NEQ: "<>", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<=",
              exp.NullSafeEQ: "<=>", exp.NullSafeNEQ: "<!=>"}
_NEGATED = {"=": "<>", "<>": "=", ">": "<=", ">=": "<", "<": ">=", "<=": ">", "<=>": "<!=>", "<!=>": "<=>"}
_MIRRORED = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "=": "=", "<>": "<>", "<=>": "<=>", "<!=>": "<!=>"}


def unbound(statement: exp.Expression, dialect: Optional[str] = None) -> str:
    """Why a DELETE's or UPDATE's WHERE leaves its loss unbounded; '' where it binds."""
    reader = _Reader()
    scope, targets, joined = reader.statement_scope(statement)
    return _why(_condition(statement.args.get("where")), reader, scope, targets, joined, dialect)


def unbound_merge(merge: exp.Merge, also: Optional[exp.Expression], dialect: Optional[str] = None) -> str:
    """Why the target rows a MERGE's WHEN MATCHED action changes, those its ON matches and its own AND
    (`also`) allows, are not bound to named values, by the rule a WHERE follows; '' where they are."""
    reader = _Reader()
    scope = reader._scope([merge.this, merge.args["using"]], None)
    target = reader.owner_of_table(merge.this, scope)
    on: exp.Expression = merge.args["on"]
    condition: exp.Expression = on if also is None else exp.And(this=on, expression=also)
    return _why(condition, reader, scope, [target], [], dialect, clause="ON")


def unbound_source(query: exp.Expression, dialect: Optional[str] = None) -> str:
    """Why the rows an upsert's SELECT yields are not bound to named values; '' where they are, or
    where they come from a VALUES list."""
    if isinstance(query, exp.Values):
        return ""
    if not isinstance(query, exp.Select):
        return f"{_shown(query, dialect)} is not read as a bounded row source"
    reader = _Reader()
    scope, joined = reader.select_scope(query, None)
    return _why(_condition(query.args.get("where")), reader, scope, list(scope.tables.values()), joined, dialect)


def _condition(where: Optional[exp.Where]) -> Optional[exp.Expression]:
    return where.this if where is not None else None


def _why(condition: Optional[exp.Expression], reader: _Reader, scope: _Scope, targets: list[str],
         joined: list[exp.Expression], dialect: Optional[str], clause: str = "WHERE") -> str:
    if condition is None:
        return f"no {clause}: every row"
    simplified = _simplified(condition)
    if isinstance(simplified, exp.Boolean) and simplified.this:
        return f"{clause} {_shown(condition, dialect)} is always true"
    alternatives = _both(reader.read(simplified, scope), reader.conditions(joined, scope))
    if reader.binds(alternatives, targets):
        return ""
    return f"{_shown(condition, dialect)} does not bind rows to named values"


@dataclass
class _Scope:
    tables: dict[str, str]  # alias or name, lowercased -> the table's identity
    parent: Optional[_Scope]
    ambiguous: str  # stands for "one of this scope's tables" (an unqualified column among several)


@dataclass
class _Reader:
    _numbers: count = field(default_factory=count)
    _groups: dict[str, frozenset] = field(default_factory=dict)  # ambiguous identity -> its scope's tables

    # --- scopes -------------------------------------------------------------------------------------
    def statement_scope(self, statement: exp.Expression) -> tuple[_Scope, list[str], list[exp.Expression]]:
        """The tables a DELETE or UPDATE sees, which of them it changes, and its inner joins' conditions."""
        sources: list[exp.Expression] = [statement.this]
        sources += statement.args.get("using") or []
        if statement.args.get("from_"):
            sources.append(statement.args["from_"].this)
        joins = [join for source in sources for join in source.args.get("joins") or []]
        joins += statement.args.get("joins") or []
        if statement.args.get("from_"):
            joins += statement.args["from_"].args.get("joins") or []
        scope = self._scope(sources + [join.this for join in joins], None)
        changed = statement.args.get("tables") or [statement.this]  # MySQL's `DELETE t1, t2 FROM ...`
        targets = [self.owner_of_table(table, scope) for table in changed]
        return scope, targets, [join.args["on"] for join in joins if _inner(join) and join.args.get("on")]

    def select_scope(self, select: exp.Select, parent: Optional[_Scope]) -> tuple[_Scope, list[exp.Expression]]:
        sources = [select.args["from_"].this] if select.args.get("from_") else []
        joins = select.args.get("joins") or []
        scope = self._scope(sources + [join.this for join in joins], parent)
        return scope, [join.args["on"] for join in joins if _inner(join) and join.args.get("on")]

    def _scope(self, sources: list[exp.Expression], parent: Optional[_Scope]) -> _Scope:
        tables = {}
        for source in sources:
            name = (source.alias_or_name or "").lower()
            tables[name] = f"{name}#{next(self._numbers)}"
        ambiguous = f"?{next(self._numbers)}"
        self._groups[ambiguous] = frozenset(tables.values())
        return _Scope(tables, parent, ambiguous)

    def owner_of_table(self, table: exp.Expression, scope: _Scope) -> str:
        name = (table.alias_or_name or "").lower()
        return scope.tables.get(name, f"?{name}")

    def owner(self, column: exp.Expression, scope: _Scope) -> str:
        """The identity of the table a column belongs to; an unqualified one among several tables is the
        scope's `ambiguous`, and one naming no table in sight is a table of its own that binds nothing."""
        qualifier = column.text("table").lower()
        if not qualifier:
            return next(iter(scope.tables.values())) if len(scope.tables) == 1 else scope.ambiguous
        seen: Optional[_Scope] = scope
        while seen is not None:
            if qualifier in seen.tables:
                return seen.tables[qualifier]
            seen = seen.parent
        return f"?{qualifier}"

    # --- conditions ---------------------------------------------------------------------------------
    def conditions(self, conditions: list[exp.Expression], scope: _Scope) -> Alternatives:
        alternatives = OPEN
        for condition in conditions:
            alternatives = _both(alternatives, self.read(condition, scope))
        return alternatives

    def read(self, node: exp.Expression, scope: _Scope, negated: bool = False) -> Alternatives:
        if isinstance(node, exp.Paren):
            return self.read(node.this, scope, negated)
        if isinstance(node, exp.Not):
            return self.read(node.this, scope, not negated)
        if isinstance(node, (exp.And, exp.Or)):
            left, right = self.read(node.this, scope, negated), self.read(node.expression, scope, negated)
            conjunction = isinstance(node, exp.And) != negated  # De Morgan
            return _both(left, right) if conjunction else _either(left, right)
        if isinstance(node, exp.Boolean):
            return OPEN if bool(node.this) != negated else NOTHING
        if isinstance(node, exp.Null):
            return NOTHING  # NULL and NOT NULL are both never true
        if type(node) in _OPERATORS:
            return self._comparison(node, scope, negated)
        if node.args.get("negate"):  # sqlglot's `IS NOT`, `NOT LIKE`
            negated = not negated
        if isinstance(node, exp.Escape):
            node = node.this
        if negated:
            return OPEN  # NOT of a pin, a range, a pattern or a subquery leaves the rest open
        return self._atom(node, scope)

    def _atom(self, node: exp.Expression, scope: _Scope) -> Alternatives:
        if isinstance(node, exp.Exists):
            return self._subquery(node.this, scope, None)
        column = _unparen(node.this) if isinstance(node.this, exp.Expression) else None
        if column is None or not _is_column(column):
            return OPEN
        owner = self.owner(column, scope)
        if isinstance(node, exp.In):
            if node.args.get("query") is not None:
                return self._subquery(node.args["query"], scope, owner)
            values = node.expressions
            return _pin(owner) if values and all(_constant(value) for value in values) else OPEN
        if isinstance(node, exp.Between):
            return _pin(owner) if _constant(node.args["low"]) and _constant(node.args["high"]) else OPEN
        if isinstance(node, exp.Is):
            return _pin(owner) if isinstance(node.expression, (exp.Null, exp.Boolean)) else OPEN
        if isinstance(node, (exp.Like, exp.ILike)):
            pattern = node.expression
            fixed_start = (isinstance(pattern, exp.Literal) and pattern.is_string
                           and pattern.this[:1] not in ("", "%", "_"))
            return _pin(owner) if fixed_start else OPEN
        return OPEN

    def _comparison(self, node: exp.Expression, scope: _Scope, negated: bool) -> Alternatives:
        operator = _OPERATORS[type(node)]
        operator = _NEGATED[operator] if negated else operator
        left, right = _unparen(node.this), _unparen(node.expression)
        if operator not in ("<=>", "<!=>") and (isinstance(left, exp.Null) or isinstance(right, exp.Null)):
            return NOTHING  # a comparison with NULL is never true
        if _is_column(right) and not _is_column(left):
            left, right, operator = right, left, _MIRRORED[operator]
        if not _is_column(left):
            return OPEN
        owner = self.owner(left, scope)
        if _is_column(right):
            other = self.owner(right, scope)
            if other == owner and right.name.lower() == left.name.lower():
                return NOTHING if operator in ("<>", "<", ">") else OPEN  # `a <> a` is never true, `a = a` is
            tied = operator in ("=", "<=>") and other != owner and not {owner[0], other[0]} & {"?"}
            return (frozenset({("tie", owner, other)}),) if tied else OPEN
        if isinstance(right, exp.Subquery) and operator == "=":
            return self._subquery(right, scope, owner)
        if not _constant(right):
            return OPEN
        if operator in ("=", "<=>"):
            return _pin(owner)
        if operator in ("<", "<="):
            return (frozenset({("hi", owner, left.name.lower())}),)
        if operator in (">", ">="):
            return (frozenset({("lo", owner, left.name.lower())}),)
        return OPEN  # <>, IS DISTINCT FROM

    def _subquery(self, query: exp.Expression, scope: _Scope, outer: Optional[str]) -> Alternatives:
        """A subquery's own WHERE, in a scope of its own; where an outer column must equal the one
        column it selects (IN, `= (SELECT ...)`), that column ties the outer table to the subquery's."""
        select = query.this if isinstance(query, exp.Subquery) else query
        if not isinstance(select, exp.Select):
            return OPEN  # a UNION, a VALUES: not read
        inner, joined = self.select_scope(select, scope)
        where = select.args.get("where")
        alternatives = _both(self.read(_simplified(where.this), inner) if where is not None else OPEN,
                             self.conditions(joined, inner))
        if outer is None:
            return alternatives
        if len(select.expressions) != 1:
            return OPEN
        selected = _unparen(select.expressions[0].unalias())
        link: Alternatives
        if _is_column(selected):
            link = (frozenset({("tie", outer, self.owner(selected, inner))}),)
        elif _constant(selected):
            link = _pin(outer)
        else:
            return OPEN  # an aggregate, an expression of columns
        return _both(alternatives, link)

    # --- the verdict ----------------------------------------------------------------------------------
    def binds(self, alternatives: Alternatives, targets: list[str]) -> bool:
        return all(self._bound(facts, target) for facts in alternatives for target in targets)

    def _bound(self, facts: frozenset, target: str) -> bool:
        pinned = {fact[1] for fact in facts if fact[0] == "pin"}
        pinned |= {fact[1] for fact in facts if fact[0] == "lo" and ("hi", fact[1], fact[2]) in facts}
        reached = _reached(target, {fact[1:] for fact in facts if fact[0] == "tie"})
        if pinned & reached:
            return True
        return any(self._groups.get(table, frozenset()) and self._groups[table] <= reached for table in pinned)


def _reached(start: str, ties: set[tuple[str, ...]]) -> set[str]:
    """The tables a chain of ties leads to from `start`, itself included."""
    reached, frontier = {start}, [start]
    while frontier:
        table = frontier.pop()
        for left, right in ties:
            for here, there in ((left, right), (right, left)):
                if here == table and there not in reached:
                    reached.add(there)
                    frontier.append(there)
    return reached


def _pin(table: str) -> Alternatives:
    return (frozenset({("pin", table)}),)


def _both(left: Alternatives, right: Alternatives) -> Alternatives:
    return _capped(tuple(dict.fromkeys(a | b for a in left for b in right)))


def _either(left: Alternatives, right: Alternatives) -> Alternatives:
    return _capped(tuple(dict.fromkeys(left + right)))


def _capped(alternatives: Alternatives) -> Alternatives:
    """Too many alternatives: the facts they all share stand for them (fewer facts bind less)."""
    if len(alternatives) <= _MOST_ALTERNATIVES:
        return alternatives
    return (frozenset.intersection(*alternatives),)


def _constant(node: exp.Expression) -> bool:
    """An expression that names one value: no column, no subquery, no `*` in it."""
    if node.find(exp.Select, exp.Subquery, exp.Star) is not None:
        return False
    return not any(_is_column(column) for column in node.find_all(exp.Column))


def _is_column(node: Optional[exp.Expression]) -> bool:
    """A column, not a positional parameter some dialects' parsers read as one (`$1` outside PostgreSQL)."""
    return isinstance(node, exp.Column) and not (node.name.startswith("$") and node.name[1:].isdigit()
                                                 and not node.table)


def _unparen(node: exp.Expression) -> exp.Expression:
    while isinstance(node, exp.Paren):
        node = node.this
    return node


def _inner(join: exp.Join) -> bool:
    """A join whose ON condition restricts the changed rows too (not LEFT/RIGHT/FULL)."""
    return not join.side and (join.kind or "INNER").upper() in ("INNER", "")


def _simplified(condition: exp.Expression) -> exp.Expression:
    try:
        return simplify(condition.copy())
    except Exception:  # noqa: BLE001 - the simplifier is a help; the condition as written is read instead
        return condition


def _shown(node: exp.Expression, dialect: Optional[str]) -> str:
    text = " ".join(node.sql(dialect=dialect).split())
    return text if len(text) <= _SHOWN else text[:_SHOWN - 3] + "..."
