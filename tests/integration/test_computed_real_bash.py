"""Computed steps against real bash: every line the virtual shell computes must equal what a real
`bash --noprofile --norc` (GNU coreutils, LANG=C) prints, exits with and leaves on disk, byte for byte.

Each scenario runs its lines in order in one real bash and in one virtual shell at the same absolute
path, so the working folder, variables and files carry over as in a session. Lines the virtual shell
refuses still run for real and reach the virtual shell the way a predicted step does (its semantics
only), so what it learns from steps it did not compute is checked too. Scenarios start from an empty
folder (known to be empty) or a prepared one (known in full).
"""

from __future__ import annotations

import shutil

import pytest
from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.world.learning import learn_uncomputed
from agentworld_mcp.domains.shell.virtual.allowlist import all_forms
from agentworld_mcp.domains.shell.virtual.gate import NotComputable
from agentworld_mcp.domains.shell.virtual.shell import VirtualShell

from ..real_bash import RealBash, check_files, real_cwd

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs a real bash")

PREPARED = {
    "notes.txt": b"alpha\nbeta\ngamma\nbeta\n",
    "data.csv": b"name,qty\napple,3\npear,10\nfig,7\n",
    "src/main.py": b"print('hi')\n",
    "src/util.py": b"def f():\n    return 1\n",
    "docs/readme.md": b"# Title\n\nSome text.\n",
    "empty.txt": b"",
}

