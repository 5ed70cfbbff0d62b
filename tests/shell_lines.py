"""Everyday command lines and file states, generated: the input of the differential test of computed steps.

A scenario is a folder's files and a few lines typed in order. The lines are composed from the virtual
shell's allowlist (every program, option and construct it may compute) and from forms just outside it,
over operands that name the folder's files as typed, with spaces, missing paths, folders, globs and
variables; the file states hold empty files, files without a final newline, binary bytes, non-ASCII
text, nested folders. Everything is drawn from one `random.Random(seed)`: a seed names a scenario.
"""

from __future__ import annotations

import random
import re
import shlex
from dataclasses import dataclass, field

from .awk_lines import awk_line
from .text_lines import PLAIN, TEXT_PROGRAMS, WIDENED, text_command, text_reader

CONTENTS = (b"", b"alpha\nbeta\ngamma\nbeta\n", b"3\n1\n2\n10\n", b"no final newline", b"x\x00y\n",
            b"caf\xc3\xa9 h\xc3\xa9llo\n", b"  spaced  line\n\n\n", b"b,2\na,1\nc,3\n", b"one\n", b"x\ny\nx\nz\n",
            b"\xff\xfe bytes\n", b"Hello World\n", b"a\nb\nc\n", b"aGVsbG8gd29ybGQK\n", b"aGVsbG8\n",
            b"a\tb\tc\nd\te\tf\n", b"b 2\na 10\nc 1\na 3\n", b"the quick brown fox jumps over the lazy dog\n",
            b"aGk=\naGk=\n", b" lead, trail \t\n,x,\nq\\n r\n\na,,b c\n")
NAMES = ("a.txt", "b.txt", "my file.txt", "empty", "nonl", "d/x.txt", "d/e/y.txt", "data.csv")
MISSING = ("missing", "gone.txt", "d/none", "nodir/f")
FOLDERS = ("d", "d/e", "out")
WORDS = ("hi", "'a  b'", "\"$X\"", "$X", "x", "-n", "''", "\"two words\"", "$HOME", "'\\t'", "%", "--")
PATTERNS = ("a", "beta", "x", "'^b'", "'h.l'", "'[0-9]'", "'a\\|b'", "A", "''", "'é'")
SED_SCRIPTS = ("'s/a/b/'", "'s/[0-9]\\+/N/g'", "'2p'", "'$p'", "'/beta/d'", "-n '/a/p'", "'s/./X/g'", "'1d'",
               "-n '2,3p'", "'s/x/y/2'", "'y/abc/xyz/'", "'s/a/&&/'", "'='", "'q'", "'s/a/b/w out/t'",
               "'r a.txt'", "'1!G;h;$!d'", "'/a/,/b/d'", "'2q;s/x/X/'", "'$!N;s/\\n/ /'", "'s|a|b|'", "'s#a#b#g'",
               "'s,a,X,2'", "'s|a\\|b|X|g'", "'s|[|]|X|'", "'sxaxbx'", "'s|/|_|;s:e:E:'", "'s!.!&&!p'", "'s|a|b'")
# Context lines (GNU's `--` between groups) and the files a search reads, with near misses GNU refuses.
GREP_CONTEXTS = ("-A1 ", "-A 2 ", "-B1 ", "-B 2 ", "-C1 ", "-C 1 ", "-A0 ", "-A1 -B1 ", "-C0 ", "-A 5 ", "-C x ",
                 "-A -1 ", "-B ", "-2 ", "--context=1 ")
GREP_CHOOSERS = ("-r --include='*.txt' ", "-r --include=*.csv ", "--include='*.txt' ", "-r --exclude='*.txt' ",
                 "-r --exclude-dir=e ", "-r --exclude-dir=d --include='*.txt' ", "-r --include='d/*' ",
                 "-r --include= ", "-r --include ", "-r --exclude-dir='*' ", "-r --include='[ab]*' ")
PRINTF = ("'%s\\n'", "'%d\\n'", "'%5s|\\n'", "'%z\\n'", "'x'", "'%s'", "'%s-%s\\n'", "'%b\\n'", "'%%\\n'", "'%x\\n'")
TR_SETS = ("a-z A-Z", "-d b", "' ' '\\n'", "':'", "-d ','", "'é' 'e'", "abc", "-s ' '", "a-c x", "-s a-z",
           "-c a-z X", "-cd 'a-z\\n'", "-cs '[:alpha:]' '\\n'", "'[:lower:]' '[:upper:]'", "a-z '[:upper:]'",
           "a '[x*]'", "'[a*]' x",
           "-c '[:lower:]' '[:upper:]'", "-s '[:space:]'", "-c a", "-t abc x", "'[=a=]' x", "-ds a b")
