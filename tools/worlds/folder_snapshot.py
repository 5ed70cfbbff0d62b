"""A world's start from a real folder: a read-only, bounded, redacted snapshot of what is there.

Paths, sizes, modes and git's view (tracked, modified, untracked, ignored) are read; small text files
are read too, through the redactor. Nothing in the folder is written or run: the walk uses `lstat`
and never follows a symlink (a symlink is listed as present and its target left unknown), and git is
asked through tools/worlds/git_reader.py, which runs no filter, hook or other program the repository or the
user's configuration names. What git ignores is listed, not read. A file
that is binary, too large or held a secret exists with its content unknown, so the virtual shell
never computes from a redacted or partial text. Hitting a bound is a warning naming it, never a failure.
"""

from __future__ import annotations

import os
import posixpath
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...domains.shell.world.screen import folder_shown
from ...domains.shell.virtual.git_settings import SYSTEM_CONFIG, rule_files, setting_files
from ...domains.shell.virtual.shell import VirtualShell
from ...engine.errors import InputError
from ..data.redaction import Redactor
from ..limits import SnapshotBounds
from .git_reader import GITLINK_MODE, GitUnanswered, Repository
from .git_settings import read_git_settings

_GIT_SECONDS = 2.0
_STATE_ENTRIES = 40  # paths the state text names; the rest are counted


@dataclass
class FolderSnapshot:
    root: str  # absolute, resolved
    home: str
    user: str
    files: dict[str, str | None] = field(default_factory=dict)  # relative path -> text (None: content unknown)
    sizes: dict[str, int] = field(default_factory=dict)
    modes: dict[str, str] = field(default_factory=dict)  # relative path -> "-rw-r--r--"
    folders: dict[str, bool] = field(default_factory=dict)  # relative path -> its listing is complete
    links: list[str] = field(default_factory=list)  # symlinks: present, target unknown
    # relative path -> tracked | modified | untracked | ignored | submodule | unknown (a filter's file, not run)
    git: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    # git's settings files on this machine (tools/worlds/git_settings.py): absolute path -> text (None: content
    # unknown), the absent ones left out; None where they were not read (the world does not know them)
    git_settings: dict[str, str | None] | None = None

    def as_json(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in ("root", "home", "user", "files", "sizes", "modes", "folders",
                                                    "links", "git", "warnings", "git_settings")}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FolderSnapshot:
        return cls(**data)

    def shell(self) -> VirtualShell:
        """The virtual shell that starts where this folder stands."""
        absolute = {posixpath.join(self.root, path) if path else self.root: value for path, value in
                    self.folders.items()}
        files = {posixpath.join(self.root, path): (text.encode() if text is not None else None)
                 for path, text in self.files.items()}
        shell = VirtualShell.starting(self.root, self.home, files, absolute, complete=absolute.get(self.root, False),
                                      user=self.user)
        self._know_git_settings(shell)
        return shell

    def _know_git_settings(self, shell: VirtualShell) -> None:
        """The world knows git's settings files as the snapshot read them: there with their text, or absent; where
        they were not read, not even the system's file is assumed absent."""
        known = shell.knowledge
        if self.git_settings is None:
            known.absent.discard(SYSTEM_CONFIG)
            return
        for path in (*setting_files(self.home), *rule_files(self.home)):
            if path in self.git_settings:
                text = self.git_settings[path]
                known.add_folder(posixpath.dirname(path), known.folders.get(posixpath.dirname(path), False))
                known.absent.discard(path)
                known.files[path] = text.encode() if text is not None else None
            elif known.status(path) != "present":
                known.absent.add(path)

    def state_text(self) -> str:
        """What the model is told: where the shell stands and what the folder holds (git's view beside it)."""
        shown = folder_shown(self.root, self.home)
        entries = []
        for path in sorted({*self.files, *(p for p in self.folders if p), *self.links}):
            if path in self.folders:
                entries.append(f"{path}/" + (" (git-ignored, not read)" if self.git.get(path) == "ignored" else ""))
            elif path in self.links:
                entries.append(f"{path} (symlink)")
            else:
                mark = self.git.get(path)
                entries.append(f"{path} ({self.sizes.get(path, 0)} bytes{', ' + mark if mark else ''})")
        listing = ", ".join(entries[:_STATE_ENTRIES]) + (f", and {len(entries) - _STATE_ENTRIES} more"
                                                        if len(entries) > _STATE_ENTRIES else "")
        return (f"Working folder: {self.root}\nUser: {self.user}, home {self.home}.\n"
                f"{self.root} contains: {listing or 'nothing'}.\n"
                f"The screen shows a fresh prompt: {self.user}@sandbox:{shown}$")


