"""Bash's integer arithmetic (`$((...))`, `((...))`) over whole numbers the line knows (bash(1), "ARITHMETIC
EVALUATION"): + - * / % and comparisons, ! && ||, unary - and +, parentheses; C's truncating division.

What this does not read is None, for the caller to leave unknown: assignments (`x++`, `x=1`, `+=`), powers,
bit operators, numbers written in another base (`010` is octal to bash, `0x10` hex), a variable whose value
is no plain whole number, division by zero (bash prints an error), and results past 2**62 (bash wraps at 64
bits).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from .grammar import node_text

_LIMIT = 2**62
_DECIMAL = re.compile(r"-?(?:0|[1-9]\d{0,17})")
_PRIMARY = ("number", "variable_name", "simple_expansion", "parenthesized_expression")
Lookup = Callable[[str], str | None]  # a variable's value, None where the line does not know it


def evaluate(node: Node, lookup: Lookup) -> int | None:
    """The value of an arithmetic expression node, or None."""
    kind = node.type
    if kind == "number":
        return _whole(node_text(node))
    if kind == "variable_name":
        return _variable(node_text(node), lookup)
    if kind == "simple_expansion":
        names = [child for child in node.named_children if child.type == "variable_name"]
        value = lookup(node_text(names[0])) if len(names) == 1 and len(node.children) == 2 else None
        return None if not value else _whole(value.strip(" \t\n"))  # its text stands in the expression
    if kind == "parenthesized_expression":
        inner = node.named_children
        return evaluate(inner[0], lookup) if len(inner) == 1 else None
    if kind == "unary_expression" and len(node.children) == 2 and node.children[1].type in _PRIMARY:
        # The grammar may give a unary sign a whole sum (`7 * -3 - 7` as 7 * -(3 - 7)): only a primary is read.
        operand = evaluate(node.children[1], lookup)
        operator = node_text(node.children[0])
        if operand is None or operator not in ("-", "+", "!"):
            return None
        return -operand if operator == "-" else operand if operator == "+" else int(not operand)
    if kind == "binary_expression" and len(node.children) == 3:
        return _binary(node_text(node.children[1]), node.children[0], node.children[2], lookup)
    return None


def _binary(operator: str, left_node: Node, right_node: Node, lookup: Lookup) -> int | None:
    left = evaluate(left_node, lookup)
    if left is None:
        return None
    right = evaluate(right_node, lookup)  # read even where && or || skip it: bash still parses it
    if right is None:
        return None
    if operator in ("&&", "||"):
        return int(bool(left and right)) if operator == "&&" else int(bool(left or right))
    if operator in ("/", "%"):
        if right == 0:
            return None
        quotient = abs(left) // abs(right) * (1 if (left >= 0) == (right >= 0) else -1)
        return _bounded(quotient if operator == "/" else left - right * quotient)
    results = {"+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
               "<": lambda: int(left < right), ">": lambda: int(left > right), "<=": lambda: int(left <= right),
               ">=": lambda: int(left >= right), "==": lambda: int(left == right), "!=": lambda: int(left != right)}
    return _bounded(results[operator]()) if operator in results else None


def _variable(name: str, lookup: Lookup) -> int | None:
    value = lookup(name)
    if value is None:
        return None
    return 0 if value == "" else _whole(value.strip(" \t\n"))


def _whole(text: str) -> int | None:
    return _bounded(int(text)) if _DECIMAL.fullmatch(text) else None


def _bounded(value: int) -> int | None:
    return value if -_LIMIT < value < _LIMIT else None
