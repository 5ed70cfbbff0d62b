"""Python code read for what it may write: a script, a module it imports, code given with -c or on standard input.

python_reads.py proves code that only reads; a run of a project's code also defines functions and classes, imports
the project's own modules, edits `sys.path` to find them, and may write a file it names (`open('out', 'w')`,
`Path('f').write_text(...)`). This reader's verdict on one file of code: the imports it makes (the caller resolves
each as Python would, and reads a local module the same way, or gives up), the sys.path entries it adds before
them, the files it names and may write, and the parameters and fixtures of what pytest would collect from it; None
where the code may do anything else (a dunder, `__import__`, getattr, eval, a module's attribute that changes
things, an open for writing of a path it does not spell, a write through a path object it cannot follow). The
syntax tree decides, nothing runs.
"""

from __future__ import annotations

import ast
import importlib
import re
import types
from dataclasses import dataclass, field
from functools import cache

from .python_reads import _NODES, _READING_CALLS, _dotted, _read_only_open, _reading, _used_in_place

# Definitions and statements a module holds beside those python_reads allows (no async, no match: not read here).
_MODULE_NODES = _NODES + (ast.FunctionDef, ast.ClassDef, ast.Return, ast.Global, ast.Nonlocal, ast.Yield,
                          ast.YieldFrom)
# Builtins that reach what the reading cannot follow (code as text, namespaces, attributes by name): never named.
_ESCAPES = frozenset({"eval", "exec", "compile", "__import__", "getattr", "setattr", "delattr", "vars", "globals",
                      "locals", "breakpoint", "input", "help", "memoryview", "object", "super", "type"})
# Functions of reading modules that reach an attribute or method by a name given as a string.
_BY_NAME = frozenset({"operator.methodcaller", "operator.attrgetter"})
# Dunder names code may read: they hold strings (`if __name__ == "__main__":`).
_PLAIN_DUNDERS = frozenset({"__name__", "__file__", "__doc__"})
# A path object's methods that only read or compute, and those that write the file it names (pathlib's docs).
_PATH_READS = frozenset({"read_text", "read_bytes", "exists", "is_file", "is_dir", "stat", "name", "suffix", "stem",
                         "parent", "parts", "iterdir", "glob", "rglob", "resolve", "absolute", "as_posix"})
_PATH_WRITES = frozenset({"write_text", "write_bytes", "touch"})
# Attributes by which any object may write (a path's, a module's): allowed only where the reading follows them
# (`replace` given two or more values is str's and bytes', a path's takes one).
_WRITING_ATTRIBUTES = _PATH_WRITES | frozenset({"mkdir", "unlink", "rmdir", "rename", "replace", "symlink_to",
                                                "hardlink_to", "link_to", "chmod", "lchmod", "open", "makedirs"})
# pytest's own names that only mark, compare or raise (docs.pytest.org, API reference).
_PYTEST_NAMES = frozenset({"mark", "fixture", "raises", "approx", "param", "skip", "fail", "xfail", "warns"})
# A Python or pytest variable a line sets for a command (`PYTHONPATH=lib python3 f.py`, `env PYTEST_ADDOPTS=...`):
# where one runs, and what it does, is not what the bound of its code says.
ASSIGNS_PYTHON = re.compile(r"(?<![\w$])(?:PYTHON|PYTEST)\w*=")
_PYTEST_MARKS_THAT_USE = frozenset({"usefixtures"})  # a mark that asks for fixtures by name


@dataclass(frozen=True)
class Imported:
    """One module an import statement loads: `module` dotted, `level` dots of a relative import; `names` what a
    from-import takes from it (each may be a submodule)."""

    module: str
    level: int = 0
    names: tuple[str, ...] = ()


@dataclass
class CodeReading:
    """What one file of code does that matters to what it may write."""

    imports: list[Imported] = field(default_factory=list)  # not of the stdlib's reading modules, sys, pathlib
    path_added: list[tuple[int | None, str]] = field(default_factory=list)  # sys.path.insert(i, p); None: append
    written: list[str] = field(default_factory=list)  # literal paths it may write
    fixtures: set[str] = field(default_factory=set)  # functions it makes pytest fixtures
    asked: set[str] = field(default_factory=set)  # what its tests and fixtures ask for by parameter