READ_LOOPS = ("while read p; do echo \"<$p>\"; done < {op}", "while read -r a b; do echo \"[$a][$b]\"; done < {op}",
              "while IFS=, read -r a b; do echo \"$b:$a\"; done < {op}", "while IFS=, read x y z; do echo \"[$x|$y|$z]\"; done < {op}",
              "while read p; do touch \"out/$p\"; done < {op}", "while read p; do cat; done < {op}",
              "cat {op} | while read p; do echo $p; done", "while IFS=' ' read a; do echo $a; done < {op}",
              "while IFS=: read -r a b; do echo \"$a\"; done < {op}", "while read -d , p; do echo $p; done < {op}",
              "while read p; do echo $p; done < {op}; echo \"end $p\"",
              "while read p q; do echo \"$q\"; done < {op}", "echo x > out/r; while read x; do echo $x; done < out/r",
              "while read -r line; do echo \"${{#line}}\"; done < {op}", "while read p; do echo \"$p\" >> out/l; done < {op}")
LITTLE_TOOLS = {"tac": ("", "", "-s , ", "-b ", "-r "),
                "column": ("-t ", "-t -s, ", "-t -s , ", "-s, -t ", "-t -s: ", "-ts, ", "-t -s ' ' ", "", "-s, ",
                           "-t -s ', ' ", "-t -o '|' ", "-n -t ", "-t -s '\\' "),
                "stat": ("-c %n ", "-c %n ", "-c '%n:%n' ", "-c '<%n>' ", "-c '%n %F' ", "-c %s ", "", "--format=%n ",
                         "-c '%n\\n' ", "-c %N ", "-c x ", "-c '' ", "-c %% ", "--printf=%n ")}
TESTS = ("-f {p}", "-d {p}", "-e {p}", "-s {p}", "-z {w}", "-n {w}", "{w} = {w}", "1 -eq 1", "2 -gt 1", "! -e {p}",
         "-L {p}", "{p} -nt {p}", "-r {p}", "-w {p}", "-x {p}", "-e ''", "-f \"$P\"")


@dataclass
class Scenario:
    seed: int
    files: dict[str, bytes] = field(default_factory=dict)
    folders: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def as_json(self) -> dict:
        return {"seed": self.seed, "files": {k: v.decode("latin-1") for k, v in self.files.items()},
                "folders": self.folders, "lines": self.lines}

    @classmethod
    def from_json(cls, data: dict) -> Scenario:
        return cls(data.get("seed", -1), {k: v.encode("latin-1") for k, v in data["files"].items()},
                   list(data.get("folders", [])), list(data["lines"]))


def scenario(seed: int) -> Scenario:
    rng = random.Random(seed)
    made = _folder(seed, rng, CONTENTS, fewest=0)
    made.lines = [line(rng) for _ in range(rng.randint(1, 4))]
    return made


def _folder(seed: int, rng: random.Random, contents: tuple[bytes, ...], fewest: int) -> Scenario:
    """A scenario's files (at least `fewest` of NAMES, each holding one of `contents`) and folders, no lines yet."""
    made = Scenario(seed)
    for name in rng.sample(NAMES, rng.randint(fewest, len(NAMES))):
        made.files[name] = rng.choice(contents)
    made.folders = [folder for folder in FOLDERS if rng.random() < 0.3]
    return made


# Lines that change the shell itself for the lines after them (not `set -e` or `set -u`: they end a
# non-interactive bash, and with it the scenario).
SHELL_CHANGES = ("set -o noclobber", "set -o pipefail", "set +o noclobber", "shopt -s nullglob", "shopt -s dotglob",
                 "shopt -s failglob", "cat() { echo fake; }", "echo() { printf 'fn\\n'; }", "PATH=/nowhere",
                 "umask 077", "IFS=:", "export LC_ALL=C.UTF-8", "wc() { :; }", "set +o pipefail")


def line(rng: random.Random) -> str:
    shape = rng.random()
    if shape < 0.05:
        return rng.choice(SHELL_CHANGES)
    if shape < 0.08:
        return shell_state_line(rng)
    if shape < 0.3:
        return construct(rng)
    if shape < 0.45:
        return command(rng)
    if shape < 0.65:
        return f"{producer(rng)} | {reader(rng)}" + (f" | {reader(rng)}" if rng.random() < 0.3 else "")
    if shape < 0.8:
        return f"{command(rng)} {rng.choice(('&&', '||', ';'))} {command(rng)}"
    if shape < 0.9:
        return f"{command(rng)} {redirection(rng)}"
    return f"{rng.choice(('X', 'P', 'N'))}={rng.choice(('hello', shlex.quote('a b'), '*.txt', '3', shlex.quote(''), 'd'))}" \
        f"{rng.choice(('; ', ' && '))}{command(rng)}"


