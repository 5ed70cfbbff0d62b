"""What a command would lose, decided from the real workspace: the guard's notion of "can it be undone".

The shell semantics say what a line deletes, truncates, overwrites or moves over; only the disk
says what that costs. Here each such path is looked at, read-only and within a time bound:

- a path that does not exist, or that git ignores (regenerable output), loses nothing (`none`);
- a file git tracks with no uncommitted change comes back with `git checkout` (`recoverable`);
- an untracked or changed file, a folder holding one, a stash that exists, or a target set that
  cannot be listed cheaply (a list file, `xargs`, `find` with an action, too many glob matches)
  is gone for good (`irreversible`);
- where the workspace cannot be read (no such folder, git too slow), or where only a program the
  repository configures could tell (a changed file behind a filter, a submodule's own work), the
  answer is `unknown`.

Git is asked once per call, about the target paths only, through tools/worlds/git_reader.py, which runs
no filter, hook or other program the repository or the user's git configuration names.
Each verdict carries the fact it rests on, which the rule's reason quotes. Globs in secret reads
are expanded here too: `cat *` reads a secret only if one of its matches is one.
"""

from __future__ import annotations

import glob
import os
import posixpath
import re
import time
from dataclasses import dataclass, replace

from ...domains.shell import Effect, Semantics
from ...domains.shell.reading.effects import MADE_BY_LINE, Loss
from ...domains.shell.programs.secrets import secret_kind
from ..worlds.git_reader import GITLINK_MODE, GitUnanswered, Repository

# Effects that can destroy what a path held; a mode change loses the old mode (chmod that only adds keeps it).
LOSS_KINDS = frozenset({"deleted", "truncated", "overwritten", "moved-to", "permissions"})
GIT_LOSS_KINDS = frozenset({"git-discard", "git-clean", "git-stash-drop"})
MAX_TARGETS = 200  # a glob matching more is a target set too large to vouch for
MAX_READ_BYTES = 1 << 20  # an SQL file larger is not read: what it runs stays unknown
DEFAULT_SECONDS = 1.0
_UNMERGED = ("DD", "AU", "UD", "UA", "DU", "AA", "UU")
_HOST_FILE_TOOLS = ("write_file", "edit_file")  # the host's own edit tools keep their checkpoints
_SCRATCH = ("/tmp/", "/var/tmp/", "/dev/shm/")
_GLOB_CHARS = "*?["
_ADDS_ONLY = re.compile(r"^[ugoa]*\+[rwxXst]+(?:,[ugoa]*\+[rwxXst]+)*$")


@dataclass(frozen=True)
class Workspace:
    """The real folder a host runs in, if this process can see it; else why not."""

    cwd: str
    unseen: str = ""  # why the folder cannot be read from here ('' when it can)
    seconds: float = DEFAULT_SECONDS

    @classmethod
    def local(cls, cwd: str, seconds: float = DEFAULT_SECONDS) -> Workspace:
        if not cwd.startswith("/"):
            return cls(cwd, "the host gave no absolute working folder", seconds)
        if not os.path.isdir(cwd):
            return cls(cwd, f"the working folder {cwd} does not exist on the machine the guard runs on", seconds)
        return cls(cwd, "", seconds)

    @classmethod
    def remote(cls, cwd: str, why: str) -> Workspace:
        return cls(cwd, why)

    def exists(self, path: str) -> bool | None:  # the PathState the semantics ask while reading a line
        return os.path.lexists(path) if not self.unseen else None

    def is_dir(self, path: str) -> bool | None:
        return os.path.isdir(path) if not self.unseen else None

    def text_of(self, path: str) -> str | None:
        """A small text file's content (SQL a database client is given in a file); None where it is not one."""
        if self.unseen or not os.path.isfile(path) or os.path.getsize(path) > MAX_READ_BYTES:
            return None
        try:
            with open(path, encoding="utf-8") as file:
                return file.read()
        except (OSError, UnicodeDecodeError):
            return None


@dataclass(frozen=True)
class _Entry:
    code: str  # porcelain v1 XY: '??' untracked, '!!' ignored, else staged/unstaged changes
    path: str  # absolute; a folder ends with '/'
    filter: str = ""  # changed bytes of a file a configured filter reads: whether it changed is unknown


@dataclass(frozen=True)
class _Verdict:
    loss: Loss
    fact: str


