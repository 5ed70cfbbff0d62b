"""Record real bash sessions into a store, for measuring what retrieval gives on the user's own kind of work.

    python -m agentworld_mcp.server.evals.make_sessions DATA_DIR [SESSIONS]

Each session is one of a few everyday kinds of work (notes, a folder tree, numbers, Python, text
search), with its own names and contents drawn from a seeded generator, run command by command in
the drift sandbox (a fresh bash in a throwaway home). Each becomes a world of real steps, as
`import` leaves a transcript, so `export` and `eval samples --retrieval on|off` see them the same way.
Commands print no dates, sizes, hashes or user names, so the record repeats on any Linux machine.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

from ...tools.worlds.store import StepRow, Store
from .drift import Scenario, real_screens, run_for_real

SESSIONS = 40
_NAMES = ["alpha", "beta", "notes", "draft", "report", "data", "tmp", "work", "build", "docs", "api", "web"]
_WORDS = ["milk", "bread", "call bob", "fix bug", "pay rent", "read book", "email ann", "plant tree", "walk dog"]
_FRUIT = ["apple", "pear", "fig", "kiwi", "plum", "lime", "date", "grape"]


def _notes(draw: random.Random) -> tuple[str, list[str]]:
    folder, first, second = draw.choice(_NAMES), *draw.sample(_WORDS, 2)
    return f"keep a to-do list in {folder}", [
        f"mkdir {folder}", f"cd {folder}", f"echo '{first}' > todo.txt", "cat todo.txt", f"echo '{second}' >> todo.txt",
        "wc -l todo.txt", f"grep -c '{first.split()[0]}' todo.txt", "rm todo.txt", "ls", "cat todo.txt"]


def _tree(draw: random.Random) -> tuple[str, list[str]]:
    top, middle, leaf = draw.sample(_NAMES, 3)
    return f"lay out {top}/{middle}/{leaf} and take it apart", [
        f"mkdir -p {top}/{middle}/{leaf}", f"touch {top}/{middle}/{leaf}/main.py {top}/{middle}/util.py",
        f"find {top} -type f | sort", f"rmdir {top}", f"rm -r {top}/{middle}/{leaf}", f"find {top} | sort",
        f"cd {top}/{middle}/{leaf}", f"ls {top}/{middle}"]


def _numbers(draw: random.Random) -> tuple[str, list[str]]:
    last, changed = draw.randint(4, 9), draw.randint(2, 3)
    return f"add up 1 to {last}, then change {changed}", [
        f"seq 1 {last} > n.txt", "awk '{s += $1} END {print s}' n.txt", f"sed -i 's/^{changed}$/{changed * 10}/' n.txt",
        "cat n.txt", "awk '{s += $1} END {print s}' n.txt", "tail -n 2 n.txt", "sort -n n.txt | head -1"]


def _python(draw: random.Random) -> tuple[str, list[str]]:
    a, b, name = draw.randint(2, 9), draw.randint(2, 9), draw.choice(_NAMES)
    return "run small Python checks", [
        f"python3 -c 'print({a} * {b})'", f"echo 'print(\"{name}\")' > {name}.py", f"python3 {name}.py",
        "python3 missing.py", f"python3 -c 'import json; print(json.dumps({{\"{name}\": [{a}, {b}]}}))'",
        f"python3 -c 'raise SystemExit({a})'", "ls *.py"]


def _search(draw: random.Random) -> tuple[str, list[str]]:
    fruit = draw.sample(_FRUIT, 4)
    wanted, missing = fruit[0], next(name for name in _FRUIT if name not in fruit)
    lines = "\\n".join(fruit)
    return f"sort and search a list of {len(fruit)} fruit", [
        f"printf '{lines}\\n' > fruit.txt", "sort fruit.txt", f"grep -n {wanted} fruit.txt", f"grep {missing} fruit.txt",
        "sort -r fruit.txt > sorted.txt", "head -1 sorted.txt", "uniq -c sorted.txt | wc -l", "ls"]


KINDS: list[Callable[[random.Random], tuple[str, list[str]]]] = [_notes, _tree, _numbers, _python, _search]


def record(data_dir: Path, sessions: int = SESSIONS, seed: int = 0) -> int:
    """Run `sessions` sessions for real and store each as a world of real steps; returns the steps stored."""
    draw = random.Random(seed)
    store = Store(data_dir / "worlds.sqlite3")
    stored = 0
    try:
        for index in range(sessions):
            task, commands = KINDS[index % len(KINDS)](draw)
            session = f"sandbox-{seed}-{index}"
            scenario = run_for_real(Scenario(session, task, tuple(commands), (), ""))
            state = ("User dev, home /home/dev, current directory /home/dev/project, which is empty. "
                     f"The screen shows a fresh prompt: {scenario.initial_prompt.rstrip()}")
            world_id = store.create_world("terminal", task, state, None, world_id=f"{session}-terminal",
                                          origin={"host": "sandbox", "session": session})
            screens = real_screens(scenario)
            store.append_steps(world_id, [StepRow(position, action, screen, None, None, "real", None, None)
                                          for position, (action, screen) in enumerate(zip(scenario.actions, screens), 1)])
            stored += len(screens)
    finally:
        store.close()
    return stored


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m agentworld_mcp.server.evals.make_sessions DATA_DIR [SESSIONS]", file=sys.stderr)
        return 2
    sessions = int(argv[1]) if len(argv) > 1 else SESSIONS
    stored = record(Path(argv[0]), sessions)
    print(f"recorded {sessions} sessions, {stored} real steps, into {argv[0]}/worlds.sqlite3", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
