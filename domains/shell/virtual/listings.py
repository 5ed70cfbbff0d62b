"""Listings, finds, comparisons and path resolution: where the virtual shell is unlike GNU, and the rules
that keep those lines the model's.

- Directory order: GNU's find and `grep -r` print in the order the filesystem returns entries, which no
  one can know; the virtual shell sorts. Their lines are computed only where order cannot show: the lines
  go into a program that compares whole lines (`sort`) or counts them (`wc`, `grep -c`), possibly through
  filters that keep lines in their order (grep, cat, tr), or they print at most one line (shell.py).
- ls keeps its operands in the order given where GNU sorts them: they must come sorted already.
- diff chooses other hunks than GNU's on some inputs and drops the "No newline at end of file" marker (it
  even calls `one` and `one\\n` the same): its hunks are never shown, and what it compares must end in a
  newline. cmp and diff compare files the world knows byte for byte (two unknown files would be filled
  alike in every run of the virtual shell, and equal).
- realpath and `readlink -f` print a path where GNU fails on a missing folder above the last name: every
  folder above must be one the world knows.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from ..world.knowledge import Knowledge
from . import awk
from .allowlist import PROGRAMS, operands

Stage = tuple[str, list[str], str]  # a command's program, its arguments, where its output goes: screen|file|null

# find's expression: the primaries and operators proven, and those that take a value.
FIND_PRIMARIES = PROGRAMS["find"].primaries
_FIND_VALUED = frozenset({"-name", "-iname", "-path", "-type", "-maxdepth", "-mindepth"})
_HUNK_HEADER = re.compile(r"^\d+(?:,\d+)?[acd]\d+(?:,\d+)?$", re.MULTILINE)
# Programs that change which files and folders exist: a line that compares or resolves paths must not
# (the world's facts before the line decide what those read).
_TREE_CHANGERS = frozenset({"rm", "rmdir", "mv", "cp", "mkdir", "touch", "tee", "cd", "sed -i"})


class Refusal(Exception):
    """Raised here; the gate turns it into NotComputable (this module does not import the gate)."""


@dataclass
class Facts:
    """What shell.py must check against the world for a line that passed the gate."""

    unordered: bool = False  # lines in directory order reach the screen: at most one may be printed
    hunks: bool = False  # diff's hunks would reach the screen: none may be printed
    compared: frozenset[str] = frozenset()  # paths cmp or diff read: known files (known bytes) or known absent
    diffed: frozenset[str] = frozenset()  # paths diff reads: their known bytes must end in a newline
    resolved: frozenset[str] = frozenset()  # folders that must exist (realpath, readlink -f, grep --include)
    not_files: frozenset[str] = frozenset()  # paths above what find and ls name: a file there is worded otherwise
    # What grep and find search: all at and below must be known in full (a filled-in unknown entry or content
    # need not match the pattern, and would leave the result as if nothing were unknown).
    searched: frozenset[str] = frozenset()
    listed: frozenset[str] = frozenset()  # what find walks: its folders' listings must be known in full
    searched_in: frozenset[str] = frozenset()  # folders whose files a glob gives grep: their contents must be known


def letters(arguments: list[str]) -> str:
    """The short options given, run together."""
    return "".join(word[1:] for word in arguments if word.startswith("-") and not word.startswith("--")
                   and word != "-")


def find_paths(arguments: list[str]) -> list[str]:
    """find's starting points: the words before its expression."""
    paths = []
    for word in arguments:
        if word.startswith("-") or word in ("!", "(", ")"):
            break
        paths.append(word)
    return paths


def implies_cwd(program: str, arguments: list[str]) -> bool:
    """ls, find and `grep -r` with no folder named read the working folder."""
    if program == "ls":
        return not operands(program, arguments)
    if program == "find":
        return not find_paths(arguments)
    return program == "grep" and "r" in letters(arguments) and len(operands(program, arguments)) <= 1


def check_command(program: str, arguments: list[str], globbed: bool) -> None:
    """The forms of these programs the virtual shell renders otherwise than GNU."""
    given = operands(program, arguments) if program != "find" else find_paths(arguments)
    if program == "find" and globbed:
        raise Refusal("find given a glob: unquoted, bash expands find's own patterns")
    if program == "grep" and "r" in letters(arguments) and len(given) < 2:
        raise Refusal("grep -r without a folder named")
    if program == "ls":
        if len(given) > 1 and (globbed or given != sorted(given)):
            raise Refusal("ls of operands not in sorted order: GNU sorts them, the virtual shell keeps their order")
        if "R" in letters(arguments) and any(word.endswith("/") for word in given):
            raise Refusal("ls -R of a folder named with a final /: the virtual shell doubles the / in its headers")
    if program == "find":
        _check_find(arguments[len(given):])
        if any(not word for word in given):
            raise Refusal("find of an empty path")
    if program in ("diff", "cmp") and (len(given) != 2 or "-" in given):
        raise Refusal(f"{program} of other than two named files")
    if program == "readlink" and not set(letters(arguments)) & set("fm"):
        raise Refusal("readlink without -f or -m: whether a path is a link is not among the world's facts")


