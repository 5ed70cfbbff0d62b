"""Coding-agent sessions, generated: a task in a small Python repository, worked the way coding agents work it.

The second generator of the closed loop (server/evals/closed_loop.py), written apart from the everyday one
(server/evals/everyday.py) and from the published shape of coding agents' trajectories rather than from what the
virtual shell computes: SWE-bench-style runs go understand, localize, reproduce, edit, verify, clean up and submit;
bash-only agents view code with `cat`, `head`, `sed -n`, `nl -ba | sed -n` and `grep -n`, search with `grep -rn`
and `find`, write files with here-documents, edit with `sed -i` and small Python scripts, run a reproduction script
and the tests after each edit, and finish with `git status`, `git diff` and `git add -A && git diff --cached`.
A session here also does what agents do in a repository of their own: it creates it (or finds it written), works
on a branch, stashes, restores and merges, keeps a little shell state (functions, `set -o pipefail`, variables,
arrays, `pushd`), and mistypes.

Seeds 0-99_999 are for development; `HELD_OUT` is measured, never read while the generator or the virtual shell
is changed. Every line ends by itself and prints nothing a machine would print otherwise (no dates, sizes,
process ids, or hashes of content the session did not write).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from .everyday import Session, heredoc, some

HELD_OUT = range(500_000, 500_100)
PACKAGES = ("ledger", "shelf", "tally", "routes", "cargo", "quota", "parcel", "meter", "roster", "atlas")
MODULES = ("core", "parse", "util", "pricing", "store", "rules", "report")
FUNCTIONS = ("total", "clamp", "normalize", "split_words", "average", "discount", "merge_counts", "first_or")


@dataclass
class _Task:
    draw: random.Random
    session: Session
    package: str
    module: str
    function: str
    branch: str

    @property
    def source(self) -> str:
        return f"src/{self.package}/{self.module}.py"

    @property
    def test(self) -> str:
        return f"tests/test_{self.module}.py"

    def pick(self, lines: list[str], low: int, high: int | None = None) -> list[str]:
        return some(self.draw, lines, low, high)


def _module(task: _Task) -> str:
    """The module under work: a few small functions, one of them with the off-by-one the task is about."""
    return (f'"""{task.module.capitalize()} helpers of {task.package}."""\n\n\n'
            f"def {task.function}(values, limit=10):\n"
            f'    """Sum the first `limit` values."""\n'
            f"    picked = values[:limit - 1]\n"
            f"    return sum(picked)\n\n\n"
            f"def describe(values):\n"
            f"    return f\"{{len(values)}} values\"\n")


def _test(task: _Task) -> str:
    return (f"from {task.package}.{task.module} import {task.function}\n\n\n"
            f"def test_{task.function}_takes_limit_values():\n"
            f"    assert {task.function}([1, 2, 3], limit=3) == 6\n")


def setup(task: _Task) -> list[str]:
    """The repository: found written (an existing project), or created by the agent with here-documents."""
    d, files = task.draw, {task.source: _module(task), task.test: _test(task), "README.md":
                           f"# {task.package}\n\nSmall helpers.\n\n## Tests\n\n    python -m pytest -q\n",
                           f"src/{task.package}/__init__.py": "", "pyproject.toml":
                           f'[project]\nname = "{task.package}"\nversion = "0.1.0"\n'}
    if d.random() < 0.5:
        task.session.files.update(files)
        lines = []
    else:
        lines = [f"mkdir -p src/{task.package} tests", *(heredoc(path, text) if text else f"touch {path}"
                                                        for path, text in files.items())]
    lines += ["printf '%s\\n' __pycache__/ '*.egg-info/' .pytest_cache/ > .gitignore", "git init -q",
              "git config user.email agent@example.com", "git config user.name Agent",
              "git add -A", "git commit -qm 'Initial import'"]
    return lines


def orient(task: _Task) -> list[str]:
    looks = ["ls", "ls -la", "pwd", "git status", "git status --short", "cat README.md", "ls src", f"ls src/{task.package}",
             "find . -name '*.py' -not -path './.git/*' | sort", "find . -type f -not -path './.git/*' | head -n 20",
             "cat pyproject.toml", "git log --oneline | head -n 5", "git branch", "wc -l src/*/*.py", "ls tests"]
    return task.pick(looks, 3, 6)


def localize(task: _Task) -> list[str]:
    f, src = task.function, task.source
    looks = [f"grep -rn 'def {f}' src/", f"grep -rn '{f}' --include='*.py' .", f"grep -n 'limit' {src}",
             f"grep -rl '{f}' src tests", f"cat {src}", f"cat -n {src}", f"nl -ba {src} | sed -n '1,20p'",
             f"sed -n '4,9p' {src}", f"head -n 12 {src}", f"grep -n -A3 'def {f}' {src}", f"cat {task.test}",
             f"grep -c def {src}", "grep -rn TODO src tests || true", f"awk '/def /{{print FILENAME\": \"$0}}' {src}"]
    return task.pick(looks, 3, 7)


def reproduce(task: _Task) -> list[str]:
    script = (f"import sys\nsys.path.insert(0, 'src')\nfrom {task.package}.{task.module} import {task.function}\n\n"
              f"print({task.function}([1, 2, 3], limit=3))\n")
    return [heredoc("reproduce.py", script), "python3 reproduce.py",
            *task.pick([f"python3 -c 'import sys; sys.path.insert(0, \"src\"); import {task.package}'",
                        "ls", "cat reproduce.py"], 0, 2)]


def edit(task: _Task) -> list[str]:
    d, src = task.draw, task.source
    fixes = [f"sed -i 's/values\\[:limit - 1\\]/values[:limit]/' {src}",
             f"sed -i 's/limit - 1/limit/' {src}",
             f"python3 - <<'EOF'\nfrom pathlib import Path\np = Path('{src}')\n"
             f"p.write_text(p.read_text().replace('limit - 1', 'limit'))\nEOF"]
    more = [f"cat >> {task.test} <<'EOF'\n\n\ndef test_{task.function}_of_nothing():\n"
            f"    assert {task.function}([]) == 0\nEOF",
            f"sed -i 's/Small helpers./Small helpers, tested./' README.md",
            f"printf '\\n## Changes\\n\\n- {task.function} takes `limit` values.\\n' >> README.md",
            f"cp {src} {src}.orig", f"echo 'DEFAULT_LIMIT = 10' >> {src}"]
    return [d.choice(fixes), *task.pick(more, 0, 3)]


def verify(task: _Task) -> list[str]:
    checks = ["python3 reproduce.py", "python3 -m pytest -q", f"python3 -m pytest -q {task.test}", "git diff",
              "git diff --stat", "git status --short", f"grep -n 'limit' {task.source}",
              f"sed -n '4,9p' {task.source}", f"diff {task.source}.orig {task.source} || true", "git diff README.md"]
    return task.pick(checks, 2, 5)


def branch_work(task: _Task) -> list[str]:
    """Work on a branch: commit, look back at the main line, stash a half edit, restore a file, merge."""
    d, src = task.draw, task.source
    start = d.choice([f"git checkout -b {task.branch}", f"git switch -c {task.branch}"])
    lines = [start, "git add -A", f"git commit -qm 'Fix {task.function} limit'", "git log --oneline | wc -l"]
    lines += task.pick([d.choice(["git switch master", "git checkout master", "git switch -"]), f"cat {src}",
                        d.choice([f"git switch {task.branch}", f"git checkout {task.branch}", "git switch -"])], 0)
    lines += task.pick([f"echo '# half done' >> {src}", "git stash", "git stash list | wc -l", f"tail -n 2 {src}",
                        "git stash pop", f"git diff --stat {src}", f"git restore {src}",
                        f"git checkout -- {src}", "git status --short"], 2, 6)
    if d.random() < 0.5:
        lines += ["git switch master" if "switch" in start else "git checkout master",
                  f"git merge -q {task.branch}", f"grep -n 'limit' {src}", "git branch"]
    return lines


def shell_state(task: _Task) -> list[str]:
    """What agents keep in the shell between commands: options, variables, functions, arrays, the folder stack."""
    d = task.draw
    forms = ["set -o pipefail", f"PKG={task.package}; echo $PKG", f"export PYTHONPATH=src; echo $PYTHONPATH",
             "files=(src/*/*.py); echo ${#files[@]}", "run() { python3 -m pytest -q \"$@\"; }",
             "count() { grep -c \"$1\" \"$2\"; }", f"count def {task.source}",
             f"pushd src/{task.package} >/dev/null && ls && popd >/dev/null", "cd tests && ls && cd -",
             "unset PKG; echo ${PKG:-none}", "for f in src/*/*.py; do echo \"== $f\"; done",
             f"[ -f {task.source} ] && echo present", "echo $?"]
    return task.pick(forms, 2, 6)


def cleanup(task: _Task) -> list[str]:
    d = task.draw
    lines = task.pick([f"rm -f {task.source}.orig", "rm reproduce.py", "rm -rf .pytest_cache",
                       "find . -name '__pycache__' -type d -prune -exec rm -rf {} +"], 1, 3)
    lines += task.pick(["git status", "git status --short", "git diff --stat"], 1, 2)
    lines.append(d.choice(["git add -A && git diff --cached --stat", "git add -A && git diff --cached",
                           f"git add -A && git commit -qm 'Tidy {task.function}' && git status --short"]))
    return lines


def slips(task: _Task) -> list[str]:
    return task.pick(["pyhton3 reproduce.py", "gti status", f"cat {task.source}x", "ls nosuch",
                      "grep -rn 'def nothing' src", "python3 -m pytset -q", "cd srcx", f"sed -n '1,5p' {task.test}x"],
                     1, 2)


PHASES: tuple[Callable[[_Task], list[str]], ...] = (orient, localize, reproduce, edit, verify)


def session(seed: int) -> Session:
    """One task: set up, then the phases in order, with branch work, shell state, slips and a second
    localize-edit-verify round drawn in, and the clean-up."""
    draw = random.Random(seed)
    made = Session(seed)
    task = _Task(draw, made, draw.choice(PACKAGES), draw.choice(MODULES), draw.choice(FUNCTIONS),
                 draw.choice(("fix-limit", "bugfix/limit", "agent/patch")))
    made.task = f"fix {task.function} in {task.source}"
    made.lines += setup(task)
    for phase in PHASES:
        made.lines += phase(task)
        if draw.random() < 0.25:
            made.lines += slips(task)
        if draw.random() < 0.3:
            made.lines += shell_state(task)
    if draw.random() < 0.4:
        made.lines += localize(task) + verify(task)
    if draw.random() < 0.6:
        made.lines += branch_work(task)
    made.lines += cleanup(task)
    return made
