"""Lines computed where the world does not know which folder the shell stands in.

After a predicted step that may have moved the shell (a `cd` the model answered, a script), the world's record
of where the shell stands is implied only. A line whose result cannot depend on that folder is still exact: it
is run with the shell standing in a stand-in folder the world knows nothing about, twice, in two stand-ins of
other names and depths. The line is refused when it names any path relative to that folder (so any relative
name, glob or implied `.` is refused before it runs), reads the folder's name (`pwd`, `$PWD`, `$OLDPWD`, `~+`,
`cd -`: the reader holds them unknown), may remove or move a folder the shell may stand in, or when the two
runs differ in anything they print, exit with or leave. What is exact then holds wherever the shell stands; the
screen's prompt, which shows that folder, stays the model's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..world.knowledge import Knowledge, under
from .gate import Reading
from .outcome import Outcome
from .refusal import NotComputable

# Folders no world holds, outside the region a computed line may touch; different in name, length and depth.
STAND_INS = ("/somewhere-unknown", "/somewhere-unknown-too/further/down")
_TOPS = tuple("/" + folder.split("/")[1] for folder in STAND_INS)
_REMOVERS = frozenset({"rm", "rmdir", "mv"})


def standing_in(known: Knowledge, folder: str) -> Knowledge:
    """The world's exact facts with the shell standing in `folder`, a folder whose every entry is unknown."""
    placed = replace(known.exact_part(), location=known.location.moved_to(folder), cwd_known=True, oldpwd=None)
    placed.add_folder(folder, False)
    return placed


def check_reading(known: Knowledge, reading: Reading) -> None:
    """Refuse a line (read with the shell in a stand-in) that names a path relative to where the shell stands,
    reads that folder's name, or may remove or move a folder the shell may stand in."""
    here = reading.cwds[0]
    named = (*reading.paths, *reading.glob_folders, *reading.cwds[1:])
    if any(under(path, (here,)) for path in named):
        raise NotComputable("a predicted step may have moved the shell: where it stands is not known exactly, and "
                            "the line names a path relative to it")
    if "pwd" in reading.forms:
        raise NotComputable("pwd where a predicted step may have moved the shell: where it stands is not known "
                            "exactly")
    if reading.forms & _REMOVERS and any(path in known.folders or known.status(path) == "unknown"
                                         for path in reading.paths):
        raise NotComputable("it may remove or move a folder the shell stands in, where that folder is not known "
                            "exactly")


def compute_anywhere(known: Knowledge, compute: Callable[[Knowledge], Outcome]) -> Outcome:
    """The line's exact outcome where the shell stands in a folder the world does not know (`known.cwd` is only
    implied): computed in each stand-in (`compute`), refused unless both agree in all but the stand-in's name."""
    runs = [_without_stand_in(compute(standing_in(known, folder)), folder) for folder in STAND_INS]
    first, second = runs
    if (first.stdout, first.stderr, first.exit_code) != (second.stdout, second.stderr, second.exit_code) or any(
            folder in first.stdout + first.stderr for folder in _TOPS):
        raise NotComputable("its output depends on where the shell stands, which the world does not know exactly")
    if _left(first.after) != _left(second.after) or first.cwd != second.cwd or first.changes != second.changes:
        raise NotComputable("what it leaves depends on where the shell stands, which the world does not know exactly")
    after = first.after
    if first.cwd:  # a cd of the line went into a folder named whole: the shell is found again
        return replace(first, after=after)
    after.location, after.cwd_known, after.oldpwd = known.location, False, None
    return replace(first, cwd=known.cwd, after=after, cwd_known=False)


def _without_stand_in(outcome: Outcome, folder: str) -> Outcome:
    """The outcome with the stand-in folder taken out of its facts: `cwd` '' where the shell stays in it."""
    after = outcome.after
    after.files = {path: content for path, content in after.files.items() if not under(path, _TOPS)}
    after.folders = {path: whole for path, whole in after.folders.items() if not under(path, _TOPS)}
    after.absent = {path for path in after.absent if not under(path, _TOPS)}
    after.maybe_there = {path for path in after.maybe_there if not under(path, _TOPS)}
    if after.oldpwd and under(after.oldpwd, _TOPS):
        after.oldpwd = None  # the folder the line left: the one the world does not know
    if any(under(value, _TOPS) or any(top in value for top in _TOPS) for value in after.variables.values()):
        raise NotComputable("a variable holds where the shell stands, which the world does not know exactly")
    changes = tuple(change for change in outcome.changes if not under(change.path, _TOPS))
    return replace(outcome, cwd="" if outcome.cwd == folder else outcome.cwd, changes=changes, after=after)


def _left(after: Knowledge) -> tuple:
    return (after.files, after.folders, after.absent, after.maybe_there, after.variables, after.exported,
            after.oldpwd, after.last_status)
