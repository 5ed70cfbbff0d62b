"""The words of `for NAME in GLOB`, expanded as bash does where the world lists the folder in full.

bash expands the glob once, before the first turn, to the folder's matching names sorted in the C locale's
byte order (or leaves the word as typed when nothing matches); the body then runs once per name. Where
the world's listing of that folder is complete and nothing of the line ran before the loop (which might
have changed it), those names are decided, and the loop is walked over them like any list of words.
Only `*` with a plain folder part, typed unquoted, is read here (`?` and `[` are refused by the gate);
a name pattern starting with `.` (hidden names, `.` and `..`) or ending in `/` (folders only) is not.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from .refusal import NotComputable

Listing = Callable[[str], "list[str] | None"]  # a folder's entry names where the world knows them all, else None


def expand(typed: str, cwd: str, listing: Listing | None) -> tuple[str, list[str]]:
    """The folder a loop's glob word lists (absolute) and the words bash makes of it."""
    folder_part, pattern = posixpath.split(typed)
    if listing is None or not pattern or pattern.startswith(".") or "*" in folder_part or "\\" in typed:
        raise NotComputable("a for loop over a glob: which files it visits is decided when it runs")
    folder = posixpath.normpath(posixpath.join(cwd, folder_part or "."))
    names = listing(folder)
    if names is None:
        raise NotComputable(f"a for loop over a glob in {folder}, whose listing the world does not know in full")
    matcher = re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.DOTALL)
    found = sorted(name for name in names if not name.startswith(".") and matcher.fullmatch(name))
    prefix = typed[: len(typed) - len(pattern)]
    words = [prefix + name for name in sorted(found, key=lambda name: name.encode("utf-8", "surrogateescape"))]
    return folder, words or [typed]
