"""The option values of the text tools (cut, paste, nl, fold, expand, base64, sort, tr ...) that the virtual
shell is proven to read as GNU does.

The differential tests found the virtual shell lenient where GNU refuses: it cuts with a list `0`, `,2` or
`3-1`, a two-character delimiter or two lists; translates tr's `[x*]` and misaligned classes; takes a
trailing backslash in paste's delimiters. Such values go to the world model, as do all others not matched
here. Nothing is run here.
"""

from __future__ import annotations

import re

from . import awk, jq
from .allowlist import operands, parsed_options

# cut's LIST: N, N-, -N, N-M (from 1, not decreasing), joined by commas.
_RANGE = re.compile(r"(?:(\d+)|(\d+)-|-(\d+)|(\d+)-(\d+))")
_PASTE_DELIMITERS = re.compile(r"(?:[^\\]|\\[\\0tn])+")  # other escapes, or a lone trailing `\`, differ
_SORT_KEY = re.compile(r"(\d+)(?:\.(\d+))?[bfnr]*(?:,(\d+)(?:\.(\d+))?[bfnr]*)?")
_TR_CLASS = re.compile(r"\[:(alnum|alpha|blank|cntrl|digit|graph|lower|print|punct|space|upper|xdigit):\]")
_CASES = ("[:lower:]", "[:upper:]")
_BASE64 = re.compile(rb"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")


def value_problem(program: str, words: list[str]) -> str | None:
    """Why an option value of these (already allowlisted) arguments is not proven, or None."""
    options = parsed_options(program, words)
    given = [(letter, value) for letter, value in options if value is not None]
    letters = [letter for letter, _ in options]
    check = _CHECKS.get(program)
    problem = check(given, letters, words) if check else None
    return f"{program}: {problem}" if problem else None


def needs_known_content(program: str, words: list[str]) -> list[tuple[str, str]]:
    """The operands whose content the world must know to compute the line, and what of it: GNU's comm reports
    input out of order, its base64 -d stops at the first byte that is not canonical base64, a folder is not
    empty to GNU's `test -s`, and grep -s counts and lists a folder; the virtual shell does none of these.
    ("-" stands for the standard input.)"""
    options = parsed_options(program, words)
    if program == "comm":
        return [(word, "sorted") for word in operands(program, words)]
    if program == "base64" and any(letter == "d" for letter, _ in options):
        return [(word, "base64") for word in operands(program, words) or ["-"]]
    if program == "grep" and any(letter == "s" for letter, _ in options):
        given = operands(program, words)  # GNU still counts and lists a folder whose error -s hides
        return [(word, "no folder") for word in given[0 if any(letter == "e" for letter, _ in options) else 1:]]
    if program == "test":
        return [(words[index + 1], "no folder") for index, word in enumerate(words[:-1]) if word == "-s"]
    if program == "join":  # GNU's join reports input out of order by the join field; the virtual shell does not
        keys = {letter: value or "" for letter, value in options if letter in "12t"}
        folded = int(any(letter == "i" for letter, _ in options))
        separator = ord(keys["t"]) if "t" in keys else 0
        return [(word, f"join {keys.get(str(number), '1')} {separator} {folded}")
                for number, word in enumerate(operands(program, words)[:2], 1)]
    if program == "column":  # util-linux's pads short rows and drops empty lines, the virtual shell does not
        split = next((value for letter, value in options if letter == "s" and value), "")
        return [(word, f"column {ord(split) if split else 0}") for word in operands(program, words) or ["-"]]
    if program == "jq":  # numbers, escapes and parse errors jq 1.6 prints otherwise (jq.py)
        return [(word, "json") for word in operands(program, words)[1:] or ["-"]]
    if program == "awk" and (check := awk.content_check(awk.read(words))):
        return [(word, check) for word in operands(program, words)[1:] or ["-"]]
    return []