EMPTY_SCENARIOS = [
    ["echo hi > a", "cat a", "echo there >> a", "cat a", "wc -l a", "rm a", "cat a", "ls a"],
    ["mkdir app", "touch app/main.py", "cat app/main.py", "mkdir app", "mkdir -p app/sub/deep", "rmdir app/sub/deep",
     "rmdir app", "rm -r app", "cat app/main.py", "rmdir nothing"],
    ["printf 'b\\na\\nc\\n' > list", "sort list", "sort -r list", "sort -u list", "sort -n list", "head -n 2 list",
     "tail -n 1 list", "head -1 list", "tail -2 list", "wc -w list", "wc -c list", "cat -n list"],
    ["X=hello", "echo $X", "echo \"$X world\"", "echo '$X'", "export Y=42", "echo $Y", "Z=$X-$Y; echo $Z",
     "echo ${X}", "echo -n $X", "echo -e 'a\\tb'", "echo -E 'a\\tb'", "printf '%s=%d\\n' n 5"],
    ["mkdir d", "cd d", "pwd", "echo in > f", "cd ..", "cat d/f", "cd nowhere", "pwd", "cd d && cat f", "cd /tmp",
     "pwd"],
    ["echo one > f1", "cp f1 f2", "cat f2", "mv f2 f3", "cat f3", "cat f2", "cp nothing f4", "mv nothing f5",
     "mkdir dir", "cp f1 dir", "cat dir/f1", "mv f3 dir", "cat dir/f3", "cp -r dir dir2", "cat dir2/f1",
     "rm -rf dir dir2", "cat dir/f1"],
    ["printf 'x\\ny\\nx\\nz\\n' > w", "grep x w", "grep -c x w", "grep -n x w", "grep -v x w", "grep -i X w",
     "grep -x x w", "grep q w", "grep x nope", "cat w | grep y", "cat w | sort | uniq", "cat w | sort | uniq -c",
     "cat w | wc -l"],
    ["seq 3", "seq 2 5", "seq 1 3 10", "seq 5 1", "seq 1 4 > n.txt", "cat n.txt", "sed -i 's/^3$/30/' n.txt",
     "cat n.txt", "sed -i 's/x/y/' missing.txt", "seq 0 0", "seq 3 | sort -r", "seq 1 20 | tail -n 2"],
    ["echo abc > t", "tr a-z A-Z < t", "tr -d b < t", "cat t | tr c C", "sed 's/b/B/' t", "sed -n '2p' t",
     "sed -e 's/a/A/' -e 's/c/C/' t", "sed 's/x/y/' t > t2", "cat t2"],
    ["echo hi | tee out", "cat out", "echo more | tee -a out", "cat out", "basename a/b/c.txt", "dirname a/b/c.txt",
     "basename dir/file.py .py", "true && echo yes", "false || echo no", "false && echo never", "true; false",
     "test -f out && echo file", "test -d out || echo notdir", "[ -e out ] && echo exists", "[ -s out ] && echo full",
     "test -z '' && echo empty"],
    ["mkdir -p a/b", "echo x > a/b/c", "rm a", "rm -r a", "cat a/b/c", "rm -f a/b/c", "mkdir x y z", "rmdir x y z",
     "touch t1 t2", "rm t1 t2", "cat t1"],
    ["echo 1 > n", "echo 2 >> n", "cat n n", "cat n missing", "cat missing", "head -c 3 n", "tail -c 2 n",
     "wc n", "wc -l < n", "sort n > sorted; cat sorted", "cat n > /dev/null", "cat missing 2> /dev/null",
     "cat missing 2>&1", "echo err >&2", "cat missing &> both.txt", "cat both.txt", "cat n &> both.txt",
     "cat both.txt", "cat missing 2>> errs.txt", "cat missing 2>> errs.txt", "cat errs.txt", "echo '{a,b}' \"[x]?\""],
    ["mkdir -p logs/old", "echo 'e1' > logs/app.log", "echo 'e2' >> logs/app.log", "cp logs/app.log logs/old",
     "cat logs/old/app.log", "wc -l logs/app.log logs/old/app.log", "grep -c e logs/app.log", "rm logs/app.log",
     "cat logs/app.log", "rmdir logs/old", "rm -r logs", "cat logs/old/app.log", "mkdir logs", "rmdir logs"],
    ["printf '3\\n1\\n2\\n10\\n' > nums", "sort nums", "sort -n nums", "sort -rn nums", "sort -n nums | head -n 1",
     "sort -n nums | tail -n 1", "tail -n 2 nums", "head -c 2 nums", "cat nums | wc -l", "sort -u nums | wc -l",
     "grep 1 nums", "grep -c 1 nums", "grep -v 1 nums", "grep -x 1 nums", "tr -d 1 < nums", "sed -n '$p' nums"],
    ["echo 'Hello World' > g", "tr A-Z a-z < g", "tr ' ' '\\n' < g", "tr ' ' '\\n' < g | sort", "sed 's/World/There/' g",
     "sed -n 's/Hello/Hi/p' g", "grep -i hello g", "grep -v hello g", "grep -ic HELLO g", "wc -w g", "wc -c g",
     "cat -n g", "head -n 1 g", "tail -c 6 g"],
    ["A=one; B=two", "echo $A $B", "echo \"$A/$B\"", "C=\"$A $B\"; echo \"$C\"", "export D=$A", "echo $D",
     "echo ${A}x", "echo \"${B}\"y", "printf '%s\\n' $A $B", "printf '%5s|\\n' $A", "printf 'no newline'",
     "echo -n x; echo y", "echo a b  c", "echo 'a  b'"],
    ["mkdir p q", "echo 1 > p/f", "cp p/f q/f", "cp p/f q", "cat q/f", "mv q/f q/g", "cat q/g q/f", "rm q/g",
     "rmdir q", "rm -r p", "test -d p || echo gone", "test -e q && echo there", "mkdir -p p/q/r && echo made",
     "test -d p/q/r && echo dir"],
    ["echo x > f", "test -s f && echo nonempty", "touch e", "test -s e || echo empty", "test -f e && echo file",
     "test -d . && echo here", "test -n abc && echo set", "test abc = abc && echo same", "test 1 -eq 1 && echo one",
     "test 2 -gt 1 && echo more", "test 1 -lt 0 || echo notless", "test ! -e nothing && echo none",
     "true || echo never", "false; echo $HOME"],
    # The shell's own constructs (constructs.py) and expansions the word reader evaluates.
    ["mkdir -p site/{css,js}", "D=site; F=main; echo x > $D/$F.html", "cat site/main.html", "cp site/main.html{,.bak}",
     "cat site/main.html.bak", "for f in a b c; do echo $f > site/$f.txt; done", "cat site/b.txt",
     "if [ -f site/a.txt ]; then echo yes; else echo no; fi", "if [[ -d site/css && x == x* ]]; then echo dir; fi",
     "case main.html in *.txt) echo text;; *.html) echo page;; esac", "{ echo one; echo two; } > both", "cat both",
     "(cd site && pwd); pwd", "! test -e nothing && echo none", "false; echo $?", "test -f nothing; echo \"status $?\"",
     "X=archive.tar.gz; echo ${X%.*} ${X%%.*} ${X#*.} ${X##*.} ${#X} ${X/a/A} ${X//a/A} ${X:2:3} ${X^^}",
     "E=; echo ${E:-default} ${E:=set} $E ${E:+alt}", "echo $((2 * (3 + 4) - 7 / 2)) $((7 % 3))",
     "(( 3 > 2 )) && echo bigger", "echo {1..5} x{a,b}", "cat > here <<'EOF'\nline $X\n  two\nEOF", "cat here",
     "cd site", "cd -", "cd", "pwd", "cd ~/project", "i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done",
     "n=3; until (( n == 0 )); do n=$((n-1)); done; echo $n"],
    ["echo k1 > a; echo k2 > b", "cat a b > c", "cat c", "cat c | sort -r", "cat c | head -n 1 > d", "cat d",
     "cat a b c d | sort | uniq -c", "cat a b c d | sort -u", "rm a b c d", "cat a", "echo done | tee f1 | cat",
     "cat f1", "rm f1"],
]

