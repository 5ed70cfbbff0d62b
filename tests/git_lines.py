"""Git sessions, generated: the input of the virtual git's differential test (test_computed_git.py).

A session is a folder's files (plain text, nested folders, an empty file, sometimes a .gitignore and a name git
quotes) and the lines an agent types: init, identity, status, add, commit, diff (its patch, --cached, of named
paths, --stat), sed's edits in place, a counted log, edits
between them, and the forms just outside what the virtual git computes (other options and verbs, git's own
globs, ignored or missing paths, nothing to commit, a repository it did not see made, a subfolder, a .git other
programs touch, a home or environment that configures git). Everything is drawn from one `random.Random(seed)`.
"""

from __future__ import annotations

import random

from .shell_lines import Scenario

NAMES = ("a.txt", "b.md", "notes.md", "d/x.txt", "d/e/y.txt", "src/app.py", "build/out.log", "empty", "my file.txt")
CONTENTS = (b"", b"one\n", b"alpha\nbeta\n", b"# title\n\ntext\n", b"no final newline", b"x\ny\nz\n",
            b"def f():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    return a\n\n\ndef g():\n    return 2\n",
            b"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n")
IGNORE_LINES = ("*.log", "build/", "build", "# comment", "", "empty", "d/", "*.md", "src", "!notes.md", "/a.txt",
                "d/*.txt", "**/y.txt", "x?.txt", "*.txt ", "[ab].txt", "\\#x", "e/", "*")
NEW = ("a.txt", "c.txt", "d/new.txt", "new/f.txt", "notes.md", "build/more.log", "x.log", "d/e/y.txt", "empty")
TEXTS = ("'more'", "'line two'", "''", "'a\\nb'")
MESSAGES = ("'Initial commit'", "'Update notes'", "wip", "\"fix it\"", "''", "'  '")


def scenario(seed: int) -> Scenario:
    rng = random.Random(seed)
    made = Scenario(seed)
    for name in rng.sample(NAMES, rng.randint(0, len(NAMES))):
        made.files[name] = rng.choice(CONTENTS)
    if rng.random() < 0.5:
        lines = rng.sample(IGNORE_LINES, rng.randint(1, 3))
        made.files[".gitignore"] = ("\n".join(lines) + "\n" * (rng.random() < 0.9)).encode()
    if rng.random() < 0.2:  # rules of a folder's own, for the names below it
        made.files["d/.gitignore"] = ("\n".join(rng.sample(IGNORE_LINES, rng.randint(1, 2))) + "\n").encode()
    made.folders = [folder for folder in ("out", "d/empty") if rng.random() < 0.3]
    start = []
    if rng.random() < 0.9:
        start.append(rng.choice(["git init -q"] * 16 + ["git init", "git init --quiet", "git status -s"]))
    if rng.random() < 0.85:
        start += ["git config user.email dev@example.com", rng.choice(["git config user.name Dev"] * 8 + [
            "git config user.name 'Dev Eloper'", "git config --global user.name Dev", "git config user.name",
            "git config user.name ' Dev '", "git config user.name .", "git config user.name -x"])]
    core = rng.random() < 0.5  # an agent's everyday loop only, so that long runs of computed steps are tried
    names = sorted(made.files) + ["c.txt"]
    if core and rng.random() < 0.5:  # a committed tree, then edits in place and the diffs that show them
        for rules in (".gitignore", "d/.gitignore"):  # (rules the virtual git refuses would end the session)
            made.files.pop(rules, None)
        start = ["git init -q", "git config user.email dev@example.com", "git config user.name Dev", "git add -A",
                 "git commit -q -m 'Initial commit'"]
        branchy = rng.random() < 0.5  # branches made, committed on and switched between
        names = sorted(made.files) or names
        made.lines = start + (branch_round(rng, names) if branchy else []) + [
            diff_step(rng, names, branchy) for _ in range(rng.randint(3, 10))]
        return made
    made.lines = start + [core_step(rng, names) if core else step(rng) for _ in range(rng.randint(2, 9))]
    return made


