"""What `python3 -m pytest` may write, where the world knows every file the run may collect: the bound a world
forgets after it.

From pytest's documentation ("Customizing pytest": rootdir and configuration files; "Cache": the cacheprovider
plugin; "Changing standard Python test discovery"; "pytest import mechanisms and sys.path"): with no
configuration file that holds a pytest section, the run collects `test_*.py` and `*_test.py` below its arguments
(the current folder by default), skipping `.*`, `build`, `dist`, `venv` and the like and every `__pycache__`, loads
each `conftest.py` there and above, imports each collected file after putting its first folder without an
`__init__.py` on sys.path (the `prepend` mode), rewrites their asserts into bytecode kept in `__pycache__` beside
them, and writes `.pytest_cache` at the rootdir (`-p no:cacheprovider`: not); the plugins installed beside it may
add entries of their own there and in the folder it runs in (pytest-benchmark makes `.benchmarks` unasked), so
those folders' listings become incomplete, their known files kept. Where those files and what they import
read as writing nothing the reader cannot name (launchers/python_runs.py), the bound is those caches and the files
the code names; anything else (an option not read here, a folder not known in full, a configuration file with a
pytest section, a fixture that writes such as tmp_path) leaves none. Folders above the workspace that the world
does not know in full are the machine's: no configuration file or conftest.py there is looked for (their
`.pytest_cache` is still in the bound).
"""

from __future__ import annotations

import fnmatch
import posixpath

from ..reading.call import Call
from ..reading.words import Value
from .python_runs import Run, bound, clean, environment, load, state_of

_CONFIGS = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
_SECTIONS = ("[pytest]", "[tool:pytest]", "[tool.pytest")  # a section that configures pytest
_ROOT_MARKS = (*_CONFIGS, "setup.py")  # a file whose folder may become the rootdir
_NORECURSE = ("*.egg", ".*", "_darcs", "build", "CVS", "dist", "node_modules", "venv", "{arch}", "__pycache__")
_PLAIN = frozenset({"-q", "-qq", "-v", "-vv", "-x", "-s", "-l", "-ra", "-rA", "--quiet", "--verbose", "--exitfirst",
                    "--no-header", "--tb=short", "--tb=long", "--tb=line", "--tb=no", "--tb=native", "--tb=auto"})
_HARMLESS_FIXTURES = frozenset({"capsys", "capfd", "capsysbinary", "capfdbinary"})  # they capture output only


def bound_of_pytest(call: Call, words: list[Value], writes_bytecode: bool) -> tuple[str, ...] | None:
    """What `python -m pytest WORDS` may write; None where not known."""
    state = state_of(call)
    settings = environment(call, state) if state is not None else None
    read = _arguments(words)
    if state is None or settings is None or read is None:
        return None
    operands, keeps_cache = read
    cwd = call.scope.cwd
    arguments = [posixpath.normpath(posixpath.join(cwd, operand)) for operand in operands] or [cwd]
    run = Run(call, state, [cwd, *settings[0]])
    roots = _roots(run, arguments)
    collected = _collected(run, arguments)
    if roots is None or collected is None:
        return None
    basedirs = [_basedir(run, path) for path in collected]
    if any(folder is None for folder in basedirs):
        return None
    run.entries = sorted({*run.entries, *(folder for folder in basedirs if folder is not None)})
    if not all(load(run, path) for path in collected) or not all(clean(run, entry) for entry in run.entries):
        return None
    tests = [run.read[path] for path in collected]
    fixtures = _HARMLESS_FIXTURES.union(*(reading.fixtures for reading in tests))
    if any(reading.asked - fixtures for reading in tests):
        return None  # a fixture of a plugin (tmp_path writes below /tmp), or one asked for by a name not read
    caches = {posixpath.join(root, ".pytest_cache") for root in roots} if keeps_cache else set()
    # Plugins installed beside pytest add entries of their own where it runs and at its rootdir (pytest-benchmark's
    # `.benchmarks`, whatever the run's options): those folders may gain names ('/' ends such a path in a bound).
    gain = {folder + "/" for folder in (*roots, cwd) if folder != "/"}
    return tuple(sorted({*bound(run, None, writes_bytecode and settings[1]), *caches, *gain}))


