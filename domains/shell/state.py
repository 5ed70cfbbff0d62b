"""The file tree a world knows, and where its shell stands.

Built step by step from what is certain: the domain's initial state, each step's own semantics
(what the command does when it succeeds; the commands whose error line the screen shows did not
succeed), and what a real screen shows (a plain listing names what exists). A path the world was
never told about is unknown, never guessed: `exists` answers True, False or None.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .effects import WRITE_KINDS, Requirement, Semantics
from .location import Location

_ENTRY = re.compile(r"[^\s]+")
MAX_NOTED = 24  # entries in the prompt's known-state block


@dataclass
class FileTree:
    _known: dict[str, str] = field(default_factory=dict)  # absolute path -> "file" | "dir" | "exists" | "absent"
    # Folders whose every visible entry is known (a plain listing showed them): any other name is absent.
    _listed: set[str] = field(default_factory=set)

    # --- questions ---------------------------------------------------------------------------
    def exists(self, path: str) -> bool | None:
        path = _clean(path)
        kind = self._known.get(path)
        if kind is not None:
            return kind != "absent"
        if self._holds_entries(path):
            return True
        child = path
        for ancestor in _ancestors(path):  # nearest first
            kind = self._known.get(ancestor)
            if kind in ("absent", "file"):
                return False  # nothing lies under a missing path or a file
            if ancestor in self._listed and not posixpath.basename(child).startswith(".") and child not in self._known:
                return False  # a listing showed the folder's entries, and this one was not among them
            if kind is not None:
                return None
            child = ancestor
        return None

    def empty(self, path: str) -> bool | None:
        """A folder with no entries (a listing or mkdir showed it so, and nothing came since)."""
        path = _clean(path)
        if self._holds_entries(path):
            return False
        return True if path in self._listed else None

    def holds(self, requirement: Requirement) -> bool | None:
        """Whether the world's files meet what a command needs; None where it does not know."""
        if requirement.condition == "absent":
            present = self.exists(requirement.path)
            return None if present is None else not present
        if requirement.condition == "empty":
            return None if self.exists(requirement.path) is False else self.empty(requirement.path)
        return self.exists(requirement.path)

    def is_dir(self, path: str) -> bool | None:
        path = _clean(path)
        kind = self._known.get(path)
        if kind in ("dir", "file"):
            return kind == "dir"
        if kind == "absent":
            return False
        return True if self._holds_entries(path) else None

    def _holds_entries(self, path: str) -> bool:
        """Something under `path` is known to exist (so `path` is a folder that exists)."""
        return any(known.startswith(path + "/") and kind != "absent" for known, kind in self._known.items())

    # --- learning ----------------------------------------------------------------------------
    def mark(self, path: str, kind: str) -> None:
        path = _clean(path)
        if kind == "absent":
            self._forget_under(path)
        else:
            for ancestor in _ancestors(path):
                if self._known.get(ancestor) in ("absent", "file", None):
                    self._known[ancestor] = "dir"
        if kind == "exists" and self._known.get(path) in ("file", "dir"):
            return
        self._known[path] = kind

    def apply(self, semantics: Semantics) -> None:
        """A step that ran: its file effects are now true."""
        for effect in semantics.effects:
            if not effect.path:
                continue
            if effect.pattern:
                if effect.kind in ("deleted", "moved-from", "git-clean", "git-discard"):
                    self._forget_matching(effect.path)
                continue
            if effect.kind in ("deleted", "moved-from"):
                self.mark(effect.path, "absent")
            elif effect.kind in ("git-clean", "git-discard", "modified") and effect.tree:
                self._forget_under(effect.path, contents_unknown=True)
            elif effect.kind == "created" and effect.program == "mkdir":
                if not effect.forced or self.exists(effect.path) is False:  # mkdir -p may meet a full folder
                    self._listed.add(_clean(effect.path))  # a new folder is empty: anything else in it is absent
                self.mark(effect.path, "dir")
            elif effect.kind in WRITE_KINDS:  # the path exists after any of these
                self.mark(effect.path, "exists" if effect.tree else "file")

    def unsure(self) -> None:
        """Something changed files the world cannot name (an unknown program, a glob): listings are stale."""
        self._listed.clear()

    def learn_listing(self, directory: str, names: Iterable[str]) -> None:
        self.mark(directory, "dir")
        self._listed.add(_clean(directory))
        for name in names:
            kind = "dir" if name.endswith("/") else "exists"
            self.mark(posixpath.join(directory, name.rstrip("/*@|=")), kind)

    # --- telling -----------------------------------------------------------------------------
    def note(self, cwd: str) -> str:
        """The known-state block for the prompt: what exists and what is gone, under the working folder."""
        cwd = _clean(cwd)
        present: list[str] = []
        gone: list[str] = []
        for path, kind in sorted(self._known.items()):
            if path != cwd and not path.startswith(cwd + "/"):
                continue
            relative = posixpath.relpath(path, cwd)
            if relative == ".":
                continue
            (gone if kind == "absent" else present).append(relative + ("/" if kind == "dir" else ""))
        if not present and not gone:
            return ""
        lines = [f"Known in {cwd}:"]
        if present:
            lines.append("exists: " + ", ".join(present[:MAX_NOTED]) + (" ..." if len(present) > MAX_NOTED else ""))
        if gone:
            lines.append("does not exist: " + ", ".join(gone[:MAX_NOTED]) + (" ..." if len(gone) > MAX_NOTED else ""))
        return "\n".join(lines)

    def _forget_under(self, path: str, contents_unknown: bool = False) -> None:
        """Drop what is known below `path`; `contents_unknown`: its listings no longer hold either."""
        for known in [k for k in self._known if k.startswith(path + "/")]:
            del self._known[known]
        if contents_unknown:
            self._listed = {folder for folder in self._listed if folder != path and not folder.startswith(path + "/")}

    def _forget_matching(self, pattern: str) -> None:
        for known in [k for k in self._known if fnmatch.fnmatchcase(k, pattern)]:
            del self._known[known]


