"""Git's view of a user's folder, read without running anything the repository or the user configures.

A repository can name programs that git itself starts: clean, smudge and process filters (an lfs
filter among them), `core.fsmonitor`, hooks and `core.hooksPath`, textconv drivers, pagers. `git
status` runs a clean filter on any file whose stat changed or is racily clean, so asking plain git
about a folder an agent may edit lets that agent run any command through us. This module is the one
place in the package that starts git on a user's folder, and it keeps git from running anything:

- Only two read-only commands see the folder's real configuration: `rev-parse` (where the
  repository is) and `config --list` (its settings). Neither loads the index or starts a program.
- Every other command runs against a stand-in git directory: a private temporary folder whose
  entries are links to the real one (objects, refs, index, info, logs, ...), with a copy of HEAD
  (git refuses a linked HEAD), no hooks, and a config of our own. That config carries over only
  the settings that change what status reports and name no program (line endings, case, stat
  checks, excludes and attributes files, sparse checkout, the repository format), and it turns
  fsmonitor, the untracked cache and hooks off. The system and global configuration are ignored
  and every `GIT_*` variable of the caller's environment is dropped. Optional locks are off; were
  git to write its index anyway, the write would land in the stand-in folder, not the repository.
- A filter the repository configures is therefore never run. Git compares such a file's raw bytes
  with the index instead: the same bytes are the same file, but different bytes do not prove a
  change (the filter might have mapped them to the committed content), so those entries carry the
  filter's name and callers report them as unknown.
- Submodules are not entered (each has a git configuration of its own); their paths are listed
  as submodules and callers say what they cannot know about them.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import Literal

# Settings copied into the stand-in config: they decide what status reports and name no program.
_CARRIED = frozenset({
    "core.repositoryformatversion", "core.ignorecase", "core.precomposeunicode", "core.symlinks", "core.filemode",
    "core.trustctime", "core.checkstat", "core.autocrlf", "core.eol", "core.excludesfile", "core.attributesfile",
    "core.sparsecheckout", "core.sparsecheckoutcone", "core.checkroundtripencoding", "index.sparse",
})
# Repository-format extensions git needs to read the repository at all. Not `partialclone`: it would let
# a missing object start a fetch (a missing object is an error here, which callers report as unknown).
_EXTENSIONS = frozenset({"extensions.objectformat", "extensions.worktreeconfig", "extensions.refstorage",
                         "extensions.preciousobjects", "extensions.compatobjectformat"})
_FORCED = {"core": {"bare": "false", "fsmonitor": "false", "untrackedcache": "false", "hookspath": os.devnull}}
# What the real git directory holds that the stand-in leaves out: the files that name programs, HEAD (copied:
# git refuses a linked one) and a linked worktree's pointer to the shared directory (pointed at its stand-in).
_NOT_LINKED = frozenset({"config", "config.worktree", "hooks", "HEAD", "commondir"})
_FILTER_VARIABLES = ("clean", "smudge", "process")
GITLINK_MODE = "160000"


class GitUnanswered(Exception):
    """Git could not be asked (too slow, or it failed); the message says why, in a sentence's middle."""


@dataclass(frozen=True)
class StatusEntry:
    code: str  # porcelain v1 XY: '??' untracked, '!!' ignored, else staged/unstaged changes
    path: str  # relative to the top of the work tree; a folder ends with '/'
    filter: str = ""  # a changed tracked file run through this configured filter: whether it changed is unknown


