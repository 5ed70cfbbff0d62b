"""Sessions of a small Python project in which Python runs (a script, -c, a here-document on stdin) may be the
model's: a script that imports the project's package, one whose module writes a file it names, one that reaches
past what the reader follows, a module of the standard library shadowed by a file of the project, code that edits
a file through a path object, pytest runs (with the search path exported or not, a conftest's fixture, a plugin's
fixture that writes, a configuration file), between reads and edits the virtual shell computes. The input of
tests/integration/test_predicted_python.py. Everything is drawn from one `random.Random(seed)`.
"""

from __future__ import annotations

import random

from .shell_lines import Scenario

FILES = {"a.txt": b"one\n", "src/pkg/__init__.py": b"", "src/pkg/core.py": b"def total(values):\n    return sum(values)\n",
         "src/pkg/writer.py": b"def save():\n    with open('out.txt', 'w') as f:\n        f.write('saved\\n')\n",
         "reproduce.py": b"import sys\nsys.path.insert(0, 'src')\nfrom pkg.core import total\n\nprint(total([1, 2]))\n",
         "save.py": b"import sys\nsys.path.insert(0, 'src')\nfrom pkg import writer\n\nwriter.save()\n",
         "sneaky.py": b"import importlib\nimportlib.import_module('shutil').rmtree('src')\n",
         "tricky.py": b"f = getattr(__builtins__, 'open')\nf('a.txt', 'w').write('tricky\\n')\n",
         "tests/test_core.py": b"from pkg.core import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n",
         "pyproject.toml": b"[project]\nname = 'pkg'\n"}
PYTHON = ("python3 reproduce.py", "python3 save.py", "python3 -B reproduce.py", "python3 sneaky.py", "python3 tricky.py",
          "python3 -c 'import sys; sys.path.insert(0, \"src\"); import pkg.core'",
          "python3 -c \"open('a.txt', 'w').write('c')\"", "python3 -c 'import json; print(json.dumps(1))'",
          "python3 - <<'EOF'\nfrom pathlib import Path\np = Path('a.txt')\np.write_text(p.read_text() + 'more')\nEOF",
          "python3 - <<'EOF'\nimport sys\nsys.path.insert(0, 'src')\nfrom pkg.writer import save\nsave()\nEOF",
          "PYTHONPATH=src python3 -c 'import pkg.writer'",
          "python3 -c 'import pkg'", "python3 -X dev reproduce.py", "python3 -m pytest -q",
          "python3 -m pytest -q tests/test_core.py", "python3 -m pytest -q -p no:cacheprovider", "python3 -B -m pytest -q",
          "python3 -m pytest -q --junitxml=r.xml")
EDITS = ("echo \"open('a.txt', 'w').write('shadow')\" > json.py", "rm -f json.py", "echo 'x = 1' >> src/pkg/core.py",
         "echo \"open('b.txt', 'w').write('b')\" >> src/pkg/core.py", "echo ok > a.txt", "mkdir -p pkg",
         "echo \"open('c.txt', 'w').write('c')\" > pkg/__init__.py", "rm -rf src/pkg/__pycache__",
         "echo 'import os' >> src/pkg/core.py", "export PYTHONPATH=src", "export PYTHONPATH=src",
         "printf 'def test_tmp(tmp_path):\\n    (tmp_path / \"f\").write_text(\"x\")\\n' >> tests/test_core.py",
         "printf 'import pytest\\n\\n\\n@pytest.fixture\\ndef two():\\n    return 2\\n' > tests/conftest.py",
         "printf 'def test_two(two):\\n    open(\"two.txt\", \"w\").write(\"2\")\\n' >> tests/test_core.py",
         "printf '[pytest]\\naddopts = -p no:cacheprovider\\n' > pytest.ini", "rm -rf .pytest_cache tests/__pycache__")
READS = ("cat a.txt", "cat b.txt", "cat c.txt", "cat out.txt", "ls", "ls src/pkg", "cat src/pkg/core.py",
         "ls src/pkg/__pycache__", "cat reproduce.py", "ls -a", "wc -l src/pkg/writer.py", "cat json.py", "ls tests",
         "cat tests/test_core.py", "ls .pytest_cache", "cat two.txt", "cat pyproject.toml")


# The runs a world cannot bound (code past the reader, an option or variable it does not follow): drawn less often,
# since each forgets everything and leaves little to compare after it.
UNBOUNDED = frozenset({"python3 sneaky.py", "python3 tricky.py", "python3 -X dev reproduce.py", "python3 -c 'import pkg'",
                       "PYTHONPATH=src python3 -c 'import pkg.writer'", "python3 -m pytest -q --junitxml=r.xml"})


def session(seed: int) -> tuple[Scenario, frozenset[int]]:
    """A session, and the indexes of the steps the model answers: every Python run, and a tenth of the rest."""
    rng = random.Random(seed)
    made = Scenario(seed, dict(FILES))
    if rng.random() < 0.5:
        made.lines.append("export PYTHONPATH=src")
    bounded = [line for line in PYTHON if line not in UNBOUNDED]
    for _ in range(rng.randint(6, 14)):
        shape = rng.random()
        pool = sorted(UNBOUNDED) if shape < 0.05 else bounded if shape < 0.4 else EDITS if shape < 0.55 else READS
        made.lines.append(rng.choice(pool))
    model = frozenset(index for index, line in enumerate(made.lines) if "python3" in line or rng.random() < 0.1)
    return made, model
