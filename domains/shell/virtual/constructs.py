"""The shell's own constructs the virtual shell may compute, read from the syntax tree (the gate calls this).

`if`/`elif`/`else`, `for NAME in WORDS`, `case`, `{ ...; }`, `( ... )`, `!`, `[ ]`, `[[ ]]`, `(( ))` and here
documents. Each is walked the way bash runs it, so the paths its parts name and the variables they assign
reach the gate's scope as bash leaves them: a `for` body once per word with the variable set, every branch
of an `if` or `case` on a copy of the scope (a variable the branches leave different is unknown after it),
a subshell on a copy that is dropped, a `while` or `until` loop as long as its condition (a comparison of
whole numbers the line knows) says, at most MAX_ITERATIONS times. A loop whose end the line does not decide
is the model's: the virtual shell's timeout is no answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node

from ..reading.arithmetic import evaluate
from ..reading.grammar import node_text
from ..reading.words import Scope, Value, expand
from . import read_loops
from .refusal import NotComputable

# Variables that change what the shell or its programs do (which program a name runs, word splitting,
# cd's search, globbing, the locale, the home): the virtual shell is not proven under other values.
_SHELL_VARIABLE = re.compile(r"PATH|IFS|CDPATH|GLOBIGNORE|HOME|PWD|OLDPWD|TMPDIR|SHELLOPTS|BASHOPTS|POSIXLY_CORRECT|"
                             r"BASH_ENV|ENV|LANG|LANGUAGE|LC_\w+|TZ|GREP_\w+|TERM|COLUMNS")

COMPOUND = frozenset({"if_statement", "for_statement", "case_statement", "compound_statement", "subshell",
                      "negated_command", "test_command", "while_statement", "until_statement"})
MAX_ITERATIONS = 32  # a `for` over more words is the model's
_NUMERIC = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
_FILE_TESTS = frozenset({"-f", "-d", "-e"})
_STRING_TESTS = frozenset({"-z", "-n"})
_CASE_PATTERN = re.compile(r"[A-Za-z0-9_.,:/*?+=@%-]+")  # no extglob `(`, no brackets, no quotes


@dataclass
class Body:
    """The gate's walk, for the statements inside a construct: `unit` walks one statement in a scope,
    `values` expands a word (literal or glob, else NotComputable), `name` notes a path, `note` a form."""

    unit: Callable[[Node, Scope], None]
    values: Callable[[Node, Scope], list[Value]]
    name: Callable[[Value, Scope], str]
    note: Callable[[str], None]
    ran: Callable[[], bool]  # a statement of the line has run before (then `$?` is its status)
    loop_glob: Callable[[Node, list[Value], Scope], list[Value]]  # a for loop's glob word: the names bash makes
    feed: Callable[[], bytes]  # what a `while read` loop reads: the file the line feeds it, as the world knows it


def compound(node: Node, scope: Scope, body: Body) -> None:
    kind = node.type
    if kind in ("while_statement", "until_statement"):
        # The grammar reads `until` as a while_statement whose first word is `until`.
        _while(node, scope, body, until=kind == "until_statement" or node_text(node.children[0]) == "until")
    elif kind == "compound_statement" and node.children and node_text(node.children[0]) == "((":
        _arithmetic_command(node, scope, body)
    elif kind == "compound_statement":
        for child in _statements(node):
            body.unit(child, scope)
    elif kind == "subshell":
        inner = scope.copy()
        for child in _statements(node):
            body.unit(child, inner)
    elif kind == "negated_command":
        body.note("!")
        for child in _statements(node):
            body.unit(child, scope)
    elif kind == "if_statement":
        _if(node, scope, body)
    elif kind == "for_statement":
        _for(node, scope, body)
    elif kind == "case_statement":
        _case(node, scope, body)
    elif kind == "test_command":
        _test(node, scope, body)


def _statements(node: Node) -> list[Node]:
    return [child for child in node.named_children if child.type != "comment"]


def _merge(scope: Scope, outcomes: list[Scope]) -> None:
    """After branches of which one runs: a variable is what every branch left it, else unknown; the branches
    must leave the shell in one folder."""
    if len({outcome.cwd for outcome in outcomes}) > 1:
        raise NotComputable("branches that leave the shell in different folders")
    scope.cwd = outcomes[0].cwd
    for name in {name for outcome in outcomes for name in outcome.variables}:
        values = {outcome.variables.get(name, "\0unset") for outcome in outcomes}
        scope.variables[name] = values.pop() if len(values) == 1 else None
        if scope.variables[name] == "\0unset":
            del scope.variables[name]


def _if(node: Node, scope: Scope, body: Body) -> None:
    """The first condition runs; each later one only where those before failed; at most one body runs."""
    outcomes: list[Scope] = []
    branch: Scope | None = None  # the body being walked (after `then`)
    otherwise = True  # no else: where every condition failed, no body runs
    for child in node.children:
        if child.type == "then":
            branch = scope.copy()
        elif child.type in ("elif_clause", "else_clause"):
            if branch is not None:
                outcomes.append(branch)
                branch = None
            if child.type == "elif_clause":
                _elif(child, scope, body, outcomes)
                continue
            taken = scope.copy()
            for statement in _statements(child):
                body.unit(statement, taken)
            outcomes.append(taken)
            otherwise = False
        elif child.is_named and child.type != "comment":
            body.unit(child, scope if branch is None else branch)
    if branch is not None:
        outcomes.append(branch)
    if otherwise:
        outcomes.append(scope.copy())
    _merge(scope, outcomes)


def _elif(node: Node, current: Scope, body: Body, outcomes: list[Scope]) -> None:
    """An `elif`: its condition runs in `current` (the folder and variables the failed conditions left), its
    body on a copy that is one outcome."""
    branch: Scope | None = None
    for child in node.children:
        if child.type == "then":
            branch = current.copy()
            continue
        if not child.is_named or child.type == "comment":
            continue
        body.unit(child, current if branch is None else branch)
    if branch is not None:
        outcomes.append(branch)


def shell_variable(name: str) -> bool:
    """Whether assigning `name` changes how the shell itself works (which program a name runs, splitting...)."""
    return bool(_SHELL_VARIABLE.fullmatch(name))


def _for(node: Node, scope: Scope, body: Body) -> None:
    """`for NAME in WORDS; do BODY; done`: the body once per word, in order, with NAME set."""
    variable = node.child_by_field_name("variable")
    loop = node.child_by_field_name("body")
    if variable is None or loop is None or not any(node_text(child) == "in" for child in node.children):
        raise NotComputable("a for loop without `in WORDS` (it walks the script's arguments)")
    name = node_text(variable)
    if shell_variable(name):
        raise NotComputable(f"a loop over {name}, which changes how the shell works")
    words: list[Value] = []
    for child in node.children_by_field_name("value"):
        if child.type == "command_substitution":
            words.extend(Value(number) for number in _sequence(child))
            body.note("seq")
            continue
        values = body.values(child, scope)
        words.extend(body.loop_glob(child, values, scope) if any(value.glob for value in values) else values)
    if any(word.glob for word in words):
        raise NotComputable("a for loop over a glob: which files it visits is decided when it runs")
    if len(words) > MAX_ITERATIONS:
        raise NotComputable("a for loop over more words than are proven")
    for word in words:
        scope.variables[name] = word.text
        for child in _statements(loop):
            body.unit(child, scope)


_SEQ = re.compile(r"\$\(\s*seq((?:[ \t]+\d{1,5}){1,3})\s*\)")


def _sequence(node: Node) -> list[str]:
    """`$(seq [FIRST [STEP]] LAST)` of whole numbers, unquoted: bash splits seq's lines into these words."""
    match = _SEQ.fullmatch(node_text(node))
    if match is None:
        raise NotComputable(f"a command substitution other than $(seq ...) of whole numbers ({node_text(node)[:40]!r})")
    numbers = [int(word) for word in match.group(1).split()]
    first, step, last = (1, 1, numbers[0]) if len(numbers) == 1 else (numbers[0], 1, numbers[1]) \
        if len(numbers) == 2 else tuple(numbers)
    if step == 0:
        raise NotComputable("seq of a step of 0: GNU's refuses it")
    if last >= first and (last - first) // step >= MAX_ITERATIONS:
        raise NotComputable("a for loop over more words than are proven")
    return [str(number) for number in range(first, last + 1, step)]