class Repository:
    """One repository a folder lies in, asked read-only through a stand-in git directory. Use it in a `with`."""

    def __init__(self, top: str, folder: str, settings: dict[str, str], standin: str, deadline: float,
                 seconds: float):
        self.top = top  # absolute path of the work tree's top
        self._folder = folder
        self._filters = _configured_filters(settings)
        self._standin = standin
        self._deadline = deadline
        self._seconds = seconds
        self._env = {**_clean_env(), "GIT_DIR": posixpath.join(standin, "git"), "GIT_WORK_TREE": top,
                     "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_NO_LAZY_FETCH": "1"}

    @classmethod
    def find(cls, folder: str, seconds: float = 1.0, deadline: float | None = None) -> Repository | None:
        """The repository `folder` lies in; None where it lies in none or there is no git. Raises GitUnanswered."""
        deadline = deadline if deadline is not None else time.monotonic() + seconds
        located = _run(["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--git-common-dir"],
                       folder, _clean_env(), deadline, seconds, missing_ok=True)
        if located is None:
            return None
        lines = located.removesuffix("\n").split("\n")
        if len(lines) < 3 or not all(os.path.isdir(path) for path in lines[:3]):
            return None  # a bare repository, the inside of .git, or a path git could not print on one line
        top, git_dir, common_dir = lines[:3]
        listed = _run(["config", "-z", "--list"], folder, _clean_env(), deadline, seconds, missing_ok=True) or ""
        settings = dict(_parse_config(listed))
        standin = tempfile.mkdtemp(prefix="agentworld-git-")
        try:
            common = None
            if os.path.realpath(git_dir) != os.path.realpath(common_dir):  # a linked worktree
                common = posixpath.join(standin, "common")
                _link_entries(common_dir, common)
                _write_config(common, settings)
            _link_entries(git_dir, posixpath.join(standin, "git"))
            if common is None:
                _write_config(posixpath.join(standin, "git"), settings)
            else:
                with open(posixpath.join(standin, "git", "commondir"), "w", encoding="utf-8") as pointer:
                    pointer.write(common + "\n")
            shutil.copyfile(posixpath.join(git_dir, "HEAD"), posixpath.join(standin, "git", "HEAD"))
        except OSError as error:
            shutil.rmtree(standin, ignore_errors=True)
            raise GitUnanswered(f"the git directory {git_dir} could not be read ({error.strerror})") from error
        return cls(top, folder, settings, standin, deadline, seconds)

    def __enter__(self) -> Repository:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        shutil.rmtree(self._standin, ignore_errors=True)  # unlinks the links; never follows them

    # --- what git knows ---
    def status(self, pathspecs: list[str] | None = None,
               untracked: Literal["normal", "all"] = "normal") -> list[StatusEntry]:
        """Changed, untracked and ignored paths (under `pathspecs`, absolute paths, when given)."""
        args = ["status", "--porcelain=v1", "-z", "--ignored=matching", f"--untracked-files={untracked}",
                "--ignore-submodules=all", "--no-renames"]
        if pathspecs is not None:
            args += ["--", *(f":(literal){path}" for path in pathspecs)]
        records = self._git(args).split("\0")
        entries = [StatusEntry(record[:2], record[3:]) for record in records if len(record) >= 4]
        return self._mark_filtered(entries)

    def tracked(self, pathspecs: list[str] | None = None) -> dict[str, str]:
        """Every path in the index (under `pathspecs` when given) with its mode; a submodule's is GITLINK_MODE."""
        args = ["ls-files", "--stage", "-z", "--full-name"]
        if pathspecs is not None:
            args += ["--", *(f":(literal){path}" for path in pathspecs)]
        tracked = {}
        for record in self._git(args).split("\0"):
            info, _, path = record.partition("\t")
            if path:
                tracked[path] = info.split(" ", 1)[0]
        return tracked

    def keeps_reflog(self) -> bool:
        """Whether HEAD has a reflog (logs/HEAD in the git directory, git-reflog(1)): it keeps the commit a reset
        leaves reachable as HEAD@{1}. Read as a file: no git program runs."""
        return os.path.isfile(posixpath.join(self._standin, "git", "logs", "HEAD"))

    def newest_stash(self) -> str:
        """The newest stash's line in `git stash list` ('stash@{0}: WIP on main: ...'), or '' when there is none."""
        return self._git(["stash", "list", "--max-count=1"]).strip()

    # --- plumbing ---
    def _mark_filtered(self, entries: list[StatusEntry]) -> list[StatusEntry]:
        # Only a modification rests on comparing contents; a deletion or a type change is one whatever a filter does.
        changed = [entry.path for entry in entries if entry.code[1] == "M"]
        if not changed or not self._filters:
            return entries
        listed = self._git(["check-attr", "-z", "--stdin", "filter"], stdin="\0".join(changed) + "\0",
                           cwd=self.top).split("\0")
        drivers = {listed[i]: listed[i + 2] for i in range(0, len(listed) - 2, 3)}
        return [StatusEntry(entry.code, entry.path, drivers[entry.path])
                if drivers.get(entry.path) in self._filters else entry for entry in entries]

    def _git(self, args: list[str], stdin: str | None = None, cwd: str | None = None) -> str:
        done = _run(args, cwd or self._folder, self._env, self._deadline, self._seconds, stdin=stdin)
        if done is None:
            raise GitUnanswered("git could not be started")
        return done