def paths(rng: random.Random, most: int = 2) -> str:
    return " ".join(_operand(rng) for _ in range(rng.randint(1, most)))


def _operand(rng: random.Random) -> str:
    pool = rng.choice((NAMES, NAMES, MISSING, FOLDERS, ("*", "*.txt", "d/*", ".*", "*.none", "$P", "\"$P\"")))
    chosen = rng.choice(pool)
    return chosen if chosen.startswith(("*", "$", "\"", ".*", "d/*")) else shlex.quote(chosen)


def _flags(rng: random.Random, letters: str) -> str:
    chosen = "".join(letter for letter in letters if rng.random() < 0.3)
    return f"-{chosen} " if chosen else ""


# Options a program may not have (GNU's getopt message: usage_errors.py), some after one it acts on first.
INVALID_OPTIONS = ("-z", "-Q", "-j", "-az", "-zq", "-n 2 -z", "-- -z", "-y", "-1z", "--zz", "-5", "-aZ", "-k1 -j", "-W",
                   "-Ay")


def command(rng: random.Random, program: str = "") -> str:
    if not program and rng.random() < 0.04:
        chosen = rng.choice(("ls", "cat", "wc", "sort", "head", "tail", "cp", "mv", "mkdir", "rm", "cut", "uniq",
                             "touch", "basename", "md5sum", "join", "comm", "paste"))
        return f"{chosen} {rng.choice(INVALID_OPTIONS)} {paths(rng)}"
    program = program or rng.choice(("echo", "printf", "cat", "head", "tail", "wc", "sort", "uniq", "grep", "sed", "mkdir",
                          "touch", "rm", "rmdir", "cp", "mv", "basename", "dirname", "tee", "seq", "test", "[", "cd",
                          "pwd", "true", "false", "export", "ls", "tr", "awk", "./", *TEXT_PROGRAMS, "tac", "column",
                          "stat"))
    if program == "./":  # a program named by a path: missing, a file, a folder, below a missing folder
        return rng.choice(("./run.sh", "./run.sh --fast a.txt", "./a.txt", "./d", "d/none", "./nodir/f x", "./$P",
                           "/nowhere/run"))
    if program == "echo":
        return f"echo {_flags(rng, 'neE')}" + " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 3)))
    if program == "printf":
        return f"printf {rng.choice(PRINTF)} " + " ".join(rng.choice(("a", "5", "x y", "'é'", "$X", "-3", "0x10", "b"))
                                                          for _ in range(rng.randint(0, 3)))
    if program == "cat":
        return f"cat {_flags(rng, 'n')}{paths(rng)}"
    if program in ("head", "tail"):
        option = rng.choice(("", "-n 2 ", "-n 1 ", "-c 3 ", "-2 ", "-n 0 ", "-c 1 ", "-n +2 ", "-n -1 ", "-c 5 ",
                             "-c -3 ", "-c +2 ", "-c2 ", "-c 1K ", "-c 0 ", "-n x ", "-c x ", "-n -x ", "-n 2x "))
        return f"{program} {option}{paths(rng)}"
    if program == "wc":
        return f"wc {_flags(rng, rng.choice(('lwc', 'lwcm', 'mL')))}{paths(rng)}"
    if program == "sort":
        keys = rng.choice(("", "", "-k2 ", "-k 2,2 ", "-k2n ", "-k1,1 -k2n ", "-t, -k2 ", "-t , -k 2n ", "-k2r ",
                           "-k1.2 ", "-k0 ", "-k2.0 ", "-t ab ", "-t '\\t' -k2 ", "-k2,1 ", "-o out/s ", "-o sorted ",
                           "-k 2b "))
        return f"sort {_flags(rng, rng.choice(('rnu', 'rnusf', 'fsu', 'hVgRcbM')))}{keys}{paths(rng)}"
    if program == "uniq":
        return f"uniq {_flags(rng, rng.choice(('c', 'cdui', 'Dfz')))}{_operand(rng)}"
    if program == "grep":
        flags = _flags(rng, rng.choice(("ivncx", "EwolLhHqsF", "ivnEwoH", "clLqsF", "PrAz")))
        patterns = rng.choice((rng.choice(PATTERNS), rng.choice(PATTERNS), f"-e {rng.choice(PATTERNS)}",
                               f"-e {rng.choice(PATTERNS)} -e {rng.choice(PATTERNS)}", "-E 'a|b'", "-E '(al|ga)+'"))
        context = rng.choice(GREP_CONTEXTS) if rng.random() < 0.3 else ""
        chosen = rng.choice(GREP_CHOOSERS) if rng.random() < 0.3 else ""
        return f"grep {flags}{context}{chosen}{patterns} {paths(rng)}"
    if program == "sed":
        return f"sed {rng.choice(('', '-i ', '-n ', '-i.bak ', '-in ', '-ni.orig ', '-i~ ', '-i* ', '-i.b/ '))}" \
            f"{rng.choice(SED_SCRIPTS)} {paths(rng, 1)}"
    if program == "tr":
        return f"tr {rng.choice(TR_SETS)} < {_operand(rng)}"
    if program in ("mkdir", "touch", "rmdir"):
        return f"{program} {_flags(rng, 'p') if program == 'mkdir' else ''}{paths(rng)}"
    if program == "rm":
        return f"rm {_flags(rng, 'rf')}{paths(rng)}"
    if program in ("cp", "mv"):
        return f"{program} {_flags(rng, 'r') if program == 'cp' else ''}{_operand(rng)} {_operand(rng)}"
    if program == "awk":
        return awk_line(rng, _operand)
    if program in ("tac", "column", "stat"):
        return f"{program} {rng.choice(LITTLE_TOOLS[program])}{paths(rng) if program != 'column' else _operand(rng)}"
    if program in TEXT_PROGRAMS:
        return text_command(rng, program, paths, _operand)
    if program == "basename" and rng.random() < 0.4:
        return "basename " + rng.choice(("-s .txt ", "-a ", "-as .py ", "-s '' ", "-s t ", "--suffix=.txt ", "-z ")) + \
            " ".join(rng.choice(("a/b/c.txt", "dir/file.py", ".txt", "/", "a", "b/")) for _ in range(rng.randint(0, 3)))
    if program in ("basename", "dirname"):
        return f"{program} " + " ".join(rng.choice(("a/b/c.txt", "dir/file.py", ".py", "/", "a", "b/", "''"))
                                         for _ in range(rng.randint(0, 3)))
    if program == "tee":
        return f"echo {rng.choice(WORDS)} | tee {_flags(rng, 'a')}{_operand(rng)}"
    if program == "seq":
        return "seq " + " ".join(rng.choice(("1", "3", "0", "5", "2", "10")) for _ in range(rng.randint(1, 3)))
    if program in ("test", "["):
        expression = rng.choice(TESTS).format(p=_operand(rng), w=rng.choice(WORDS))
        expression = expression.replace("{p}", _operand(rng))
        shown = f"test {expression}" if program == "test" else f"[ {expression} ]"
        return f"{shown} && echo yes || echo no" if rng.random() < 0.7 else shown
    if program == "cd":
        return f"cd {rng.choice((*FOLDERS, '..', 'missing', 'a.txt', '-', '~'))}"
    if program == "export":
        return f"export X={rng.choice(('1', 'hi', shlex.quote('a b')))}"
    if program == "ls":
        return f"ls {_flags(rng, 'a1R')}{rng.choice(('', *FOLDERS, 'a.txt', 'missing', '*.none', '*.txt', 'd/*', '*'))}"
    return program


