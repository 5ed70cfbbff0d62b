"""Inline Python that only reads: `python3 -c "import json; print(json.load(open('a.json'))['name'])"`.

Such code writes nothing, so a world forgets nothing after it, and a guard sees the files it reads. The syntax
tree decides, nothing runs: the code may import only modules that compute, parse or read (and of `os`, only
what reads), open only files it names literally and only for reading, call only builtins that compute or
read, and touch no private name (`__class__`, `_exit`). Whatever else it does, it stays code whose effects
only running it would tell.
"""

from __future__ import annotations

import ast

from .inline_python import _PURE_CALLS

# Modules whose every public function computes, parses or reads (a file object they are given is the code's own,
# and the code opens none for writing); `os` and `sys` also hold functions that change things: only these.
_READING_MODULES = frozenset({"json", "re", "math", "csv", "collections", "statistics", "itertools", "functools",
                              "string", "textwrap", "hashlib", "base64", "tomllib", "configparser", "pprint",
                              "operator", "decimal", "fractions", "glob", "fnmatch", "difflib", "unicodedata",
                              "binascii", "zlib", "heapq", "bisect", "datetime", "time", "random", "platform"})
_PARTLY_READING = {
    "os": frozenset({"path", "listdir", "getcwd", "environ", "getenv", "sep", "linesep", "walk", "scandir", "stat",
                     "name", "cpu_count"}),
    "os.path": frozenset({"exists", "isfile", "isdir", "islink", "join", "basename", "dirname", "splitext", "split",
                          "abspath", "realpath", "relpath", "normpath", "getsize", "expanduser", "sep"}),
    "sys": frozenset({"argv", "stdin", "stdout", "stderr", "exit", "version", "version_info", "platform", "path",
                      "maxsize", "byteorder", "executable"}),
}
_READING_CALLS = _PURE_CALLS | {"open", "isinstance", "issubclass", "type", "iter", "next", "map", "filter", "hasattr",
                                "callable", "hash", "id", "slice", "frozenset", "bytes", "bytearray", "exit", "quit"}
_NODES = (ast.Module, ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.While, ast.If, ast.With,
          ast.withitem, ast.Try, ast.ExceptHandler, ast.Pass, ast.Break, ast.Continue, ast.Delete, ast.Assert,
          ast.Raise, ast.Name, ast.Load, ast.Store, ast.Del, ast.Constant, ast.Attribute, ast.Subscript, ast.Slice,
          ast.Starred, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.NamedExpr, ast.JoinedStr,
          ast.FormattedValue, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp,
          ast.GeneratorExp, ast.comprehension, ast.Lambda, ast.arguments, ast.arg, ast.keyword, ast.Call,
          ast.operator, ast.unaryop, ast.boolop, ast.cmpop, ast.expr_context, ast.Import, ast.ImportFrom, ast.alias)
_OPEN_OPTIONS = frozenset({"mode", "encoding", "errors", "newline"})


def files_read(code: str) -> list[str] | None:
    """The files `code` opens (for reading, by literal names), when reading and computing is all it does; None
    when it may do anything else."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None
    modules: dict[str, str] = {}  # a name the code imported -> the module (or `module.attribute`) it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _reading(alias.name):
                    return None
                modules[alias.asname or alias.name.split(".")[0]] = alias.asname and alias.name or \
                    alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if node.module is None or alias.name == "*" or not _reading(f"{node.module}.{alias.name}"):
                    return None
                modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    paths: list[str] = []
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if not isinstance(node, _NODES):
            return None
        if isinstance(node, ast.Attribute) and (node.attr.startswith("_") or not _reading(
                f"{_dotted(node.value, modules)}.{node.attr}") and _dotted(node.value, modules) is not None):
            return None  # a private name, or a module's attribute that may change things
        if isinstance(node, ast.Name) and (node.id.startswith("__") or node.id in modules and not _used_in_place(
                node, parents.get(node))):
            return None  # a dunder, or a module bound to another name, where its attributes escape the reading
        if isinstance(node, ast.Name) and node.id == "open" and not _used_in_place(node, parents.get(node)):
            return None  # `map(open, names, modes)`: opened where its mode is not read
        if isinstance(node, ast.Call):
            if not isinstance(node.func, (ast.Name, ast.Attribute)):
                return None  # `(open if x else print)(...)`: which function is called, only running it tells
            if isinstance(node.func, ast.Name) and node.func.id not in modules:
                if node.func.id not in _READING_CALLS:
                    return None  # eval, exec, __import__, getattr, a name bound to who knows what
                if node.func.id == "open":
                    path = _read_only_open(node)
                    if path is None:
                        return None
                    paths.append(path)
    return paths


def _reading(dotted: str) -> bool:
    """Whether a module, or a module's attribute (`os.path.exists`, `os.environ.get`), only computes or reads."""
    if dotted.split(".")[0] in _READING_MODULES:
        return True
    for module in sorted(_PARTLY_READING, key=len, reverse=True):  # os.path before os
        if dotted == module:
            return True  # the module itself: what is used of it is judged attribute by attribute
        if dotted.startswith(module + "."):
            return dotted[len(module) + 1:].split(".")[0] in _PARTLY_READING[module]
    return False


def _used_in_place(name: ast.Name, parent: ast.AST | None) -> bool:
    """An imported name used where it is judged: as the module of an attribute, or the function called."""
    return isinstance(parent, ast.Attribute) and parent.value is name or isinstance(parent, ast.Call) and \
        parent.func is name or isinstance(parent, ast.alias)


def _dotted(node: ast.AST, modules: dict[str, str]) -> str | None:
    """The module an expression names (`os.path` for `os.path`, where the code imported os), else None."""
    if isinstance(node, ast.Name):
        return modules.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value, modules)
        return f"{base}.{node.attr}" if base is not None else None
    return None


def _read_only_open(call: ast.Call) -> str | None:
    """The literal file an `open(...)` call reads, or None where it may write, or names no literal file."""
    mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
    if not call.args or not isinstance(call.args[0], ast.Constant) or not isinstance(call.args[0].value, str) or \
            len(call.args) > 2 or any(keyword.arg not in _OPEN_OPTIONS for keyword in call.keywords):
        return None
    if mode is not None and not (isinstance(mode, ast.Constant) and isinstance(mode.value, str) and
                                 not set(mode.value) & set("wax+")):
        return None
    return call.args[0].value
