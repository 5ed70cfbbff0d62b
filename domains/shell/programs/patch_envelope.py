"""Codex's `apply_patch` envelope read for the files it acts on, as the same effects a shell line's would be.

The envelope (Codex's apply_patch tool instructions): `*** Begin Patch`, then file sections, then `*** End Patch`.
`*** Add File: <path>` writes a new file from the `+` lines after it (over one that is there); `*** Delete File:
<path>` removes a file; `*** Update File: <path>` changes a file in place by hunks, and with `*** Move to: <new
path>` after it moves it there (over what is there). So an added file and a move's destination are overwritten
where they exist, a deleted file and a move's source are gone from their path, and an update is a modification.
Text that holds no section names no file: nothing is read from it.
"""

from __future__ import annotations

import re

from ..reading.call import PathState
from ..reading.effects import Effect, Requirement, Semantics, Where
from ..reading.location import Location
from ..reading.words import Scope, Value

TOOL = "apply_patch"
_HEADER = re.compile(r"^\*\*\* (Add File|Delete File|Update File|Move to): (.+?)\s*$", re.MULTILINE)


def patch_sections(text: str) -> list[tuple[str, str]]:
    """The envelope's headers in order, as (`add`, `delete`, `update` or `move`, path)."""
    kinds = {"Add File": "add", "Delete File": "delete", "Update File": "update", "Move to": "move"}
    return [(kinds[match.group(1)], match.group(2)) for match in _HEADER.finditer(text)]


def patch_action(text: str, location: Location, state: PathState | None) -> Semantics:
    scope = Scope(location.cwd, location.home or location.cwd, location.root)
    effects: list[Effect] = []
    requirements: list[Requirement] = []
    updated: tuple[str, Where] | None = None  # the file an Update section changes (path, where), which a Move to moves
    for kind, path in patch_sections(text):
        resolved, where = scope.path(Value(path))
        if kind == "add":
            known = state.exists(resolved) if state is not None else None
            effects.append(Effect("created" if known is False else "overwritten", resolved, where, program=TOOL))
        elif kind == "delete":
            effects.append(Effect("deleted", resolved, where, program=TOOL))
            requirements.append(Requirement(resolved, path, TOOL, f"Failed to delete file {path}"))
        elif kind == "update":
            updated = (resolved, where)
            effects.append(Effect("modified", resolved, where, program=TOOL))
            requirements.append(Requirement(resolved, path, TOOL, f"Failed to read file to update {path}"))
        elif updated is not None:  # a move: the updated file leaves its path for this one
            effects += [Effect("moved-from", updated[0], updated[1], program=TOOL),
                        Effect("moved-to", resolved, where, program=TOOL)]
    return Semantics(f"{TOOL} {len(effects)} file actions", location.cwd, location.root, tuple(effects), (),
                     tuple(requirements), (TOOL,), location.cwd, {0: frozenset()})

