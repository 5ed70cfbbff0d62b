"""Where a command line runs: its working directory, the home folder, and the workspace it may change.

The workspace is where the agent was put to work (a host's cwd, a world's working folder); a
command that cds elsewhere is still judged against it. A world's state text names its folder with
a `Working folder: PATH` line (what the guard and the evaluations write), or the domain's own
initial state gives it.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

_STATED = re.compile(r"^(?:Working folder|Working directory|Current directory|cwd):\s*(/\S*)\s*$",
                     re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Location:
    cwd: str
    home: str = ""
    workspace: str = ""  # '' means the cwd

    def moved_to(self, cwd: str) -> Location:
        """The same workspace, with the shell now in `cwd` (after a step's `cd`)."""
        return Location(cwd or self.cwd, self.home, self.workspace or self.cwd)

    @property
    def root(self) -> str:
        return self.workspace or self.cwd


def stated_location(state: str, default: Location) -> Location:
    """The working folder a state text states, else `default` (the domain's own)."""
    match = _STATED.search(state or "")
    if match is None:
        return default
    cwd = posixpath.normpath(match.group(1))
    return Location(cwd, default.home if cwd.startswith(default.home + "/") else "")