PREPARED_SCENARIOS = [
    ["cat notes.txt", "grep beta notes.txt", "grep -c beta notes.txt", "sort notes.txt", "sort -u notes.txt",
     "uniq notes.txt", "sort notes.txt | uniq -c", "wc -l notes.txt", "head -n 2 notes.txt", "tail -n 2 notes.txt",
     "cat empty.txt", "wc -c empty.txt", "grep -n a notes.txt"],
    ["cat *.txt", "wc -l *.txt", "cat src/*.py", "grep return src/*.py", "cat docs/readme.md", "ls", "cat nothing.txt",
     "rm notes.txt", "cat notes.txt", "cat *.txt", "rm -r src", "cat src/main.py", "mkdir src", "cat src/main.py"],
    ["cd src", "cat main.py", "cat util.py", "cat ../notes.txt", "cd ..", "pwd", "cp -r src backup",
     "cat backup/util.py", "mv data.csv data2.csv", "cat data2.csv", "cat data.csv", "sort -n data2.csv",
     "grep -v qty data2.csv | sort", "sed -n '1p' data2.csv", "tr ',' ' ' < data2.csv"],
    ["echo new > src/new.py", "cat src/new.py", "rmdir src", "rmdir docs", "rm docs/readme.md", "rmdir docs",
     "cat docs/readme.md", "mkdir docs", "touch docs/a docs/b", "rm docs/*", "rmdir docs", "echo $HOME",
     "cd ~ && pwd"],
    # Lines outside the allowlist run for real and reach the virtual shell as predicted steps do.
    ["ls -la", "python3 -c 'print(1)'", "cat notes.txt", "echo x > notes.txt", "cat notes.txt", "chmod 600 notes.txt",
     "cat notes.txt", "find . -name '*.py' -delete", "cat src/main.py", "cat src/util.py", "cat data.csv"],
    ["mv notes.txt docs/", "cat docs/notes.txt", "cat notes.txt", "cp data.csv docs/", "cp -r docs docs2",
     "cat docs2/data.csv", "rm -rf docs2", "cat docs2/data.csv", "head -3 data.csv", "tail -1 data.csv",
     "grep -i APPLE data.csv", "grep -x fig,7 data.csv", "sort -r data.csv | head -n 1"],
    ["grep -n beta notes.txt", "grep -vc beta notes.txt", "cut -d, -f1 data.csv", "sort -u notes.txt | wc -l",
     "head -n 1 data.csv", "tail -n 3 data.csv | sort", "sed -n '2,3p' data.csv", "sed 's/,/;/' data.csv",
     "tr -d ',' < data.csv", "wc -l data.csv notes.txt", "cat src/main.py src/util.py", "grep def src/util.py",
     "grep -c print src/main.py", "wc -c src/main.py"],
    ["mkdir build", "cp src/main.py build/", "cat build/main.py", "cp -r src build/src", "cat build/src/util.py",
     "rm -r build", "cat build/main.py", "echo 'x = 1' >> src/main.py", "cat src/main.py", "mv src/main.py src/app.py",
     "cat src/app.py", "cat src/main.py", "rm src/*.py", "rmdir src", "test -d src || echo gone"],
    ["cd docs", "echo more >> readme.md", "cat readme.md", "cd ..", "cat docs/readme.md", "grep -c . docs/readme.md",
     "cd docs && rm readme.md", "pwd", "cd /tmp", "cd ~/project", "pwd", "test -f docs/readme.md || echo removed"],
    # Listings, finds, comparisons and paths (domains/shell/virtual/listings.py).
    ["grep -rl def . | sort", "grep -rn print src", "grep -rc a . | sort", "grep -l beta notes.txt", "grep -r beta .",
     "grep -n -A1 beta notes.txt", "grep -B 1 gamma notes.txt", "grep -C1 -n al notes.txt", "grep -A0 beta notes.txt",
     "grep -rn def --include='*.py' src", "grep -rl a --exclude='*.csv' docs", "grep -rc a --exclude-dir=docs . | sort",
     "ls", "ls -A", "ls -1 src", "ls -R", "ls -d src", "ls data.csv docs src", "ls missing", "ls -a", "ls -a src", "ls -aR", "ls src docs",
     "find . | sort", "find . -name '*.py' | sort", "find src -type f | wc -l", "find . -maxdepth 1 -type d | sort",
     "find . -mindepth 2 -print | sort", "find . -path './src/*' -not -name main.py", "find . ! -type d | wc -l",
     "find . -name notes.txt -o -name none", "find docs -iname README.MD", "find . -type f -a -name '*.md'",
     "find . \\( -name '*.csv' -o -name '*.md' \\) | sort", "find missing", "find .", "find . -delete",
     "find . -type f -name '*.txt' -print | sort"],
    ["cp notes.txt copy.txt", "diff notes.txt copy.txt", "diff notes.txt copy.txt && echo same",
     "diff -q notes.txt data.csv", "diff -q notes.txt copy.txt", "diff notes.txt data.csv", "cmp notes.txt copy.txt",
     "cmp notes.txt data.csv",
     "cmp -s notes.txt data.csv || echo differ", "cmp empty.txt notes.txt", "cmp notes.txt missing",
     "cmp -s notes.txt missing",
     "realpath notes.txt", "realpath -s src/main.py", "realpath -m nodir/x", "realpath nodir/x", "readlink -f src",
     "readlink -m a/b/c", "readlink notes.txt", "test notes.txt -nt data.csv", "test -x notes.txt"],
    # Text tools.
    ["cut -d, -f1 data.csv", "cut -d , -f 2- data.csv", "cut -f1 -d, data.csv", "cut -s -d, -f2 notes.txt",
     "cut -c1-3 notes.txt", "cut -b2,4 notes.txt", "cut -d, --complement -f1 data.csv", "cut -c1 missing",
     "paste -d, notes.txt data.csv", "paste -s notes.txt", "paste -sd: notes.txt", "nl notes.txt",
     "nl -b a docs/readme.md",
     "nl -w 2 -s ': ' notes.txt", "rev notes.txt", "fold -w 3 notes.txt", "fold -s -w 4 docs/readme.md",
     "printf 'a\\tbb\\tc\\n' > t", "expand t", "expand -t 3 t", "cut -f2 t", "wc -m t", "md5sum notes.txt",
     "sha1sum notes.txt empty.txt", "cat notes.txt | sha256sum", "base64 notes.txt", "base64 -w 8 notes.txt",
     "base64 notes.txt > b64", "base64 -d b64", "printf 'a\\nb\\nc\\n' > s1", "printf 'b\\nd\\n' > s2",
     "comm s1 s2", "comm -12 s1 s2", "comm -3 s1 s2", "comm -23 s1 s2", "comm -13 s1 s2 > only2", "cat only2"],
    ["sort -t, -k2 -n data.csv", "sort -k1,1 -t, data.csv", "sort -s -t, -k2,2 data.csv", "sort -f notes.txt",
     "sort -o sorted.txt notes.txt", "cat sorted.txt", "grep -E 'al|ga' notes.txt", "grep -w beta notes.txt",
     "grep -o 'a.' notes.txt", "grep -l beta notes.txt data.csv", "grep -L beta notes.txt data.csv",
     "grep -h a notes.txt data.csv", "grep -H beta notes.txt", "grep -q beta notes.txt && echo found",
     "grep -s beta missing || echo none", "grep -F 'a.' notes.txt", "grep -e al -e ga notes.txt",
     "tr -s 'a' < notes.txt", "tr -c 'a-z\\n' _ < data.csv", "tr '[:lower:]' '[:upper:]' < notes.txt",
     "sort notes.txt | uniq -d", "sort notes.txt | uniq -u", "printf 'a\\nA\\n' | uniq -i",
     "basename -s .py src/main.py", "basename -a src/main.py docs/readme.md", "head -c 5 notes.txt",
     "tail -c 4 notes.txt", "sed 's|a|b|g' notes.txt", "sed -i.bak 's/beta/BETA/' notes.txt", "cat notes.txt notes.txt.bak", "sed 's#,#;#' data.csv", "test -s notes.txt && echo full",
     "test -s empty.txt || echo empty"],
    # awk (this machine's: mawk) and join.
    ["awk -F, '{print $2}' data.csv", "awk -F, 'NR>1 {s+=$2} END {print s}' data.csv",
     "awk '{print NR\": \"$0}' notes.txt", "awk '/beta/ {n++} END {print n+0}' notes.txt",
     "awk -F , '$2 >= 5 {print $1}' data.csv", "awk 'NF' docs/readme.md",
     "awk -F, '{printf \"%s=%d\\n\", $1, $2}' data.csv",
     "awk -F, 'NR > 1 {s += $2; n++} END {print s / n}' data.csv",
     "awk -F, 'NR > 1 {printf \"%s %.2f\\n\", $1, $2 / 7}' data.csv",
     "awk -F, 'NR > 1 {print int($2 / 3) * 2}' data.csv",
     "awk '{print length, toupper(substr($0, 1, 3))}' notes.txt",
     "cat notes.txt | awk '{print $1}'", "awk -v n=2 'NR == n' notes.txt", "awk -F: '{print $1}' src/util.py",
     "awk '{c[$1]++} END {for (k in c) print k, c[k]}' notes.txt | sort", "awk 'END {print NR}' empty.txt",
     "awk '{ if (length($0) > 4) print \"long\"; else print \"short\" }' notes.txt", "awk '{print $1}' missing",
     "printf 'a 1\\nb 2\\nc 3\\n' > j1", "printf 'a x\\nc y\\nd z\\n' > j2", "join j1 j2", "join -a1 j1 j2",
     "join -v 2 j1 j2", "join -o 1.1,2.2 j1 j2", "join -e NA -a1 -o 1.2,2.2 j1 j2", "join -1 1 -2 1 -i j1 j2",
     "printf 'a,1\\nb,2\\n' > k1", "printf 'a,x\\nb,y\\n' > k2", "join -t, k1 k2", "join j2 data.csv"],
    ["printf '{\"name\": \"app\", \"version\": \"1.2.0\", \"deps\": {\"rich\": \"^1.0\", \"click\": \"^8.1\"}, "
     "\"n\": [3, -1, 2.5]}\\n' > p.json", "jq . p.json", "jq .name p.json", "jq -r .version p.json",
     "jq '.deps | keys' p.json", "jq -c .deps p.json", "jq -S . p.json", "jq -j .name p.json", "jq '.n | length' p.json",
     "jq '.n[]' p.json", "jq '.n[0], .name | type' p.json", "jq .name.x p.json", "jq .x missing.json",
     "jq -r '.deps | keys[]' p.json", "jq keys_unsorted p.json", "jq -rc '.deps, .n' p.json"],
    ["tac notes.txt", "cat notes.txt | tac", "tac empty.txt notes.txt", "column -t -s, data.csv", "column -t notes.txt",
     "column -t -s, data.csv | tac", "stat -c %n notes.txt src", "stat -c '<%n>' data.csv", "stat -c %n missing"],
    ["while read p; do echo \"hi $p\"; done < notes.txt", "while IFS=, read -r a b; do echo \"$b $a\"; done < data.csv",
     "while read -r line; do touch \"$line.bak\"; done < notes.txt", "for f in src/*.py; do echo \"== $f\"; done",
     "for f in *.bak; do rm \"$f\"; done", "for f in *.none; do echo \"$f\"; done",
     "for i in $(seq 1 3); do echo \"item $i\"; done", "for i in $(seq 2 2 6); do echo $i; done | sort -r"],
]