def producer(rng: random.Random) -> str:
    return rng.choice((f"cat {_operand(rng)}", f"echo {rng.choice(WORDS)}", f"printf {rng.choice(PRINTF)} a b",
                       "seq 5", f"grep {rng.choice(PATTERNS)} {_operand(rng)}", f"sort {_operand(rng)}"))


def reader(rng: random.Random) -> str:
    return rng.choice(("cat", "cat -n", "sort", "sort -r", "sort -n", "sort -u", "uniq", "uniq -c", "wc -l", "wc",
                       "wc -c", "head -n 1", "tail -n 1", "tac", "column -t -s,", "head -c 2", f"grep {rng.choice(PATTERNS)}", text_reader(rng),
                       f"sed {rng.choice(SED_SCRIPTS)}", f"tr {rng.choice(TR_SETS)}", "tee out/t", "grep -c a",
                       rng.choice(("awk '{print $1}'", "awk -F, '{print $2}'", "awk 'NF'", "awk '{print NR\":\"$0}'"))))


def redirection(rng: random.Random) -> str:
    target = _operand(rng)
    return rng.choice((f"> {target}", f">> {target}", f"2> {target}", f"< {target}", "2>&1", f"> {target} 2>&1",
                       f"2>&1 > {target}", f"&> {target}", "> /dev/null", "2> /dev/null", "&>/dev/null",
                       "2>>/dev/null", "2>/dev/null || echo none", "&> /dev/null && echo ok", "2>/dev/null | wc -l",
                       f"2>/dev/null > {target}"))


# The shell's own constructs (domains/shell/virtual/constructs.py) and parameter, brace and arithmetic
# expansions, with forms just outside what is computed (=~, ;&, while, <<-, `$?` first (computed where the world knows the status of the line before), division by zero).
EXPANSIONS = ("${V:-d}", "${V:=d}", "${V:+a}", "${#V}", "${V#*.}", "${V##*.}", "${V%.*}", "${V%%.*}", "${V/a/b}",
              "${V//a/b}", "${V:1:2}", "${V: -3}", "${V^^}", "${V,,}", "${V^}", "\"${V%.txt}\".bak", "$V/$V.html",
              "${V}_x", "\"$V\"-b", "${V/a/&}", "${V-d}", "${!V}", "${V/#a/b}")