def read_code(code: str) -> CodeReading | None:
    """The reading of `code`, or None where it may do what this reader does not follow."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None
    reading = CodeReading()
    modules: dict[str, str] = {}  # name -> stdlib module or attribute (python_reads' rules), 'pathlib.Path', 'pytest'
    local: set[str] = set()  # names bound to modules the caller resolves (their code is read in turn)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not _import(node, reading, modules, local):
            return None
    if any(_targets(node) and set(_targets(node)) & (modules.keys() | local) and not isinstance(node, ast.alias)
           for node in ast.walk(tree)):
        return None  # an imported name bound again: what it then stands for is not followed
    paths = _tracked_paths(tree, modules)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if not isinstance(node, _MODULE_NODES) or not _allowed(node, parents, modules, local, paths, reading):
            return None
    if not _path_changes(tree, modules, reading):
        return None
    _tests(tree, modules, reading)
    return reading


def _import(node: ast.Import | ast.ImportFrom, reading: CodeReading, modules: dict[str, str], local: set[str]) -> bool:
    if isinstance(node, ast.Import):
        for alias in node.names:
            name = alias.asname or alias.name.split(".")[0]
            if alias.name in ("sys", "pytest", "pathlib") or _reading(alias.name):
                modules[name] = alias.name if alias.asname or "." not in alias.name else alias.name.split(".")[0]
            else:
                reading.imports.append(Imported(alias.name))
                local.add(name)
        return True
    if any(alias.name == "*" for alias in node.names):
        return False  # which names it binds, only its module's code tells
    module = node.module or ""
    if node.level == 0 and module in ("sys", "pathlib", "pytest") or node.level == 0 and module.split(".")[0] in (
            "sys", "os", "pathlib", "pytest") or node.level == 0 and _reading(module):
        for alias in node.names:
            dotted = f"{module}.{alias.name}"
            if not (_reading(dotted) and not _reexported(dotted) and dotted not in _BY_NAME or
                    dotted in ("pathlib.Path", "sys.path") or
                    module == "pytest" and alias.name in _PYTEST_NAMES):
                return False
            modules[alias.asname or alias.name] = dotted
        return True
    reading.imports.append(Imported(module, node.level, tuple(alias.name for alias in node.names)))
    local.update(alias.asname or alias.name for alias in node.names)
    return True


def _tracked_paths(tree: ast.Module, modules: dict[str, str]) -> dict[str, str]:
    """Names bound once, at the top, to a path object of a literal (`p = Path('src/a.py')`): name -> path."""
    bound: dict[str, list[ast.AST]] = {}
    for node in ast.walk(tree):
        for target in _targets(node):
            bound.setdefault(target, []).append(node)
    tracked = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and \
                isinstance(statement.targets[0], ast.Name) and len(bound[statement.targets[0].id]) == 1 and \
                (path := _literal_path(statement.value, modules)) is not None:
            tracked[statement.targets[0].id] = path
    return tracked


def _targets(node: ast.AST) -> list[str]:
    """The names a node binds."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return [node.id]
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.alias):
        return [node.asname or node.name.split(".")[0]]
    return []


def _literal_path(node: ast.AST, modules: dict[str, str]) -> str | None:
    """The literal a `Path('...')` (or `pathlib.Path('...')`) call makes a path object of."""
    if isinstance(node, ast.Call) and _dotted(node.func, modules) == "pathlib.Path" and len(node.args) == 1 and \
            not node.keywords and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


def _allowed(node: ast.AST, parents: dict[ast.AST, ast.AST], modules: dict[str, str], local: set[str],
             paths: dict[str, str], reading: CodeReading) -> bool:
    """One node, by python_reads' rules widened to definitions, local modules, pytest and path objects."""
    parent = parents.get(node)
    if isinstance(node, ast.Name):
        if node.id.startswith("__") and node.id not in _PLAIN_DUNDERS or node.id in _ESCAPES:
            return False
        if node.id in modules and not _used_in_place(node, parent):
            return False  # a module or its function bound to another name: what it is given is not followed
        return node.id != "open" or _used_in_place(node, parent)
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value, modules)
        if node.attr.startswith("__") or base is not None and not _module_attribute(base, node.attr):
            return False
        if isinstance(node.ctx, (ast.Store, ast.Del)) and isinstance(node.value, ast.Name) and (
                node.value.id in modules or node.value.id in local):
            return False  # a module's name rebound from outside it
        if node.attr in _WRITING_ATTRIBUTES and not (node.attr == "replace" and isinstance(parent, ast.Call) and
                                                     parent.func is node and len(parent.args) >= 2):
            return _tracked_write(node, parent, paths, modules, reading)
        return True
    if isinstance(node, ast.Call):
        if not isinstance(node.func, (ast.Name, ast.Attribute)):
            return False  # `(open if x else print)(...)`: which function is called, only running it tells
        if isinstance(node.func, ast.Name) and node.func.id == "open":
            return _open(node, reading)
        if isinstance(node.func, ast.Name) and node.func.id in modules and _dotted(node.func, modules) == "pytest":
            return False
        return True
    return True


def _module_attribute(base: str, attribute: str) -> bool:
    """An attribute of a module the code imported that only computes or reads (sys.path's changes apart)."""
    if base == "pathlib":
        return attribute == "Path"
    if base == "pathlib.Path":
        return attribute in _PATH_READS or attribute in ("cwd", "home")
    if base.split(".")[0] == "pytest":
        return base == "pytest" and attribute in _PYTEST_NAMES or base == "pytest.mark" and \
            attribute not in _PYTEST_MARKS_THAT_USE
    if base == "sys.path":
        return attribute in ("insert", "append")
    dotted = f"{base}.{attribute}"
    return not attribute.startswith("_") and _reading(dotted) and not _reexported(dotted) and dotted not in _BY_NAME


