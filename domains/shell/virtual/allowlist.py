"""The programs and option forms the virtual shell renders exactly as GNU bash and coreutils do.

Each entry is proven by tests/integration/test_computed_real_bash.py, which runs every case in a real
`bash` and in the virtual shell and compares stdout, stderr, exit status and the resulting files; the
same test fails if an entry here (a program or an option) is used by no computed case. Anything not
listed is the world model's. The C locale is assumed (byte order for sort, ls and globs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .git_cli import FORMS as GIT_FORMS
from ..programs.usage_errors import GNU_OPTIONS


@dataclass(frozen=True)
class OptionSpec:
    flags: str = ""  # short options that take no value, combinable (-rf)
    valued: str = ""  # short options that take a value, attached or next (-n 3, -n3)
    longs: frozenset[str] = frozenset()  # long options, with '=' for those taking a value ("lines=")
    numeric: bool = False  # `-5` as a count (head, tail)
    expression: bool = False  # every word is an operand (test, [): its operators look like options
    primaries: frozenset[str] = frozenset()  # an expression's proven words, each a form of its own (find -name)


# Builtins and programs. An option not named here sends the line to the world model.
PROGRAMS: dict[str, OptionSpec] = {
    "echo": OptionSpec(flags="neE"),
    "printf": OptionSpec(),
    "cd": OptionSpec(),
    "pwd": OptionSpec(),
    "export": OptionSpec(),
    "true": OptionSpec(),
    "false": OptionSpec(),
    "test": OptionSpec(expression=True),
    "cat": OptionSpec(flags="n"),
    "head": OptionSpec(valued="nc", numeric=True),
    "tail": OptionSpec(valued="nc", numeric=True),
    "wc": OptionSpec(flags="lwcm"),
    "sort": OptionSpec(flags="rnusf", valued="kto"),
    "uniq": OptionSpec(flags="cdui"),
    "tr": OptionSpec(flags="dsc"),
    # -A/-B/-C: context lines; --include/--exclude/--exclude-dir: which files a -r search reads.
    "grep": OptionSpec(flags="ivncxrlEwoLhHqsF", valued="eABC",
                       longs=frozenset({"include=", "exclude=", "exclude-dir="})),
    "sed": OptionSpec(flags="ni", valued="e"),
    "mkdir": OptionSpec(flags="p"),
    "touch": OptionSpec(),
    "rm": OptionSpec(flags="rf"),
    "rmdir": OptionSpec(),
    "cp": OptionSpec(flags="r"),
    "mv": OptionSpec(),
    "basename": OptionSpec(flags="a", valued="s"),
    "dirname": OptionSpec(),
    "tee": OptionSpec(flags="a"),
    "seq": OptionSpec(),
    # Listings, finds, comparisons, paths: listings.py holds what else they need to match GNU.
    "ls": OptionSpec(flags="A1Rda"),  # -a: with GNU's implied `.` and `..` (dot_entries.py)
    "find": OptionSpec(expression=True, primaries=frozenset({
        "-name", "-iname", "-path", "-type", "-maxdepth", "-mindepth", "-not", "!", "-o", "-a", "-print", "(", ")"})),
    "diff": OptionSpec(flags="q"),
    "cmp": OptionSpec(flags="s"),
    "realpath": OptionSpec(flags="ms"),
    "readlink": OptionSpec(flags="fm"),
    # Text tools (their option values: text_tools.py).
    "cut": OptionSpec(flags="s", valued="fcbd", longs=frozenset({"complement"})),
    "paste": OptionSpec(flags="s", valued="d"),
    "comm": OptionSpec(flags="123"),  # over inputs the world knows sorted (shell.py)
    "nl": OptionSpec(valued="bws"),
    "rev": OptionSpec(),
    "fold": OptionSpec(flags="s", valued="w"),
    "expand": OptionSpec(valued="t"),
    "md5sum": OptionSpec(),
    "sha1sum": OptionSpec(),
    "sha256sum": OptionSpec(),
    "base64": OptionSpec(flags="d", valued="w"),  # -d over a file the world knows is canonical base64 (shell.py)
    "awk": OptionSpec(valued="Fv"),  # mawk's; its program read by awk.py
    "join": OptionSpec(flags="i", valued="t12aveo"),  # over inputs the world knows sorted by the join field
    "jq": OptionSpec(flags="rcSj"),  # its filters and documents: jq.py
    "tac": OptionSpec(),
    "column": OptionSpec(flags="t", valued="s"),  # util-linux's, -t over a table the world knows (text_tools.py)
    "stat": OptionSpec(valued="c"),  # names only: -c %n (text_tools.py)
    "git": OptionSpec(expression=True),  # its verbs and options: git_cli.py
}
MAX_SEQUENCE = 10_000  # the virtual shell caps long sequences silently: longer ones are the model's

# Programs that read standard input when they name no file (here, after their leading pattern or script
# operands), and those that always do. At a terminal that input is what is typed next: such a line is
# computed only when a pipe or `<` feeds it.
STDIN_READERS: dict[str, int | None] = {"cat": 0, "head": 0, "tail": 0, "wc": 0, "sort": 0, "uniq": 0, "grep": 1,
                                        "sed": 1, "tr": None, "tee": None, "diff": 0, "cmp": 0, "cut": 0, "paste": 0,
                                        "comm": 0, "nl": 0, "rev": 0, "fold": 0, "expand": 0, "md5sum": 0, "sha1sum": 0,
                                        "sha256sum": 0, "base64": 0, "awk": 1,
                                        "join": 0, "jq": 1, "tac": 0, "column": 0}
# `uniq IN OUT` writes OUT: not proven; GNU's "extra operand" adds a line the virtual shell does not print;
# GNU's rev ends each file's last line apart, the virtual shell joins a file without a final newline to the next.
MAX_OPERANDS = {"uniq": 1, "base64": 1, "comm": 2, "rev": 1, "join": 2, "jq": 2, "column": 1}  # jq: its filter and one file
# Option values that are paths the program writes (`sort -o out`).
OUTPUT_OPTIONS = {"sort": "o"}

# Builtins that change the shell itself: they may not run inside a pipeline's stage (a subshell).
# (`export NAME=value` is read by the gate as the declaration it is.)
SHELL_STATE = frozenset({"cd", "export"})


# Error messages whose form the differential test (tests/integration/test_computed_generated.py) finds
# identical to GNU's; a line that prints any other message on stderr is the model's.
_NAME = r"[A-Za-z0-9._/+-]+"  # an operand GNU prints as typed, unquoted (others it quotes: 'my file.txt')
_MISSING = "No such file or directory"
_BRANCH = r"[A-Za-z0-9][A-Za-z0-9/_-]*"  # a branch's name as the virtual git takes it (git_settings.BRANCH)
_GETOPT = "|".join(sorted(GNU_OPTIONS))
PROVEN_ERRORS: tuple[re.Pattern[str], ...] = tuple(re.compile(form) for form in (
    rf"cat: {_NAME}: (?:{_MISSING}|Is a directory)",
    rf"grep: {_NAME}: {_MISSING}",
    rf"sed: can't read {_NAME}: {_MISSING}",
    rf"rm: cannot remove '{_NAME}': (?:{_MISSING}|Is a directory)",
    rf"rmdir: failed to remove '{_NAME}': (?:{_MISSING}|Not a directory|Directory not empty)",
    rf"mkdir: cannot create directory '{_NAME}': (?:File exists|{_MISSING})",
    rf"touch: cannot touch '{_NAME}': {_MISSING}",
    rf"cp: cannot stat '{_NAME}': {_MISSING}",
    rf"mv: cannot stat '{_NAME}': {_MISSING}",
    rf"bash: cd: {_NAME}: (?:{_MISSING}|Not a directory)",
    r"bash: cd: OLDPWD not set",
    rf"bash: pushd: {_NAME}: {_MISSING}",  # (directory_stack.py)
    r"bash: popd: directory stack empty",
    r"bash: pushd: no other directory",
    rf"bash: {_NAME}: {_MISSING}",
    rf"ls: cannot access '[A-Za-z0-9._/+*-]+': {_MISSING}",  # (`ls *.bak` of no match: the pattern, quoted)
    rf"find: '{_NAME}': {_MISSING}",
    rf"cmp: {_NAME}: {_MISSING}",
    rf"cmp: EOF on {_NAME} (?:which is empty|after byte \d+, line \d+)",
    rf"jq: error: Could not open file {_NAME}: {_MISSING}",
    # jq 1.6 cuts the value after "iterate over" at 11 bytes, mid-character where not ASCII: ASCII only.
    rf"jq: error \(at {_NAME}:\d+\): Cannot (?:index \w+ with [ -~]*|iterate over \w+(?: \([ -~]*\))?)",
    # GNU's words for what the virtual shell words otherwise (gnu_messages.py gives them).
    rf"sort: cannot read: {_NAME}: {_MISSING}",
    rf"(?:wc|uniq|cut|comm|paste|nl|md5sum|sha1sum|sha256sum|join): {_NAME}: {_MISSING}",
    rf"cut: {_NAME}: Is a directory",
    rf"rev: cannot open {_NAME}: {_MISSING}",
    rf"(?:head|tail): cannot open '{_NAME}' for reading: {_MISSING}",
    rf"(?:head|tail): error reading '{_NAME}': Is a directory",
    rf"(?:head|tail): invalid number of (?:lines|bytes): '[A-Za-z0-9._/](?:{_NAME})?'",  # (GNU drops a sign: '-x')
    rf"awk: cannot open {_NAME} \({_MISSING}\)",
    rf"(?P<program>{_GETOPT}): invalid option -- '[A-Za-z0-9]'",  # getopt's (programs/usage_errors.py)
    rf"Try '(?:{_GETOPT}) --help' for more information\.",
    # git's words on its branches (virtual/git_branch.py; tests/integration/test_computed_git.py proves them).
    rf"Switched to (?:a new )?branch '{_BRANCH}'",
    rf"Already on '{_BRANCH}'",
    rf"fatal: (?:a branch named '{_BRANCH}' already exists|not a valid object name: '{_BRANCH}')",
    rf"fatal: invalid reference: (?:@{{-1}}|{_BRANCH})",
    rf"error: pathspec '(?:-|{_BRANCH}|{_NAME})' did not match any file\(s\) known to git",
    rf"fatal: pathspec '{_NAME}' did not match any files",
))


def proven_errors(stderr: str) -> bool:
    """Whether every line of `stderr` is a message of a proven form."""
    return all(any(form.fullmatch(line) for form in PROVEN_ERRORS) for line in stderr.splitlines())


def option_problem(program: str, words: list[str]) -> str | None:
    """Why these arguments fall outside what is proven for `program`, or None when every option is listed."""
    spec = PROGRAMS[program]
    if spec.expression:
        return None
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word == "--":
            return f"{program} {word}: only options the tests prove are computed"
        if not word.startswith("-") or word == "-":
            continue
        if word.startswith("--"):
            name = word[2:].split("=", 1)[0]
            takes = name + "=" in spec.longs
            if name not in spec.longs and not takes:
                return f"{program} {word}: an option the virtual shell is not proven to render like GNU"
            if takes and "=" not in word:
                index += 1
            continue
        if spec.numeric and word[1:].isdigit():
            continue
        for position, letter in enumerate(word[1:], 1):
            if letter in spec.valued:
                if position == len(word) - 1:
                    index += 1  # the value is the next word
                break
            if letter not in spec.flags:
                return f"{program} -{letter}: an option the virtual shell is not proven to render like GNU"
    return None


def operands(program: str, words: list[str]) -> list[str]:
    """The words that are no option nor an option's value (the words are already checked)."""
    spec = PROGRAMS[program]
    found, index = [], 0
    while index < len(words):
        word = words[index]
        index += 1
        if not word.startswith("-") or word == "-" or spec.expression:
            found.append(word)
        elif not word.startswith("--") and not (spec.numeric and word[1:].isdigit()):
            letters = word[1:]
            valued = next((position for position, letter in enumerate(letters) if letter in spec.valued), None)
            if valued is not None and valued == len(letters) - 1:
                index += 1  # the value is the next word
    return found