def _arguments(words: list[Value]) -> tuple[list[str], bool] | None:
    """The paths pytest is given (a node id's file), and whether the cache plugin runs; None for an option not
    read here (each may write: --junitxml, --basetemp, -o, -c, --rootdir, -p ...)."""
    operands, keeps_cache, index = [], True, 0
    while index < len(words):
        word = words[index]
        if not word.literal:
            return None
        if word.text in ("-p", "-k") and index + 1 < len(words) and words[index + 1].literal and (
                word.text == "-k" or words[index + 1].text == "no:cacheprovider"):
            keeps_cache = keeps_cache and word.text == "-k"
            index += 2
            continue
        if word.text.startswith("-") and word.text not in _PLAIN:
            return None
        if not word.text.startswith("-"):
            operands.append(word.text.split("::")[0])
        index += 1
    return operands, keeps_cache


def _roots(run: Run, arguments: list[str]) -> set[str] | None:
    """Where the rootdir may be: the arguments' common folder, or a folder at or above an argument that holds a file
    pytest takes its root from, or may hold one (a folder the world does not know in full, above the workspace:
    the machine's, where no configuration is looked for). None where a configuration file on the way may configure
    pytest (its options are not read here)."""
    common = posixpath.commonpath([path if run.state.names_in(path) is not None else posixpath.dirname(path)
                                   for path in arguments])
    roots = {common}
    for argument in arguments:
        folder = argument if run.state.names_in(argument) is not None else posixpath.dirname(argument)
        while True:
            names = run.state.names_in(folder)
            if names is None:
                roots.add(folder)
            for name in set(names or ()) & set(_ROOT_MARKS):
                text = run.call.text_of(Value(posixpath.join(folder, name)))
                if name in _CONFIGS and (text is None or name.startswith(("pytest", ".pytest")) or
                                         any(section in text for section in _SECTIONS)):
                    return None
                roots.add(folder)
            if folder == "/":
                break
            folder = posixpath.dirname(folder)
    return roots


def _collected(run: Run, arguments: list[str]) -> list[str] | None:
    """The files pytest imports: test files below the arguments (a file argument itself), and each conftest.py in
    the folders it walks and above them. None where a folder it may walk is not known in full."""
    found: list[str] = []
    for argument in arguments:
        names = run.state.names_in(argument)
        if names is None:  # a file (or nothing: pytest fails, writing nothing more than the rest)
            if argument.endswith(".py") and run.call.text_of(Value(argument)) is not None:
                found.append(argument)
            elif run.call.reader.state is None or run.call.reader.state.exists(argument) is not False:
                return None
        elif not _walk(run, argument, found):
            return None
        folder = posixpath.dirname(argument)
        while (names := run.state.names_in(folder)) is not None:  # up to a folder the world does not know in full
            if "conftest.py" in names:
                found.append(posixpath.join(folder, "conftest.py"))
            if folder == "/":
                break
            folder = posixpath.dirname(folder)
    return sorted(set(found))


def _walk(run: Run, folder: str, found: list[str]) -> bool:
    names = run.state.names_in(folder)
    if names is None:
        return False
    for name in names:
        if name.endswith("/"):
            if not any(fnmatch.fnmatchcase(name[:-1], pattern) for pattern in _NORECURSE) and \
                    not _walk(run, posixpath.join(folder, name[:-1]), found):
                return False
        elif name == "conftest.py" or name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py")):
            found.append(posixpath.join(folder, name))
    return True


def _basedir(run: Run, path: str) -> str | None:
    """The folder pytest's prepend mode puts on sys.path for a collected file: the first above it that holds no
    `__init__.py`; None where a folder on the way is not known in full."""
    folder = posixpath.dirname(path)
    while (names := run.state.names_in(folder)) is not None and "__init__.py" in names and folder != "/":
        folder = posixpath.dirname(folder)
    return folder if names is not None else None
