"""Shell semantics: what a command line does, derived from its text with tree-sitter-bash, never run.

`analyze(line, cwd)` gives a `Semantics`: typed effects (files created, overwritten, deleted, moved;
git's irreversible work; downloads and uploads; privilege), the opaque parts nobody can know from
the text, and the paths commands need to exist with the error line each program prints when one
does not. It imports neither a model nor the MCP SDK: the guard's hook reads it in milliseconds.

The rooms, top down (pyproject.toml's contracts hold the order):

- `line.py`: the line reader, `analyze`; the one module that reads a whole line;
- `launchers/`: everything that runs another command, handing it back to the reader;
- `remote/`: what runs or lives elsewhere (other machines, clusters, clouds, databases, the network);
- `programs/`: what each program family does to files and the machine;
- `reading/`: the grammar, words, options, a simple command being read, and the typed effects;

and beside the reader, for computed steps:

- `virtual/`: the proven virtual shell, which computes from
- `world/`: a world's one record of knowledge and how a step teaches it.

The reader's rooms and the world's never import each other; both stand on programs/ and reading/.
"""

from .reading.call import PathState
from .reading.effects import FILE_KINDS, GIT_KINDS, WRITE_KINDS, Effect, Opaque, Requirement, Semantics
from .programs.file_actions import file_action
from .programs.patch_envelope import patch_action
from .line import analyze
from .reading.location import Location, stated_location

__all__ = ["FILE_KINDS", "GIT_KINDS", "WRITE_KINDS", "Effect", "Location", "Opaque", "PathState", "Requirement", "Semantics",
           "analyze", "file_action", "patch_action", "stated_location"]