def _while(node: Node, scope: Scope, body: Body, until: bool) -> None:
    """`while COND; do BODY; done` where COND is `[ A -lt B ]` (any numeric comparison) or `(( EXPR ))` over
    values the line knows at each turn: the loop is walked turn by turn, as bash runs it."""
    loop = next((child for child in node.named_children if child.type == "do_group"), None)
    conditions = [child for child in node.named_children if child.type not in ("do_group", "comment")]
    if loop is None or len(conditions) != 1:
        raise NotComputable("a loop whose condition is not one test")
    if conditions[0].type == "command" and node_text(conditions[0]).split(" ", 1)[0] in ("read", "IFS=,", "IFS=:",
                                                                                       "IFS=;", "IFS=|") and not until:
        _read_loop(conditions[0], loop, scope, body)
        return
    for turn in range(MAX_ITERATIONS + 1):
        body.unit(conditions[0], scope)
        holds = _decided(conditions[0], scope)
        if holds is None:
            raise NotComputable("a loop whose end the line does not decide (a timeout is no answer)")
        if holds == until:
            return
        if turn == MAX_ITERATIONS:
            raise NotComputable("a loop of more turns than are proven")
        for child in _statements(loop):
            body.unit(child, scope)


def _read_loop(condition: Node, loop: Node, scope: Scope, body: Body) -> None:
    """`while read ...; do BODY; done < FILE`: the body once per line of the file, with the names set
    (read_loops.py); after it they hold what the last, failing read left: not followed."""
    read = read_loops.read_command(condition)
    if any(shell_variable(name) for name in read.names):
        raise NotComputable("read into a variable that changes how the shell works")
    body.note("read")
    if read.raw:
        body.note("read -r")
    for values in read_loops.turns(read, body.feed(), MAX_ITERATIONS):
        scope.variables.update(values)
        for child in _statements(loop):
            body.unit(child, scope)
    for name in read.names:
        scope.variables[name] = None


