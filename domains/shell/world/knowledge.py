"""What a world knows of its files and its shell: one record, with each fact held at one of two levels.

- **Exact**: what the world determines for certain: its starting files, and what computed steps left
  (files with their content or "content unknown", folders whose listing is complete or not, paths known
  gone, variables, the previous folder). The virtual shell computes from these facts alone, so a step
  the model predicted adds only what holds whether or not its output was right (a path it deleted is
  gone, a folder it made is there) and makes unknown what it may have written.
- **Implied**: what each step's own semantics say it did, had it done what its command says (`touch a`
  made `a`), and what a real screen showed (a plain listing names what exists). The model is told these
  facts and the semantics check a command's needs against them; nothing is computed from them.

A question (`exists`, `is_dir`, `empty`) is answered by the exact facts where they know (inside the region a
computed line may touch), else by the implied ones; a path neither knows is unknown, never guessed: the
answer is True, False or None.
How a step updates the record is domains/shell/world/learning.py.
"""

from __future__ import annotations

import copy
import fnmatch
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from functools import cache

from ..reading.effects import Requirement
from ..reading.location import Location

MAX_NOTED = 24  # entries in the prompt's known-state block


@dataclass(frozen=True)
class GitRepository:
    """What the world knows of a repository it saw made (virtual/git.py): never changed in place, only replaced."""

    index: dict[str, bytes | None] = field(default_factory=dict)  # path in the work tree -> content staged
    head: dict[str, bytes | None] | None = None  # the last commit's tree; None: no commit yet
    config: dict[str, str] = field(default_factory=dict)  # what `git config` set in the repository
    commits: int = 0
    branch: str = "master"  # the branch HEAD names: init.defaultBranch where `git init` ran, else git's own default
    # The other branches, each with its commit's tree and how many commits it holds (virtual/git_branch.py).
    branches: dict[str, tuple[dict[str, bytes | None], int]] = field(default_factory=dict)
    previous: str = ""  # the branch `git switch -` goes back to; "": none (git_branch.UNKNOWN: not known)