VALUES = ("a.txt", "d/x.txt", "''", "'my file.txt'", "archive.tar.gz", "Hello", "d", "'*.txt'")
BRACED = ("f{,.bak}", "{a,b}/c", "{1..5}", "out/{a,b}", "{a..c}", "x{1..3..2}", "{a,{b,c}}", "{01..3}", "{x}", "{a..C}")
ARITHMETIC = ("1 + 2", "7 / 2", "-7 / 2", "7 % 3", "2 * (3 + 4)", "3 > 2", "N + 1", "1 / 0", "2 ** 3", "010 + 1",
              "N == 3", "!0", "x++", "N * -1", "1 && 0", "5 % 0")
DOUBLE_TESTS = ("-f {p}", "-d {p}", "-e {p}", "-z {w}", "-n {w}", "{w} == {w}", "{w} != {w}", "a < b", "b > a",
                "{w} == *.txt", "! -e {p}", "-e ''", "-d \"$U\"",
                "-f {p} && -d {p}", "-f {p} || -e {p}", "a =~ ^a", "1 -eq 1",
                "( -f {p} )", "-s {p}")
HEREDOCS = ("cat > out/h <<'EOF'\nline $X\n  two\nEOF", "cat <<'EOF'\na\tb $HOME\nEOF", "cat <<EOF\nplain text\nEOF",
            "cat <<EOF\n$X here\nEOF", "cat <<-EOF\n\tx\nEOF", "cat <<\"END\" > out/g\nq\nEND",
            "cat <<'EOF' | sort\nb\na\nEOF", "echo a\necho b", "cat <<'EOF'\nx\nEOF\ncat out/h",
            "V=a.txt; cat <<EOF\nv=$V ${V%.txt} ${#V}\n\tEOF ${V:-x}\nEOF", "V='a  b*'; cat <<EOF > out/v\n[$V]\nEOF",
            "cat <<EOF\n$(echo sub) $((1+2))\nEOF", "V=x; cat <<EOF\ncost \\$5 $V\nEOF", "cat <<EOF\na $ b\nEOF")


