"""pushd, popd and dirs: the directory stack the world keeps (Knowledge.dirstack) and the virtual shell replays.

The forms the differential test proves bashkit runs as bash does (tests/shell_lines.py MOVES): `pushd DIR`, `pushd`
(the top two swapped), `popd`, and `dirs` with -v, -p and -l, their output (`~` for the home), their errors
("No such file or directory", "directory stack empty", "no other directory") and status. Not proven, refused:
options and rotations (`pushd -n`, `popd +1`, whose bashkit differs), `pushd` of a file (bashkit words it "No
such file or directory"), and OLDPWD after pushd or popd (bashkit leaves it otherwise than bash sets it): a line
that reads it after one is refused, and the world no longer knows it.

bashkit keeps no stack from one script to the next: the kept stack is rebuilt before the line by real cds and
pushds (`seeding`), and read back after it with `dirs -l -p`.
"""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Callable
from typing import Protocol

from ..reading.words import Scope, Value
from .refusal import NotComputable



class Reading(Protocol):
    """What of the gate's reading of a line (gate.Reading) the directory stack follows and adds to."""

    cwds: list[str]
    forms: set[str]
    stack_before: tuple[str, ...]
    stack: list[str] | None
    stacked: bool
    pushed: set[str]

    @property
    def moves(self) -> bool: ...

BUILTINS = frozenset({"pushd", "popd", "dirs"})
_DIRS_OPTIONS = frozenset({"-v", "-p", "-l"})


def read(program: str, values: list[Value], scope: Scope, reading: Reading, name: Callable[[Value], str]) -> None:
    """What pushd, popd or dirs does to the line's reading: the folder it may enter (the gate's `cwds`), the stack
    as the gate follows it (each move as if it succeeded; where one failed, the folders it may stand in are all
    in `cwds` already, and the kept stack's with them)."""
    if reading.stack is None:
        raise NotComputable(f"{program} where the world does not know the directory stack")
    if not scope.cwd_known:
        raise NotComputable(f"{program} where the world does not know where the shell stands")
    words = [value.text for value in values]
    reading.forms.add(program)
    if program == "dirs":
        if set(words) - _DIRS_OPTIONS or len(set(words)) != len(words) or any(not v.literal for v in values):
            raise NotComputable("dirs with other than -v, -p and -l, each once")
        return
    if any(not value.literal for value in values) or program == "popd" and words or len(words) > 1 or any(
            not word or word.startswith(("-", "+")) for word in words):
        raise NotComputable(f"{program} with options, several words, a glob or an empty word: not proven")
    moved = reading.moves
    scope.oldpwd = None  # bashkit's OLDPWD after pushd and popd is not bash's
    reading.stacked = True
    if program == "pushd" and words:
        path = name(values[0])
        reading.pushed.add(path)
        reading.stack = [scope.cwd, *reading.stack]
        target = path
    elif not reading.stack:
        return  # "directory stack empty", "no other directory": it fails where it stands
    else:
        target = reading.stack[0]
        reading.stack = reading.stack[1:] if program == "popd" else [scope.cwd, *reading.stack[1:]]
    if moved:  # a move before it may have failed: the kept stack's folders are where it may go
        reading.cwds.extend(reading.stack_before)
    scope.cwd = target
    reading.cwds.append(target)


def seeding(stack: tuple[str, ...], cwd: str) -> str:
    """The lines that rebuild the kept stack in a fresh bashkit, from its bottom; the shell ends in `cwd`."""
    if not stack:
        return ""
    bottom, *rest = reversed(stack)
    return f"cd -- {shlex.quote(bottom)}\n" + "".join(f"pushd -- {shlex.quote(folder)} >/dev/null\n"
                                                      for folder in (*rest, cwd))


def problem(stack: tuple[str, ...], folders: dict[str, bool], files: dict[str, bytes | None],
            pushed: set[str], status: Callable[[str], str]) -> str | None:
    """Why a line that uses the stack is the model's, from the world's record."""
    if any(folder not in folders or status(folder) != "present" or "\n" in folder or
           not posixpath.isabs(folder) for folder in stack):
        return "a folder of the directory stack that the world does not know is there"
    if any(path in files for path in pushed):
        return "pushd of a file: the virtual shell words its error otherwise than bash"
    return None


def after(lines: str) -> tuple[str, ...]:
    """The stack below its top from `dirs -l -p`'s output."""
    return tuple(lines.splitlines()[1:])