def _check_find(expression: list[str]) -> None:
    index = 0
    while index < len(expression):
        word = expression[index]
        index += 1
        if word not in FIND_PRIMARIES:
            raise Refusal(f"find {word}: only -name, -iname, -path, -type f|d, -maxdepth, -mindepth, -not, -o and "
                          "-print are proven (-delete and -exec change or run what the world does not know)")
        if word in _FIND_VALUED:
            if index >= len(expression):
                raise Refusal(f"find {word} without its value")
            value = expression[index]
            index += 1
            if word == "-type" and value not in ("f", "d"):
                raise Refusal("find -type other than f or d: the world knows no links, sockets or devices")
            if word in ("-maxdepth", "-mindepth") and not value.isdigit():
                raise Refusal(f"find {word} of other than a whole number")


def check_line(facts: Facts, forms: set[str], outputs: set[str]) -> None:
    """A line that compares, searches or resolves paths may not change files (`outputs`: those it redirects
    into): what they read is decided by the world's facts before the line."""
    reads_tree = facts.compared or facts.resolved or facts.not_files or facts.searched or facts.listed or \
        facts.searched_in
    if reads_tree and (forms & _TREE_CHANGERS or outputs):
        raise Refusal("a comparison or path resolution in a line that also changes files or folders")


def follow(incoming: str, stage: Stage, last: bool, facts: Facts) -> str:
    """What flows out of one stage of a pipeline (or a lone command): lines in "directory" order, diff's
    "hunks", or "" (nothing that needs care). Refuses where such lines would be shown or kept in an order or
    form GNU does not share."""
    program, arguments, output = stage
    given = letters(arguments)
    flowing = incoming
    if incoming == "directory":
        if _compares_whole_lines(program, given) or program == "wc" or program == "grep" and "c" in given:
            flowing = ""
        elif not (program in ("cat", "tr") and "n" not in given or program == "grep" and set(given) <= set("ivx")):
            raise Refusal(f"{program} after a listing in directory order: GNU's order is unknown")
    if program == "find" or program == "grep" and "r" in given or program == "awk" and awk.read(arguments).unordered:
        flowing = "directory"  # (awk's for-in: the keys in an order of mawk's own)
    if program == "diff" and "q" not in given:
        flowing = "hunks"
    if incoming == "commits":  # git log's lines stand for hashes the world cannot know: only their count is shown
        if program != "wc" or arguments != ["-l"]:
            raise Refusal("`git log`'s lines read by other than wc -l: they show hashes the world cannot know")
        flowing = ""
    if program == "git" and arguments[:1] == ["log"]:
        flowing = "commits"
    if flowing and output == "file":
        raise Refusal("a listing in directory order, or diff's hunks, written into a file")
    if output == "null":
        return ""
    if flowing == "commits" and last:
        raise Refusal("`git log` shown: it prints hashes the world cannot know")
    if flowing == "hunks" and not last:
        raise Refusal("diff's hunks read by another program: GNU chooses other hunks on some inputs")
    if last and flowing == "directory":
        facts.unordered = True
    if last and flowing == "hunks":
        facts.hunks = True
    return flowing if not last else ""


def _compares_whole_lines(program: str, given: str) -> bool:
    """sort, where ties are broken by comparing whole lines (not with -s, nor keys or fields)."""
    return program == "sort" and not set(given) & set("skt")


def resolved_folders(text: str, cwd: str) -> set[str]:
    """The folders realpath (or readlink -f) needs to exist: each name above the last one."""
    parts = posixpath.join(cwd, text).split("/")
    return {posixpath.normpath("/".join(parts[:end]) or "/") for end in range(1, len(parts))}


def problem_with_result(facts: Facts, stdout: str, stderr: str, forms: frozenset[str] | set[str]) -> str | None:
    """Why a run's result is not proven equal to GNU's (None when it is)."""
    if facts.unordered and len(stdout.splitlines()) > 1:
        return "it prints several lines in an order of its own (find, grep -r: the directory's; awk's for-in: mawk's)"
    if facts.hunks and _HUNK_HEADER.search(stdout):
        return "diff printed hunks: GNU's diff chooses other hunks on some inputs"
    if "cmp -s" in forms and stderr:
        return "cmp -s printed a message, which GNU's does not"
    return None


def problem_with_world(facts: Facts, known: Knowledge) -> str | None:
    """Why what the world knows does not decide these comparisons and resolutions (None when it does)."""
    for path in facts.compared:
        if path in known.files and known.files[path] is None or \
                path not in known.files and known.status(path) != "absent":
            return f"cmp or diff of {path}, whose bytes the world does not know"
    for path in facts.diffed:
        content = known.files.get(path)
        if content and not content.endswith(b"\n"):
            return "diff of a file without a final newline: the virtual shell drops GNU's marker"
    for folder in facts.resolved:
        if folder not in known.folders:
            return f"a path that must be a folder ({folder}), which the world does not know is one"
    for path in facts.not_files:
        if path in known.files or path not in known.folders and known.status(path) != "absent":
            return f"a path through {path}, which may be a file: GNU says 'Not a directory'"
    for top in facts.searched:
        if not known.known_in_full_under(top):
            return f"a search through {top}, which the world does not know in full"
    for top in facts.listed:
        if not known.listed_in_full_under(top):
            return f"a find through {top}, whose listings the world does not know in full"
    for folder in facts.searched_in:
        if any(content is None for path, content in known.files.items() if posixpath.dirname(path) == folder):
            return f"a search of files in {folder} whose content the world does not know"
    return None