def parsed_options(program: str, words: list[str]) -> list[tuple[str, str | None]]:
    """The options in order: (letter, its value or None), long ones as ("--name", value or None); the words are
    already checked."""
    spec = PROGRAMS[program]
    found: list[tuple[str, str | None]] = []
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if spec.expression or not word.startswith("-") or word == "-" or spec.numeric and word[1:].isdigit():
            continue
        if word.startswith("--"):
            name, glued, value = word[2:].partition("=")
            found.append((f"--{name}", value if glued else None))
            continue
        for position, letter in enumerate(word[1:], 1):
            if letter not in spec.valued:
                found.append((letter, None))
                continue
            value = word[position + 1:]
            if not value and index < len(words):
                value = words[index]
                index += 1
            found.append((letter, value))
            break
    return found


def reads_terminal(program: str, words: list[str]) -> bool:
    """Whether the program, unfed, would wait for what is typed next."""
    if program not in STDIN_READERS:
        return False
    leading = STDIN_READERS[program]
    if leading is None:
        return True
    if program == "grep" and any(word.startswith("-") and not word.startswith("--") and "r" in word for word in words):
        return False  # grep -r without a file searches the working folder
    given = operands(program, words)
    if program in ("sed", "grep") and any(letter == "e" for letter, _ in parsed_options(program, words)):
        leading = 0  # the script or pattern came with -e
    files = given[leading:]
    return not files or "-" in files


