"""GNU's wording of errors the virtual shell reports in words of its own.

For a few conditions (a file operand that is not there, a folder where a file is read) the virtual shell's
programs fail exactly as GNU's do (same status, nothing printed on stdout) but word the message otherwise:
an absolute path where GNU prints the operand as typed, another verb ("cannot copy" for GNU's "cannot stat").
This table gives GNU coreutils' (and mawk's) message for each such form; tests/shell_lines.py generates them
and the differential test checks every translated line against real bash. A message of any other form is left
as it is, and the shell refuses it unless it is among allowlist.PROVEN_ERRORS.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass

_NAME = re.compile(r"[A-Za-z0-9._/+-]+")  # an operand GNU prints as typed (others it quotes)
_MISSING = "No such file or directory"


@dataclass(frozen=True)
class Form:
    ours: re.Pattern[str]  # the virtual shell's line: its `path` group names the operand
    gnu: str  # GNU's line: {program} and {name}, the operand as typed
    joined: bool = False  # the virtual shell prints the working folder joined to the operand (not normalized)
    source_absent: bool = False  # cp/mv: the same words also report a missing destination folder


# (Not sort's folder: GNU's opens every file before it reads one, reports a missing one after it first, and has made
# its -o output by then.)
FORMS: tuple[Form, ...] = (
    Form(re.compile(rf"(?P<program>sort): (?P<path>.+): {_MISSING}"), f"sort: cannot read: {{name}}: {_MISSING}",
         joined=True),
    Form(re.compile(rf"(?P<program>wc|uniq|cut|comm|paste|nl): (?P<path>.+): {_MISSING}"),
         f"{{program}}: {{name}}: {_MISSING}", joined=True),
    Form(re.compile(r"(?P<program>cut): (?P<path>.+): Is a directory"), "cut: {name}: Is a directory", joined=True),
    Form(re.compile(rf"(?P<program>rev): (?P<path>.+): {_MISSING}"), f"rev: cannot open {{name}}: {_MISSING}",
         joined=True),
    Form(re.compile(rf"(?P<program>head|tail): (?P<path>.+): {_MISSING}"),
         f"{{program}}: cannot open '{{name}}' for reading: {_MISSING}"),
    Form(re.compile(r"(?P<program>head|tail): (?P<path>.+): Is a directory"),
         "{program}: error reading '{name}': Is a directory"),
    Form(re.compile(r"(?P<program>md5sum|sha1sum|sha256sum): (?P<path>.+): io error: file not found"),
         f"{{program}}: {{name}}: {_MISSING}"),
    Form(re.compile(rf"(?P<program>awk): fatal: cannot open file `(?P<path>.+)' for reading: {_MISSING}"),
         f"awk: cannot open {{name}} ({_MISSING})"),
    Form(re.compile(rf"(?P<program>cp): cannot copy '(?P<path>.+)': {_MISSING}"),
         f"cp: cannot stat '{{name}}': {_MISSING}", source_absent=True),
    Form(re.compile(r"(?P<program>mv): cannot move '(?P<path>.+)': io error: not found"),
         f"mv: cannot stat '{{name}}': {_MISSING}", source_absent=True),
)


def gnu_wording(stderr: str, typed: set[str], cwds: list[str], absent: Callable[[str], bool]) -> str:
    """`stderr` with each line of a form in FORMS worded as GNU words it. `typed`: the words the line gives its
    programs; `cwds`: the folders it may stand in; `absent(path)`: the path was not there before the line nor
    after it (cp and mv say "cannot copy" of a missing destination folder too)."""
    return "\n".join(_line(line, typed, cwds, absent) for line in stderr.split("\n"))


def _line(line: str, typed: set[str], cwds: list[str], absent: Callable[[str], bool]) -> str:
    for form in FORMS:
        match = form.ours.fullmatch(line)
        if match is None:
            continue
        path = match.group("path")
        names = {word for word in typed if any(posixpath.join(cwd, word) == path for cwd in cwds)} if form.joined \
            else {path} & typed
        if len(names) != 1:
            return line  # no operand, or several, printed so: left as it is (and refused)
        name = names.pop()
        if not _NAME.fullmatch(name):
            return line  # GNU quotes it: not proven
        if form.source_absent and not all(absent(posixpath.normpath(posixpath.join(cwd, name))) for cwd in cwds):
            return line
        return form.gnu.format(program=match.group("program"), name=name)
    return line


JOIN_FAILED = "io error: not found"  # the virtual shell's join, failing to open a file, as the shell's own error


def join_wording(stderr: str, files: list[str], absent: Callable[[str], bool]) -> str:
    """join's missing file: the virtual shell says only "io error: not found" (no line's end). GNU's join opens its
    two files in order before it reads either and names the first it cannot open; `files`: the words naming them
    (given where join is the line's one command), `absent(word)`: the world knows nothing is there."""
    if stderr != JOIN_FAILED or len(files) != 2:
        return stderr
    missing = next((word for word in files if absent(word)), None)
    if missing is None or not _NAME.fullmatch(missing):
        return stderr
    return f"join: {missing}: {_MISSING}\n"
