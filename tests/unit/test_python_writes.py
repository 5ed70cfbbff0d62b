"""The reader of Python code for what it may write (programs/python_writes.py), and the bound a world takes from a
run of code it knows (launchers/python_runs.py): code that only computes, imports the project's own modules, writes
files it names; and ways past the reading, which leave no bound."""

from __future__ import annotations

import pytest

from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.programs.python_writes import Imported, read_code
from agentworld_mcp.domains.shell.virtual.shell import VirtualShell

P = "/home/dev/p"
MODULE = b'"""Store."""\n\n\ndef total(values, limit=10):\n    """Sum."""\n    return sum(values[:limit])\n'
SCRIPT = b"import sys\nsys.path.insert(0, 'src')\nfrom pkg.core import total\n\nprint(total([1, 2]))\n"


def test_code_that_defines_and_computes_writes_nothing():
    reading = read_code(MODULE.decode() + "class A:\n    def f(self):\n        self.x = [i for i in range(3)]\n"
                        "if __name__ == '__main__':\n    print(A().f(), f'{total([1])}')\n")
    assert reading is not None and reading.written == [] and reading.imports == []


def test_imports_and_path_entries_are_read_in_order():
    reading = read_code(SCRIPT.decode())
    assert reading is not None
    assert reading.imports == [Imported("pkg.core", 0, ("total",))] and reading.path_added == [(0, "src")]
    assert read_code("from . import core\nfrom .core import total\n").imports == [
        Imported("", 1, ("core",)), Imported("core", 1, ("total",))]


@pytest.mark.parametrize("code, written", [
    ("open('out.txt', 'w').write('x')", ["out.txt"]),
    ("with open('log', mode='a') as f:\n    print(1, file=f)", ["log"]),
    ("from pathlib import Path\np = Path('a.txt')\np.write_text(p.read_text().replace('a', 'b'))", ["a.txt"]),
    ("import pathlib\npathlib.Path('b').write_bytes(b'')", ["b"]),
    ("print(open('a.txt').read())", []),
])
def test_files_it_names_are_what_it_writes(code, written):
    reading = read_code(code)
    assert reading is not None and reading.written == written


@pytest.mark.parametrize("code", [
    "getattr(__builtins__, 'open')('a', 'w')",
    "f = open\nf('a', 'w')",
    "name = 'a'\nopen(name, 'w')",
    "__import__('os').remove('a')",
    "import os\nos.remove('a')",
    "import sys\nsys.modules['json'] = None",
    "import json\nimport x\nimport sys\nsys.path.insert(0, 'src')",
    "eval('1')",
    "exec('import os')",
    "x = ().__class__.__bases__[0].__subclasses__()",
    "from pathlib import Path\nq = Path('a')\nq = Path('b')\nq.write_text('')",
    "from pathlib import Path\ndef f(p):\n    p.write_text('x')\nf(Path('a'))",
    "from pathlib import Path\nPath('a').rename('b')",
    "import json\njson = None",
    "from os import *",
    "import sys\nsys.stdout = None",
    "vars()['x'] = 1",
    "import glob\nglob.os.remove('a')",
    "from glob import os\nos.remove('a')",
    "import json\njson.decoder.re.os",
    "import operator\nfrom pathlib import Path\noperator.methodcaller('write_text', 'x')(Path('a'))",
    "from operator import attrgetter\nattrgetter('__class__')(1)",
])
def test_ways_past_the_reading_leave_it_unknown(code):
    assert read_code(code) is None


def _shell(**extra: bytes) -> VirtualShell:
    files = {f"{P}/src/pkg/__init__.py": b"", f"{P}/src/pkg/core.py": MODULE, f"{P}/reproduce.py": SCRIPT,
             f"{P}/a.txt": b"one\n", **{f"{P}/{name.replace('__', '/')}": text for name, text in extra.items()}}
    folders = {f"{P}/src": True, f"{P}/src/pkg": True}
    return VirtualShell.starting(P, "/home/dev", files=files, folders=folders, complete=True)


def _bounds(shell: VirtualShell, line: str) -> list[tuple[str, ...] | None]:
    return [part.bound for part in analyze(line, P, "/home/dev", state=shell.knowledge).opaque]


def test_a_known_script_that_imports_the_package_may_write_its_caches_only():
    shell = _shell()
    assert _bounds(shell, "python3 reproduce.py") == [(f"{P}/src/pkg/__pycache__",)]
    assert _bounds(shell, "python3 -B reproduce.py") == [()]
    assert _bounds(shell, "python3 -c 'import sys; sys.path.insert(0, \"src\"); import pkg'") == [
        (f"{P}/src/pkg/__pycache__",)]
    assert _bounds(shell, "python3 - <<'EOF'\nopen('b.txt', 'w')\nEOF") == [(f"{P}/b.txt",)]