def construct(rng: random.Random) -> str:
    form = rng.randrange(14)
    word, other = rng.choice(WORDS), rng.choice(WORDS)
    if form == 0:
        test = f"[ {rng.choice(TESTS).format(p=_operand(rng), w=word)} ]" if rng.random() < 0.6 else command(rng)
        middle = f"; elif {command(rng)}; then {command(rng)}" if rng.random() < 0.3 else ""
        ending = f"; else {command(rng)}" if rng.random() < 0.6 else ""
        return f"if {test}; then {command(rng)}{middle}{ending}; fi"
    if form == 1:
        words = rng.choice(("a b c", f"{_operand(rng)} {_operand(rng)}", "1 2 3", "*.txt", "", "{1..3}", "x 'y z'",
                                 rng.choice(("d/*", "*", "*.none", "./*.txt", "*.txt d/*", ".*", "'*'.txt", "*/", "d*")),
                                 rng.choice(("$(seq 1 3)", "$(seq 3)", "$(seq 5 1)", "$(seq 1 2 7) x", "\"$(seq 1 3)\"",
                                             "$(seq 0 0 1)", "$(seq 1 07)", "$(seq 1 40)", "$(echo a b)", "$( seq 2 4 )",
                                             "$(seq -1 1)", "`seq 2`"))))
        body = rng.choice(("echo $v", "cat \"$v\"", "echo \"<$v>\"", "mkdir -p out/$v", "touch out/$v",
                           "X=$v", "wc -l $v", f"{command(rng)}"))
        loop = rng.choice((f"for v in {words}; do {body}; done", f"for v in {words}; do {body}; done; echo $v",
                           "for v; do echo $v; done", "while false; do echo x; done", "until true; do echo x; done",
                           "i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done", "i=9; while [ $i -gt 0 ]; do i=0; done",
                           "n=5; until (( n <= 2 )); do touch out/$n; n=$((n-1)); done; echo $n",
                           "i=0; while [ $i -lt 40 ]; do i=$((i+1)); done; echo $i", "while [ -f no-such-file-ever ]; do :; done",
                           "i=1; while (( i < 100 )); do i=$((i*2)); done; echo $i",
                           rng.choice(READ_LOOPS).format(op=_operand(rng))))
        return loop
    if form == 2:
        patterns = rng.choice(("*.txt", "a*|b*", "d", "*", "?", "[ab]*", "''"))
        item = rng.choice((";;", ";;", ";&"))
        return f"case {rng.choice(VALUES)} in {patterns}) {command(rng)}{item} *) {command(rng)};; esac"
    if form == 3:
        return rng.choice((f"{{ {command(rng)}; {command(rng)}; }} > out/g", f"{{ {command(rng)}; }}",
                           f"( cd {rng.choice(FOLDERS + ('missing',))}; {command(rng)} ); pwd",
                           f"( {command(rng)} )", f"! {command(rng)}", f"! {command(rng)} && echo neg"))
    if form == 4:
        return rng.choice((f"{command(rng)}; echo $?", "echo $?", f"{command(rng)}; echo \"$?\"",
                           f"{command(rng)}; [ $? -eq 0 ] && echo ok", f"{command(rng)} || echo \"failed $?\"",
                           f"{command(rng)}; printf '%s\\n' $?", f"{command(rng)}; X=$?; echo $X",
                           f"{command(rng)} | echo $?", "[ $? -eq 0 ] && echo ok || echo failed", "printf '%s\\n' $?"))
    if form == 5:
        plain = ("hi", "'a  b'", "\"$X\"", "$X", "x", "''", "\"two words\"", "$HOME", "a*", "\"a*\"")
        test = rng.choice(DOUBLE_TESTS).format(p=_operand(rng), w=rng.choice(plain)).replace("{w}", rng.choice(plain))
        return f"[[ {test} ]] && echo yes || echo no" if rng.random() < 0.7 else f"[[ {test} ]]"
    if form == 6:
        expression = rng.choice(ARITHMETIC)
        return rng.choice((f"N=3; echo $(({expression}))", f"N=3; (( {expression} )) && echo yes",
                           f"N=3; X=$(({expression})); echo $X", f"let \"N={expression}\"",
                           f"N=3; echo \"$(( {expression} ))\""))
    if form in (7, 8):
        value, used = rng.choice(VALUES), rng.choice(EXPANSIONS)
        return f"V={value}; " + rng.choice((f"echo {used}", f"cat {used}", f"echo {used} $V", f"touch out/{used}",
                                            f"printf '<%s>\\n' {used}"))
    if form == 9:
        braced = rng.choice(BRACED)
        return rng.choice((f"echo {braced}", f"mkdir -p {braced}", f"touch {braced}", f"cp a.txt {braced}",
                           f"printf '<%s>\\n' {braced}"))
    if form == 10:
        return rng.choice(HEREDOCS)
    if form == 11:
        return rng.choice(("cd -", "cd", "cd ~", "cd ~/project", f"cd {rng.choice(FOLDERS)}; cd -", "cd - > out/g",
                           "cd /tmp; cd -; pwd"))
    if form == 12:
        return f"D={rng.choice(FOLDERS)}; F={rng.choice(('x', 'y', 'main'))}; " + rng.choice(
            ("echo x > $D/$F.html", "cat $D/$F.txt", "echo $D/$F.html", "touch \"$D/$F.txt\"", "echo ${D}_$F"))
    return f"{command(rng)}; {construct(rng)}"


def construct_scenario(seed: int) -> Scenario:
    """A scenario whose lines are all the shell's constructs (the focused proof of constructs.py)."""
    made = scenario(seed)
    rng = random.Random(seed ^ 0x5EED)
    made.lines = [construct(rng) for _ in range(rng.randint(2, 5))]
    return made


def text_scenario(seed: int) -> Scenario:
    """A folder of plain text files and lines of the text tools only
    (tests/integration/test_computed_families_generated.py)."""
    rng = random.Random(seed)
    made = _folder(seed, rng, PLAIN, fewest=2)
    present = sorted(made.files)

    def operand(rng: random.Random) -> str:  # mostly a file that is there: its output, not an error, is compared
        return shlex.quote(rng.choice(present)) if rng.random() < 0.7 else _operand(rng)

    def paths(rng: random.Random, most: int = 2) -> str:
        return " ".join(operand(rng) for _ in range(rng.choice((1, 1, 1, most))))

    for _ in range(rng.randint(1, 4)):
        program = rng.choice((*TEXT_PROGRAMS, *TEXT_PROGRAMS, *WIDENED))
        if rng.random() < 0.2:
            made.lines.append(f"{command(rng, rng.choice(('cat', 'sort', 'printf', 'echo')))} | {text_reader(rng)}")
        elif program in TEXT_PROGRAMS:
            made.lines.append(text_command(rng, program, paths, operand))
        else:
            made.lines.append(command(rng, program))
    return made


