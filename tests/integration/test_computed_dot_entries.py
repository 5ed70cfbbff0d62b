"""`ls -a` against real bash: the implied `.` and `..` the virtual shell adds (domains/shell/virtual/dot_entries.py),
over trees of dot files (.env, .gitignore, a .git folder), names that sort before `.` (`#notes`, `+old`), empty
and nested folders; with -1, -R, -d, files and folders as operands, after a cd, and just outside what is computed
(in a pipeline, redirected, before or after a command that prints, with -A)."""

from __future__ import annotations

import random
import shlex
import shutil

import pytest

from ..differential import explore
from ..listing_lines import FOLDERS, NAMES, TEXTS
from ..shell_lines import Scenario
from .test_computed_generated import CI_SEED

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs a real bash")
DOT_NAMES = (*NAMES, "#notes", ".git/config", "a/.env", "empty/.keep")


def scenario(seed: int) -> Scenario:
    rng = random.Random(seed)
    made = Scenario(seed)
    for name in rng.sample(DOT_NAMES, rng.randint(1, 8)):
        made.files[name] = rng.choice(TEXTS)
    made.folders = [folder for folder in FOLDERS if rng.random() < 0.4]
    if any(name.startswith("a/") for name in made.files) and "a-b" in made.files:
        made.files.pop("a-b")
    made.lines = [line(rng) for _ in range(rng.randint(1, 3))]
    return made


def line(rng: random.Random) -> str:
    flags = "".join(letter for letter in "1Rd" if rng.random() < 0.3)
    flags = rng.choice((f"-a{flags}", f"-{flags}a", f"-a -{flags}" if flags else "-a", "-aA", "-A"))
    operands = sorted({shlex.quote(rng.choice((*FOLDERS, ".", "a.txt", ".env", "missing", ".git", "#notes")))
                       for _ in range(rng.choice((0, 0, 1, 1, 2)))})
    listing = " ".join(("ls", flags, *operands))
    return rng.choice((listing, listing, listing, f"cd {rng.choice(FOLDERS)} && {listing}", f"mkdir -p new; {listing}",
                       f"{listing} | wc -l", f"{listing} > out.txt", f"{listing} && echo ok", f"echo x; {listing}",
                       f"{listing} 2>/dev/null"))


def test_ls_a_lists_dot_and_dotdot_as_real_bash(tmp_path):
    explore(scenario, tmp_path, "ls -a", CI_SEED, 60)
