"""Inline Python (`python3 -c CODE`) whose syntax tree shows it only computes and prints.

Such code changes nothing a guard protects: no import, no attribute (so no `os.system`), no call but
to builtins that compute or print, no `open`, `eval`, `exec` or `__import__`. Anything else stays what
it was, code whose effects only running it would tell. Python's own `ast` reads the code; nothing runs.
"""

from __future__ import annotations

import ast

_PURE_CALLS = frozenset({"print", "len", "str", "int", "float", "bool", "sum", "min", "max", "sorted", "reversed",
                         "range", "abs", "round", "repr", "list", "tuple", "dict", "set", "enumerate", "zip", "chr",
                         "ord", "format", "divmod", "hex", "oct", "bin", "any", "all"})
_PURE_NODES = (ast.Module, ast.Expr, ast.Assign, ast.AugAssign, ast.Name, ast.Load, ast.Store, ast.Constant,
               ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.JoinedStr, ast.FormattedValue,
               ast.List, ast.Tuple, ast.Dict, ast.Set, ast.Subscript, ast.Slice, ast.ListComp, ast.SetComp,
               ast.DictComp, ast.GeneratorExp, ast.comprehension, ast.keyword, ast.operator, ast.unaryop, ast.boolop,
               ast.cmpop, ast.expr_context, ast.Call)


def only_computes(code: str) -> bool:
    """Whether `code` parses and every node is a computation, a name, or a call of a computing builtin."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    for node in ast.walk(tree):
        if not isinstance(node, _PURE_NODES):
            return False
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _PURE_CALLS):
            return False
        if isinstance(node, ast.keyword) and node.arg == "file":
            return False  # print(..., file=...) writes where it is told
    return True
