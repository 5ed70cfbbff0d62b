"""What a Python run may write, where the world knows the code it runs: the bound a world forgets after it.

A run of `python3 script.py`, `python3 -c CODE` or `python3 - <<'EOF'` whose code (programs/python_writes.py) and
every local module it imports the world knows exactly writes the files the code names and the bytecode caches
Python keeps beside each imported module (`__pycache__`; never the script's own, and none under -B or a
PYTHONDONTWRITEBYTECODE the world knows set). Imports are resolved as Python's path finder does (the language
reference, "The import system"; the sys.path docs): sys.path[0] is the script's folder, or the current one for -c
and -; then PYTHONPATH; then the code's literal `sys.path.insert`s. A local folder the world does not know in
full, a name there that could shadow a module of the standard library or pytest, a module found in two places,
a namespace package, a compiled module: no bound. The guard's reading is untouched (the part stays opaque);
the bound is the world's alone.
"""

from __future__ import annotations

import posixpath
import sys
from dataclasses import dataclass, field

from ..programs.python_writes import ASSIGNS_PYTHON, CodeReading, read_code
from ..reading.call import Call, Listings
from ..reading.words import Value

# Names a local folder must not hold as a module: the standard library's, site's hooks, and pytest's own.
_SHADOWED = frozenset(sys.stdlib_module_names) | {"sitecustomize", "usercustomize", "pytest", "_pytest", "pluggy",
                                                  "iniconfig", "packaging", "py", "exceptiongroup", "tomli",
                                                  "colorama", "pygments", "typing_extensions"}
_COMPILED = (".pyc", ".so", ".pyd")


@dataclass
class Run:
    """What the resolution found so far: the module files read, and the paths the code writes."""

    call: Call
    state: Listings
    entries: list[str]  # sys.path's local folders, absolute
    read: dict[str, CodeReading] = field(default_factory=dict)  # file -> its reading
    written: set[str] = field(default_factory=set)


def state_of(call: Call) -> Listings | None:
    """The world's record, where the line is read in one and knows where it stands."""
    state = call.reader.state
    return state if isinstance(state, Listings) and call.scope.cwd_known else None


def environment(call: Call, state: Listings) -> tuple[list[str], bool] | None:
    """PYTHONPATH's folders (absolute) and whether bytecode is written, from what the world knows the shell
    exports; None where a Python or pytest variable it does not follow is set, or the line sets one."""
    if any(name.startswith(("PYTHON", "PYTEST")) for name in call.scope.variables) or \
            ASSIGNS_PYTHON.search(call.text):
        return None  # set by the line itself (`PYTHONPATH=lib python3 f.py`, `env PYTHONPATH=lib python3 f.py`)
    exported = state.exported_values()
    if any(name.startswith(("PYTHON", "PYTEST")) and name not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")
           for name in exported):
        return None
    path, quiet = exported.get("PYTHONPATH", ""), exported.get("PYTHONDONTWRITEBYTECODE", "")
    if path is None or quiet is None:
        return None
    cwd = call.scope.cwd
    return [posixpath.normpath(posixpath.join(cwd, entry)) for entry in path.split(":")] if path else [], not quiet


def bound_of_code(call: Call, code: str, folder: str, writes_bytecode: bool = True) -> tuple[str, ...] | None:
    """What running `code` as __main__, with sys.path[0] `folder`, may write: None where not known."""
    state = state_of(call)
    main = read_code(code)
    settings = environment(call, state) if state is not None else None
    if state is None or main is None or settings is None:
        return None
    entries = [folder, *settings[0]]
    for index, added in main.path_added:
        if index is None or index > len(entries):
            return None  # appended after the standard library: what is found there first is not known
        entries.insert(index, posixpath.normpath(posixpath.join(call.scope.cwd, added)))
    run = Run(call, state, entries)
    if not resolve(run, main, None) or not all(clean(run, entry) for entry in set(entries)):
        return None
    return bound(run, main, writes_bytecode and settings[1])


