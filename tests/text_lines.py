"""Generated lines of the text tools (cut, paste, comm, nl, rev, fold, expand, the checksums, base64, join):
the forms the allowlist proves and the near misses just outside it (values GNU refuses, options not
listed), for tests/shell_lines.py's scenarios."""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable

TEXT_PROGRAMS = ("cut", "paste", "comm", "nl", "rev", "fold", "expand", "md5sum", "sha1sum", "sha256sum", "base64",
                 "join")

CUT_OPTIONS = ("-d, -f1", "-d , -f 2", "-d, -f1,3", "-d, -f2-", "-d, -f-2", "-f2", "-f1,3", "-f 2-3", "-c1-3",
               "-c2", "-c -2", "-c3-", "-b1,3", "-s -d, -f2", "-d ' ' -f2", "-d' ' -f1", "-d, --complement -f1",
               "--complement -c1", "-sd, -f1", "-d, -f2,1", "-f1-2,2",
               # GNU refuses these, or they are not listed
               "-f0", "-c0", "-c 3-1", "-d ab -f1", "-d, -f1 -c1", "-c1 -d,", "-s -c1", "-f1 -f2", "-f ,2", "-f -",
               "-f 1-2-3", "-d '\\t' -f1", "", "-f 01", "-n -f1", "--output-delimiter=: -f1")
PASTE_OPTIONS = ("", "-s", "-d,", "-d ','", "-s -d:", "-sd,", "-d ',;'", "-d '\\t'", "-d '\\n'", "-d '\\\\'",
                 "-d '\\0'", "-d ' '", "-d 'x\\'", "-d '\\q'", "-z")
NL_OPTIONS = ("", "-b a", "-ba", "-b t", "-b n", "-w 3", "-w1", "-s ': '", "-s:", "-w 2 -s ' '", "-b a -w 4",
              "-b x", "-w 0", "-v 5", "-n rz", "-s '\\t'", "-b pa")
FOLD_OPTIONS = ("", "-w 10", "-w5", "-s -w 10", "-sw 4", "-w 1", "-w 0", "-b -w 5", "-w -3", "-w 3 -w 5", "-c 4")
EXPAND_OPTIONS = ("", "-t 4", "-t4", "-t 2,5", "-t 1", "-t 0", "-t 4,2", "-t 2,2", "-i", "-t 3,")
SUM_OPTIONS = ("", "", "-", "-b", "-t", "-c", "--tag")
BASE64_OPTIONS = ("", "-w 10", "-w0", "-w 0", "-d", "-d", "--decode", "-di", "-w -1", "-w 4 -d")
JOIN_OPTIONS = ("", "-t,", "-1 1 -2 1", "-a1")
_OPTIONS_THEN_FILES = {"nl": NL_OPTIONS, "rev": ("",), "fold": FOLD_OPTIONS, "expand": EXPAND_OPTIONS,
                       "base64": BASE64_OPTIONS}


def text_command(rng: random.Random, program: str, paths: Callable[..., str], operand: Callable[..., str]) -> str:
    if program == "cut":
        return f"cut {rng.choice(CUT_OPTIONS)} {paths(rng)}"
    if program == "paste":
        return f"paste {rng.choice(PASTE_OPTIONS)} {paths(rng, 3)}"
    if program == "comm":
        chosen = rng.choice(("", "-1", "-2", "-3", "-12", "-23", "-13", "-1 -3", "-123", "--check-order",
                             "--nocheck-order", "--output-delimiter=,"))
        two = f"{operand(rng)} {operand(rng)}" if rng.random() < 0.8 else \
            rng.choice((operand(rng), f"- {operand(rng)} < {operand(rng)}"))  # `-` fed: a terminal would wait
        return f"comm {chosen} {two}"
    if program == "join":
        return f"join {rng.choice(JOIN_OPTIONS)} {operand(rng)} {operand(rng)}" + rng.choice(
            ("", "", "", " > out.txt", " 2>/dev/null", "; echo $?"))  # (a missing file: the message is made apart)
    if program in _OPTIONS_THEN_FILES:
        return f"{program} {rng.choice(_OPTIONS_THEN_FILES[program])} {paths(rng)}".replace("  ", " ")
    chosen = rng.choice(SUM_OPTIONS)
    return f"{program} {chosen} {paths(rng, 3)}" + (f" < {operand(rng)}" if chosen == "-" else "")


def text_reader(rng: random.Random) -> str:
    """A text tool reading a pipe."""
    return rng.choice(("cut -d, -f1", "cut -c1-2", "cut -f2", "paste -s", "paste -sd,", "paste - -", "nl", "nl -b a",
                       "rev", "fold -w 3", "expand -t 2", "md5sum", "sha1sum -", "sha256sum", "base64", "base64 -d",
                       "comm - a.txt", "cut -d, -f1 -", "uniq -d", "uniq -u", "uniq -i", "sort -k2", "sort -t, -k2n",
                       "grep -o a", "grep -c -E 'a|b'", "tr -s a-z", "wc -m", "wc -L", "head -c 4", "tail -c 3",
                       "basename -a", "md5sum -b"))


# Plain text only (what the virtual shell computes over): sorted and unsorted lines, tabs, fields, base64.
PLAIN = (b"", b"a\nb\nc\n", b"alpha\nbeta\ngamma\nbeta\n", b"3\n1\n2\n10\n", b"no final newline", b"b,2\na,1\nc,3\n",
         b"x\ny\nx\nz\n", b"Hello World\n", b"  spaced  line\n\n\n", b"a\tb\tc\nd\te\tf\n", b"b 2\na 10\nc 1\na 3\n",
         b"the quick brown fox jumps over the lazy dog\n", b"aGVsbG8gd29ybGQK\n", b"aGVs\nbG8K\n", b"aGVsbG8\n",
         b"aGk=aGk=\n", b"a\nA\nb\nB\n", b"1K\n2M\n10\n", b"b\nc\nd\n", b"a,1\nb,2\n", b"a\na\nb\n")
# The programs already listed whose new options the focused test draws, through shell_lines.command.
WIDENED = ("sort", "grep", "tr", "uniq", "basename", "wc", "head", "tail", "sed", "test")
