"""The git command lines the virtual git (git.py) computes, read from their words alone.

Only forms whose output the world's facts decide and that print no hash, date or path outside the work tree:
`init -q`, `config user.name|user.email [VALUE]`, `status [-s|--short|--porcelain]`, `add` of `.`, `-A`/`--all` or
named paths, `commit -q -m MSG` (with `-a`), `diff` (its patch or --stat, of the work tree or --cached, of named
paths; git_diff.py), `branch [NAME]`, `switch [-c] NAME|-` and `checkout [-b] NAME|-` (git_branch.py),
`restore [--staged]`, `checkout --` and `rm --cached [-q]` of named paths (git_paths.py), and `log --oneline` (only
counted: gate and listings refuse it unless `wc -l` reads it). Anything else (other verbs, options before the verb
such as `-C`, pathspec magic or git's own globs) is the model's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .git_settings import BRANCH, IDENTITY
from .refusal import NotComputable

_KEYS = frozenset({"user.name", "user.email"})
_STATUS = {"-s": "--short", "--short": "--short", "--porcelain": "--porcelain"}
# A commit's short options, combined as agents type them (`-qam MSG`): q and a in any order, m last.
_COMMIT_FLAGS = re.compile(r"-(?P<flags>[qa]*)(?P<m>m?)(?P<message>.*)", re.DOTALL)
_PATHSPEC = re.compile(r"[\w./+,=@% -]+")  # no glob characters (git globs a pathspec itself), no magic (`:`)
# A word git reads as a revision, whatever the repository holds (`HEAD`, `@`, `x~1`): git.py refuses the rest.
_REVISION = re.compile(r".*HEAD.*|.*[~^@:].*")
# The forms the allowlist lists (allowlist.all_forms): each needs a computed case in the real-bash test.
FORMS = frozenset({"git init", "git init -q", "git config", "git status", "git status --short",
                   "git status --porcelain", "git add", "git add -A", "git commit", "git commit -q", "git commit -a",
                   "git commit -m", "git diff", "git diff --stat",
                   "git diff --cached", "git branch", "git switch", "git switch -c", "git checkout",
                   "git checkout -b", "git checkout --", "git restore", "git restore --staged", "git rm",
                   "git rm --cached", "git log", "git log --oneline"})


@dataclass(frozen=True)
class GitCommand:
    verb: str
    forms: frozenset[str]
    pathspecs: tuple[str, ...] = ()  # add's named paths, as typed (`.` among them)
    every: bool = False  # add -A, commit -a
    key: str = ""  # config's
    value: str | None = None  # config's value to set; None: it prints the one set
    message: str = ""  # commit's
    porcelain: bool = False
    long: bool = False  # status without options: the long format
    cached: bool = False  # diff's index against HEAD (--cached, --staged)
    stat: bool = False  # diff's --stat
    separated: bool = False  # diff's paths after `--`: git reads none of them as a revision
    name: str = ""  # the branch branch, switch and checkout name ("-": the one before; "": branch's list)
    create: bool = False  # switch -c, checkout -b
    staged: bool = False  # restore --staged
    quiet: bool = False  # rm -q


def read(arguments: list[str]) -> GitCommand:
    """The git command these words are, or NotComputable where they fall outside the proven forms."""
    if not arguments:
        raise NotComputable("a git command without a verb prints its usage")
    verb, words = arguments[0], arguments[1:]
    reader = _VERBS.get(verb)
    if reader is None:
        raise NotComputable(f"`git {verb[:30]}`: only init, config, status, add, commit, diff, "
                            "log --oneline, branch, switch, checkout, restore and rm --cached are computed")
    return reader(words)


def _init(words: list[str]) -> GitCommand:
    if words not in (["-q"], ["--quiet"]):
        raise NotComputable("`git init` without -q prints the repository's path and a hint about the branch name")
    return GitCommand("init", frozenset({"git init", "git init -q"}))


def _config(words: list[str]) -> GitCommand:
    if len(words) not in (1, 2) or words[0] not in _KEYS:
        raise NotComputable("`git config` other than setting or reading user.name or user.email in the repository")
    if len(words) == 2 and not IDENTITY.fullmatch(words[1]):
        raise NotComputable("a git identity with characters git may strip or refuse")
    return GitCommand("config", frozenset({"git config"}), key=words[0], value=words[1] if len(words) == 2 else None)


def _status(words: list[str]) -> GitCommand:
    if not words:
        return GitCommand("status", frozenset({"git status"}), long=True)
    if len(words) != 1 or words[0] not in _STATUS:
        raise NotComputable("`git status` with options other than one of -s, --short and --porcelain")
    form = _STATUS[words[0]]
    return GitCommand("status", frozenset({"git status", f"git status {form}"}), porcelain=form == "--porcelain")


def _add(words: list[str]) -> GitCommand:
    if words in (["-A"], ["--all"]):
        return GitCommand("add", frozenset({"git add", "git add -A"}), every=True)
    if not words or any(not _PATHSPEC.fullmatch(word) or word.startswith("-") for word in words):
        raise NotComputable("`git add` of other than `.`, -A or plain paths (options, git's own globs, magic)")
    return GitCommand("add", frozenset({"git add"}), pathspecs=tuple(words))


def _commit(words: list[str]) -> GitCommand:
    forms, quiet, every, message = {"git commit"}, False, False, None
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        match = _COMMIT_FLAGS.fullmatch(word) if word.startswith("-") and not word.startswith("--") else None
        if word == "--quiet":
            quiet = True
            continue
        if match is None or message is not None and match.group("m") or match.group("message") and not match.group("m"):
            raise NotComputable(f"`git commit` {word[:30]}: only -q, -a and -m MSG are computed")
        quiet = quiet or "q" in match.group("flags")
        every = every or "a" in match.group("flags")
        if match.group("m"):
            if not match.group("message") and index >= len(words):
                raise NotComputable("`git commit` -m without a message")
            message = match.group("message") or words[index]
            index += not match.group("message")
    if not quiet or message is None:
        raise NotComputable("`git commit` without -q prints the commit's hash; without -m it opens an editor")
    if not message.strip():
        raise NotComputable("`git commit` with an empty message aborts in words not proven")
    forms |= {"git commit -q", "git commit -m"} | ({"git commit -a"} if every else set())
    return GitCommand("commit", frozenset(forms), every=every, message=message)


def _diff(words: list[str]) -> GitCommand:
    cached = stat = separated = False
    pathspecs = []
    for word in words:
        if separated or not word.startswith("-"):
            if not _PATHSPEC.fullmatch(word) or not separated and _REVISION.fullmatch(word):
                raise NotComputable("`git diff` of a revision, or of a path with git's own globs or magic")
            pathspecs.append(word)
        elif word in ("--cached", "--staged"):
            cached = True
        elif word == "--stat":
            stat = True
        elif word == "--":
            separated = True
        else:
            raise NotComputable(f"`git diff` {word[:30]}: only --cached, --staged, --stat and paths are computed")
    forms = {"git diff"} | ({"git diff --stat"} if stat else set()) | ({"git diff --cached"} if cached else set())
    return GitCommand("diff", frozenset(forms), pathspecs=tuple(pathspecs), cached=cached, stat=stat,
                      separated=separated)


def _log(words: list[str]) -> GitCommand:
    if words != ["--oneline"]:
        raise NotComputable("`git log` other than --oneline counted: it shows hashes and dates the world cannot know")
    return GitCommand("log", frozenset({"git log", "git log --oneline"}))


def _branch(words: list[str]) -> GitCommand:
    if not words:
        return GitCommand("branch", frozenset({"git branch"}))
    return GitCommand("branch", frozenset({"git branch"}), name=_branch_name(words, "branch"))


def _switch(words: list[str]) -> GitCommand:
    return _switching("switch", "-c", words)


def _checkout(words: list[str]) -> GitCommand:
    if words[:1] == ["--"]:
        return GitCommand("restore", frozenset({"git checkout", "git checkout --"}), pathspecs=_paths(words[1:]))
    return _switching("checkout", "-b", words)


def _restore(words: list[str]) -> GitCommand:
    staged = words[:1] == ["--staged"]
    words = words[staged:]
    forms = {"git restore"} | ({"git restore --staged"} if staged else set())
    return GitCommand("restore", frozenset(forms), pathspecs=_paths(words[words[:1] == ["--"]:]), staged=staged)


def _rm(words: list[str]) -> GitCommand:
    options = set()
    while words and words[0] in ("--cached", "-q", "--quiet"):
        options.add(words.pop(0).lstrip("-")[0])
    if "c" not in options:
        raise NotComputable("`git rm` other than --cached [-q] of named files: it removes files from the work tree")
    return GitCommand("rm", frozenset({"git rm", "git rm --cached"}), pathspecs=_paths(words[words[:1] == ["--"]:]),
                      quiet="q" in options)


def _paths(words: list[str]) -> tuple[str, ...]:
    if not words or any(not _PATHSPEC.fullmatch(word) or word.startswith("-") for word in words):
        raise NotComputable("a git command on paths other than plain ones (options, git's own globs, magic)")
    return tuple(words)


def _switching(verb: str, create: str, words: list[str]) -> GitCommand:
    """`git switch [-c] NAME`, `git checkout [-b] NAME`, and either of `-` (the branch before)."""
    if words[:1] == [create]:
        return GitCommand(verb, frozenset({f"git {verb}", f"git {verb} {create}"}), name=_branch_name(words[1:], verb),
                          create=True)
    if words == ["-"]:
        return GitCommand(verb, frozenset({f"git {verb}"}), name="-")
    return GitCommand(verb, frozenset({f"git {verb}"}), name=_branch_name(words, verb))


def _branch_name(words: list[str], verb: str) -> str:
    if len(words) != 1 or not BRANCH.fullmatch(words[0]) or len(words[0]) > 60:
        raise NotComputable(f"`git {verb}` other than of one plain branch name (options, start points, paths)")
    return words[0]


_VERBS = {"init": _init, "config": _config, "status": _status, "add": _add, "commit": _commit, "diff": _diff,
          "log": _log, "branch": _branch, "switch": _switch, "checkout": _checkout, "restore": _restore, "rm": _rm}