def assess(semantics: Semantics, workspace: Workspace | None) -> Semantics:
    """`semantics` with each effect that could lose something marked with what the workspace says."""
    targets = [e for e in semantics.effects if _assessed(e)]
    if workspace is None or not targets:
        return semantics
    if workspace.unseen:
        return _with(semantics, {e: [_marked(e, _scratch(e) or _Verdict("unknown", workspace.unseen))]
                                 for e in targets if e.kind != "secret-read"})
    look = _Look(workspace, targets)
    return _with(semantics, {effect: look.effects_for(effect) for effect in targets})


def _assessed(effect: Effect) -> bool:
    if effect.program in _HOST_FILE_TOOLS:
        return False
    if effect.kind == "secret-read":
        return effect.pattern  # a glob: its matches decide
    if effect.kind == "permissions" and _ADDS_ONLY.match(effect.target):
        return False  # `chmod +x`: only adds permissions, so removing them again restores the file
    if effect.kind == "remote-destruction":
        return effect.path != ""  # a database that is a file (sqlite3): the file's state decides
    if effect.kind == "git-ref-move":
        return not effect.forced  # reset --soft: whether the reflog keeps the commit it leaves
    return effect.kind in LOSS_KINDS or effect.kind in GIT_LOSS_KINDS or (effect.kind == "modified"
                                                                          and effect.program == "dd")


def _with(semantics: Semantics, replaced: dict[Effect, list[Effect]]) -> Semantics:
    effects = tuple(new for effect in semantics.effects for new in replaced.get(effect, [effect]))
    return replace(semantics, effects=effects)


def _marked(effect: Effect, verdict: _Verdict) -> Effect:
    return replace(effect, loss=verdict.loss, fact=verdict.fact)