def _run(args: list[str], cwd: str, env: dict[str, str], deadline: float, seconds: float, stdin: str | None = None,
         missing_ok: bool = False) -> str | None:
    """git's output, or None where it failed (and `missing_ok`) or is not installed."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise GitUnanswered(f"git did not answer within {seconds:g} s")
    try:
        done = subprocess.run(["git", "--no-optional-locks", "--no-pager", *args], cwd=cwd, env=env,
                              capture_output=True, timeout=left,
                              input=stdin.encode("utf-8", "surrogateescape") if stdin is not None else None)
    except subprocess.TimeoutExpired as error:
        raise GitUnanswered(f"git did not answer within {seconds:g} s") from error
    except OSError:
        return None  # no git on this machine (or no such folder): the folder is read as a plain one
    if done.returncode != 0:
        if missing_ok:
            return None
        raise GitUnanswered(f"git {args[0]} failed")
    return done.stdout.decode("utf-8", "surrogateescape")


def _clean_env() -> dict[str, str]:
    """The caller's environment without git's own variables (which could add configuration or redirect git)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    return {**env, "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}


def _parse_config(listed: str) -> list[tuple[str, str]]:
    """`git config -z --list`'s records: 'key\\nvalue' (a key alone is a boolean true)."""
    pairs = []
    for record in listed.split("\0"):
        if record:
            key, _, value = record.partition("\n")
            pairs.append((key, value if "\n" in record else "true"))
    return pairs


def _configured_filters(settings: dict[str, str]) -> frozenset[str]:
    """The filter drivers the configuration defines a program for (git ignores a driver with none)."""
    names = set()
    for key, value in settings.items():
        section, _, rest = key.partition(".")
        name, _, variable = rest.rpartition(".")
        if section == "filter" and name and variable in _FILTER_VARIABLES and value:
            names.add(name)
    return frozenset(names)


def _link_entries(source: str, target: str) -> None:
    os.makedirs(target)
    for name in os.listdir(source):
        if name not in _NOT_LINKED:
            os.symlink(posixpath.join(source, name), posixpath.join(target, name))


def _write_config(folder: str, settings: dict[str, str]) -> None:
    sections: dict[str, dict[str, str]] = {}
    for key, value in settings.items():
        if key in _CARRIED or key in _EXTENSIONS:
            section, _, variable = key.partition(".")
            sections.setdefault(section, {})[variable] = value
    for section, values in _FORCED.items():
        sections.setdefault(section, {}).update(values)
    text = "".join(f"[{section}]\n" + "".join(f"\t{name} = {_quoted(value)}\n" for name, value in values.items())
                   for section, values in sections.items())
    with open(posixpath.join(folder, "config"), "w", encoding="utf-8", errors="surrogateescape") as config:
        config.write(text)


def _quoted(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'