@dataclass
class WorldState:
    """A world's shell position and file tree, replayed from its steps."""

    location: Location
    tree: FileTree = field(default_factory=FileTree)

    @classmethod
    def starting(cls, location: Location, paths: Sequence[str] = ()) -> WorldState:
        state = cls(location)
        state.tree.mark(location.cwd, "dir")
        for path in paths:
            state.tree.mark(path, "dir" if path.endswith("/") else "file")
        if paths:  # a domain's initial state enumerates its folder
            state.tree._listed.add(_clean(location.cwd))
        return state

    def step(self, semantics: Semantics | None, observation: str, real: bool) -> Semantics | None:
        """Apply one step whose screen is `observation`; returns its effects as they happened."""
        if semantics is None:
            return None
        failed = failed_commands(semantics, observation)
        happened = semantics.without(*failed)
        self.tree.apply(happened)
        if happened.opaque or any(effect.pattern or effect.where == "unknown" for effect in happened.files()):
            self.tree.unsure()
        if real and not failed:
            self._learn_from_screen(semantics, observation)
        if semantics.cwd_after and not failed:
            self.location = self.location.moved_to(semantics.cwd_after)
        return happened

    def _learn_from_screen(self, semantics: Semantics, observation: str) -> None:
        """A plain `ls [DIR]` that printed names: those names exist."""
        if semantics.programs != ("ls",):
            return
        line = semantics.line.strip()
        words = line.split()
        if any(word.startswith("-") and set(word[1:]) - set("1aAFp") for word in words[1:]):
            return  # long listings, recursion, sorting by other keys: not read here
        operands = [word for word in words[1:] if not word.startswith("-")]
        if len(operands) > 1 or any(ch in line for ch in "*?[{$`|;&<>\"'\\"):
            return
        directory = posixpath.normpath(posixpath.join(semantics.cwd, operands[0])) if operands else semantics.cwd
        printed = _printed_lines(observation, line)
        if printed is None:
            return
        self.tree.learn_listing(directory, (name for text in printed for name in _ENTRY.findall(text)))


def failed_commands(semantics: Semantics, observation: str) -> list[int]:
    """The simple commands whose own error line (for a missing operand) the screen shows."""
    shown = observation.splitlines()
    return sorted({r.command for r in semantics.requirements if any(r.error in line for line in shown)})


def doubted_commands(semantics: Semantics, observation: str) -> list[int]:
    """The simple commands that may have done only part of their work, or none: those `failed_commands`
    finds, those whose program printed an error line of its own (`rm: cannot remove 'd': Is a directory`),
    those that run only if another succeeded or failed, and all of them where errors were sent away."""
    commands = {effect.command for effect in semantics.effects}
    if _ERRORS_HIDDEN.search(semantics.line) or "||" in semantics.line or _SHELL_ERROR.search(observation):
        return sorted(commands)  # an error sent away, or a command run only if another failed: any may not have run
    # Not anchored to a line's start: output without a final newline runs into the error line on a screen.
    complaining = {effect.command for effect in semantics.effects if effect.program and re.search(
        rf"(?<![\w./-]){re.escape(effect.program)}: ", observation)}
    conditional = {command for command in commands if semantics.depends_on.get(command)}
    return sorted(complaining | conditional | set(failed_commands(semantics, observation)))


_ERRORS_HIDDEN = re.compile(r"2>|&>|>&")
_SHELL_ERROR = re.compile(r"(?<![\w./-])bash: ")  # an ambiguous or failed redirection: its command did not run


def _printed_lines(observation: str, command: str) -> list[str] | None:
    lines = observation.splitlines()
    echoed = [index for index, text in enumerate(lines) if text.rstrip().endswith(command)]
    if not echoed:
        return None
    after = lines[echoed[-1] + 1:]
    while after and re.search(r"[$#]\s*$", after[-1]):
        after.pop()  # the next prompt
    if any("exit code" in text or "No such file" in text or "cannot access" in text for text in after):
        return None
    return after


def _clean(path: str) -> str:
    return posixpath.normpath(path) if path else path


def _ancestors(path: str) -> list[str]:
    parts, found = path.split("/"), []
    for index in range(len(parts) - 1, 1, -1):
        found.append("/".join(parts[:index]))
    return found
