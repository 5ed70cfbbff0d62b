"""Lines typed after a step that moved the shell where the world cannot follow it (a `cd` the model predicts): the
input of the differential proof of domains/shell/virtual/anywhere.py.

A scenario is a folder's files (tests/shell_lines.py) and lines that move the shell by a command substitution (the
virtual shell leaves such a line to the model, so where the shell stands becomes unknown), each followed by lines
that name paths whole (`~/project/...`, `$HOME/...`), lines that read the folder's name or name paths relative to it
(the near misses: refused), lines that find the shell again (`cd ~/project`, `cd`), and everyday lines.
"""

from __future__ import annotations

import random

from .shell_lines import CONTENTS, Scenario, _folder
from .shell_lines import line as everyday_line

# Moves the virtual shell leaves to the model: where they go, the world does not know.
# (Within the home: a recursive line relative to where the shell stands would walk the whole disk from `/`.)
MOVES = ("cd $(printf d)", "cd $(printf d/e)", "cd $(printf out)", "cd $(printf missing)", "cd $(printf ~/project/d)",
         "cd \"$(printf ~)\"", "cd $(printf .)", "cd d/$(printf e)")
_PATHS = ("~/project/a.txt", "~/project/b.txt", "\"$HOME/project/my file.txt\"", "~/project/d/x.txt",
          "~/project/d/e/y.txt", "~/project/missing", "$HOME/project/data.csv", "~/project/nonl", "~/project/empty",
          "~/project/d", "~/project/out", "~/project/nodir/f")
# What mv moves: never a folder the shell may stand in (a real bash's $PWD then names a folder that is gone, which
# the world's learning of real steps does not follow yet).
_MOVABLE = tuple(path for path in _PATHS if path not in ("~/project/d", "~/project/out"))
_FOLDERS = ("~/project", "~/project/d", "~/project/d/e", "~/project/out", "~", "$HOME/project", "~/project/missing")
# Whole-path lines, as agents type them once they know where things are.
WHOLE = ("cat {p}", "head -n 2 {p}", "wc -l {p}", "sort {p}", "grep -n a {p}", "ls {f}", "ls -1 {f}", "ls -R {f}",
         "find {f} -name '*.txt'", "grep -r a {f}", "echo hi > ~/project/out/g", "echo more >> {p}", "touch {p}",
         "mkdir -p ~/project/out/new", "mkdir ~/project/made", "rm -f {p}", "rm {p}", "rm -r {f}", "rmdir {f}",
         "cp {p} ~/project/copy.txt", "mv {m} ~/project/moved.txt", "[ -f {p} ] && echo file || echo none",
         "test -d {f} && echo dir", "cat {p} | tr a-z A-Z", "echo {f}/*.txt", "ls {f}/*", "realpath {p}",
         "basename {p}", "dirname {p}", "cat {p} {p}", "sed -n 1p {p}", "tee ~/project/out/t < {p}",
         "for f in {f}/*; do echo \"$f\"; done", "echo \"$HOME\"", "echo ~", "seq 3", "echo hi | wc -c",
         "X=5; echo $X", "export Y=1", "echo $Y", "true", "false", "printf '%s\\n' a b",
         # Steps the model answers that change nothing where the world knows what they lack: no script, no source.
         "./run.sh", "~/project/run.sh && rm {p}", "cp ~/project/missing {p}", "mv ~/project/gone.txt {p}",
         "cp ~/project/missing {p} ~/project/d/", "cp ~/project/gone.txt {p} && rm {p}")
# Lines that read where the shell stands, or name paths relative to it: never computed while it is unknown.
RELATIVE = ("pwd", "echo \"$PWD\"", "echo $OLDPWD", "echo ~+", "echo ~-", "cd -", "ls", "cat a.txt", "echo *",
            "ls ..", "realpath .", "basename \"$PWD\"", "cd d", "touch here.txt", "X=$PWD; echo ${#X}",
            "echo ${PWD##*/}", "cat ./a.txt", "mkdir -p new", "ls d", "cp missing a.txt", "./run.sh", "rm -r d",
            "rm -f a.txt")
# Lines that find the shell again: a cd into a folder named whole, or the home.
FOUND = ("cd ~/project", "cd", "cd ~", "cd $HOME/project/d", "cd ~/project/missing", "cd ~/project && ls",
         "echo hi; cd ~/project/d", "cd ~/project/d; cd -", "cd /tmp; cd -", "cd ~/project/a.txt")


def anywhere_scenario(seed: int) -> Scenario:
    rng = random.Random(seed)
    made = _folder(seed, rng, CONTENTS, fewest=2)
    for _ in range(rng.randint(1, 3)):
        made.lines.append(rng.choice(MOVES))
        made.lines += [_after(rng) for _ in range(rng.randint(1, 5))]
    return made


def _after(rng: random.Random) -> str:
    shape = rng.random()
    if shape < 0.55:
        return rng.choice(WHOLE).format(p=rng.choice(_PATHS), f=rng.choice(_FOLDERS), m=rng.choice(_MOVABLE))
    if shape < 0.75:
        return rng.choice(RELATIVE)
    if shape < 0.9:
        return rng.choice(FOUND)
    return everyday_line(rng)
