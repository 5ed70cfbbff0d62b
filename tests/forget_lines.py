"""Sessions whose steps rewrite files the world may think it knows: a repository with two branches that differ,
then git's verbs that rewrite the work tree (switch, checkout, restore, reset, stash, clean, merge, cherry-pick),
links made and written through, and programs that take the files they change from their input (patch, xargs,
tar -T), between reads and edits the virtual shell computes. The input of
tests/integration/test_predicted_forgetting.py: any step may be the model's. Everything is drawn from one
`random.Random(seed)`: a seed names a session, and which of its steps the model answers.
"""

from __future__ import annotations

import random

from .shell_lines import Scenario

FILES = {"a.txt": b"one\n", "b.txt": b"bee\n", "d/x.txt": b"x\n", "notes.md": b"# notes\n"}
# One way each to make a second branch that differs from master in a.txt, d/x.txt or a file of its own.
BRANCH = (["git switch -q -c other", "echo two > a.txt", "git commit -qam two", "git switch -q master"],
          ["git checkout -q -b other", "echo more >> d/x.txt", "echo new > n.txt", "git add .",
           "git commit -qm two", "git checkout -q master"],
          ["git branch other", "git switch -q other", "rm a.txt", "git commit -qam gone", "git switch -q master"])
GIT = ("git switch -q other", "git switch -q master", "git switch -", "git checkout -q other", "git checkout master",
       "git checkout -q HEAD~1", "git checkout -- a.txt", "git checkout .", "git restore a.txt", "git restore .",
       "git restore d", "git reset -q --hard", "git reset -q --hard HEAD~1", "git stash -q", "git stash pop -q",
       "git stash -u", "git clean -f", "git clean -fd", "git clean -n", "git merge -q other", "git cherry-pick other",
       "git checkout other -- a.txt", "git reset -q", "git restore --staged a.txt", "git stash list",
       "git status -s", "git log --oneline | wc -l", "git diff --stat", "git add . && git commit -qm more",
       "git switch -q -c fresh", "git checkout -q -b fresh2", "git checkout -q -b back other", "git switch -q -c n master")
LINKS = ("ln -s a.txt l", "ln -s d e", "ln a.txt h", "ln -sf b.txt l", "echo x > l", "echo y >> h", "echo z > e/f",
         "cp b.txt l", "printf 'q\\n' | tee l", "rm l", "mv l m", "echo w > m", "sed -i s/o/0/ h", "echo v >> e/x.txt",
         "rm e/x.txt")
INPUT_NAMED = ("printf -- '--- a.txt\\n+++ a.txt\\n@@ -1 +1 @@\\n-one\\n+two\\n' > fix.patch", "patch -t < fix.patch",
               "patch -t -s -p0 -i fix.patch", "echo a.txt | xargs rm", "echo b.txt | xargs cat",
               "echo d/x.txt > list", "tar cf t.tar a.txt b.txt d", "tar xf t.tar -T list", "ls | xargs wc -l",
               "echo a.txt > list && xargs rm < list", "patch -t -o out.txt a.txt fix.patch")
READS = ("cat a.txt", "cat b.txt", "cat d/x.txt", "ls", "ls d", "ls -a", "cat n.txt", "wc -l a.txt d/x.txt",
         "head -n 1 notes.md", "cat l", "cat e/f", "cat d/f", "cat out.txt", "ls e", "cat a.txt b.txt", "cat h")
# Steps that print only, or write what their code names: a version, inline code that reads or writes.
PRINTS = ("node -v", "npm --version", "python3 --version", "python3 -V", "go version", "node --version",
          "node -e 'console.log(1)'", "python3 -c 'print(open(\"a.txt\").read())'",
          "node -e \"require('fs').writeFileSync('a.txt', 'n')\"", "python3 -c \"open('b.txt', 'w').write('w')\"",
          "node -e \"console.log(require('fs').readFileSync('a.txt', 'utf8'))\"", "python3 --version > v.txt",
          "node -v && echo ok > a.txt")
EDITS = ("echo edit > a.txt", "echo more >> d/x.txt", "echo new > u.txt", "rm -f b.txt", "mkdir -p d/sub",
         "echo z > d/sub/z.txt", "printf 'k\\n' >> notes.md")
# find acting on what it matches by name (bounded: only those names become unknown), and near misses (any other
# expression, or a start that matches itself: all below may go).
FINDS = ("mkdir -p d/__pycache__ && touch d/__pycache__/m.pyc a.pyc", "find . -name __pycache__ -type d -prune -exec "
         "rm -rf {} +", "find . -name '*.pyc' -delete", "find d -name '*.txt' -delete", "find . -type f -name 'x*' "
         "-exec rm {} \\;", "find . -name '*.md' -exec rm -f {} +", "find . -name 'a*' -o -name 'b*' -delete",
         "find d -name d -delete", "find . -name '*.txt' -exec cat {} +", "find . -maxdepth 1 -name '[ab].txt' -delete",
         "find d -name '*' -exec rm -rf {} +", "find . -path './d/*' -delete", "find . -name '*.txt' -exec cp {} {}.bak "
         "\\;", "find . -name '*.md' -exec touch {}.o \\;", "find -L . -name '*.pyc' -delete", "find . -name '[^a]*.txt' "
         "-delete", "find . -name '*.txt' -execdir rm {} +", "find . -name '*.bak' -exec mv {} {}.old \\;")


def session(seed: int) -> tuple[Scenario, frozenset[int]]:
    """A session, and the indexes of the steps the model answers (a third of them, any step)."""
    rng = random.Random(seed)
    made = Scenario(seed, dict(FILES))
    made.lines = ["git init -q", "git config user.email dev@example.com", "git config user.name Dev", "git add .",
                  "git commit -qm one", *rng.choice(BRANCH)]
    for _ in range(rng.randint(6, 14)):
        shape = rng.random()
        pool = GIT if shape < 0.3 else LINKS if shape < 0.45 else INPUT_NAMED if shape < 0.55 else \
            EDITS + FINDS if shape < 0.65 else PRINTS if shape < 0.72 else READS
        made.lines.append(rng.choice(pool))
    model = frozenset(index for index in range(len(made.lines)) if rng.random() < 0.33)
    return made, model
