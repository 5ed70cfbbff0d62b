"""Inline Python (`python3 -c CODE`) whose syntax tree shows it only computes and prints.

Such code changes nothing a guard protects: no import, no attribute (so no `os.system`), no call but
to builtins that compute or print, no `open`, `eval`, `exec` or `__import__`. Anything else stays what
it was, code whose effects only running it would tell. Python's own `ast` reads the code; nothing runs.
"""

from __future__ import annotations

import ast
import shlex
from dataclasses import dataclass
from typing import Any

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


# --- code that starts commands ---------------------------------------------------------------------
# The functions that start a command, by module (the subprocess and os modules' documentation): each takes
# the command first, as an argv list or, for a shell, a string /bin/sh runs.
_STARTERS = {"subprocess": frozenset({"run", "call", "check_call", "check_output", "Popen", "getoutput",
                                      "getstatusoutput"}),
             "os": frozenset({"system", "popen"})}
_ALWAYS_SHELL = frozenset({"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput"})
_SHLEX = frozenset({"split", "quote", "join"})  # shlex only computes
_CONSTANTS = frozenset({"PIPE", "DEVNULL", "STDOUT"})  # subprocess's stand-ins for a stream
# What code may do with what a started command gave back: read its output and status.
_RESULT_ATTRIBUTES = frozenset({"stdout", "stderr", "returncode", "args"})
_RESULT_METHODS = frozenset({"read", "readlines", "decode", "strip", "rstrip", "lstrip", "split", "splitlines",
                             "wait", "poll", "close"})
# Options that change nothing about which command runs or what it is given.
_PLAIN_OPTIONS = frozenset({"check", "capture_output", "text", "universal_newlines", "encoding", "errors", "timeout",
                            "stdout", "stderr", "shell", "bufsize", "close_fds"})


@dataclass(frozen=True)
class Started:
    """A command Python code starts."""

    argv: tuple[str, ...] = ()  # run without a shell
    shell: str | None = None  # run by /bin/sh -c
    input: str | None = None  # what it is given on standard input (`input=`), where the code spells it out
    piped: bool = False  # its standard input comes from the Python code, which the line does not show
    cwd: str | None = None  # where it runs (`cwd=`), where not the current folder


def commands_started(code: str) -> list[Started] | None:
    """The commands `code` starts, in order, when it only computes (by `only_computes`'s rules) besides
    importing subprocess, os or shlex and calling their starters with a command it spells out; None when it
    does anything else."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None
    names: dict[str, str] = {}  # a name the code imported -> "module" or "module.function"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name not in (*_STARTERS, "shlex"):
                    return None
                names[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if node.module not in (*_STARTERS, "shlex") or not _allowed_from(node.module, alias.name):
                    return None
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    started: list[tuple[tuple[int, int], Started]] = []
    judged: set[int] = set()  # names and attributes their parent node already allowed
    for node in ast.walk(tree):  # breadth first: a node before its children
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.alias)) or id(node) in judged:
            continue
        if isinstance(node, ast.Call):
            function = _qualified(node.func, names)
            module, _, name = (function or "").partition(".")
            if name in _STARTERS.get(module, ()) or (module == "shlex" and name in _SHLEX):
                if module != "shlex":
                    command = _started(function or "", node, names)
                    if command is None:
                        return None
                    started.append(((node.lineno, node.col_offset), command))
                judged.update(_parts_of(node.func))
                continue
            if isinstance(node.func, ast.Attribute) and node.func.attr in _RESULT_METHODS and \
                    _qualified(node.func.value, names) is None:
                judged.add(id(node.func))  # `os.popen(...).read()`, `check_output(...).decode()`
                continue
            if isinstance(node.func, ast.Name) and node.func.id not in names and node.func.id in _PURE_CALLS:
                continue
            return None
        if isinstance(node, ast.Attribute):
            if _qualified(node, names) in {f"subprocess.{name}" for name in _CONSTANTS}:
                judged.update(_parts_of(node))
                continue
            if node.attr in _RESULT_ATTRIBUTES and _qualified(node.value, names) is None:
                continue  # `.stdout`, `.returncode` of what a command gave back
            return None
        if isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load):
            return None  # a module or starter used as a value: what it is given later is not read here
        if not isinstance(node, _PURE_NODES):
            return None
        if isinstance(node, ast.keyword) and node.arg == "file":
            return None
    return [command for _, command in sorted(started, key=lambda item: item[0])]


def _parts_of(node: ast.AST) -> set[int]:
    """A module attribute and the module's name in it, or a name imported from a module."""
    return {id(node), id(node.value)} if isinstance(node, ast.Attribute) else {id(node)}