# The shell's own state a line leaves for the next (domains/shell/virtual/shell_state.py): functions defined on one
# line or several and called later (with arguments, redirected, in lists, from each other, inside pipelines,
# redefined), and `set -o pipefail` on and off under pipelines that fail in any stage.
FUNCTION_NAMES = ("greet", "show", "mk", "build_it", "report")
FUNCTION_BODIES = ("echo hello", "cat a.txt", "mkdir -p out/m; touch out/m/f", "cd d", "cd d; pwd; cd -",
                   "X=set_in_f", "echo \"$X\"", "wc -l a.txt nonl", "cat missing", "false", "echo \"$1\"",
                   "grep -c a a.txt || echo none", "echo x > out/f.txt", "ls d", "cd missing",
                   "for v in 1 2; do echo $v; done", "[ -f a.txt ] && echo yes",
                   "echo $#", "local y=1; echo $y", "return 3", "set -o pipefail", "shopt -s nullglob",
                   # the words a call gives: counted, read as files, quoted or split, defaulted, all at once
                   "grep -c \"$1\" \"$2\"", "cat \"$1\"", "echo \"[$@]\"", "echo [$*]", "echo $1", "wc -l \"$@\"",
                   "echo \"${1:-none}\" \"${2}\"", "touch \"out/$1\"", "echo \"$3\" $#",
                   "local X=in; echo \"$X\"", "local X; echo \"[$X]\"; X=changed", "local -r X=1", "local PATH=/x",
                   "local X=$X; X=more; echo $X", "local N M=2; echo \"$N$M\"")
# Scripts a line sources (`. ./env.sh`): assignments, exports, functions, commands, errors, nested sources.
SCRIPTS = (b"X=from_env\nexport Y=1\n", b"hello() {\n  echo hello $X\n}\nX=x\n", b"echo sourced\ncat a.txt\n",
           b"cd d\n", b"cd missing\n", b"set -o pipefail\n", b"return 2\n", b"echo $1\n", b". ./d/x.txt\n",
           b"mkdir -p out/s; touch out/s/f\n", b"cat missing\n", b"X=1; echo \"$X\" 2>/dev/null\n", b"",
           b"shopt -s nullglob\n", b"greet() { echo g; }; greet\n")
SOURCES = ("source ./env.sh", ". ./env.sh", "source env.sh", ". ./env.sh && echo \"$X $Y\"", "source ./env.sh; hello",
           "source ./a.txt", "source ./missing.sh", ". ./d/x.txt", "echo x; . ./env.sh", "cd d && . ../env.sh",
           "source ./env.sh > out/g", "source ./env.sh | cat", "source ./env.sh a b", ". ./env.sh; echo $?")
# cd with its output or errors sent away, which bash opens before it moves (a relative target is refused).
QUIET_CDS = ("cd d > /dev/null", "cd - > /dev/null", "cd - >/dev/null 2>&1", "cd missing 2>/dev/null || echo no",
             "cd d; cd - > /dev/null; pwd", "cd - &>/dev/null; pwd", "cd d >/dev/null && cd - 1>/dev/null && pwd",
             "cd - > out/g", "cd d 2>&1", "cd a.txt 2>/dev/null; pwd", "cd ~ >/dev/null; cd - >/dev/null; pwd")
# Moves a predicted step may make (world/moves.py follows those the exact facts decide), and pushd, popd and dirs
# (the directory stack the world keeps): round trips, targets missing, files, folders not seen, a stack empty.
MOVES = ("cd missing", "cd a.txt", "cd d && ls && cd -", "cd d; ls; cd -", "cd nodir/x && ls && cd -",
         "pushd d >/dev/null && ls && popd >/dev/null", "pushd d/e >/dev/null && pwd && popd >/dev/null",
         "pushd missing >/dev/null && ls && popd >/dev/null", "pushd d; pushd ..; popd; popd; popd", "popd",
         "pushd d", "pushd d > /dev/null", "dirs", "dirs -v", "dirs -l -p", "popd >/dev/null; pwd", "pushd",
         "pushd missing", "pushd a.txt", "pushd d >/dev/null; dirs; cd e; dirs", "cd d && make && cd -",
         "cd missing || cd d", "pushd out >/dev/null; pwd", "pushd ~ > /dev/null; dirs", "cd d && cd .. && pwd",
         "pushd d > /dev/null; popd; echo $OLDPWD", "pushd d >/dev/null; cd -", "pushd -n d", "popd +1",
         "pushd d e", "pushd '' ", "pushd d/ >/dev/null; dirs")
PIPELINES = ("false | true", "cat missing | sort", "true | false | true", "grep zz a.txt | wc -l", "seq 3 | head -n 1",
             "cat a.txt | grep -c beta", "printf 'b\\na\\n' | sort | uniq")


