"""What one allowlisted program's words may not say for the virtual shell to compute it as GNU does: the forms
the differential test found rendered unlike GNU, sed's scripts and backups, cp and mv onto themselves, seq's
runs, and which words name files at all. Each check raises NotComputable with the reason; nothing is run here.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace

from ..programs.sed import SED_SCRIPT, sed_scripts
from ..reading.words import Scope, Value
from . import git_cli, listings
from .allowlist import MAX_OPERANDS, MAX_SEQUENCE, PROGRAMS, operands, parsed_options
from .refusal import NotComputable

# test operators on what the world does not record: times, permissions, owners, links, devices, terminals.
_UNKNOWABLE_TESTS = frozenset({"-nt", "-ot", "-ef", "-x", "-r", "-w", "-u", "-g", "-k", "-O", "-G", "-N", "-L", "-h",
                               "-S", "-p", "-b", "-c", "-t"})


def check_divergent_forms(program: str, values: list[Value], redirected: bool) -> None:
    """Forms of allowlisted programs where the differential test found the virtual shell unlike GNU bash."""
    if program == "cd" and redirected:
        raise NotComputable("cd with a redirection: bash opens it in the folder it leaves, the virtual shell in the "
                            "one it enters")
    if program in MAX_OPERANDS and any(value.glob for value in values):
        raise NotComputable(f"{program} given a glob: how many operands it gets is decided when it runs")
    if program in ("head", "tail") and any(_zero_count(value) for value in values):
        raise NotComputable(f"{program} of no lines or bytes: its headers differ from GNU's")
    if program in ("head", "tail") and (any(value.glob for value in values) or len(operands(program, [
            value.text for value in values])) > 1 and any(value.text[1:].isdigit() for value in values)):
        raise NotComputable(f"{program} over a glob, or -N with several files: GNU's headers and errors differ")
    if program == "touch" and any(value.text.endswith("/") for value in values):
        raise NotComputable("touch of a name ending in /: the virtual shell makes no error where GNU does")
    if program in ("test", "[") and _UNKNOWABLE_TESTS & {value.text for value in values}:
        raise NotComputable(f"{program} of times, permissions, links or devices: the world knows none of them")


_SED_BACKUP = re.compile(r"-(?P<flags>n*)i(?P<suffix>.+)")


def sed_backup(words: list[Value]) -> tuple[list[Value], str]:
    """sed's words with `-iSUFFIX` read as `-i`, and the suffix: GNU's -i takes its value attached only (`-in` keeps
    a backup named F + "n"); a suffix with `*` (a pattern of names) or `/` (a folder) is not proven."""
    given, suffix = [words[0]], ""
    for value in words[1:]:
        match = _SED_BACKUP.fullmatch(value.text)
        if match is None:
            given.append(value)
            continue
        if not re.fullmatch(r"[\w.~-]+", match.group("suffix")) or suffix:
            raise NotComputable(f"sed {value.text}: a backup name the virtual shell is not proven to make like GNU")
        suffix = match.group("suffix")
        given.append(replace(value, text=f"-{match.group('flags')}i"))
    return given, suffix


def check_sed_scripts(values: list[Value]) -> None:
    """sed scripts of printing, deleting, quitting, numbering, `s` and `y` only: `w`, `r` and `e` commands or
    flags read, write or run what the line does not name."""
    for script in sed_scripts([value.text for value in values]):
        if not SED_SCRIPT.fullmatch(script):
            raise NotComputable(f"the sed script {script[:40]!r}: only p, d, q, =, s and y (without w or e) are proven")


def file_words(program: str, values: list[Value]) -> list[Value]:
    """The words that may name files: not tr's sets, nor option values (`sort -o`'s output is named apart), nor
    the pattern or script grep and sed read first when no -e gave it (`sed -n '/debug/p' f` names f alone)."""
    if program == "tr":
        return []
    if program == "git":  # only add's pathspecs name files
        return values[1:] if git_cli.read([value.text for value in values]).pathspecs else []
    if program == "find":
        return values[:len(listings.find_paths([value.text for value in values]))]
    spec = PROGRAMS[program]
    pattern_first = program in ("awk", "jq") or program in ("grep", "sed") and not any(
        letter == "e" for letter, _ in parsed_options(program, [value.text for value in values]))
    words, index = [], 0
    while index < len(values):
        value = values[index]
        index += 1
        text = value.text
        if spec.expression or not text.startswith("-") or text == "-" or spec.numeric and text[1:].isdigit():
            if pattern_first:
                pattern_first = False
            else:
                words.append(value)
        elif not text.startswith("--"):
            letters = text[1:]
            valued = next((at for at, letter in enumerate(letters) if letter in spec.valued), None)
            index += valued is not None and valued == len(letters) - 1  # its value is the next word
    return words


def _zero_count(value: Value) -> bool:
    """-0, -n0, -c 0, -n +0 ...: a count of nothing (a value word alone is checked as well: `-n 0` gives `0`)."""
    text = value.text.lstrip("-+").removeprefix("n").removeprefix("c").lstrip("+-")
    return bool(text) and set(text) == {"0"}


def check_copy(values: list[Value], scope: Scope) -> None:
    """cp and mv onto their own source ("are the same file" in GNU, silent in the virtual shell) or into
    themselves are refused, and so are sources from a glob, which may hold the destination."""
    if any(value.glob for value in values):
        raise NotComputable("cp or mv of a glob: a match may be the destination itself")
    named = [posixpath.normpath(posixpath.join(scope.cwd, value.text)) for value in values
             if not value.text.startswith("-")]
    target = named[-1] if len(named) >= 2 else ""
    if target and any(source == target or posixpath.dirname(source) == target or target.startswith(source + "/")
                      for source in named[:-1]):
        raise NotComputable("cp or mv onto its own source, the folder it is in, or into itself")


def check_sequence(arguments: list[str]) -> None:
    """seq FIRST [STEP] LAST with small whole numbers only (no formats, no fractions, no long runs)."""
    if not 1 <= len(arguments) <= 3 or not all(word.isdigit() for word in arguments):
        raise NotComputable("seq with other than one to three whole numbers")
    numbers = [int(word) for word in arguments]
    first, step, last = (1, 1, numbers[0]) if len(numbers) == 1 else (numbers[0], 1, numbers[1]) \
        if len(numbers) == 2 else tuple(numbers)
    if step == 0 or (last - first) // step > MAX_SEQUENCE:
        raise NotComputable("seq of a step of 0 or a long run")