@dataclass
class Knowledge:
    location: Location  # where the shell stands, and the workspace it started in
    home: str  # the shell's HOME
    # Exact facts. Every path in `files` or `folders` exists; a path in neither is known absent only under a
    # path in `absent` or inside a folder whose listing is complete.
    files: dict[str, bytes | None] = field(default_factory=dict)  # None: it exists, its content is unknown
    folders: dict[str, bool] = field(default_factory=dict)  # path -> its listing is complete
    absent: set[str] = field(default_factory=set)  # removed by a step the world saw: nothing is there or under it
    # Paths in a folder whose listing is otherwise complete that may or may not be there (a predicted step may have
    # made them: `git init` and its .git): each, and all under it, is unknown; the rest of the listing still holds.
    maybe_there: set[str] = field(default_factory=set)
    # Paths where a step the world did not compute may have made a link (`ln`, `ln -s`): a write through one, or
    # through a folder below one, changes what it points at, which the world does not know. Kept by `forget_all`.
    links: set[str] = field(default_factory=set)
    variables: dict[str, str] = field(default_factory=dict)  # set by computed steps (exported: see `exported`)
    exported: set[str] = field(default_factory=set)
    oldpwd: str | None = ""  # where `cd -` goes back to; "" unset (a fresh shell), None unknown (a predicted cd)
    # pushd's directory stack below its top (the top is the working folder), nearest first: () empty (a fresh
    # shell), None unknown (a step the world did not follow pushed or popped)
    dirstack: tuple[str, ...] | None = ()
    last_status: int | None = None  # the exit status of the last step, where a computed step knows it (`$?`)
    cwd_known: bool = True  # False after a predicted step that may have moved the shell: where it stands is then
    #                         implied only (`location` follows the prediction), and nothing is computed until a
    #                         real step says where it is
    # Repositories the world saw made (work tree's top -> record): dropped by anything that may touch their `.git`.
    repositories: dict[str, GitRepository] = field(default_factory=dict)
    # The shell's own state a computed line left (virtual/shell_state.py), replayed before each computed line:
    # functions as typed (name -> definition) and the proven options set (`pipefail`).
    functions: dict[str, str] = field(default_factory=dict)
    options: frozenset[str] = frozenset()
    shell_changed: str = ""  # what changed the shell's own behaviour (`set -o noclobber`, a function): nothing is
    #                          computed after it, since the virtual shell does not follow it
    # Implied facts. path -> "file" | "dir" | "exists" | "absent"; folders whose every visible entry is implied.
    implied: dict[str, str] = field(default_factory=dict)
    listed: set[str] = field(default_factory=set)

    @classmethod
    def starting(cls, location: Location, paths: tuple[str, ...] | list[str] = ()) -> Knowledge:
        """A world at `location` whose state names `paths` (folders end in '/'), as implied facts only:
        a domain's initial state enumerates its folder. Exact facts come from the virtual shell's start."""
        known = cls(location, location.home or location.cwd)
        known.imply_start(paths)
        return known

    def imply_start(self, paths: tuple[str, ...] | list[str] = ()) -> None:
        self.mark(self.cwd, "dir")
        for path in paths:
            self.mark(path, "dir" if path.endswith("/") else "file")
        if paths:
            self.listed.add(_clean(self.cwd))

    @property
    def cwd(self) -> str:
        return self.location.cwd

    @cwd.setter
    def cwd(self, cwd: str) -> None:
        self.location = self.location.moved_to(cwd)

    @property
    def previous_folder(self) -> str | None:
        """Where `cd -` goes back to, where the exact facts know it (the semantics read it: call.ShellHistory)."""
        return self.oldpwd or None

    def text_of(self, path: str) -> str | None:
        """A file's text where the exact facts hold it (call.FileContents: the semantics read a script, a Makefile
        or SQL the world knows by what it says); None where its content is unknown or not text."""
        content = self.files.get(posixpath.normpath(path)) if self._exact_answers(path) else None
        try:
            return content.decode("utf-8") if content is not None else None
        except UnicodeDecodeError:
            return None

    @property
    def workspace(self) -> str:
        """The folder the world started in."""
        return self.location.root

    @property
    def region(self) -> tuple[str, ...]:
        """Where a computed line may read and write: elsewhere, who may do what is the system's business."""
        roots = sorted({self.home, self.workspace, "/tmp"} - {"/"})
        return tuple(root for root in roots if not any(root.startswith(other + "/") for other in roots))

    # --- exact: what the virtual shell builds on -----------------------------------------------
    def status(self, path: str) -> str:
        """"present", "absent" (known so) or "unknown", from the exact facts alone."""
        if path in self.files or path in self.folders:
            return "present"
        if not path.startswith("/"):
            return "unknown"  # the facts hold absolute paths only (a relative one would never reach the root)
        parent = path
        while True:
            if parent in self.maybe_there:
                return "unknown"
            if parent in self.absent:
                return "absent"
            parent = posixpath.dirname(parent)
            if parent in self.files:
                return "absent"  # nothing lies under a file
            if parent in self.folders:
                return "absent" if self.folders[parent] else "unknown"
            if parent == "/":
                return "unknown"

    def add_folder(self, path: str, complete: bool) -> None:
        for ancestor in ancestors(path):
            self.folders.setdefault(ancestor, False)
            self.files.pop(ancestor, None)
            self.absent.discard(ancestor)
            self.maybe_there.discard(ancestor)
        self.absent.discard(path)
        self.maybe_there.discard(path)
        self.folders[path] = complete or self.folders.get(path, False)

    def forget_under(self, path: str) -> None:
        """`path` and everything under it are gone (a deletion the world learned of)."""
        for table in (self.files, self.folders):
            for known in [k for k in table if k == path or k.startswith(path.rstrip("/") + "/")]:
                del table[known]
        self.absent = {k for k in self.absent if not k.startswith(path.rstrip("/") + "/")}
        self.maybe_there = {k for k in self.maybe_there if not under(k, (path,))}
        self.absent.add(path)
        self.repositories = {root: record for root, record in self.repositories.items()
                             if not under(posixpath.join(root, ".git"), (path,))}

    def make_unknown(self, path: str) -> None:
        """Whether `path` exists, and what it holds, becomes unknown. Where the nearest folder above it the world
        knows has a complete listing, only the name below it on the way to `path` becomes unsure and the rest of
        the listing holds; else that folder's listing was incomplete already (`mkdir -p a/b` may have made `a`)."""
        if any(ancestor in self.files for ancestor in ancestors(path)):
            return  # nothing lies under a file: a write there fails
        self.forget_under(path)
        self.absent.discard(path)
        below = path
        for ancestor in ancestors(path):
            self.absent.discard(ancestor)
            if ancestor in self.folders:
                if self.folders[ancestor]:
                    self.maybe_there.add(below)
                break
            if ancestor in self.maybe_there:
                break
            below = ancestor

    def forget_below_nearest(self, path: str) -> None:
        """All under the nearest folder above `path` the world knows becomes unknown, with its listing: a path whose
        name a step may have spelled otherwise each time (a loop's variable, a word the reader cannot spell)."""
        folder = next((ancestor for ancestor in ancestors(path) if ancestor in self.folders), "/")
        if not under(folder, self.region):
            self.forget_all()
            return
        self.forget_contents(folder)

    def forget_contents(self, folder: str) -> None:
        """The folder stays, what lies below it and its listing become unknown."""
        self.forget_under(folder)
        self.add_folder(folder, False)

    def known_in_full(self, folder: str, unsure: set[str] | None = None) -> bool:
        """The world knows every entry of `folder`: a folder whose listing is complete, none of its names unsure
        (`maybe_there`; an unsure name further below leaves this folder's own listing whole). `unsure`: the
        folders holding such names, where the caller asks of many folders."""
        return bool(self.folders.get(folder)) and folder not in (self._holding_unsure() if unsure is None else unsure)

    def _holding_unsure(self) -> set[str]:
        """The folders that hold a name that may or may not be there."""
        return {posixpath.dirname(path) for path in self.maybe_there}

    def entries(self, folder: str) -> list[str] | None:
        """The names in `folder` where the world knows it in full; None where it does not."""
        if not self.known_in_full(folder):
            return None
        return [posixpath.basename(path) for path in (*self.files, *self.folders)
                if posixpath.dirname(path) == folder and path != folder]

    def names_in(self, folder: str) -> list[str] | None:
        """The names `folder` may hold, folders ending in '/', where its listing is complete (call.Listings): each
        name that may or may not be there counts as there, as a file and as a folder. None where it is not known."""
        folder = _clean(folder)
        if not self.folders.get(folder) or not self._exact_answers(folder):
            return None
        names = [posixpath.basename(path) + ("/" if path in self.folders else "") for path in (*self.files,
                 *self.folders) if posixpath.dirname(path) == folder and path != folder]
        unsure = [posixpath.basename(path) for path in self.maybe_there if posixpath.dirname(path) == folder]
        return names + unsure + [name + "/" for name in unsure]

    def exported_values(self) -> dict[str, str | None]:
        """The variables the shell exports, with their values where known (call.Listings)."""
        return {name: self.variables.get(name) for name in self.exported}

    def listed_in_full_under(self, top: str) -> bool:
        """Every name at or below `top` is known (what `find top` walks): whether `top` is there, and each folder
        at or below it known in full. The content of the files there may be unknown."""
        unsure = self._holding_unsure()  # (once for the whole walk)
        return self.status(top) != "unknown" and all(
            self.known_in_full(folder, unsure) for folder in self.folders if under(folder, (top,)))

    def known_in_full_under(self, top: str) -> bool:
        """All at or below `top` is known (what `grep -r` reads): every name there, and every file's content."""
        return self.listed_in_full_under(top) and not any(
            content is None for path, content in self.files.items() if under(path, (top,)))

    def forget_all(self) -> None:
        """Something changed files the world cannot name: no exact fact of a file or folder holds any more,
        except the folders the shell and the system stand on (their listings unknown). What was exact stays
        implied: the world still tells the model what it last knew."""
        # (The shell's folder only where the world knows it: else it is the model's guess, perhaps no folder at all.)
        keep = {self.home, self.workspace, *system_folders()} | ({self.cwd} if self.cwd_known else set())
        keep |= {ancestor for path in list(keep) for ancestor in ancestors(path)}
        for path in self.absent:
            self.forget_implied_under(path)
            self.implied[path] = "absent"
        self.implied.update({path: "dir" for path in self.folders if path not in keep})
        self.implied.update({path: "file" for path in self.files})
        self.files = {}
        self.folders = {path: False for path in self.folders if path in keep}
        self.absent.clear()
        self.maybe_there.clear()
        self.repositories = {}

    def exact_part(self) -> Knowledge:
        """A copy of the exact facts and shell state, without the implied ones (what a computed step leaves)."""
        return replace(self, **{name: copy.copy(getattr(self, name)) for name in _EXACT}, implied={}, listed=set())

    def take_exact(self, other: Knowledge) -> None:
        """The exact facts and shell state of `other` (a computed step's outcome), the implied ones kept."""
        for name in _EXACT:
            setattr(self, name, copy.copy(getattr(other, name)))

    # --- questions: exact where it knows, else implied -------------------------------------------
    def _exact_answers(self, path: str) -> bool:
        """Whether the exact facts speak for `path`: inside the region, or a folder above it. Elsewhere they are
        only the virtual shell's scaffolding (its /etc, /root, /proc), which says nothing of the world."""
        return under(path, self.region) or any(under(root, (path,)) for root in self.region)

    def exists(self, path: str) -> bool | None:
        path = _clean(path)
        status = self.status(path) if self._exact_answers(path) else "unknown"
        if status != "unknown":
            return status == "present"
        kind = self.implied.get(path)
        if kind is not None:
            return kind != "absent"
        if self._holds_entries(path):
            return True
        child = path
        for ancestor in _parents(path):  # nearest first
            kind = self.implied.get(ancestor)
            if kind in ("absent", "file"):
                return False  # nothing lies under a missing path or a file
            if ancestor in self.listed and not posixpath.basename(child).startswith(".") and child not in self.implied:
                return False  # a listing showed the folder's entries, and this one was not among them
            if kind is not None:
                return None
            child = ancestor
        return None

    def is_dir(self, path: str) -> bool | None:
        path = _clean(path)
        if self._exact_answers(path):
            if path in self.folders or path in self.files:
                return path in self.folders
            if self.status(path) == "absent":
                return False
        kind = self.implied.get(path)
        if kind in ("dir", "file"):
            return kind == "dir"
        if kind == "absent":
            return False
        return True if self._holds_entries(path) else None

    def empty(self, path: str) -> bool | None:
        """A folder with no entries (a listing or mkdir showed it so, and nothing came since)."""
        path = _clean(path)
        if self._holds_entries(path):
            return False
        if (self.folders.get(path) and self._exact_answers(path)) or path in self.listed:
            return True
        return None

    def holds(self, requirement: Requirement) -> bool | None:
        """Whether the world's files meet what a command needs; None where it does not know."""
        if requirement.condition == "absent":
            present = self.exists(requirement.path)
            return None if present is None else not present
        if requirement.condition == "empty":
            return None if self.exists(requirement.path) is False else self.empty(requirement.path)
        return self.exists(requirement.path)

    def _holds_entries(self, path: str) -> bool:
        """Something under `path` is known to exist (so `path` is a folder that exists)."""
        prefix = path.rstrip("/") + "/"
        return any(known.startswith(prefix) and self._exact_answers(known) for known in (*self.files, *self.folders)) \
            or any(known.startswith(prefix) and kind != "absent" and self.exists(known) is not False
                   for known, kind in self.implied.items())

    # --- implied: what steps' semantics and real screens say ------------------------------------
    def mark(self, path: str, kind: str) -> None:
        path = _clean(path)
        if kind == "absent":
            self.forget_implied_under(path)
        else:
            for ancestor in _parents(path):
                if self.implied.get(ancestor) in ("absent", "file", None):
                    self.implied[ancestor] = "dir"
        if kind == "exists" and self.implied.get(path) in ("file", "dir"):
            return
        self.implied[path] = kind

    def unsure(self) -> None:
        """Something changed files the world cannot name (an unknown program, a glob): listings are stale."""
        self.listed.clear()

    def learn_listing(self, directory: str, names) -> None:
        self.mark(directory, "dir")
        self.listed.add(_clean(directory))
        for name in names:
            kind = "dir" if name.endswith("/") else "exists"
            self.mark(posixpath.join(directory, name.rstrip("/*@|=")), kind)

    def forget_implied_under(self, path: str, contents_unknown: bool = False) -> None:
        """Drop what is implied below `path`; `contents_unknown`: its listings no longer hold either."""
        for known in [k for k in self.implied if k.startswith(path + "/")]:
            del self.implied[known]
        if contents_unknown:
            self.listed = {folder for folder in self.listed if folder != path and not folder.startswith(path + "/")}

    def forget_implied_matching(self, pattern: str) -> None:
        for known in [k for k in self.implied if fnmatch.fnmatchcase(k, pattern)]:
            del self.implied[known]

    # --- telling ---------------------------------------------------------------------------------
    def note(self) -> str:
        """The known-state block for the prompt: what exists and what is gone, under the working folder."""
        cwd = _clean(self.cwd)
        present: list[str] = []
        gone: list[str] = []
        for path in sorted(self.implied):  # what steps taught: the state text already says how the world began
            if path == cwd or not path.startswith(cwd.rstrip("/") + "/"):
                continue
            there = self.exists(path)
            if there is None:
                continue
            relative = posixpath.relpath(path, cwd)
            (present if there else gone).append(relative + ("/" if there and self.is_dir(path) else ""))
        if not present and not gone:
            return ""
        lines = [f"Known in {cwd}:"]
        if present:
            lines.append("exists: " + ", ".join(present[:MAX_NOTED]) + (" ..." if len(present) > MAX_NOTED else ""))
        if gone:
            lines.append("does not exist: " + ", ".join(gone[:MAX_NOTED]) + (" ..." if len(gone) > MAX_NOTED else ""))
        return "\n".join(lines)