# The virtual git's forms (git.py), in an empty folder whose home the world knows holds no git configuration.
GIT_SCENARIOS = [
    ["git status --short", "git init -q", "git config user.email dev@example.com", "git config user.name Dev",
     "git config user.name", "git status --short", "echo '# notes' > notes.md", "mkdir -p src/app",
     "echo 'x = 1' > src/app/main.py", "printf '*.log\\nbuild/\\n' > .gitignore", "touch debug.log", "git status -s",
     "git commit -q -m early", "git status",
     "git add .", "git status --porcelain", "git commit -q -m 'Initial commit'", "git status --short",
     "echo more >> notes.md", "git diff --stat", "git status --short", "git add -A && git commit -q -m 'Update notes'",
     "git log --oneline | wc -l", "git commit -qam again", "rm notes.md", "echo y > new.txt", "git status -s",
     "git status", "git add notes.md new.txt", "git status -s", "git commit -q -a -m 'Remove notes'", "git log --oneline | wc -l",
     "git log --oneline", "rm -rf .git", "git status -s"],
    ["git init --quiet", "echo a > a.txt", "git add a.txt", "git config user.name Dev",
     "git config user.email dev@example.com", "git commit -q -m empty", "git commit -q -m first", "echo b >> a.txt",
     "git diff --stat", "git diff", "git status", "git add a.txt", "git diff --cached", "git status",
     "echo c > c.txt", "git commit -q -m 'not staged'",
     "git commit -qam second", "git status --short", "git init -q"],
    ["git init -q", "git config user.email dev@example.com", "git config user.name Dev", "git switch -c main",
     "echo a > a.txt", "git add a.txt", "git commit -q -m first", "git branch", "git switch -c feature",
     "echo b > b.txt", "git add -A && git commit -q -m second", "git checkout main", "ls", "git checkout -b fix",
     "git branch side", "git branch", "git switch feature", "git switch -", "git checkout feature", "ls",
     "echo c >> a.txt", "git diff", "git restore a.txt", "echo d >> b.txt", "git checkout -- b.txt", "git status -s",
     "echo e >> a.txt", "git add a.txt", "git restore --staged a.txt", "git status -s", "git rm --cached b.txt",
     "git status -s", "git restore --staged b.txt", "git rm -q --cached a.txt", "git status -s"],
]


