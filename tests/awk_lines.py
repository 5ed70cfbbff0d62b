"""Generated lines of awk and join: awk programs drawn from a small grammar (patterns, actions, options) over the
subset domains/shell/virtual/awk.py proves, with near misses just outside it (operators, regex features,
escapes, formats, bounds and options it refuses), and join over sorted and unsorted inputs; for
tests/integration/test_computed_awk.py. The real bash runs this machine's awk (Debian's mawk)."""

from __future__ import annotations

import random
import shlex

# Fields of every kind the subset must read as mawk does: blanks around, empty lines, numbers with signs,
# decimals and zeros, words mawk reads as numbers (0x10, inf, nan, INFO), tabs, separators, no final newline.
DATA = (b"", b"alice 3 x\nbob 10 y\ncarol 7 z\n", b"alice 3 x\nbob 10 y\n\n  dave   2  \n",
        b"name,qty\napple,3\npear,10\nfig,7\n",
        b"root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\n",
        b"INFO start\nERROR bad disk\nWARN low\nERROR worse\n", b"a b\nc d", b"3\n-1\n0\n2.5\n10\n",
        b"x 0x10\ny inf\nz nan\n", b"a\tb\tc\nd\te\tf\n", b"a 1\nb 2\nc 3\n", b"a x\nc y\nd z\n", b"b 2\na 1\n",
        b"a,1\nb,2\nc,3\n", b"k 5\nk 6\nm 1\n", b" 7 \n+3\n-0\n007\n", b"Hello World\nhello there\n",
        b"a;b;c\n1;2;3\n", b"x 2147483647\ny 1\n", b"b,x\na,y\n", b"A 1\na 2\n_ 3\n", b"a|b\nc|d\n",
        b"1e3 x\n.5 y\n5. z\n-.5 w\n+0 v\n00 u\n1E2 t\n3e 1\n", b"a 1\nB 2\nc 3\n", b"A x\nb y\nC z\n",
        b"x a\ny b\nz c\n", b"a,1\na,2\nb,3\n")
# Numbers whose sums and products pass 2**31, where mawk prints integers as %.6g: the value cap's proof.
LARGE = (b"a 2147483647 1\nb 2147483647 2\n", b"a 1500000000 3\nb 1000000000 4\n", b"p 100000 70000\nq 3 5\n",
         b"a 99999 99999\nb 65536 65536\n", b"x 46341 46341\n")
NAMES = ("f.txt", "data.csv", "log", "passwd", "nonl", "empty", "d/x.txt", "my file.txt")
MISSING = ("missing", "d/none")
FOLDERS = ("d", "out")

NEAR = 0.08  # how often a drawn part is a near miss: most programs stay inside the subset


def _pick(rng: random.Random, proven: tuple[str, ...], near: tuple[str, ...]) -> str:
    return rng.choice(near if rng.random() < NEAR else proven)


FIELD = (("$1", "$2", "$3", "$NF", "$0", "$(NF-1)", "$(1)", "$99"), ("$NR", "$-1", "$(NF+1e3)", "$i"))
NUMBER = (("0", "1", "2", "5", "1000", "3"), ("010", "1.5", "2147483648", "1e3", "0x10"))
STRING = (('"x"', '"bob"', '""', '": "', '"a\\tb"', '"\\n"', '"10"', '"a b"'), ('"a\\qb"', '"\\/"', '"\\052"'))
REGEX = (("/a/", "/ERROR/", "/^a/", "/o$/", "/^$/", "/a|b/", "/^(al|bo)/", "/[0-9]+/", "/[a-c]/", "/[^a-z ]/",
          "/a.c/", "/l+/", "/e?r/", "/\\./", "/ +/", "/x*/", "/[]a]/", "/[a-]/", "/^-?[0-9]+$/", "/(a|b)c/",
          "/[.]/", "/[$*]/", "/a\\/b/", "/e$|^b/", "/$/", "/a|$/", "/[-a]/", "/[^]a-c]/", "/=/"),
         # intervals, classes, empty parts, leading quantifiers, escapes of no metacharacter
         ("/o{2}/", "/[[:alpha:]]/", "/a|/", "/()/", "/+a/", "/\\d/", "/[a\\]]/", "/\\y/", "/a**/", "/[z-a]/", "//",
          "/(^a)/", "/(a$)/", "/[/]/", "/[a-c-e]/", "/^/"))
