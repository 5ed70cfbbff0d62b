"""A GNU program given an option it does not have (`ls -z`): getopt's message, the program's usage status, and
nothing else done.

GNU coreutils read their options with getopt, in order (operands may come between them, `--` ends them): at
the first letter that is none of theirs they print "P: invalid option -- 'z'" and "Try 'P --help' for more
information." and exit (2 for ls and sort, 1 for the others) before they read or write a file. The virtual
shell words this otherwise, so a line that gives a program such an option runs it as a builtin that prints
GNU's words (shell.py). The tables below are each program's short options as this GNU coreutils has them
(those that take a value apart): where a value or a long option comes before the letter, GNU may act on it
first (`head -n x -z` fails on the count), and the line is the model's.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Getopt:
    flags: str  # short options without a value
    valued: str  # short options that take one
    status: int  # the status of a usage error


# Programs whose digits are counts (`head -5`, `uniq -2`) are not here where the digit comes first: see below.
GNU_OPTIONS: dict[str, Getopt] = {
    "cat": Getopt("benstuvAET", "", 1),
    "head": Getopt("qvz", "cn", 1),
    "tail": Getopt("bflqvzF", "cns", 1),
    "wc": Getopt("clmwL", "", 1),
    "sort": Getopt("bcdfghimnrsuzCMRV", "kotyST", 2),
    "uniq": Getopt("cdiuzD", "fsw", 1),
    "tr": Getopt("cdstAC", "", 1),
    "mkdir": Getopt("pvZ", "m", 1),
    "touch": Getopt("acfhm", "drt", 1),
    "rm": Getopt("dfirvIR", "", 1),
    "rmdir": Getopt("pv", "", 1),
    "cp": Getopt("abdfilnprsuvxHLPRTZ", "tS", 1),
    "mv": Getopt("bfinuvTZ", "tS", 1),
    "basename": Getopt("az", "s", 1),
    "dirname": Getopt("z", "", 1),
    "tee": Getopt("aip", "", 1),
    "ls": Getopt("abcdfghiklmnopqrstuvxABCDFGHLNQRSUXZ1", "wIT", 2),
    "cut": Getopt("nsz", "bcdf", 1),
    "paste": Getopt("sz", "d", 1),
    "comm": Getopt("z123", "", 1),
    "nl": Getopt("p", "bdfhilnsvw", 1),
    "fold": Getopt("bs", "w", 1),
    "expand": Getopt("i", "t", 1),
    "md5sum": Getopt("bctwz", "", 1),
    "sha1sum": Getopt("bctwz", "", 1),
    "sha256sum": Getopt("bctwz", "", 1),
    "base64": Getopt("di", "w", 1),
    "join": Getopt("iz", "aejotv12", 1),
    "realpath": Getopt("emqszLP", "", 1),
    "readlink": Getopt("efmnqsvz", "", 1),
}
_COUNTS = frozenset({"head", "tail", "uniq", "fold", "expand"})  # `-5`: a count, read apart from getopt's letters


class Undecided(Exception):
    """An invalid option comes after one GNU may act on first."""


def invalid_option(program: str, words: list[str]) -> str | None:
    """The first option letter GNU's `program` does not have, where getopt meets it before anything it acts on;
    None where every option is GNU's. Raises Undecided where something else may come first."""
    spec = GNU_OPTIONS.get(program)
    if spec is None:
        return None
    acted = False  # an option that takes a value, a long option, a count: GNU may act on it first
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word == "--":
            return None
        if not word.startswith("-") or word == "-":
            continue
        if word.startswith("--") or program in _COUNTS and word[1].isdigit():
            acted = True
            continue
        for position, letter in enumerate(word[1:], 1):
            if letter in spec.valued:
                acted = True
                index += position == len(word) - 1  # the value is the next word
                break
            if letter in spec.flags:
                continue
            if acted or not letter.isascii() or not letter.isalnum():
                raise Undecided(f"{program} -{letter} after an option GNU may act on first")
            return letter
    return None


def usage_message(program: str, letter: str) -> tuple[str, int]:
    """GNU's words and status for `program -letter`."""
    return (f"{program}: invalid option -- '{letter}'\nTry '{program} --help' for more information.\n",
            GNU_OPTIONS[program].status)
