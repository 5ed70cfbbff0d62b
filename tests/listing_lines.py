"""Listings, finds, comparisons and path tools, generated: the input of their differential test
(tests/integration/test_computed_families_generated.py).

Trees with dot files, upper case, names that sort apart from their folders (`a-b` beside `a/`), nested
and empty folders; lines of ls, find, grep -r, diff, cmp, realpath, readlink and test over them, in the
forms the virtual shell computes and just outside them (options it refuses, unsorted operands, listings
shown in directory order, diff's hunks, links, times and permissions).
"""

from __future__ import annotations

import random
import shlex

from .shell_lines import CONTENTS, Scenario

NAMES = ("a.txt", "b.txt", "Zed", ".hidden", "a-b", "a/x.txt", "a/.dot", "a/y/z.md", "notes.md", "my file.txt",
         "sub/B", "sub/a", "same1", "same2", ".env", ".gitignore", "+old", "sub/.git/HEAD")
FOLDERS = ("a", "a/y", "empty", "sub", "sub/deep")
MISSING = ("missing", "nodir/f", "a.txt/x", "a/none")
TEXTS = (b"alpha\nbeta\n", b"beta\ngamma\n", b"one", b"one\n", b"", b"x\ny\nx\nz\n", b"alpha\nbeta\ngamma\nbeta\n")
PATTERNS = ("'*.txt'", "'*.md'", "a.txt", "'[ab]*'", "'A*'", "'*'", "'.*'", "sub", "'*x*'")


def scenario(seed: int) -> Scenario:
    rng = random.Random(seed)
    made = Scenario(seed)
    for name in rng.sample(NAMES, rng.randint(2, len(NAMES))):
        made.files[name] = rng.choice(TEXTS + CONTENTS[:4])
    if "same1" in made.files and "same2" in made.files and rng.random() < 0.5:
        made.files["same2"] = made.files["same1"]
    made.folders = [folder for folder in FOLDERS if rng.random() < 0.5]
    if any(name.startswith("a/") for name in made.files) and "a-b" in made.files:
        made.files.pop("a-b")  # a file and a folder of one name cannot both be
    made.lines = [line(rng) for _ in range(rng.randint(1, 4))]
    return made


def _path(rng: random.Random) -> str:
    pool = rng.choice((NAMES, NAMES, FOLDERS, MISSING, (".", "..", "./a", "a/", "sub/", "~", "a/../b.txt", "*",
                                                        "a/*", "''", "*.none", "*.md", "a/*.bak")))
    chosen = rng.choice(pool)
    return chosen if chosen in ("*", "a/*", "~", "''", "*.none", "*.md", "a/*.bak") else shlex.quote(chosen)


def _flags(rng: random.Random, letters: str) -> str:
    chosen = "".join(letter for letter in letters if rng.random() < 0.25)
    return f"-{chosen} " if chosen else ""


def line(rng: random.Random) -> str:
    made = rng.choice((_ls, _find, _grep, _compare, _resolve, _test))(rng)
    shape = rng.random()
    if shape < 0.15:
        return f"{made} > {rng.choice(('out.txt', 'sub/out', 'a/list', '/dev/null'))}"
    if shape < 0.3:
        return f"{made} && echo ok || echo failed"
    return made


def _ls(rng: random.Random) -> str:
    operands = " ".join(_path(rng) for _ in range(rng.choice((0, 1, 1, 2, 3))))
    made = f"ls {_flags(rng, rng.choice(('aA1RFpdr', 'a1Rd', 'aaa1R')))}{operands}".rstrip()
    # ls -a's `.` and `..` are added to the line's own output: on its own, after a cd, and just outside that.
    return rng.choice((made, made, f"cd {rng.choice(FOLDERS)} && {made}", f"{made} | sort", f"mkdir -p new && {made}",
                       f"echo x; {made}", f"{made}; echo $?"))


def _find(rng: random.Random) -> str:
    starts = " ".join(_path(rng) for _ in range(rng.choice((0, 1, 1, 1, 2))))
    tests = [rng.choice((f"-name {rng.choice(PATTERNS)}", f"-iname {rng.choice(PATTERNS)}", "-type f", "-type d",
                         "-type l", f"-path {rng.choice(('./a/*', '*sub*', 'a/*'))}", "-empty",
                         "-exec cat {} \\;", "-newer a.txt", "-size +0"))
             for _ in range(rng.choice((0, 1, 1, 2)))]
    if len(tests) == 2 and rng.random() < 0.5:
        tests.insert(1, "-o")
    if tests and rng.random() < 0.2:
        tests.insert(0, rng.choice(("-not", "!")))
    if rng.random() < 0.3:
        tests.insert(0, f"-maxdepth {rng.choice((0, 1, 2))}")
    if rng.random() < 0.15:
        tests.insert(0, f"-mindepth {rng.choice((1, 2))}")
    if rng.random() < 0.1:
        tests.append(rng.choice(("-print", "-delete")))  # -delete: the model's, and what the world learns after it
    return f"find {starts} {' '.join(tests)}".replace("  ", " ").rstrip() + _consumer(rng)


def _grep(rng: random.Random) -> str:
    operands = " ".join(_path(rng) for _ in range(rng.choice((0, 1, 1, 2))))
    pattern = rng.choice(("beta", "x", "one", "zzz", "'^a'", "a"))
    return f"grep -r{rng.choice(('', 'l', 'n', 'c', 'i', 'v', 'h', 'L'))} {pattern} {operands}".rstrip() + \
        _consumer(rng)


def _consumer(rng: random.Random) -> str:
    return rng.choice(("", "", " | sort", " | sort -r", " | sort -u", " | sort -n", " | wc -l", " | grep -c a",
                       " | grep a | sort", " | head -n 1", " | cat -n", " | sort -s", " | tail -n 1", " | cat"))


def _compare(rng: random.Random) -> str:
    program = rng.choice(("diff", "diff", "cmp"))
    flags = _flags(rng, "qu" if program == "diff" else "sl")
    first, second = (rng.choice(("a.txt", "b.txt", "same1", "same2", "notes.md", "Zed", "missing", "a", "sub/B",
                                 "-")) for _ in range(2))
    made = f"{program} {flags}{first} {second}"
    if second == "-" or first == "-":
        made += f" < {rng.choice(('a.txt', 'same1'))}"
    return made + rng.choice(("", "", " | wc -l", " > /dev/null", " | sort"))


def _resolve(rng: random.Random) -> str:
    program = rng.choice(("realpath", "readlink"))
    flags = _flags(rng, "msfe" if program == "realpath" else "fme")
    return f"{program} {flags}" + " ".join(_path(rng) for _ in range(rng.choice((1, 1, 2))))


def _test(rng: random.Random) -> str:
    expression = rng.choice(("-s {p}", "-L {p}", "-h {p}", "{p} -nt {q}", "{p} -ot {q}", "-x {p}", "-r {p}", "-e {p}",
                             "-d {p}", "-f {p}"))
    return f"test {expression.format(p=_path(rng), q=_path(rng))} && echo yes || echo no"