def _decided(condition: Node, scope: Scope) -> bool | None:
    """Whether `[ A OP B ]` (a numeric comparison) or `(( EXPR ))` holds, where the line knows the values."""
    if condition.type == "compound_statement" and node_text(condition.children[0]) == "((":
        inner = _statements(condition)
        value = evaluate(inner[0], scope.variable) if len(inner) == 1 else None
        return None if value is None else value != 0
    if condition.type != "test_command" or node_text(condition.children[0]) != "[":
        return None
    expression = _statements(condition)
    if len(expression) != 1 or expression[0].type != "binary_expression" or len(expression[0].children) != 3:
        return None
    left, operator, right = expression[0].children
    numbers = []
    for side in (left, right):
        values = expand(side, scope.copy(), lambda _node, _scope: None)
        if len(values) != 1 or not values[0].literal or not re.fullmatch(r"-?\d{1,18}", values[0].text):
            return None
        numbers.append(int(values[0].text))
    first, second = numbers
    return {"-eq": first == second, "-ne": first != second, "-lt": first < second, "-le": first <= second,
            "-gt": first > second, "-ge": first >= second}.get(node_text(operator))


def _case(node: Node, scope: Scope, body: Body) -> None:
    """`case WORD in PATTERNS) BODY;; ... esac`: the word is expanded; at most one body runs."""
    subject = node.child_by_field_name("value")
    if subject is None:
        raise NotComputable("a case without a word")
    values = body.values(subject, scope)
    if len(values) != 1 or values[0].glob:
        raise NotComputable("a case over a word that is not one known value")
    outcomes: list[Scope] = []
    for item in (child for child in node.named_children if child.type == "case_item"):
        if any(node_text(child) in (";&", ";;&") for child in item.children if not child.is_named):
            raise NotComputable("a case item that falls through (;& or ;;&)")
        branch = scope.copy()
        patterns = item.children_by_field_name("value")
        for pattern in patterns:
            if pattern.type in ("extglob_pattern", "word"):
                if not _CASE_PATTERN.fullmatch(node_text(pattern)):
                    raise NotComputable(f"the case pattern {node_text(pattern)[:40]!r}")
            else:
                body.values(pattern, branch)
        for child in _statements(item):
            if child not in patterns:
                body.unit(child, branch)
        outcomes.append(branch)
    outcomes.append(scope.copy())  # no pattern matched
    _merge(scope, outcomes)