# Data for the drawn separators.
SEPARATED = (b"a=1=x\nb==2\n", b"a/b/c\n/d\n", b"a_b\n_c_\n", b"1-2-3\n-4\n", b"a@b\nc@@d\n", b"a#1\n#2\n",
             b"5%3\n%\n", b"a::b::c\n::d\n", b"x ,y ,z\n ,w\n", b"a  b   c\n  d\n", b"a=-b=-c\n")
FUNCTION = (("length($1)", "length", "length()", "substr($1, 2)", "substr($1, 2, 3)", "substr($0, 1, 1)",
             "toupper($1)", "tolower($0)", "index($0, \"o\")", "substr($2, 1, 0)", "int($2 / 3)", "int($1)",
             "$2 * 2", "$2 * $3", "$2 / 2", "$2 / NR", "$2 / n", "$2 / length($1)"),
            # starts below 1 or read from the input, functions outside the subset
            ("substr($1, 0, 2)", "substr($1, -1)", "substr($1, $2)", "length $0", "sprintf(\"%d\", 1)", "$2 / $3",
             "NR * NR", "s * s", "$1 * $2 * $3 * $4", "$2 / 0", "$2 * 3000", "exp($2)",
             "($2 $2) + 0", "($2 $3) * 1", "\"99999999999\" + 0", "(s \"\") * (s \"\")"))


def _term(rng: random.Random) -> str:
    return rng.choice((_pick(rng, *FIELD), _pick(rng, *FIELD), _pick(rng, *NUMBER), _pick(rng, *STRING), "NR", "NF",
                       _pick(rng, *FUNCTION), "n", "s", "FILENAME"))


def _expression(rng: random.Random, depth: int = 0) -> str:
    shape = rng.random()
    if depth > 1 or shape < 0.4:
        return _term(rng)
    left, right = _expression(rng, depth + 1), _expression(rng, depth + 1)
    if shape < 0.55:
        return f"{left} {right}"  # concatenation
    if shape < 0.75:
        return f"{left} {_pick(rng, ('+', '-', '%', '+', '-', '*', '/'), ('^', '**', '*', '/'))} {right}"
    if shape < 0.85:
        return f"-{left}"
    return f"({left} {rng.choice(('>', '<', '==', '!=', '>=', '<='))} {right})"


def _condition(rng: random.Random) -> str:
    shape = rng.random()
    if shape < 0.25:
        return _pick(rng, *REGEX)
    if shape < 0.35:
        return f"!{_pick(rng, *REGEX)}"
    if shape < 0.55:
        return f"{_pick(rng, *FIELD)} {rng.choice(('>', '<', '==', '!=', '>=', '<='))} " \
               f"{rng.choice((_pick(rng, *NUMBER), _pick(rng, *STRING), 'n'))}"
    if shape < 0.65:
        return f"{_pick(rng, *FIELD)} {rng.choice(('~', '!~'))} {_pick(rng, REGEX[0], STRING[0])}"
    if shape < 0.8:
        return _pick(rng, ("NR > 1", "NR == 2", "NR % 2", "NF", "!NF", "$2", "!$2", "length > 5", "NF > 2",
                           "FNR == 1", "$1 == \"a\""), ("!$1 == 1", "NR==1, NR==2", "$1 in a", "(getline x) > 0"))
    return f"{_condition(rng)} {rng.choice(('&&', '||'))} {_condition(rng)}"