def _scenarios():
    for index, lines in enumerate(GIT_SCENARIOS):
        yield pytest.param("git", lines, id=f"git-{index}")
    for index, lines in enumerate(EMPTY_SCENARIOS):
        yield pytest.param("empty", lines, id=f"empty-{index}")
    for index, lines in enumerate(PREPARED_SCENARIOS):
        yield pytest.param("prepared", lines, id=f"prepared-{index}")


USED: set[str] = set()
COMPUTED: list[str] = []


@pytest.mark.parametrize(("start", "lines"), list(_scenarios()))
def test_computed_lines_equal_real_bash(tmp_path, start, lines):
    home = tmp_path / "home" / "dev"
    project = home / "project"
    project.mkdir(parents=True)
    files = PREPARED if start == "prepared" else {}
    for name, content in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_bytes(content)
    shell = VirtualShell.starting(
        str(project), str(home), {str(project / name): content for name, content in files.items()},
        {str(project / name).rsplit("/", 1)[0]: True for name in files}, complete=True)
    if start == "git":
        shell.knowledge.add_folder(str(home), True)  # the home holds the project alone: no git configuration
    real = RealBash(project, home)
    try:
        for line in lines:
            try:
                outcome = shell.compute(line)
            except NotComputable:
                outcome = None
            stdout, stderr, code = real.run(line)
            if outcome is None:  # as a world learns from a step it did not compute: from its semantics and screen
                semantics = analyze(line, shell.knowledge.cwd, str(home))
                learn_uncomputed(shell.knowledge, semantics, shell.knowledge.cwd, real_cwd(real), stdout + stderr,
                                 real=True)
                continue
            shell.accept(outcome)
            COMPUTED.append(line)
            USED.update(outcome.forms)
            assert (outcome.stdout, outcome.stderr, outcome.exit_code) == (stdout, stderr, code), line
            assert outcome.cwd == real_cwd(real), line
            check_files(shell, tmp_path, line)
    finally:
        real.close()