class _Look:
    """One look at the workspace for one line: git asked once, about every path the line touches."""

    def __init__(self, workspace: Workspace, targets: list[Effect]):
        self.workspace = workspace
        self.deadline = time.monotonic() + workspace.seconds
        self.problem = ""
        self.top = ""
        self.entries: list[_Entry] = []
        self.stash = ""
        self.reflog = False  # HEAD has a reflog: a commit a soft reset leaves stays reachable
        self.submodules: list[str] = []
        paths = [p for e in targets for p in self._paths(e)]
        self._ask_git(paths, stash=any(e.kind == "git-stash-drop" for e in targets))

    # --- git, read-only, through the reader that runs nothing the repository configures ---
    def _ask_git(self, paths: list[str], stash: bool) -> None:
        try:
            repository = Repository.find(self.workspace.cwd, self.workspace.seconds, self.deadline)
            if repository is None:
                return
            with repository:
                self.top = repository.top
                inside = sorted({p for p in paths if _under(p, self.top)})
                if stash:
                    self.stash = repository.newest_stash()
                self.reflog = repository.keeps_reflog()
                if not inside:
                    return
                self.entries = [_Entry(e.code, posixpath.join(self.top, e.path), e.filter)
                                for e in repository.status(inside)]
                self.submodules = [posixpath.join(self.top, path) for path, mode in repository.tracked(inside).items()
                                   if mode == GITLINK_MODE]
        except GitUnanswered as why:
            self.problem = str(why)

    # --- what each effect loses ---
    def _paths(self, effect: Effect) -> list[str]:
        """What git is asked about for an effect: its path, or for a glob the folder it lists."""
        path = effect.path
        if not path.startswith("/") or effect.where == "unknown" or "**" in path or effect.kind == "git-ref-move":
            return []
        cut = min((path.find(c) for c in _GLOB_CHARS if c in path), default=-1)
        return [path if cut < 0 else posixpath.dirname(path[:cut]) or "/"]

    def effects_for(self, effect: Effect) -> list[Effect]:
        if effect.kind == "secret-read":
            return self._secret_matches(effect)
        if effect.target == MADE_BY_LINE and os.path.lexists(effect.path):
            effect = replace(effect, target="")  # it was there before the line: what it held may be lost
        if self.problem:
            return [_marked(effect, _Verdict("unknown", self.problem))]
        return [_marked(effect, self._verdict(effect))]

    def _verdict(self, effect: Effect) -> _Verdict:
        path = effect.path
        if effect.kind == "git-stash-drop":
            return (_Verdict("irreversible", f"the stash list holds {self.stash}") if self.stash
                    else _Verdict("none", "there is no stash to drop"))
        if effect.kind == "git-ref-move":
            return (_Verdict("none", "the work tree and the index keep every change, and the reflog keeps the "
                                     "commit it leaves (HEAD@{1})") if self.reflog
                    else _Verdict("recoverable", "the repository keeps no reflog for HEAD: the commit it leaves is "
                                                 "kept only until git gc prunes it"))
        if effect.target == MADE_BY_LINE:  # effects_for has seen that the folder is not there before the line
            return _Verdict("none", f"{_shown(path.rstrip('/'), self.workspace.cwd)} is made by this line: it is "
                                    "not there before it, so it holds only what the line puts in it")
        if not path.startswith("/") or effect.where == "unknown" or "**" in path or (
                effect.pattern and not any(c in path for c in _GLOB_CHARS)):
            return _Verdict("irreversible", "which files it acts on is decided only when it runs (a list, find or "
                                            "xargs), so nothing can vouch that they hold no work")
        if any(c in path for c in _GLOB_CHARS):
            return self._glob_verdict(effect)
        if effect.kind == "remote-destruction":
            return self._database_verdict(effect, path)
        return self._path_verdict(effect, path)

    def _database_verdict(self, effect: Effect, path: str) -> _Verdict:
        """A database file: as any file, but an ignored one is not regenerable output, its rows are nowhere else."""
        verdict = self._path_verdict(effect, path)
        if verdict.loss == "none" and os.path.isfile(path):
            return _Verdict("irreversible", f"{_shown(path, self.workspace.cwd)} is ignored by git: its rows are "
                                            "nowhere else")
        return verdict

    def _glob_verdict(self, effect: Effect) -> _Verdict:
        matches = []
        for match in glob.iglob(effect.path):
            matches.append(match)
            if len(matches) > MAX_TARGETS:
                return _Verdict("irreversible", f"{effect.path} matches more than {MAX_TARGETS} paths")
        if not matches:
            return _Verdict("none", f"{effect.path} matches nothing")
        verdicts = [self._path_verdict(effect, match) for match in matches]
        return _worst(verdicts)

    def _path_verdict(self, effect: Effect, path: str) -> _Verdict:
        path = path.rstrip("/") or "/"
        shown = _shown(path, self.workspace.cwd)
        if scratch := _scratch(replace(effect, path=path)):
            return scratch
        if "/.git/" in path + "/" and self.top and _under(path, posixpath.join(self.top, ".git")):
            if path.endswith(".lock"):
                return _Verdict("none", f"{shown} is a lock file git left behind")
            return _Verdict("irreversible", f"{shown} is the repository's own data")
        if not os.path.lexists(path):
            return _Verdict("none", f"{shown} does not exist")
        folder = os.path.isdir(path) and not os.path.islink(path)
        if folder and effect.kind == "deleted" and not effect.tree:
            return _Verdict("none", f"{shown} is a folder: only an empty one is removed this way")
        if effect.kind in GIT_LOSS_KINDS:
            return self._git_verdict(effect, path, shown)
        if effect.kind == "permissions" and _only_adds(effect.target, path):
            return _Verdict("none", f"the new mode of {shown} only adds permissions: removing them restores it")
        if not self.top or not _under(path, self.top):
            what = "a folder" if folder else "a file"
            return _Verdict("irreversible", f"{shown} is {what} outside any git repository: nothing keeps a copy")
        return self._tracked_verdict(path, shown, folder)

    def _tracked_verdict(self, path: str, shown: str, folder: bool) -> _Verdict:
        entries = self._entries_at(path)
        if any(entry.code == "!!" for entry in entries if entry.path == path or _covers(entry.path, path)):
            return _Verdict("none", f"{shown} is ignored by git: regenerable output")
        lost = [entry for entry in entries if not entry.filter and (entry.code == "??" or entry.code[1] not in " !"
                                                                    or entry.code in _UNMERGED)]
        if lost:
            first = lost[0]
            why = "is untracked: git has no copy" if first.code == "??" else "has uncommitted changes"
            if folder:
                more = f" (and {len(lost) - 1} more)" if len(lost) > 1 else ""
                return _Verdict("irreversible", f"{shown} holds {_shown(first.path, self.workspace.cwd)}, which "
                                                f"{why}{more}")
            return _Verdict("irreversible", f"{shown} {why}")
        if unread := self._unread(path, shown, entries):
            return unread
        if any(entry.code[0] in "MAT" for entry in entries):
            return _Verdict("recoverable", f"{shown} has staged changes only: git's index keeps a copy")
        what = "every file in it is" if folder else "it is"
        return _Verdict("recoverable", f"{shown}: {what} tracked by git with no uncommitted change")

    def _git_verdict(self, effect: Effect, path: str, shown: str) -> _Verdict:
        entries = self._entries_at(path)
        if effect.kind == "git-clean":
            if effect.target == "ignored files only":
                ignored = [_shown(e.path, self.workspace.cwd) for e in entries if e.code == "!!"]
                named = ", ".join(ignored[:5]) + (f" and {len(ignored) - 5} more" if len(ignored) > 5 else "")
                return _Verdict("none", f"it removes only what git ignores (regenerable output): {named}" if ignored
                                else f"{shown} holds no file git ignores")
            cleaned = [e for e in entries if e.code == "??" or (e.code == "!!" and "ignored" in effect.target)]
            untracked = [e for e in cleaned if e.code == "??"]
            if untracked:
                return _Verdict("irreversible", f"{_shown(untracked[0].path, self.workspace.cwd)} is untracked: git "
                                                "has no copy")
            return _Verdict("none", f"{shown} holds no untracked file")
        changed = [e for e in entries if e.code not in ("??", "!!") and not e.filter]
        if changed:
            return _Verdict("irreversible", f"{_shown(changed[0].path, self.workspace.cwd)} has uncommitted changes")
        return self._unread(path, shown, entries) or _Verdict("none", f"{shown} has no uncommitted change to discard")

    def _unread(self, path: str, shown: str, entries: list[_Entry]) -> _Verdict | None:
        """What git was kept from reading under `path`: a file behind a configured filter, a submodule."""
        if filtered := [entry for entry in entries if entry.filter]:
            first = filtered[0]
            return _Verdict("unknown", f"{_shown(first.path, self.workspace.cwd)} goes through the repository's "
                                       f"'{first.filter}' filter and its bytes differ from git's copy; whether it "
                                       "changed is not checked, since that would run the filter's program")
        inner = [sub for sub in self.submodules if _under(sub, path)] or self._repository_above(path)
        if inner:
            return _Verdict("unknown", f"{_shown(inner[0], self.workspace.cwd)} is a submodule: its own uncommitted "
                                       "work is not read, since its git configuration may run programs")
        return None

    def _repository_above(self, path: str) -> list[str]:
        """The submodule (or other repository) `path` lies in, below the top: a folder holding `.git`."""
        folder = posixpath.dirname(path)
        while _under(folder, self.top) and folder != self.top:
            if os.path.lexists(posixpath.join(folder, ".git")):
                return [folder]
            folder = posixpath.dirname(folder)
        return []

    def _entries_at(self, path: str) -> list[_Entry]:
        """The status entries for `path`, what lies below it, and a folder entry above it."""
        return [entry for entry in self.entries if _under(entry.path.rstrip("/"), path) or _covers(entry.path, path)]

    def _secret_matches(self, effect: Effect) -> list[Effect]:
        """A glob read: the secrets among its matches, each named (none: the read is no secret read)."""
        found = []
        for count, match in enumerate(glob.iglob(effect.path)):
            if count >= MAX_TARGETS:
                return [effect]
            if kind := secret_kind(match):
                found.append(replace(effect, path=match, pattern=False, target=kind,
                                     fact=f"{_shown(match, self.workspace.cwd)} matches {effect.path}"))
        return found


def _scratch(effect: Effect) -> _Verdict | None:
    """A temp folder outside the workspace holds nothing anyone keeps: no need to look."""
    if effect.where == "outside" and any(effect.path.startswith(top) for top in _SCRATCH):
        return _Verdict("none", f"{effect.path} is in a temp folder")
    return None


def _only_adds(mode: str, path: str) -> bool:
    """An octal mode that keeps every permission bit the file has now."""
    if not re.fullmatch(r"[0-7]{3,4}", mode):
        return False
    try:
        current = os.lstat(path).st_mode & 0o7777
    except OSError:
        return False
    return int(mode, 8) | current == int(mode, 8)


def _worst(verdicts: list[_Verdict]) -> _Verdict:
    order = {"irreversible": 3, "unknown": 2, "recoverable": 1, "none": 0}
    return max(verdicts, key=lambda verdict: order[verdict.loss])


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _covers(entry_path: str, path: str) -> bool:
    """A folder entry (`?? build/`) stands for everything below it."""
    return entry_path.endswith("/") and _under(path, entry_path.rstrip("/"))


def _shown(path: str, cwd: str) -> str:
    return posixpath.relpath(path, cwd) if _under(path, cwd) and path != cwd else path