def _arithmetic_command(node: Node, scope: Scope, body: Body) -> None:
    """`(( EXPR ))`: exits 0 when EXPR is not zero; only expressions `arithmetic.evaluate` reads (no
    assignment)."""
    inner = _statements(node)
    if len(inner) != 1 or evaluate(inner[0], scope.variable) is None:
        raise NotComputable(f"the arithmetic {node_text(node)[:40]!r}: only whole numbers without assignment")
    body.note("((")


def _test(node: Node, scope: Scope, body: Body) -> None:
    opening = node_text(node.children[0]) if node.children else ""
    expression = _statements(node)
    if len(expression) != 1:
        raise NotComputable("an empty test")
    if opening == "[[":
        body.note("[[")
        _double_bracket(expression[0], scope, body)
        return
    if opening != "[":
        raise NotComputable(f"the test {node_text(node)[:40]!r}")
    body.note("[")
    leaves: list[str] = []
    nodes = _test_leaves(expression[0])
    for at, leaf in enumerate(nodes):
        if leaf.type == "test_operator" or not leaf.is_named:
            leaves.append(node_text(leaf))
            continue
        if node_text(leaf) in ("$?", '"$?"'):
            beside = {node_text(other) for other in nodes[max(at - 1, 0):at + 2] if other is not leaf}
            if not body.ran() or not beside & _NUMERIC:
                raise NotComputable("$? other than compared as a number after a command of the line")
            leaves.append("0")
            continue
        for value in body.values(leaf, scope):
            if value.glob:
                raise NotComputable("[ given a glob: how many words it gets is decided when it runs")
            leaves.append(value.text)
            body.name(value, scope)
    if "-s" in leaves:
        raise NotComputable("[ -s: a folder's size differs in the virtual shell")
    if "" in leaves and _FILE_TESTS & set(leaves):
        raise NotComputable(_EMPTY_PATH)
    if any(leaf.startswith("-") and len(leaf) == 2 and leaf not in _FILE_TESTS | _STRING_TESTS | {"-a", "-o"}
           for leaf in leaves):
        raise NotComputable("a [ operator the tests do not prove")


_EMPTY_PATH = "a file test of an empty word: the virtual shell finds its working folder there, GNU bash nothing"


def _test_leaves(node: Node) -> list[Node]:
    """The words and operators of a `[ ]` expression, in order (the grammar nests them)."""
    if node.type in ("binary_expression", "unary_expression", "parenthesized_expression"):
        return [leaf for child in node.children for leaf in _test_leaves(child)]
    return [node]


