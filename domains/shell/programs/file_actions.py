"""A file tool's call (write a file, edit it, read it) as the same effects a shell command has, so
rules, world state and consistency treat `write_file` and `cat > f` alike."""

from __future__ import annotations

from ..reading.call import PathState
from ..reading.effects import Effect, Requirement, Semantics
from ..reading.location import Location
from .secrets import secret_kind
from ..reading.words import Scope, Value


def file_action(tool: str, path: str, location: Location, state: PathState | None) -> Semantics:
    """`tool` is write, edit or read."""
    scope = Scope(location.cwd, location.home or location.cwd, location.root)
    resolved, where = scope.path(Value(path))
    known = state.exists(resolved) if state is not None else None
    effects: tuple[Effect, ...] = ()
    requirements: tuple[Requirement, ...] = ()
    if tool == "write":
        effects = (Effect("created" if known is False else "overwritten", resolved, where, program="write_file"),)
    elif tool == "edit":
        effects = (Effect("modified", resolved, where, program="edit_file"),)
        requirements = (Requirement(resolved, path, "edit_file", f"Error: file not found: {path}"),)
    else:
        requirements = (Requirement(resolved, path, "read_file", f"Error: file not found: {path}"),)
        if kind := secret_kind(resolved):  # the host's Read tool reads a secret as surely as `cat` does
            effects = (Effect("secret-read", resolved, where, target=kind, program="read_file"),)
    return Semantics(f"{tool} {path}", location.cwd, location.root, effects, (), requirements, (tool,),
                     location.cwd, {0: frozenset()})