@cache
def _reexported(dotted: str) -> bool:
    """A module a reading module holds as its attribute (`glob.os`, `json.decoder`): through it, what the module
    imported is reached (`glob.os.remove`), which the allowlist does not judge. Read from this process's own library;
    `os.path` alone is judged by python_reads' rules."""
    top, *rest = dotted.split(".")
    if dotted == "os.path" or not rest:
        return False
    try:
        found: object = importlib.import_module(top)
        for name in rest:
            found = getattr(found, name)
    except (ImportError, AttributeError):
        return False  # no such attribute: using it fails, reaching nothing
    return isinstance(found, types.ModuleType)


def _tracked_write(node: ast.Attribute, parent: ast.AST | None, paths: dict[str, str], modules: dict[str, str],
                   reading: CodeReading) -> bool:
    """`p.write_text(...)` on a path object of a literal: that file is written; any other writing attribute is
    not followed."""
    called = isinstance(parent, ast.Call) and parent.func is node
    target = paths.get(node.value.id) if isinstance(node.value, ast.Name) else _literal_path(node.value, modules)
    if not called or target is None or node.attr not in _PATH_WRITES:
        return False
    reading.written.append(target)
    return True


def _open(call: ast.Call, reading: CodeReading) -> bool:
    """`open` of a literal file: for reading, or for writing that file (then it is written)."""
    if _read_only_open(call) is not None:
        return True
    if not call.args or len(call.args) > 2 or not isinstance(call.args[0], ast.Constant) or \
            not isinstance(call.args[0].value, str) or call.keywords and any(
                keyword.arg not in ("mode", "encoding", "errors", "newline") for keyword in call.keywords):
        return False
    mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
    if not (isinstance(mode, ast.Constant) and isinstance(mode.value, str)):
        return False
    reading.written.append(call.args[0].value)
    return True


def _path_changes(tree: ast.Module, modules: dict[str, str], reading: CodeReading) -> bool:
    """sys.path's entries the code adds, each a literal, at its top and before any import of a module the caller
    resolves (`sys.path.insert(0, 'src')`); False for any other change of it."""
    imported = False
    for statement in tree.body:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            imported = imported or any(_resolved(alias.name, statement) for alias in statement.names)
            continue
        change = _path_change(statement, modules)
        if change is not None:
            if imported:
                return False
            reading.path_added.append(change)
    found = sum(_dotted(node.value, modules) == "sys.path" for node in ast.walk(tree)
                if isinstance(node, ast.Attribute) and node.attr in ("insert", "append"))
    uses = sum(_dotted(node, modules) == "sys.path" for node in ast.walk(tree))
    return found == len(reading.path_added) == uses


def _resolved(name: str, statement: ast.Import | ast.ImportFrom) -> bool:
    """An import the caller resolves: any but sys's, the reading modules' and pathlib's."""
    module = statement.module if isinstance(statement, ast.ImportFrom) else name
    return bool(getattr(statement, "level", 0)) or not (module in ("sys", "pathlib", "pytest") or _reading(module or ""))


def _path_change(statement: ast.stmt, modules: dict[str, str]) -> tuple[int | None, str] | None:
    if not (isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call) and
            isinstance(call.func, ast.Attribute) and _dotted(call.func.value, modules) == "sys.path"):
        return None
    values = [argument.value for argument in call.args if isinstance(argument, ast.Constant)]
    if call.keywords or len(values) != len(call.args):
        return None
    if call.func.attr == "insert" and len(values) == 2 and isinstance(values[0], int) and isinstance(values[1], str):
        return values[0], values[1]
    if call.func.attr == "append" and len(values) == 1 and isinstance(values[0], str):
        return None, values[0]
    return None


def _tests(tree: ast.Module, modules: dict[str, str], reading: CodeReading) -> None:
    """What pytest would ask of its fixtures: the parameters of its tests (`test*` functions, and methods of `Test*`
    classes) and fixtures, but those a parametrize mark gives."""
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)] + [
        node for klass in tree.body if isinstance(klass, ast.ClassDef) and klass.name.startswith("Test")
        for node in klass.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test")]
    for node in functions:
        given, fixture = {"self", "cls"}, False
        for decorator in node.decorator_list:
            function = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = _dotted(function, modules)
            fixture = fixture or name == "pytest.fixture"
            if name == "pytest.mark.parametrize" and isinstance(decorator, ast.Call) and decorator.args and \
                    isinstance(decorator.args[0], ast.Constant) and isinstance(decorator.args[0].value, str):
                given |= {word.strip() for word in decorator.args[0].value.split(",")}
        if fixture:
            reading.fixtures.add(node.name)
        if not (fixture or node.name.startswith("test")):
            continue
        arguments = node.args
        reading.asked |= {argument.arg for argument in (*arguments.posonlyargs, *arguments.args,
                                                        *arguments.kwonlyargs)} - given
        if arguments.vararg or arguments.kwarg:
            reading.asked.add("*")
