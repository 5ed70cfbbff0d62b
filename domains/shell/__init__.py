"""Shell semantics: what a command line does, derived from its text with tree-sitter-bash, never run.

`analyze(line, cwd)` gives a `Semantics`: typed effects (files created, overwritten, deleted, moved;
git's irreversible work; downloads and uploads; privilege), the opaque parts nobody can know from
the text, and the paths commands need to exist with the error line each program prints when one
does not. It imports neither a model nor the MCP SDK: the guard's hook reads it in milliseconds.
"""

from .call import PathState
from .effects import FILE_KINDS, GIT_KINDS, WRITE_KINDS, Effect, Opaque, Requirement, Semantics
from .file_actions import file_action
from .line import analyze
from .location import Location, stated_location

__all__ = ["FILE_KINDS", "GIT_KINDS", "WRITE_KINDS", "Effect", "Location", "Opaque", "PathState", "Requirement", "Semantics",
           "analyze", "file_action", "stated_location"]