def _statement(rng: random.Random) -> str:
    shape = rng.random()
    if shape < 0.3:
        return "print " + ", ".join(_expression(rng) for _ in range(rng.randint(0, 3)))
    if shape < 0.33:
        return _pick(rng, ("print $1 == \"a\"", "print $2 != 3, NR == 1", "print $1 $2 == $2 $1"),
                     ("print $1 > 2", "print $1 < 2", "print \"a\" !x", "print $1 | \"sort\"", "print n(1)",
                      "print n (1)"))
    if shape < 0.4:
        return "printf " + _pick(rng, ('"%s=%d\\n", $1, $2', '"%5s|%-4s|\\n", $1, $2', '"%s\\n", $0', '"%d\\n", $2',
                                       '"%i %%\\n", NR', '"%03d|%-3d|\\n", $2, NF', '"%.2s\\n", $1', '"x"',
                                       '"%.2f\\n", $2 / 3', '"%f|%8.3f|%-6.1f|%08.2f|\\n", $2, $2, $2 / 7, -$2',
                                       '"%.0f %5.2f\\n", $2 / 2, $2 * $2'),
                                 ('"%s"', '"%c\\n", $1', '"%e\\n", $2', '"%d %d\\n", $2', '"%x\\n", NR',
                                  '"%g\\n", $2', '"%.10f\\n", $2'))
    if shape < 0.55:
        return _pick(rng, ("s += $2", "s += $NF", "n++", "++n", "n--", "s -= $1", "s = $2", "n = NR", "s += 1",
                           "c[$1]++", "c[$NF] += $2", "s = $1 \"-\"", "s = $2 $2", "c[$2 $3]++"),
                     ("s = s + $2", "s *= 2", "n = s", "$2 = \"X\"", "NF = 2", "s += $2 * 2", "OFS = \":\""))
    if shape < 0.65:
        return f"if ({_condition(rng)}) {_statement(rng)}" + (f"; else {_statement(rng)}" if rng.random() < 0.4
                                                               else "")
    if shape < 0.7:
        return _pick(rng, ("next",), ("exit", "getline", "system(\"echo hi\")", "print > \"out/f\"", "print | \"cat\"",
                           "delete c", "print $1, $2 > \"/dev/stderr\""))
    return "print"


def _action(rng: random.Random) -> str:
    return "{ " + "; ".join(_statement(rng) for _ in range(rng.randint(1, 2))) + " }"


# Programs agents type every day, beside the drawn ones.
LOOPS = ("{c[$1]++} END {for (k in c) print k, c[k]}", "{c[$NF] += $2} END {for (k in c) if (c[k] > 2) print k}",
         "{c[$1]++} END {for (k in c) { n++; print n, k }}", "{c[$1]++} END {for (k in c) print c[k \"x\"]}",
         "{c[$1]++} END {for (k in c) s = k; print s}", "{c[$1]++} END {for (k in c) print k; print k}",
         "{c[$1]++} END {for (k in c) if (k > 5) print k}", "{c[$1]++} END {for (k in c) print k + 1}",
         "{c[$1]++; d[$2]++} END {for (k in c) print k, d[k]}")
# Text the program makes, computed with: as large as its digits (refused; with LARGE's data mawk prints 1e+10).
MADE_NUMBERS = ("{print ($2 $3) + 0}", "{s = $2 $3} END {print s + 1}", "{print \"99999999999\" + 0}",
                "{c[$2 $3]++} END {for (k in c) print k * 1}", "{print -($2 $2)}")
EVERYDAY = ("{s += $2} END {print s / NR}", "{s += $2; n++} END {printf \"%.2f\\n\", s / n}",
            "{total += $2 * $3} END {print total}", "{print $1, $2 * 2}", "{print int($2 / 3)}",
            "{print $1}", "{print $2}", "NR>1 {s+=$2} END {print s}", "/ERROR/ {n++} END {print n+0}",
            "{printf \"%s=%d\\n\", $1, $2}", "NF", "{print NR\": \"$0}", "$3 >= 1000 {print $1}", "{print $NF}",
            "{c[$1]++} END {for (k in c) print k, c[k]}", "END {print NR}", "{print length}", "NR==1 {next} {print}",
            "{s += $2} END {print s, NR}", "!/^$/", "{ if ($2 > 5) print $1; else print \"small\" }",
            "BEGIN {print \"start\"} {print} END {print \"end\"}", "{print toupper($1)}", "$1 == \"bob\"",
            "{print $1, $2}", "{ n++ } END { print n }", "{print substr($0, 1, 3)}")