def _allowed_from(module: str, name: str) -> bool:
    return name in (_SHLEX if module == "shlex" else _STARTERS[module] | (_CONSTANTS if module == "subprocess" else
                                                                          frozenset()))


def _qualified(node: ast.AST, names: dict[str, str]) -> str | None:
    """`module.function` for a name or attribute that refers to one the code imported; None otherwise."""
    if isinstance(node, ast.Name):
        target = names.get(node.id)
        return target if target is not None and "." in target else None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and "." not in names.get(node.value.id, "."):
        return f"{names[node.value.id]}.{node.attr}"
    return None


def _started(function: str, call: ast.Call, names: dict[str, str]) -> Started | None:
    keywords = {keyword.arg: keyword.value for keyword in call.keywords}
    if None in keywords:
        return None  # **options: which ones, the code does not spell out
    command = call.args[0] if call.args else keywords.pop("args", None) if "args" in keywords else None
    if command is None or len(call.args) > (2 if function == "os.popen" else 1):
        return None
    if function == "os.popen" and len(call.args) == 2 and not _constant(call.args[1], "r"):
        return None  # popen(cmd, "w") writes into the command's input, from the code
    shell = function in _ALWAYS_SHELL or _constant(keywords.get("shell"), True)
    cwd = _literal(keywords.get("cwd"), str)
    given = _literal(keywords.get("input"), (str, bytes))
    if cwd is False or given is False:
        return None
    stdin = keywords.get("stdin")
    piped = stdin is not None and _qualified(stdin, names) != "subprocess.DEVNULL"
    if any(name not in (*_PLAIN_OPTIONS, "args", "cwd", "input", "stdin") for name in keywords):
        return None
    for name in ("stdout", "stderr"):
        value = keywords.get(name)
        if value is not None and not (_qualified(value, names) in {f"subprocess.{c}" for c in _CONSTANTS} or
                                      _constant(value, None)):
            return None  # a file object: the output is written where the code says
    text = _text(given) if given is not None else None
    if isinstance(command, ast.Constant) and isinstance(command.value, str):
        if shell:
            return Started(shell=command.value, input=text, piped=piped and given is None, cwd=cwd)
        return Started(argv=(command.value,), input=text, piped=piped and given is None, cwd=cwd)
    if shell:
        return None  # a list with shell=True: its first item is the shell's code, the rest its arguments
    argv = _argv(command, names)
    return Started(argv=argv, input=text, piped=piped and given is None, cwd=cwd) if argv else None


def _literal(node: ast.AST | None, kind: type | tuple[type, ...]) -> Any:
    """A keyword's constant value of this kind, None where it is not given, False where it is something else."""
    if node is None:
        return None
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, kind) else False


def _argv(node: ast.AST, names: dict[str, str]) -> tuple[str, ...] | None:
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_literal(item, str) for item in node.elts]
        return tuple(items) if all(isinstance(item, str) for item in items) else None
    if isinstance(node, ast.Call) and _qualified(node.func, names) == "shlex.split" and len(node.args) == 1 and \
            not node.keywords and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        try:
            return tuple(shlex.split(node.args[0].value))
        except ValueError:
            return None
    return None


def _constant(node: ast.AST | None, value: object) -> bool:
    return isinstance(node, ast.Constant) and node.value is value if value in (True, False, None) else \
        isinstance(node, ast.Constant) and node.value == value


def _text(value: str | bytes) -> str | None:
    if isinstance(value, str):
        return value
    try:
        return value.decode()
    except UnicodeDecodeError:
        return None
