"""`ls -a`: the implied entries `.` and `..` that the virtual shell's ls leaves out.

GNU's ls documents -a as -A ("do not list implied . and ..") plus those two entries of every folder it lists;
the virtual shell's `ls -a` prints what its -A does (proven equal to GNU's). So its listing of each folder gets
`.` and `..` back, sorted among the other names as GNU sorts them (byte order in the C locale: `#a` and `-b`
come before `.`). This is done on the line's whole stdout, so only where that stdout is ls's own: the gate
computes `ls -a` only as the line's last command, on the screen, after commands that print nothing.
"""

from __future__ import annotations

import bisect
import posixpath
from collections.abc import Callable


class Unexpected(Exception):
    """The listing is not laid out as GNU's ls lays it out for these operands."""


def with_implied_entries(stdout: str, named: list[str], recursive: bool, cwd: str,
                         kind: Callable[[str], str], folders_at: Callable[[str], int]) -> str:
    """ls -A's `stdout` for the words `named` (none: the working folder) as ls -a prints it. `kind(path)`:
    "folder", "file" or "" (absent) where ls ran; `folders_at(path)`: the folders at and below it (-R lists each)."""
    if stdout and not stdout.endswith("\n"):
        raise Unexpected("a listing without a final newline")
    given = named or ["."]
    kinds = [kind(posixpath.normpath(posixpath.join(cwd, word))) for word in given]
    folders = [word for word, found in zip(given, kinds) if found == "folder"]
    if not recursive and len(given) == 1:  # one folder's entries (an empty folder's: none), without a header
        return _listing(stdout[:-1].split("\n") if stdout else []) if folders else stdout
    if not stdout:
        return stdout
    blocks = stdout[:-1].split("\n\n")
    files_first = "file" in kinds  # the files named are listed first, in a block of their own
    expected = sum(folders_at(posixpath.normpath(posixpath.join(cwd, word))) for word in folders) \
        if recursive else len(folders)
    if len(blocks) != expected + files_first:
        raise Unexpected("not one block per folder listed")
    for index in range(files_first, len(blocks)):
        header, *entries = blocks[index].split("\n")
        if not header.endswith(":"):
            raise Unexpected("a folder's block without its header")
        blocks[index] = header + "\n" + _listing(entries).rstrip("\n")
    return "\n\n".join(blocks) + "\n"


def _listing(entries: list[str]) -> str:
    """One folder's entry lines with `.` and `..` among them, in byte order."""
    if not all(entries):
        raise Unexpected("an empty line among the entries")
    keys = [entry.encode("utf-8", "surrogateescape") for entry in entries]
    if keys != sorted(keys):
        raise Unexpected("entries not in byte order")
    for implied in (".", ".."):
        at = bisect.bisect_left(keys, implied.encode())
        keys.insert(at, implied.encode())
        entries.insert(at, implied)
    return "".join(entry + "\n" for entry in entries)