def take_snapshot(folder: str, bounds: SnapshotBounds = SnapshotBounds()) -> FolderSnapshot:
    """The snapshot of `folder` (already allowed by the caller), within `bounds`."""
    root = Path(folder).resolve()
    if not root.is_dir():
        raise InputError(f"from_dir {folder!r} is not a folder on this machine; give an existing folder's path")
    home = str(Path.home())
    snapshot = FolderSnapshot(str(root), home if str(root).startswith(home.rstrip("/") + "/") or str(root) == home
                              else "/root", os.environ.get("USER") or "user")
    snapshot.git = _git_view(root)
    if snapshot.home == home:
        snapshot.git_settings = read_git_settings(home, bounds)
    redactor = Redactor()
    total = 0
    snapshot.folders[""] = False
    pending = [""]
    deadline = time.monotonic() + bounds.max_seconds
    while pending:
        relative = pending.pop()
        if time.monotonic() > deadline:
            _warn(snapshot, f"the snapshot took over {bounds.max_seconds:g} s; folders not read by then are unknown")
            snapshot.folders[relative] = False
            continue
        complete = True
        try:
            entries = sorted(os.scandir(root / relative), key=lambda entry: entry.name)
        except OSError:
            snapshot.folders[relative] = False
            continue
        for entry in entries:
            path = posixpath.join(relative, entry.name) if relative else entry.name
            # Every path found counts (the starting folder is no path of its own), folders as soon as seen.
            if len(snapshot.files) + len(snapshot.folders) - 1 + len(snapshot.links) >= bounds.max_paths:
                _warn(snapshot, f"the folder holds more than {bounds.max_paths} paths; the rest are unknown to the "
                                "world")
                complete = False
                break
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISLNK(info.st_mode):
                snapshot.links.append(path)
                complete = False  # what the link is, the world does not know
            elif stat.S_ISDIR(info.st_mode):
                snapshot.folders[path] = False  # present; complete once its listing is read whole
                if snapshot.git.get(path) != "ignored" and entry.name != ".git":
                    pending.append(path)
            elif stat.S_ISREG(info.st_mode):
                snapshot.sizes[path] = info.st_size
                snapshot.modes[path] = stat.filemode(info.st_mode)
                text = None
                readable = info.st_size <= bounds.max_file_bytes and snapshot.git.get(path) != "ignored"
                if readable and total + info.st_size > bounds.max_total_bytes:
                    _warn(snapshot, f"more than {bounds.max_total_bytes} bytes of small files; later ones are listed "
                                    "with their content unknown")
                    readable = False
                if readable:
                    text = _text(root / path, redactor)
                    total += info.st_size if text is not None else 0
                elif info.st_size > bounds.max_file_bytes:
                    _warn(snapshot, f"files over {bounds.max_file_bytes} bytes are listed with their content unknown")
                snapshot.files[path] = text
            else:
                complete = False  # a device, fifo or socket: not a file the world can hold
        snapshot.folders[relative] = complete
    return snapshot


def _text(path: Path, redactor: Redactor) -> str | None:
    """The file's text, or None when it is binary, unreadable or held a secret (kept out, not approximated)."""
    try:
        data = path.read_bytes()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if "\0" in text:
        return None
    redacted, found = redactor.redact(text)
    return None if found else redacted


def _git_view(root: Path) -> dict[str, str]:
    """git's view of the folder, read without running anything the repository configures (tools/worlds/git_reader.py);
    {} where it is no repository, or git is absent or slow."""
    try:
        repository = Repository.find(str(root), _GIT_SECONDS)
        if repository is None:
            return {}
        with repository:
            tracked = repository.tracked([str(root)])
            entries = repository.status([str(root)], untracked="all")
            prefix = posixpath.relpath(str(root), repository.top)
    except GitUnanswered:
        return {}
    view = {path: "submodule" if mode == GITLINK_MODE else "tracked" for path, mode in tracked.items()}
    for entry in entries:
        view[entry.path.rstrip("/")] = ("unknown" if entry.filter else
                                        {"??": "untracked", "!!": "ignored"}.get(entry.code, "modified"))
    if prefix == ".":
        return view
    # The snapshot names paths from its own folder; git names them from the repository's top.
    return {path[len(prefix) + 1:]: mark for path, mark in view.items() if path.startswith(prefix + "/")}


def _warn(snapshot: FolderSnapshot, warning: str) -> None:
    if warning not in snapshot.warnings:
        snapshot.warnings.append(warning)