# Every field but the implied facts: what a computed step's outcome carries and the record takes from it.
_EXACT = tuple(known.name for known in fields(Knowledge) if known.name not in ("implied", "listed"))


@cache
def system_folders() -> tuple[str, ...]:
    """The folders every virtual shell starts with (its /tmp, /etc, /usr/bin, ...): they exist, no more is known."""
    from bashkit import Bash  # the virtual shell's interpreter: loaded only by a world that computes

    bash = Bash()
    found, pending = [], ["/"]
    while pending:
        folder = pending.pop()
        found.append(folder)
        pending.extend(posixpath.join(folder, e["name"]) for e in bash.read_dir(folder)
                       if e["metadata"]["file_type"] == "directory" and folder != "/proc")
    return tuple(sorted(found))


def under(path: str, tops: Iterable[str]) -> bool:
    """`path` is one of `tops` or lies below one."""
    return any(path == top or path.startswith(top.rstrip("/") + "/") for top in tops)


def _clean(path: str) -> str:
    return posixpath.normpath(path) if path else path


def ancestors(path: str) -> list[str]:
    """The folders above `path`, nearest first, the root last."""
    found = []
    while path not in ("/", ""):
        path = posixpath.dirname(path)
        found.append(path)
    return found


def _parents(path: str) -> list[str]:
    """The folders above `path` that an implied fact may name (the root is always there)."""
    return [ancestor for ancestor in ancestors(path) if ancestor != "/"]