def content_problem(check: str, content: bytes) -> str | None:
    """Why this content fails the check (see needs_known_content), or None."""
    if check.startswith("awk "):
        return awk.content_problem(check, content)
    if check.startswith("column "):
        return _column_table(int(check.split()[1]), content)
    if check == "json":
        return jq.document_problem(content)
    if check.startswith("join "):
        return _join_order(check, content)
    if check == "sorted":
        lines = content.split(b"\n")
        if content.endswith(b"\n"):
            lines.pop()
        if lines != sorted(lines):
            return "its input is not sorted: GNU's comm says so, the virtual shell does not"
    if check == "base64" and not _BASE64.fullmatch(content.replace(b"\n", b"")):
        return "its input is not canonical base64: GNU's base64 -d decodes up to the fault, the virtual shell does not"
    return None


def _join_order(check: str, content: bytes) -> str | None:
    """Whether the lines' join fields are in byte order (with -i, in order however case is folded: GNU folds to
    upper case, where `_` sorts before letters)."""
    _, number, separator, folded = check.split()
    lines = content.split(b"\n")
    if content.endswith(b"\n"):
        lines.pop()
    field = int(number) - 1
    if int(separator):
        parts = [line.split(bytes([int(separator)])) for line in lines]
    else:
        parts = [line.split() for line in lines]  # blanks: the C locale's spaces and tabs (plain text only)
    keys = [fields[field] if field < len(fields) else b"" for fields in parts]
    for fold in ((bytes.lower, bytes.upper) if folded == "1" else (bytes,)):
        if [fold(key) for key in keys] != sorted(fold(key) for key in keys):
            return "its input is not sorted by the join field: GNU's join says so, the virtual shell does not"
    return None


_JOIN_LIST = re.compile(r"(?:0|[12]\.[1-9]\d?)(?:[, ](?:0|[12]\.[1-9]\d?))*")