@pytest.mark.parametrize("line, extra", [
    ("python3 -c 'import json'", {"json.py": b"print(1)\n"}),  # the project's json.py shadows the library's
    ("python3 -c 'import importlib'", {}),  # a module of the library not among those read: not found beside
    ("python3 -c 'import ctypes'", {}),
    ("python3 - <<'EOF'\nimport sys\nsys.path.append('src')\nimport pkg\nEOF", {}),  # after the library's
    ("python3 reproduce.py", {"src__pkg__core.so": b""}),  # a compiled module wins over core.py
    ("python3 -c 'import pkg'", {}),  # not found beside the cwd: site-packages may hold one
    ("python3 -X dev reproduce.py", {}),  # an option the bound does not follow
    ("PYTHONPATH=lib python3 reproduce.py", {}),  # the line sets the search path
    ("python3 reproduce.py", {"src__json.py": b""}),  # a folder on the search path shadows the library
    ("python3 -c 'import sys; sys.path.insert(0, \"src\"); import pkg.other'", {}),  # no such module: found elsewhere?
])
def test_what_the_reading_cannot_place_has_no_bound(line, extra):
    assert _bounds(_shell(**extra), line) == [None]


def test_a_variable_a_wrapper_sets_drops_the_bound():
    from agentworld_mcp.domains.shell.world.learning import learn_step

    shell = _shell()
    learn_step(shell.knowledge, analyze("env PYTHONPATH=lib python3 reproduce.py", P, "/home/dev",
                                        state=shell.knowledge), "", real=False, exact=True)
    assert f"{P}/a.txt" not in shell.knowledge.files


def test_the_world_forgets_only_the_bound():
    from agentworld_mcp.domains.shell.world.learning import learn_step

    shell = _shell()
    learn_step(shell.knowledge, analyze("python3 reproduce.py", P, "/home/dev", state=shell.knowledge), "3\n",
               real=False, exact=True)
    assert shell.compute("cat src/pkg/core.py").stdout == MODULE.decode()
    assert shell.compute("cat a.txt").stdout == "one\n"
    assert f"{P}/src/pkg/__pycache__" in shell.knowledge.maybe_there


TEST = b"from pkg.core import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n"


def _pytest_shell(**extra: bytes) -> VirtualShell:
    shell = _shell(tests__test_core=TEST, pyproject=b"[project]\nname = 'pkg'\n", **extra)
    known = shell.knowledge
    for path in [path for path in known.files if path.endswith(("test_core", "pyproject"))]:
        known.files[path + (".py" if "test_core" in path else ".toml")] = known.files.pop(path)
    known.folders[f"{P}/tests"] = True
    known.variables["PYTHONPATH"], known.exported = "src", {"PYTHONPATH"}
    return shell


def test_a_pytest_run_whose_files_the_world_knows_may_write_its_caches_only():
    bound = _bounds(_pytest_shell(), "python3 -m pytest -q")[0]
    assert bound is not None
    assert {f"{P}/.pytest_cache", f"{P}/tests/__pycache__", f"{P}/src/pkg/__pycache__", f"{P}/"} <= set(bound)
    assert f"{P}/a.txt" not in bound and not any(path.startswith(f"{P}/src/pkg/core") for path in bound)
    quiet = _bounds(_pytest_shell(), "python3 -B -m pytest -q -p no:cacheprovider tests")[0]
    assert quiet is not None and not any(path.endswith(("__pycache__", ".pytest_cache")) for path in quiet
                                         if path.startswith(P))


@pytest.mark.parametrize("line, extra", [
    ("python3 -m pytest -q", {"pytest.ini": b"[pytest]\naddopts = -x\n"}),  # a configuration the bound does not read
    ("python3 -m pytest -q", {"tests__test_tmp.py": b"def test_tmp(tmp_path):\n    pass\n"}),  # tmp_path writes
    ("python3 -m pytest -q --junitxml=r.xml", {}),  # an option that writes
    ("python3 -m pytest -q", {"tests__conftest.py": b"import os\nos.system('rm -rf /')\n"}),
])
def test_a_pytest_run_the_reading_cannot_bound_has_no_bound(line, extra):
    assert _bounds(_pytest_shell(**extra), line) == [None]


def test_after_pytest_known_files_stay_known_and_the_folder_may_hold_more():
    from agentworld_mcp.domains.shell.world.learning import learn_step

    shell = _pytest_shell()
    learn_step(shell.knowledge, analyze("python3 -m pytest -q", P, "/home/dev", state=shell.knowledge), "1 passed\n",
               real=False, exact=True)
    assert shell.compute("cat tests/test_core.py").stdout == TEST.decode()
    assert shell.knowledge.folders[P] is False  # a plugin may have added a name of its own (.benchmarks)


def test_relative_imports_are_followed_into_the_package():
    shell = _shell(src__pkg__util=b"", src__pkg__writer=b"def save():\n    open('out.txt', 'w').write('x')\n")
    known = shell.knowledge
    known.files[f"{P}/src/pkg/util.py"] = b"from . import core\nfrom .writer import save\n"
    known.files[f"{P}/src/pkg/writer.py"] = known.files.pop(f"{P}/src/pkg/writer")
    del known.files[f"{P}/src/pkg/util"]
    line = "python3 -c 'import sys; sys.path.insert(0, \"src\"); from pkg.util import save; save()'"
    assert _bounds(shell, line) == [(f"{P}/out.txt", f"{P}/src/pkg/__pycache__")]
    known.files[f"{P}/src/pkg/util.py"] = b"from .missing import x\n"
    assert _bounds(shell, line) == [None]