def diff_step(rng: random.Random, names: list[str], branchy: bool = False) -> str:
    """An edit of a file in place, a staging, a diff, or (`branchy`, mostly) a step with branches."""
    if branchy and rng.random() < 0.5:
        return branch_step(rng)
    name = rng.choice(names)
    name = f"'{name}'" if " " in name else name
    if rng.random() < 0.4:
        return rng.choice(["git diff", "git diff", "git diff --cached", f"git diff {name}", f"git diff -- {name}",
                           "git add -A && git diff --cached", "git diff --stat", "git status -s"])
    if rng.random() < 0.15:
        return rng.choice([f"git add {name}", "git add -A", "git commit -qam 'Update'"])
    if rng.random() < 0.2:
        return rng.choice([f"git restore {name}", f"git checkout -- {name}", f"git restore --staged {name}",
                           f"git rm --cached {name}", f"git rm -q --cached {name}", "git restore .",
                           "git restore --staged .", "git restore d", "git restore nosuch", "git rm --cached nosuch",
                           "git rm --cached d", f"git restore -- {name}", f"git checkout {name}",
                           f"git restore ./{name}", f"git rm {name}", f"git restore --worktree {name}"])
    if rng.random() < 0.3:
        return branch_step(rng)
    return rng.choice([f"sed -i 's/a/A/' {name}", f"sed -i '1d' {name}", f"sed -i '3s/$/\\nnew/' {name}",
                       f"sed -i '$d' {name}", f"sed -i 's/4/four/' {name}", f"sed -i '3s/$/\\nnew/' {name}",
                       f"sed -i 's/return/yield/' {name}", f"echo more >> {name}", f"printf 'tail' >> {name}",
                       f"rm {name}", f"echo new > {name}", f"sed -i '2,4d' {name}", f"sed -i '$s/$/\\nlast/' {name}"])


def core_step(rng: random.Random, names: list[str]) -> str:
    """Status, add, commit, diff --stat and a count of commits, between edits of the folder's own files."""
    shape = rng.random()
    name = rng.choice(names)
    name = f"'{name}'" if " " in name else name
    if shape < 0.25:
        return rng.choice(["git status --short", "git status -s", "git status --porcelain", "git status"])
    if shape < 0.4:
        return rng.choice(["git add .", "git add -A", f"git add {name}"])
    if shape < 0.5:
        return rng.choice(["git commit -q -m 'Initial commit'", "git commit -qam 'Update'"])
    if shape < 0.6:
        return rng.choice(["git diff --stat", "git log --oneline | wc -l"])
    if shape < 0.72:
        return rng.choice(["git diff", "git diff --cached", "git diff --staged", f"git diff {name}",
                           f"git diff -- {name}", "git add -A && git diff --cached", "git diff --cached --stat",
                           f"git diff --cached -- {name}", "git diff d", "git diff -- d/", "git diff ."])
    return rng.choice([f"sed -i 's/a/A/' {name}", f"sed -i '1d' {name}", f"sed -i '3s/$/\\nnew/' {name}",
                       f"sed -i '$d' {name}", f"sed -i 's/4/four/' {name}", f"echo more >> {name}",
                       f"printf 'a\\nb\\n' >> {name}", f"rm {name}", f"echo new > {name}",
                       f"head -n 1 {name} > tmp && mv tmp {name}", "mkdir -p new", "echo x > new/f.txt"])


def branch_round(rng: random.Random, names: list[str]) -> list[str]:
    """A branch made, edited and committed on, left and come back to, with looks between."""
    name = rng.choice(["feature", "fix/x", "dev"])
    looks = ["git branch", "git log --oneline | wc -l", "git status -s", "ls -R", "git diff", "git status"]
    lines = [rng.choice([f"git switch -c {name}", f"git checkout -b {name}"])]
    lines += [diff_step(rng, names) for _ in range(rng.randint(1, 3))]
    lines += [rng.choice(["git add -A && git commit -q -m 'On a branch'", "git commit -qam 'On a branch'"])]
    lines += [rng.choice(["git switch master", "git checkout master", "git switch -", "git checkout -"])]
    lines += rng.sample(looks, 2)
    lines += [rng.choice([f"git switch {name}", f"git checkout {name}", "git switch -", "git checkout -"])]
    return lines + rng.sample(looks, 1)