def resolve(run: Run, reading: CodeReading, package: str | None) -> bool:
    """Every import of `reading` found among the local modules, read, and resolved in turn. `package`: the folder of
    the package the code belongs to (relative imports), None for __main__."""
    for imported in reading.imports:
        if imported.level:
            if package is None:
                return False
            base = package
            for _ in range(imported.level - 1):
                base = posixpath.dirname(base)
            parts = imported.module.split(".") if imported.module else []
            found = _descend(run, posixpath.join(base, "__init__.py"), parts, imported.names)
        else:
            top, *rest = imported.module.split(".")
            homes = [home for entry in run.entries if (home := _find(run, entry, top)) != ""]
            if len(homes) != 1 or homes[0] is None:
                return False  # not found, found twice, or not known
            found = _descend(run, homes[0], rest, imported.names) if rest or imported.names else \
                load(run, homes[0])
        if not found:
            return False
    return True


def _find(run: Run, folder: str, name: str) -> str | None:
    """The module file `name` is in `folder` ('' where it is not there; None where not known, or not read here):
    a package's `__init__.py`, or `name.py`."""
    names = run.state.names_in(folder)
    if names is None:
        return "" if _absent(run, folder) else None
    if any(entry.startswith(name + ".") and entry.endswith(_COMPILED) for entry in names):
        return None
    if name + "/" in names:
        inner = run.state.names_in(posixpath.join(folder, name))
        if inner is None or "__init__.py/" in inner or "__init__.py" not in inner:
            return None  # a namespace package, or one not known
        return posixpath.join(folder, name, "__init__.py")
    if name + ".py/" in names:
        return None
    return posixpath.join(folder, name + ".py") if name + ".py" in names else ""


def _absent(run: Run, folder: str) -> bool:
    return run.call.reader.state is not None and run.call.reader.state.exists(folder) is False


def _descend(run: Run, start: str, parts: list[str], names: tuple[str, ...]) -> bool:
    """Import the package at `start` (a module file or package file) and its submodules `parts`, then each of
    `names` that is a submodule."""
    current = start
    if current.endswith(".py") and not load(run, current):
        return False
    for part in parts:
        if not current.endswith("__init__.py"):
            return False  # a module holds no submodules
        found = _find(run, posixpath.dirname(current), part)
        if not found or not load(run, found):
            return False
        current = found
    if names and current.endswith("__init__.py"):
        for name in names:
            found = _find(run, posixpath.dirname(current), name)
            if found is None or found and not load(run, found):
                return False
    return True


def load(run: Run, path: str) -> bool:
    """Read one module file the world knows exactly, and what it imports."""
    if path.endswith("/__init__.py") is False and not path.endswith(".py"):
        path = posixpath.join(path, "__init__.py")
    if path in run.read:
        return True
    text = run.call.text_of(Value(path))
    reading = read_code(text) if text is not None else None
    if reading is None or reading.path_added:
        return False
    run.read[path] = reading
    return resolve(run, reading, posixpath.dirname(path))


def clean(run: Run, entry: str) -> bool:
    """A sys.path folder that holds no name that could shadow the standard library's modules or pytest's."""
    names = run.state.names_in(entry)
    if names is None:
        return _absent(run, entry)
    return not any(name.rstrip("/").split(".")[0] in _SHADOWED and (name.endswith("/") or name.endswith(
        (".py", *_COMPILED))) for name in names)


def bound(run: Run, main: CodeReading | None, writes_bytecode: bool) -> tuple[str, ...]:
    """The files the code read names, and, where bytecode is written, the caches beside each module file read."""
    cwd = run.call.scope.cwd
    written = {posixpath.normpath(posixpath.join(cwd, path)) for reading in (*([main] if main else []), *run.read.values())
               for path in reading.written}
    if writes_bytecode:
        written |= {posixpath.join(posixpath.dirname(path), "__pycache__") for path in run.read}
    return tuple(sorted(written))