def test_every_allowlist_entry_is_proven():
    """Runs after the scenarios (file order): each program and option on the allowlist was computed and matched."""
    if not COMPUTED:
        pytest.skip("the scenarios did not run in this session")
    print(f"{len(COMPUTED)} computed lines matched real bash")
    assert len(COMPUTED) >= 150
    assert all_forms() - USED == set()


@pytest.mark.parametrize("line", ["ls -a | sort", "ls -la", "python3 -c 'print(1)'", "git status", "cat $(echo a)",
                                  "echo $RANDOM", "echo $?", "exit 1", "find . -name x -delete", "cat <<EOF\n$X\nEOF",
                                  "cat <<-EOF\n\tx\nEOF", "while true; do echo; done", "until false; do :; done",
                                  "i=0; while [ $i -lt 99 ]; do i=$((i+1)); done", "while [ -f a ]; do :; done",
                                  "[[ a =~ a ]]", "case a in a) echo;& esac", "touch a; for f in *; do echo $f; done",
                                  "for f; do echo $f; done", "true | echo $?", "echo $((1 / 0))", "let x=1",
                                  "echo ${X:?}", "echo ${!X}", "X=a; echo ${X/a/&}", "echo a\nb &",
                                  "rm -v a", "sort -h f", "ls > out", "echo hi &", "cat a | cd b", "grep -r x", "X=1 cat a",
                                  "rmdir .", "rm -rf ..", "cp -r . x", "cat", "tr a b", "grep x", "sort -", "export",
                                  "echo {a..C}", "echo $A{1,2}", "cat ?.txt", "cat [ab].txt",
                                  "seq 1 100000", "seq 1.5 3", "seq -s , 3", "seq 1 0 5", "sed -i.b/ s/a/b/ f",
                                  "head -n 2", "tee f", "sed s/a/b/", "uniq a b", "awk '{print $1}'",
                                  "awk '{print > \"out\"}' f", "awk 'BEGIN {system(\"ls\")}'", "join a",
                                  "cat f | awk '{s += $1} END {print s}'", "mawk '{print}' f",
                                  "jq .name", "cat f | jq .", "jq 'map(.a)' f", "jq -e . f", "jq .name a b",
                                  "tac", "column -t", "column -s, f", "stat f", "stat -c %s f", "stat -c '%n %F' f",
                                  "while read p; do echo $p; done", "cat f | while read p; do echo $p; done",
                                  "for i in $(ls); do echo $i; done", "for f in \"*\"; do echo $f; done"])
def test_lines_outside_the_allowlist_go_to_the_model(line):
    shell = VirtualShell.starting("/home/dev/project", "/home/dev", complete=True)
    with pytest.raises(NotComputable):
        shell.compute(line)