def _join(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    for letter, value in given:
        if letter == "t" and (len(value) != 1 or value == "\\"):
            return "a separator other than one character"
        if letter in "12" and not _count(value, 1, 99):
            return f"the field {value!r}"
        if letter in "av" and value not in ("1", "2"):
            return f"the file number {value!r}"
        if letter == "o" and not _JOIN_LIST.fullmatch(value):
            return f"the output list {value!r}: only 0 and FILE.FIELD from 1"
        if letter == "e" and "\\" in value:
            return "a filler with a backslash"
    return None


def _cut(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    lists = [value for letter, value in given if letter in "fcb"]
    if len(lists) != 1:
        return "exactly one list (-f, -c or -b) is proven"
    if not _cut_list(lists[0]):
        return f"the list {lists[0]!r}: GNU refuses zero, empty or decreasing ranges"
    if "f" not in letters and ("d" in letters or "s" in letters):
        return "-d and -s without -f: GNU refuses them"
    if any(letter == "d" and len(value) != 1 for letter, value in given):
        return "a delimiter other than one character"
    return None


def _cut_list(text: str) -> bool:
    for item in text.split(","):
        match = _RANGE.fullmatch(item)
        if not match:
            return False
        numbers = [int(number) for number in match.groups() if number is not None]
        if 0 in numbers or numbers != sorted(numbers):
            return False
    return True


def _paste(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    if any(not _PASTE_DELIMITERS.fullmatch(value) for _, value in given):
        return "delimiters with escapes other than \\\\ \\0 \\t \\n"
    return None


def _nl(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    for letter, value in given:
        if letter == "b" and value not in ("a", "t", "n"):
            return f"the body numbering style {value!r}"
        if letter == "w" and not _count(value, 1, 20):
            return f"the width {value!r}"
        if letter == "s" and "\\" in value:
            return "a separator with a backslash"
    return None


def _fold(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    if any(not _count(value, 1, 1000) for _, value in given):
        return "a width other than 1 to 1000"
    return None


def _expand(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    for _, value in given:
        stops = value.split(",")
        if not all(_count(stop, 1, 1000) for stop in stops) or \
                [int(stop) for stop in stops] != sorted({int(stop) for stop in stops}):
            return f"the tab stops {value!r}: GNU refuses zero, descending or repeated stops in words of its own"
    return None


def _base64(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    if any(not _count(value, 0, 10_000) for _, value in given):
        return "a wrap width other than 0 to 10000"
    return None


def _sort(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    for letter, value in given:
        if letter == "t" and len(value) != 1:
            return "a field separator other than one character"
        if letter == "k" and not _sort_key(value):
            return f"the key {value!r}: only F[.C][bfnr][,F[.C][bfnr]] from 1 is proven"
    return None


def _sort_key(text: str) -> bool:
    match = _SORT_KEY.fullmatch(text)
    return match is not None and all(number is None or int(number) > 0 for number in match.groups())


def _tr(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    sets = [word for word in words if not word.startswith("-") or word == "-"]
    deleting, squeezing = "d" in letters, "s" in letters
    if len(sets) not in ((2,) if deleting and squeezing else (1,) if deleting else (1, 2) if squeezing else (2,)):
        return "sets too few or too many: GNU refuses them, the virtual shell reads on"
    if any("[" in _TR_CLASS.sub("", word) for word in sets):
        return "[ outside a [:class:] (repeats, equivalence classes): GNU reads them otherwise"
    if len(sets) > 1 and _TR_CLASS.search(sets[1]) and not (
            sets[1] in _CASES and sets[0] in _CASES and "c" not in letters):
        return "a class in the second set other than [:lower:] and [:upper:] facing each other"
    return None


def _grep(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    # GNU lets the last of -l and -L win and -l or -L overrule -c, and refuses -E with -F; the virtual shell prints
    # for each of them.
    if {"l", "L"} <= set(letters) or "c" in letters and {"l", "L"} & set(letters) or {"E", "F"} <= set(letters):
        return "-l with -L, -c with -l or -L, or -E with -F"
    for name, value in given:
        if name in ("A", "B", "C") and not _count(value, 0, 1000):
            return f"grep -{name} {value}: a context length other than a whole number"
        if name.startswith("--") and (not value or "/" in value or "r" not in letters):
            return f"grep {name}={value}: a file pattern other than a name's, or outside a -r search"
    return None


def _count(text: str, least: int, most: int) -> bool:
    return text.isdigit() and least <= int(text) <= most and (text == "0" or not text.startswith("0"))


def _awk(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    try:
        awk.read(words)
    except awk.AwkRefusal as refusal:
        return str(refusal)
    return None


def _column_table(separator: int, content: bytes) -> str | None:
    """Rows of printable ASCII (util-linux's column escapes other bytes under LANG=C), none empty, all with as many
    fields (split at the separator, or at runs of blanks)."""
    lines = content.split(b"\n")
    if content.endswith(b"\n"):
        lines.pop()
    if any(not line or any(byte < 32 or byte > 126 for byte in line) for line in lines):
        return "column -t of empty lines or bytes other than printable ASCII: util-linux's drops or escapes them"
    counts = {len(line.split(bytes([separator])) if separator else line.split()) for line in lines}
    if len(counts) > 1:
        return "column -t of rows with unlike numbers of fields: util-linux's pads the short ones"
    return None


def _column(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    if "t" not in letters:
        return "column without -t: it fills the terminal's width"
    if any(len(value) != 1 or not " " <= value <= "~" or value == "\\" for _, value in given):
        return "a separator other than one printable character: util-linux's splits at each of several"
    return None


def _stat(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    # %n alone: the world knows no sizes, times, owners or modes; %F says "regular empty file" in GNU only.
    if len(given) != 1 or not re.fullmatch(r"(?:[ -$&-\[\]-~]|%n)+", given[0][1]):
        return "a format other than %n among plain text: the world knows names only"
    return None


def _jq(given: list[tuple[str, str]], letters: list[str], words: list[str]) -> str | None:
    filters = operands("jq", words)[:1]
    return jq.filter_problem(filters[0]) if filters else "jq without a filter"


_CHECKS = {"column": _column, "stat": _stat, "jq": _jq, "awk": _awk, "join": _join, "cut": _cut, "paste": _paste, "nl": _nl, "fold": _fold, "expand": _expand,
           "base64": _base64, "sort": _sort, "tr": _tr, "grep": _grep}
