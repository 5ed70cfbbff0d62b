"""The virtual git's hunks (domains/shell/virtual/git_diff.py) against the real git's, file by file: generated pairs
of a file's old and new content (edits in several places, lines added at the end, a run of lines replaced, the last
newline dropped, another file altogether, out of lines that repeat, blank lines, indented lines and names git shows
after `@@`), each staged in a fresh repository and changed in the work tree; every patch the virtual git computes
must be byte for byte `git diff`'s, and it must refuse (not guess) the rest. Seeds 0..(CASES-1) every run, printed;
AGENTWORLD_DIFF_SEED moves them (`random` draws).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess

import pytest
from agentworld_mcp.domains.shell.virtual import git_diff
from agentworld_mcp.domains.shell.virtual.git_tree import Refused

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs a real git")
CASES = 400
POOL = (b"a\n", b"b\n", b"\n", b"def f():\n", b"    pass\n", b"x = 1\n", b"_y\n", b"$z\n", b"  indented\n",
        b"# c\n", b"end", b"q", b"class K:\n", b"1\n", b"2\n", b"3\n", b"4\n", b"5\n", b"long " * 30 + b"\n",
        b"tab \t \n", b"caf\xc3\xa9\n")


def pair(seed: int) -> tuple[bytes, bytes]:
    rng = random.Random(seed)

    def content() -> bytes:
        return b"".join(rng.choice(POOL) for _ in range(rng.randint(0, 12)))

    shape = rng.random()
    if shape < 0.35:  # edits in several places of a file whose lines are mostly one of a kind
        lines = [b"line %d\n" % number if rng.random() < 0.85 else rng.choice(POOL)
                 for number in range(rng.randint(1, 40))]
        old = b"".join(lines)
        for _ in range(rng.randint(1, 4)):
            start = rng.randint(0, len(lines))
            end = min(len(lines), start + rng.randint(0, 2))
            lines[start:end] = [b"new %d\n" % rng.randint(0, 9) if rng.random() < 0.7 else rng.choice(POOL)
                                for _ in range(rng.randint(0, 2))]
        return old, b"".join(lines)
    old = content()
    lines = git_diff.lines(old)
    shape = rng.random()
    if shape < 0.3:
        return old, old + content()
    if shape < 0.5:
        start = rng.randint(0, len(lines))
        end = rng.randint(start, len(lines))
        return old, b"".join(lines[:start] + [rng.choice(POOL) for _ in range(rng.randint(0, 3))] + lines[end:])
    if shape < 0.6:
        return old, old.rstrip(b"\n")
    return old, content()


def test_hunks_are_real_gits(tmp_path):
    chosen = os.environ.get("AGENTWORLD_DIFF_SEED", "0")
    first = random.SystemRandom().randrange(2**32) if chosen == "random" else int(chosen)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "LANG": "C", "LC_ALL": "C",
           "GIT_CONFIG_NOSYSTEM": "1"}
    computed, refused, wrong = 0, 0, []
    for seed in range(first, first + CASES):
        old, new = pair(seed)
        if old == new:
            continue
        try:
            mine = git_diff.patch([("f.txt", old, new)], {old, new})
        except Refused:
            refused += 1
            continue
        folder = tmp_path / str(seed)
        folder.mkdir()
        subprocess.run(["git", "init", "-q"], cwd=folder, env=env, check=True)
        (folder / "f.txt").write_bytes(old)
        subprocess.run(["git", "add", "f.txt"], cwd=folder, env=env, check=True)
        (folder / "f.txt").write_bytes(new)
        real = subprocess.run(["git", "diff"], cwd=folder, env=env, capture_output=True, check=True).stdout
        computed += 1
        if real.decode("utf-8") != mine:
            wrong.append(f"seed {seed}: {old!r} -> {new!r}\nreal:\n{real.decode()}\ncomputed:\n{mine}")
        shutil.rmtree(folder)
    print(f"hunks, seeds {first}..{first + CASES - 1}: {computed} computed, {refused} refused, {len(wrong)} wrong")
    assert computed > CASES // 2
    assert not wrong, "\n".join(wrong[:5])