def used_forms(program: str, words: list[str]) -> set[str]:
    """The allowlist entries these (already checked) arguments use: the program, and "program -x" per option."""
    spec = PROGRAMS[program]
    forms = {program}
    if spec.expression:
        return forms | {f"{program} {word}" for word in words if word in spec.primaries}
    for word in words:
        if word.startswith("--") and len(word) > 2 and word[2:].split("=", 1)[0] in {
                long.rstrip("=") for long in spec.longs}:
            forms.add(f"{program} {word.split('=', 1)[0]}")
        if word.startswith("-") and not word.startswith("--") and len(word) > 1:
            if spec.numeric and word[1:].isdigit():
                forms.add(f"{program} -N")
                continue
            for letter in word[1:]:
                if letter in spec.flags + spec.valued:
                    forms.add(f"{program} -{letter}")
                if letter in spec.valued:
                    break
    return forms


def all_forms() -> set[str]:
    """Every entry of the allowlist, in the form `used_forms` names them."""
    forms = set(PROGRAMS)
    for program, spec in PROGRAMS.items():
        forms |= {f"{program} -{letter}" for letter in spec.flags + spec.valued}
        forms |= {f"{program} --{long.rstrip('=')}" for long in spec.longs}
        if spec.numeric:
            forms.add(f"{program} -N")
        forms |= {f"{program} {word}" for word in spec.primaries}
    forms.add("sed -iSUFFIX")  # an in-place edit that keeps a backup (argument_checks.sed_backup)
    forms |= GIT_FORMS
    return forms