def branch_step(rng: random.Random) -> str:
    """A branch made, listed or switched to (and back), or a commit on it."""
    name = rng.choice(["feature", "fix/x", "master", "main", "dev", "fix", "d", "src"])
    return rng.choice([f"git switch -c {name}", f"git checkout -b {name}", f"git switch {name}",
                       f"git checkout {name}", f"git branch {name}", "git branch", "git switch -", "git checkout -",
                       "git switch master", "git add -A && git commit -q -m 'On a branch'", "git branch | wc -l",
                       "git commit -qam 'On a branch'", "git commit -qam 'On a branch'", "echo branch > b.txt",
                       "git add b.txt", "rm -f a.txt", "echo change >> a.txt", "mkdir -p n/m && echo z > n/m/z.txt",
                       "git switch nosuch", "git checkout nosuch", "git log --oneline | wc -l", "git status"])


def step(rng: random.Random) -> str:
    shape = rng.random()
    if shape < 0.22:
        return rng.choice(["git status --short", "git status -s", "git status --porcelain", "git status"] * 3 + [
            "git status -sb", "git status --short --untracked-files=all", "git status -v"])
    if shape < 0.42:
        return add(rng)
    if shape < 0.6:
        return commit(rng)
    if shape < 0.68:
        return rng.choice(["git diff --stat", "git diff --stat", "git diff", "git diff --cached --stat",
                           "git diff HEAD", "git diff -U1", "git diff --name-only", "git diff master", "git diff main",
                           "git diff nosuch", "git diff -- nosuch", "git diff --color", "git diff a.txt/",
                           "git diff --cached a.txt", "git diff > d.diff", "git diff | head -3", "git diff HEAD~1",
                           "git log --oneline | wc -l", "git log --oneline", "git log | wc -l",
                           "git log --oneline | head -1", "git log --oneline | wc -l > count.txt"])
    if shape < 0.9:
        return edit(rng)
    return rng.choice(["rm -rf .git", "ls -a", "cat .git/HEAD", "ls .git", "cd d && git status -s",
                       "git -C . status -s", "export GIT_DIR=.git", "echo '[user]' > ~/.gitconfig",
                       "git branch -m main", "git rm -q --cached a.txt", "git branch -d feature", "git switch -c",
                       "git checkout -b new HEAD", "git switch --detach", "git checkout a.txt", "git branch -a",
                       "git switch -c 'bad name'", "git checkout -", "git switch -c feature", "git branch feature",
                       "git config user.email", "git init -q",
                       "git add . && git status -s", "touch .git/x", "mkdir sub && cd sub && git init -q",
                       "git stash", "chmod +x a.txt", "git checkout -- a.txt", "git status --short > status.txt",
                       "git status -s | tee s.txt", "echo x >> a.txt && git diff --stat", "git diff --stat > d.txt",
                       "git add -A && git status -s | sort", "git status -s | wc -l"])


def add(rng: random.Random) -> str:
    return "git add " + rng.choice([".", ".", "-A", "--all", "a.txt", "notes.md", "d", "d/", "missing.txt",
                                    "'my file.txt'", "build/out.log", "x.log", "'*.txt'", "*.txt", "a.txt notes.md",
                                    "./a.txt", "empty", "-u", "-n .", "d/empty", "../a.txt", "new", "a.txt/",
                                    "d//x.txt", "src/"])


def commit(rng: random.Random) -> str:
    message = rng.choice(MESSAGES)
    return rng.choice([f"git commit -q -m {message}", f"git commit -qm {message}", f"git commit -qam {message}",
                       f"git commit -a -q -m {message}", f"git commit -m {message}", f"git commit --quiet -m {message}",
                       "git commit -q", f"git commit -q -am {message}", f"git add -A && git commit -q -m {message}",
                       f"git commit -q -m {message} -m body", f"git commit -q --amend -m {message}"])


def edit(rng: random.Random) -> str:
    name, text = rng.choice(NEW), rng.choice(TEXTS)
    return rng.choice([f"echo {text} >> {name}", f"printf {text} > {name}", f"rm -f {name}",
                       f"mkdir -p new && echo x > {name}", f"echo {text} > {name}", "echo '*.log' >> .gitignore",
                       "rm -f .gitignore", "touch x.log", "mv a.txt moved.txt", f"cat a.txt >> {name}", "rm -rf d",
                       "mkdir -p new/deep", "rm -f a.txt && mkdir a.txt && echo x > a.txt/f"])