def _double_bracket(node: Node, scope: Scope, body: Body) -> None:
    """`[[ ]]`: && || ! ( ), -f -d -e on a path, -z -n on a string, == != = < > between strings (the right
    side of == != = is a pattern); no word splitting nor globbing. `=~` and the numeric operators (which
    evaluate words as arithmetic) are the model's."""
    kind = node.type
    children = node.children
    if kind == "parenthesized_expression":
        for child in _statements(node):
            _double_bracket(child, scope, body)
        return
    if kind == "unary_expression" and len(children) == 2:
        operator = node_text(children[0])
        if operator == "!":
            _double_bracket(children[1], scope, body)
            return
        value = _single(children[1], scope, body)
        if operator in _FILE_TESTS and not value.text:
            raise NotComputable(_EMPTY_PATH)
        if operator in _FILE_TESTS:
            body.name(value, scope)
        elif operator not in _STRING_TESTS:
            raise NotComputable(f"[[ {operator}: not proven")
        return
    if kind == "binary_expression" and len(children) == 3:
        operator = node_text(children[1])
        if operator in ("&&", "||"):
            _double_bracket(children[0], scope, body)
            _double_bracket(children[2], scope, body)
            return
        if operator not in ("==", "!=", "=", "<", ">"):
            raise NotComputable(f"[[ {operator}: not proven")
        _single(children[0], scope, body)
        if operator in ("<", ">"):
            _single(children[2], scope, body)
        elif children[2].type == "extglob_pattern":  # a pattern: matched, never listed
            if not _CASE_PATTERN.fullmatch(node_text(children[2])):
                raise NotComputable(f"the pattern {node_text(children[2])[:40]!r}")
        else:
            body.values(children[2], scope.copy())
        return
    if kind in ("extglob_pattern", "regex") or not node.is_named:
        raise NotComputable(f"[[ {node_text(node)[:40]!r}: not proven")
    _single(node, scope, body)


def _single(node: Node, scope: Scope, body: Body) -> Value:
    """One word inside [[ ]]: bash neither splits nor globs it; here it must be one known literal."""
    values = expand(node, scope.copy(), lambda _node, _scope: None, split=False)
    if len(values) != 1 or values[0].glob or not values[0].literal:
        raise NotComputable(f"[[ over {node_text(node)[:40]!r}: not one known value")
    body.values(node, scope)  # the gate's checks of its parts
    return values[0]


def heredoc(node: Node, scope: Scope) -> list[Node]:
    """`<<'EOF'` (quoted: the body is text) or `<<EOF` whose body holds no backquote or backslash and no `$`
    but variables the line knows (`$X`, `${X%.txt}`: bash expands them, unsplit). `<<-` strips tabs: not
    proven. Returns the file redirections the grammar reads inside it (`cat <<EOF > f`), for the gate."""
    operator = "".join(node_text(child) for child in node.children if not child.is_named)
    start = next((child for child in node.children if child.type == "heredoc_start"), None)
    body = next((child for child in node.children if child.type == "heredoc_body"), None)
    if operator != "<<" or start is None:
        raise NotComputable(f"the here document {operator!r}: only << is proven")
    inside = [child for child in node.named_children if child.type == "file_redirect"]
    if any(child.type not in ("heredoc_start", "heredoc_body", "heredoc_end", "file_redirect")
           for child in node.named_children):
        raise NotComputable("a here document with more on its line (a pipe or a command after <<EOF)")
    quoted = node_text(start)[:1] in ("'", '"') or "\\" in node_text(start)
    if quoted or body is None:
        return inside
    expansions = [child for child in body.named_children if child.type != "heredoc_content"]
    if any(char in node_text(body) for char in "`\\") or node_text(body).count("$") != len(expansions):
        raise NotComputable("a here document with a substitution, an escape or a lone $")
    for expansion in expansions:
        values = expand(expansion, scope.copy(), lambda _node, _scope: None, split=False) \
            if expansion.type in ("simple_expansion", "expansion") else []
        if len(values) != 1 or values[0].unknown or not (values[0].literal or values[0].glob):  # no globbing here
            raise NotComputable(f"a here document that expands {node_text(expansion)[:40]!r}, not a known value")
    return inside