def shell_state_line(rng: random.Random, defined: tuple[str, ...] = ()) -> str:
    """`defined`: the names earlier lines defined, which a call mostly names."""
    name = rng.choice(defined if defined and rng.random() < 0.8 else FUNCTION_NAMES)
    form = rng.randrange(10)
    if form == 9:  # one function calling others (only `report` calls: no recursion, which would hang bash)
        return "report() { " + "; ".join(rng.choice(("greet", "show 2>/dev/null", "mk", "greet a")) for _ in
                                          range(rng.randint(1, 2))) + "; }"
    name = name if form in (3, 7) else rng.choice(FUNCTION_NAMES[:4])
    if form == 0:  # a definition on one line
        body = "; ".join(rng.choice(FUNCTION_BODIES) for _ in range(rng.randint(1, 2)))
        return f"{name}() {{ {body}; }}"
    if form == 1:  # over several lines, as agents type them
        body = "\n".join("  " + rng.choice(FUNCTION_BODIES) for _ in range(rng.randint(1, 3)))
        return f"{rng.choice(('', 'function '))}{name}() {{\n{body}\n}}"
    if form == 2:  # defined and called in one line
        return f"{name}() {{ {rng.choice(FUNCTION_BODIES)}; }}; {name}" + rng.choice(("", "; echo $?", " && echo ok"))
    if form == 3:  # a call, of a function an earlier line defined where there is one
        return (rng.choice(defined) if defined else name) + rng.choice(("", "", " a b", " > out/g", " 2>/dev/null", "; echo $?", " && echo ok || echo no",
                                  " | sort", "; pwd", "; echo \"$X\"", " a.txt", " a a.txt", " 'x y'", " \"$X\"",
                                  " *.txt", " '' b", " a b c d"))
    if form == 4:
        return rng.choice(("set -o pipefail", "set +o pipefail", "set -o pipefail; false | true; echo $?"))
    if form == 5:
        return f"{rng.choice(PIPELINES)}; echo $?"
    if form == 6:
        return f"{rng.choice(PIPELINES)} && echo ok || echo failed"
    if form == 7:
        return rng.choice(("unset -f greet", "unset greet", "unset X; echo ${X:-none}", "unset -v greet; greet",
                           "X=1; unset X; echo \"${X:-gone} ${#X} [$X]\"", "export X=2; unset -v X; echo ${X:=new} $X",
                           "unset X P; cat $X a.txt", "unset X | cat", "unset X; echo ${X-unset}", "unset PATH; ls",
                           "unset -v", "unset 1x", "unset HOME; echo ~", "unset X; echo ${X:+set}", "unset \"$X\"",
                           "unset X greet", "unset -f nothere; greet", "unset P 2>/dev/null; show", "declare -F", "type greet", f"{name}() ( echo sub )",
                           *SOURCES, *SOURCES, *QUIET_CDS, *QUIET_CDS, *MOVES, *MOVES, *MOVES))
    return line(rng)


def shell_state_scenario(seed: int) -> Scenario:
    """A scenario of the shell's own state: functions and options set on one line and used on the next."""
    made = scenario(seed)
    rng = random.Random(seed ^ 0x5E11)
    if rng.random() < 0.85:
        made.files["env.sh"] = rng.choice(SCRIPTS)
    defined: list[str] = []
    for _ in range(rng.randint(3, 7)):
        made.lines.append(shell_state_line(rng, tuple(defined)))
        if match := re.match(r"(?:function )?(\w+)\(\) \{", made.lines[-1]):
            defined.append(match.group(1))
    return made


# The directory stack across lines (domains/shell/virtual/directory_stack.py, world/moves.py): pushes, pops and
# listings between commands that move, list, and remove folders the stack holds.
STACK_LINES = ("pushd d", "pushd d/e", "pushd ..", "pushd ~", "pushd out", "pushd e", "popd", "popd", "pushd",
               "dirs", "dirs -v", "dirs -p", "dirs -l", "dirs -v -l", "cd d", "cd ..", "cd -", "pwd", "ls",
               "rm -r d", "rmdir d/e", "mkdir -p out/n", "pushd out/n >/dev/null", "popd >/dev/null; pwd",
               "pushd d >/dev/null && ls && popd >/dev/null", "cd d && ls && cd -", "cd d; cd e; cd -; cd -",
               "pushd missing", "pushd a.txt", "popd; popd; popd", "pushd d > /dev/null; dirs; popd > /dev/null",
               "echo $OLDPWD", "pushd -n d", "popd -1", "dirs -c", "pushd d 2>/dev/null || echo no", "cd missing; cd -",
               "pushd d/ >/dev/null; pwd", "cd ~; pushd - >/dev/null", "pushd d | cat", "dirs +1")


def stack_scenario(seed: int) -> Scenario:
    """A scenario of the directory stack: lines that push, pop, list and remove folders, in any order."""
    rng = random.Random(seed)
    made = _folder(seed, rng, CONTENTS, fewest=2)
    made.lines = [rng.choice(STACK_LINES) for _ in range(rng.randint(3, 9))]
    return made
