"""The virtual git: a bashkit builtin that runs the forms git_cli.py reads on a repository the world knows.

A repository is known only where the world saw a computed `git init -q` make it: its index (path -> content),
HEAD's tree (none before the first commit), the identity `git config` set in it, and how many commits it has.
Its `.git` folder is opaque to the file facts (its bytes are git's); anything else that touches it, and any
step the world did not compute that may have, drops the record (knowledge.py, learning.py).

What the world assumes of git's surroundings: the settings files it reads (/etc/gitconfig, ~/.config/git/config,
~/.gitconfig) known to the world, absent or setting only what git_settings.py lists as honoured (the identity,
init.defaultBranch, settings of commands never run here); no GIT_* variable nor XDG_CONFIG_HOME exported; the
stock templates `git init` copies (no hook that runs, an info/exclude of comments only). Files are assumed to keep
the mode they were made with (a chmod drops the record: learning.py).

A content of None is a file whose bytes the world does not know: git may store it, never compare it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import replace

from bashkit import BuiltinResult

from ..world.knowledge import GitRepository as Repository
from ..world.knowledge import Knowledge
from . import git_branch, git_cli, git_diff, git_paths
from .git_settings import UserSettings, read_settings, settings_problem
from .git_tree import PLAIN_NAME, Refused, Tree, WorkTree

_SWITCHES = ("switch", "checkout")
_HEX = re.compile(r"[0-9a-fA-F]{4,}")  # a word git may read as an object's abbreviated id


def home_problem(known: Knowledge, named: Iterable[str]) -> str | None:
    """Why git's surroundings are not ones the virtual git follows (git_settings.py); `named`: the line's paths."""
    return settings_problem(known, named)


class VirtualGit:
    """The `git` builtin of one run: `repositories` (work tree root -> record) as they stand after the run.
    `unknown`: the files whose content the world does not know, and the bytes this run filled them with."""

    def __init__(self, repositories: dict[str, Repository], known: Knowledge, unknown: set[str], filling: bytes):
        self.repositories = dict(repositories)
        self.known = known  # the settings outside the repository are read from it, where git runs
        self.unknown, self.filling = unknown, filling
        self.refused = ""

    def __call__(self, context) -> BuiltinResult:
        try:
            stdout, stderr, code = self._run(context)
        except Refused as refusal:
            self.refused = self.refused or str(refusal) or "git"
            return BuiltinResult("", "git: not computed\n", 1)
        return BuiltinResult(stdout, stderr, code)

    def _run(self, context) -> tuple[str, str, int]:
        if any(name.startswith("GIT_") or name == "XDG_CONFIG_HOME" for name in context.env):
            raise Refused("a GIT_* or XDG_CONFIG_HOME variable changes where git looks and what it reads")
        command = git_cli.read(list(context.argv))
        fs, root = context.fs, posixpath.normpath(context.cwd)
        settings = read_settings(self.known)
        git_folder = posixpath.join(root, ".git")
        if command.verb == "init":
            if fs.exists(git_folder) or root in self.repositories:
                raise Refused("`git init` where a repository may be: it reinitializes it")
            fs.mkdir(git_folder, True)
            self.repositories[root] = Repository(branch=settings.default_branch)
            return "", "", 0
        repository = self.repositories.get(root)
        if repository is None or not fs.exists(git_folder) or fs.stat(git_folder)["file_type"] != "directory":
            raise Refused("a git command outside the top of a repository the world saw made")
        # config, log, branch and a new branch read the repository alone
        reads = command.verb in ("status", "add", "commit", "diff", "restore", "rm") or \
            command.verb in _SWITCHES and not command.create
        work = WorkTree.read(fs, root, self.unknown, self.filling) if reads else WorkTree({}, set())
        if settings.drivers and any(posixpath.basename(path) == ".gitattributes" for path in work.files):
            raise Refused("an attributes file where the settings configure drivers: git may run one")
        if command.verb == "branch" and not command.name:
            stdout, stderr, code, after = git_branch.listing(repository)
        elif command.verb == "branch" or command.create:
            stdout, stderr, code, after = git_branch.create(repository, command.name, command.verb != "branch")
        elif command.verb in _SWITCHES:
            if command.name in work.files or command.name in work.folders or \
                    any(_under(path, command.name) for path in repository.index):
                raise Refused(f"`git {command.verb}` of a name that is also a path")
            stdout, stderr, code, after = git_branch.switch(repository, command.name, work, fs, root, command.verb)
        elif command.verb == "restore":
            stdout, stderr, code, after = git_paths.restore(repository, _named(command, repository),
                                                            command.staged, work, fs, root)
        elif command.verb == "rm":
            stdout, stderr, code, after = git_paths.remove_cached(repository, _named(command, repository),
                                                                  command.quiet, work)
        else:
            stdout, code, after = getattr(self, "_" + command.verb)(command, repository, work, settings)
            stderr = ""
        self.repositories[root] = after
        return stdout, stderr, code

    @staticmethod
    def _config(command: git_cli.GitCommand, repository: Repository, work: WorkTree, settings: UserSettings):
        if command.value is not None:
            return "", 0, replace(repository, config={**repository.config, command.key: command.value})
        value = _identity(repository, settings).get(command.key)
        if value is None:
            raise Refused("`git config` of a key not set: it fails without a word")
        return value + "\n", 0, repository

    @staticmethod
    def _status(command: git_cli.GitCommand, repository: Repository, work: WorkTree, settings: UserSettings):
        if command.long:
            return _long_status(repository, work, "No commits yet"), 0, repository
        return "".join(f"{code} {_quoted(path)}\n" for code, path in _status(repository, work)), 0, repository

    @staticmethod
    def _add(command: git_cli.GitCommand, repository: Repository, work: WorkTree, settings: UserSettings):
        index = dict(repository.index)
        if command.every:
            chosen = [""]
        else:
            chosen = [_within(spec) for spec in command.pathspecs]
            if any(spec.endswith("/") and top not in work.folders for spec, top in zip(command.pathspecs, chosen)):
                raise Refused("`git add` of a name ending in / that is no folder: git matches nothing")
            for top in chosen:
                matched = [path for path in (*work.files, *index) if _under(path, top)]
                if not matched:
                    raise Refused("`git add` of a path that matches nothing: its error is not proven")
                if top in work.files and top not in index and work.ignored(top):
                    raise Refused("`git add` of an ignored file: git refuses it with a hint")
                if top in work.folders and not any(_under(p, top) and not work.ignored(p) for p in work.files) \
                        and not any(_under(p, top) for p in index):
                    raise Refused("`git add` of a folder holding only ignored files")
        for top in chosen:
            for path in [p for p in index if _under(p, top) and p not in work.files]:
                del index[path]  # a tracked file gone from the work tree: its removal is staged
            for path, content in work.files.items():
                if _under(path, top) and (path in index or not work.ignored(path)):
                    index[path] = content
        return "", 0, replace(repository, index=index)

    @staticmethod
    def _commit(command: git_cli.GitCommand, repository: Repository, work: WorkTree, settings: UserSettings):
        if not all(_identity(repository, settings).get(key) for key in ("user.name", "user.email")):
            raise Refused("`git commit` without an identity set in the repository or the user's settings: git "
                          "guesses one from the system")
        index = dict(repository.index)
        if command.every:
            for path in list(index):
                if path in work.files:
                    index[path] = work.files[path]
                else:
                    del index[path]
        head = repository.head or {}
        if _differs(index, head):
            return "", 0, replace(repository, index=index, head=index, commits=repository.commits + 1)
        staged = replace(repository, index=index)
        return _long_status(staged, work, "Initial commit"), 1, staged

    @staticmethod
    def _diff(command: git_cli.GitCommand, repository: Repository, work: WorkTree, settings: UserSettings):
        if work.files and any(posixpath.basename(path) == ".gitattributes" for path in work.files):
            raise Refused("`git diff` beside an attributes file: it may name a diff driver, or text conversions")
        tops = tuple(_within(spec) for spec in command.pathspecs)
        for spec, top in zip(command.pathspecs, tops):
            if spec.endswith("/") and top not in work.folders or not command.separated and top and \
                    top not in work.files and top not in work.folders:
                raise Refused("`git diff` of a path not in the work tree: git reads it as a revision, or matches "
                              "nothing")
            if not command.separated and (posixpath.basename(top) == repository.branch or _HEX.fullmatch(
                    posixpath.basename(top))):
                raise Refused("`git diff` of a path without `--` that git may read as a revision")
        if command.cached:
            old, new = repository.head or {}, repository.index
        else:
            old = repository.index
            new = {path: work.files[path] for path in old if path in work.files}
            if any(path not in work.files and path in work.folders for path in old):
                raise Refused("a tracked file replaced by a folder")
        pairs = git_diff.changes(old, new, tops)
        if any(before is None for _, before, _ in pairs) and any(after is None for _, _, after in pairs):
            raise Refused("`git diff` of files added and removed: git may show them as a rename")
        for path, _, _ in pairs:
            _shown(path)
        if command.stat:
            return git_diff.stat(pairs), 0, repository
        known = {content for tree in (repository.index, repository.head or {}, new) for content in tree.values()
                 if content is not None}
        return git_diff.patch(pairs, known), 0, repository

    @staticmethod
    def _log(command: git_cli.GitCommand, repository: Repository, work: WorkTree, settings: UserSettings):
        if not repository.commits:
            raise Refused("`git log` before the first commit fails")
        # One line a commit: only `wc -l` reads it (gate, listings), so the hash it stands for is never shown.
        return "".join(f"commit-{number}\n" for number in range(repository.commits)), 0, repository


def _status(repository: Repository, work: WorkTree) -> list[tuple[str, str]]:
    """`git status --short`'s (code, path) rows: tracked changes by path, then untracked paths (a folder holding
    no tracked file shown once, as `folder/`), each sorted."""
    index, head = repository.index, repository.head or {}
    staged = {"A": [p for p in index if p not in head], "D": [p for p in head if p not in index]}
    if staged["A"] and staged["D"]:
        raise Refused("files added and removed in the index: git status may show them as a rename")
    rows = []
    for path in sorted({*index, *head}):
        x = "A" if path not in head else "D" if path not in index else "M" if _differs_file(index[path],
                                                                                            head[path]) else " "
        y = " " if path not in index else "D" if path not in work.files else "M" if _differs_file(
            index[path], work.files[path]) else " "
        if x + y != "  ":
            rows.append((x + y, _shown(path)))
    untracked = set()
    for path in work.files:
        if path in index or work.ignored(path):
            continue
        parts = path.split("/")
        shown = path
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            if not any(tracked.startswith(folder + "/") for tracked in index):
                shown = folder + "/"
                break
        untracked.add(shown)
    return rows + [("??", _shown(path)) for path in sorted(untracked)]


_LABELS = {"A": "new file:   ", "M": "modified:   ", "D": "deleted:    "}


def _long_status(repository: Repository, work: WorkTree, initial: str) -> str:
    """git's long status: the branch (`git init`'s), `initial` ("No commits yet" for
    status, "Initial commit" for a commit with nothing to commit) before the first commit, each section with its
    hints, and where nothing is staged, why."""
    rows = _status(repository, work)
    staged = [(code[0], path) for code, path in rows if code[0] not in " ?"]
    unstaged = [(code[1], path) for code, path in rows if code[1] not in " ?"]
    untracked = [path for code, path in rows if code == "??"]
    lines = [f"On branch {repository.branch}"] + (["", initial, ""] if repository.head is None else [])
    if staged:
        lines += ["Changes to be committed:", '  (use "git rm --cached <file>..." to unstage)'
                  if repository.head is None else '  (use "git restore --staged <file>..." to unstage)']
        lines += [f"\t{_LABELS[change]}{path}" for change, path in staged] + [""]
    if unstaged:
        verbs = "add/rm" if any(change == "D" for change, _ in unstaged) else "add"
        lines += ["Changes not staged for commit:", f'  (use "git {verbs} <file>..." to update what will be committed)',
                  '  (use "git restore <file>..." to discard changes in working directory)']
        lines += [f"\t{_LABELS[change]}{path}" for change, path in unstaged] + [""]
    if untracked:
        lines += ["Untracked files:", '  (use "git add <file>..." to include in what will be committed)']
        lines += [f"\t{path}" for path in untracked] + [""]
    if not staged:
        lines.append('no changes added to commit (use "git add" and/or "git commit -a")' if unstaged else
                     'nothing added to commit but untracked files present (use "git add" to track)' if untracked else
                     'nothing to commit (create/copy files and use "git add" to track)' if repository.head is None
                     else "nothing to commit, working tree clean")
    return "\n".join(lines) + "\n"  # where something is staged, the last section's blank line ends it


def _identity(repository: Repository, settings: UserSettings) -> dict[str, str]:
    """user.name and user.email as git finds them: the repository's own, else the user's settings."""
    found = {key: settings.values.get(key) for key in ("user.name", "user.email")}
    return {key: value for key, value in {**found, **repository.config}.items() if value}


def _differs(one: Tree, other: Tree) -> bool:
    return one.keys() != other.keys() or any(_differs_file(one[path], other[path]) for path in one)


def _differs_file(one: bytes | None, other: bytes | None) -> bool:
    if one is None or other is None:
        raise Refused("a file git compares has content the world does not know")
    return one != other


def _named(command: git_cli.GitCommand, repository: Repository) -> tuple[str, ...]:
    """The pathspecs of restore and rm, as paths from the top; refused where git would quote a path it names."""
    tops = tuple(_within(spec) for spec in command.pathspecs)
    if any(spec != (top or ".") for spec, top in zip(command.pathspecs, tops)):
        raise Refused("a pathspec not written as git prints it (`./`, `//`, a trailing /)")
    for path in (*tops, *repository.index, *(repository.head or {})):
        if path:
            _shown(path)
    return tops


def _within(spec: str) -> str:
    """A pathspec typed at the work tree's top, as a path relative to it ('' for the whole tree)."""
    path = posixpath.normpath(spec)
    if path == ".":
        return ""
    if path.startswith(".."):
        raise Refused("a path outside the repository")
    return path


def _under(path: str, top: str) -> bool:
    return not top or path == top or path.startswith(top + "/")


def _quoted(path: str) -> str:
    """A path as status shows it: in double quotes where it holds a space (git's C-style quoting)."""
    return f'"{_shown(path)}"' if " " in path else _shown(path)


def _shown(path: str) -> str:
    if not PLAIN_NAME.fullmatch(path):
        raise Refused("a name git quotes in its output")
    return path