OPTIONS = (("", "", "", "-F,", "-F :", "-F ';'", "-F '\\t'", "-F ' '", "-F '|'", "-F .", "-F ', '", "-v n=3",
            "-v n=abc", "-F, -v n=2", "-F=", "-F /", "-F _", "-F -", "-F @", "-F '#'", "-F %", "-F '::'", "-F ' ,'",
            "-F '  '", "-F '=-'", "-vn=1"),
           # separators of letters, escapes or regex, values mawk reads as numbers, other options
           ("-F ab", "-Ft", "-F '\\\\'", "-F '[,:]'", "-v n=0x10", "-v n=inf", "-v NR=1", "-f prog.awk", "-W version",
            "--"))


def awk_line(rng: random.Random, operand) -> str:
    between = rng.choice(("; ", "; ", " "))  # a pattern without action needs `;` before the next rule
    body = rng.choice(EVERYDAY) if rng.random() < 0.3 else rng.choice(LOOPS) if rng.random() < 0.15 else \
        rng.choice(MADE_NUMBERS) if rng.random() < 0.05 else between.join(
        rng.choice((f"{_condition(rng)} {_action(rng)}", _action(rng), _condition(rng), f"END {_action(rng)}",
                    f"BEGIN {_action(rng)}")) for _ in range(rng.randint(1, 2)))
    options = _pick(rng, *OPTIONS)
    files = " ".join(operand(rng) for _ in range(rng.choice((0, 1, 1, 1, 2))))
    line = f"awk {options} {shlex.quote(body)} {files}".replace("  ", " ").strip()
    if not files or rng.random() < 0.2:
        line = f"{rng.choice(('cat', 'sort'))} {operand(rng)} | {line}"
    if "for (k" in body and rng.random() < 0.7:
        line += rng.choice((" | sort", " | sort -r", " | wc -l", " | head -n 1", " | sort -k2"))
    return line


JOIN_OPTIONS = (("", "", "-t,", "-t ,", "-1 1 -2 1", "-a1", "-a 2", "-v1", "-v 2", "-a1 -a2", "-o 1.1,2.2",
                 "-o 0,1.2,2.2", "-e NA -a1 -o 1.1,2.2", "-i", "-1 2 -2 1", "-t ' '", "-o '1.1 2.2'", "-t, -a1 -i"),
                ("-1 0", "-o 1.0", "-t '\\t'", "-t ab", "-a 3", "-z", "--header", "-j 1", "--check-order"))


def join_line(rng: random.Random, operand) -> str:
    fed = rng.random() < 0.1  # `-` reads a pipe: the world cannot check it is sorted
    line = f"join {_pick(rng, *JOIN_OPTIONS)} {'-' if fed else operand(rng)} {operand(rng)}".replace("  ", " ")
    return f"sort {operand(rng)} | {line}" if fed else line


def awk_scenario(seed: int, scenario_type: type) -> object:
    rng = random.Random(seed)
    made = scenario_type(seed)
    for name in rng.sample(NAMES, rng.randint(2, len(NAMES))):
        made.files[name] = rng.choice(rng.choice((DATA, DATA, DATA, DATA, DATA, DATA, SEPARATED, LARGE)))
    made.folders = [folder for folder in FOLDERS if rng.random() < 0.3]
    present = sorted(made.files)

    def operand(rng: random.Random) -> str:  # mostly a file that is there: its output, not an error, is compared
        return shlex.quote(rng.choice(present)) if rng.random() < 0.85 else rng.choice((*MISSING, *FOLDERS, "-"))

    for _ in range(rng.randint(1, 5)):
        made.lines.append(join_line(rng, operand) if rng.random() < 0.25 else awk_line(rng, operand))
    return made
