"""What each git verb may change in the work tree, from its manual: what a world must forget after a git step it
did not compute (world/learning.py). git.py's effects say what git cannot undo, for the guard; this says what may
differ afterwards, which is more: `git switch` destroys nothing, yet rewrites every tracked file that differs
between the two branches.

A verb reaches the paths it names, else all its scope: the files git tracks (which a checkout of another commit
may also add or remove: every file of the work tree but those it ignores and leaves), or the whole work tree, the
untracked files too (clean, stash -u, apply). A pathspec with a glob or a magic word (`*.txt`, `:/`) is no name:
the scope. A verb the table does not hold may be an alias or an extension, which may run anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..reading.options import Spec, parse
from ..reading.words import Value

NOTHING = "nothing"  # it reads, or writes the repository's own folder (.git) only
PATHS = "paths"  # the paths it names (relative to where it runs), and nothing else
TRACKED = "tracked"  # any file of the work tree git tracks, and the folders they lie in
WORK_TREE = "work tree"  # any file of the work tree, untracked ones too
ANYWHERE = "anywhere"  # it may run commands, or write outside the work tree: nothing known holds

_GLOBAL = Spec(short_values="Cc", longs=("git-dir=", "work-tree=", "namespace=", "exec-path?", "config-env=",
                                         "super-prefix=", "list-cmds="), permute=False)


@dataclass(frozen=True)
class Verb:
    """One verb's reach, from its manual: `otherwise` where it names no path; `names`: where its paths are ("" it
    names none; "operands"; "after first": after a tree-ish, as `git checkout TREE-ISH PATH...`); `idle`: its
    options (long, or one letter) under which it changes no file of the work tree; `wider`: those that widen it to
    the whole work tree; `values`: its options that take a value (so that the value is no path)."""

    otherwise: str
    names: str = ""
    idle: tuple[str, ...] = ()
    wider: tuple[str, ...] = ()
    values: str = ""
    longs: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()  # options whose value is a file or folder it writes (`--output`, format-patch -o)


# Verbs that write the repository's own folder and nothing of the work tree (git-add(1), git-commit(1), ...):
# after one the world did not compute, only `.git` is unknown (world/learning.py).
REPOSITORY_ONLY = frozenset({"add", "commit", "tag", "branch", "config", "remote", "fetch", "update-ref",
                             "symbolic-ref", "prune", "gc", "reflog", "notes", "replace", "update-index"})
_READ = Verb(NOTHING)
_OUTPUT = Verb(NOTHING, longs=("output=",), writes=("output",))  # diff, log, show: `--output=FILE` writes FILE

VERBS: dict[str, Verb] = {
    # git-switch(1): the work tree and the index are updated to match the branch (--orphan empties it of tracked files).
    "switch": Verb(TRACKED, values="cC", longs=("create=", "force-create=", "orphan=", "track?", "conflict=")),
    # git-checkout(1): `checkout BRANCH` as switch; `checkout [TREE-ISH] [--] PATHSPEC...` overwrites the paths.
    "checkout": Verb(TRACKED, "after first", values="bB", longs=("orphan=", "track?", "conflict=",
                                                                  "pathspec-from-file=")),
    # git-restore(1): restores the paths in the work tree, unless --staged alone asks for the index.
    "restore": Verb(PATHS, "operands", values="s", longs=("source=", "conflict=", "pathspec-from-file=")),
    # git-reset(1): --hard, --merge and --keep update the work tree to the commit; the other modes touch the index.
    "reset": Verb(NOTHING, longs=("pathspec-from-file=",)),
    # git-stash(1): push saves the changes and reverts the work tree to HEAD (-u, -a: removes untracked files);
    # apply, pop and branch put changes back, untracked files too.
    "stash": Verb(TRACKED, "operands", values="m", longs=("message=", "pathspec-from-file=")),
    # git-clean(1): removes untracked files from the work tree, or under the paths given; -n only lists them.
    "clean": Verb(WORK_TREE, "operands", idle=("n", "dry-run"), values="e", longs=("exclude=",)),
    # Each of these updates the work tree to the commits it makes or moves to (git-merge(1), git-rebase(1),
    # git-pull(1), git-am(1), git-cherry-pick(1), git-revert(1), git-filter-branch(1), git-bisect(1)).
    "merge": Verb(TRACKED), "rebase": Verb(TRACKED, values="x", longs=("exec=", "onto=", "strategy=")),
    "pull": Verb(TRACKED), "am": Verb(TRACKED),
    "cherry-pick": Verb(TRACKED), "revert": Verb(TRACKED), "filter-branch": Verb(TRACKED),
    "filter-repo": Verb(WORK_TREE), "bisect": Verb(TRACKED), "sparse-checkout": Verb(TRACKED),
    # git-apply(1): changes the files its patches name, creating and deleting some (inside or outside a repository);
    # --cached changes the index alone, --check, --stat, --numstat and --summary only report.
    "apply": Verb(WORK_TREE, idle=("cached", "check", "stat", "numstat", "summary"),
                  values="pC", longs=("directory=", "exclude=", "include=", "whitespace=", "build-fake-ancestor=")),
    # git-read-tree(1): -u updates the work tree; git-checkout-index(1): writes the files named, or all (-a).
    "read-tree": Verb(NOTHING, longs=("prefix=", "index-output=", "exclude-per-directory=")),
    "checkout-index": Verb(PATHS, "operands", longs=("prefix=", "stage=")),
    # git-rm(1), git-mv(1): the paths named (and files below a folder given with -r).
    "rm": Verb(PATHS, "operands", idle=("cached", "n", "dry-run"), longs=("pathspec-from-file=",)),
    "mv": Verb(PATHS, "operands"),
    # git-worktree(1): add makes a work tree at the path; remove and move remove or move one.
    "worktree": Verb(NOTHING, "operands", values="b", longs=("reason=", "expire=")),
    # git-submodule(1): update checks submodules out; foreach runs a command in each.
    "submodule": Verb(WORK_TREE),
    # git-format-patch(1): one file a commit, in -o's folder or where it runs.
    "format-patch": Verb(PATHS, values="o", longs=("output-directory=",), writes=("o", "output-directory")),
    # git-archive(1), git-bundle(1): the file they are told to write.
    "archive": Verb(NOTHING, values="o", longs=("output=", "format=", "prefix=", "remote="), writes=("o", "output")),
    "bundle": Verb(NOTHING),
    # They write the repository's folder alone (or nothing): git-add(1), git-commit(1), git-branch(1), ...
    **{verb: _READ for verb in (*REPOSITORY_ONLY, "status", "ls-files", "ls-tree", "rev-parse", "blame", "grep",
        "help", "version", "describe", "cat-file", "for-each-ref", "show-ref", "name-rev", "rev-list", "count-objects",
        "fsck", "var", "hash-object", "merge-base", "cherry", "check-ignore", "check-attr", "write-tree",
        "commit-tree", "mktree", "verify-commit", "verify-tag", "init", "clone", "push", "ls-remote")},
    **{verb: _OUTPUT for verb in ("diff", "log", "show", "shortlog", "whatchanged", "range-diff", "diff-files",
                                  "diff-index", "diff-tree")},
}


@dataclass(frozen=True)
class Reach:
    """What a git command may have changed: `scope` (one of the names above) and, for PATHS, the paths as typed."""

    scope: str
    paths: tuple[str, ...] = ()
    emptied: tuple[str, ...] = ()  # folders above the paths that may be gone after it (rm and mv remove them)


def work_tree_reach(words: list[str]) -> Reach:
    """What `git WORDS...` may change in the work tree. ANYWHERE where it may act on another repository than the
    one where it runs (-C, --git-dir, --work-tree) or the verb is not in the table."""
    p = parse([Value(word) for word in words], _GLOBAL)
    if p.has("C", "git-dir", "work-tree") or any(value.startswith("alias.") for value in p.flags.get("c", [])):
        return Reach(ANYWHERE)
    if not p.rest:
        return Reach(NOTHING)  # `git --version`
    verb, args = p.rest[0].text, p.rest[1:]
    row = VERBS.get(verb)
    if row is None:
        return Reach(ANYWHERE)
    parsed = parse(args, Spec(short_values=row.values, longs=row.longs))
    written = tuple(value for name in row.writes for value in parsed.flags.get(name, []))
    if parsed.has(*row.idle):
        return Reach(NOTHING)
    scope = _scope(verb, row, parsed)
    if parsed.has("pathspec-from-file") or parsed.has(*row.wider):
        scope = WORK_TREE if scope != NOTHING else NOTHING
    named = _named(verb, row, args, parsed)
    if verb == "format-patch":
        return Reach(PATHS, written or (".",))
    if written and scope == NOTHING:
        return Reach(PATHS, written)
    if not named or scope in (NOTHING, ANYWHERE):
        return Reach(scope)
    if any(path.startswith(":") or any(char in path for char in "*?[") for path in named):
        return Reach(WORK_TREE)  # git's own glob, or magic (`:/`, `:(top)`): any file
    if verb in ("rm", "mv"):  # git removes the folders a removed (or moved) file leaves empty
        return Reach(PATHS, tuple(named), tuple(folder for path in named for folder in _folders_above(path)))
    return Reach(PATHS, tuple(named))


def _folders_above(path: str) -> list[str]:
    parts = [part for part in path.split("/") if part and part != "."]
    return ["/".join(parts[:depth]) for depth in range(len(parts) - 1, 0, -1) if ".." not in parts[:depth]]


def _scope(verb: str, row: Verb, parsed) -> str:
    """The verb's scope where its mode decides it (git-reset's modes, git-stash's and git-worktree's actions)."""
    operands = [value.text for value in parsed.operands]
    if verb in ("filter-branch", "submodule") and (verb == "filter-branch" or operands[:1] == ["foreach"]) or \
            verb == "bisect" and operands[:1] == ["run"] or verb == "rebase" and parsed.has("x", "exec"):
        return ANYWHERE  # it runs commands (filters, `foreach`, `bisect run`, `rebase --exec`)
    if verb == "reset":
        return TRACKED if parsed.has("hard", "merge", "keep") else NOTHING
    if verb == "restore":
        return NOTHING if parsed.has("S", "staged") and not parsed.has("W", "worktree") else PATHS
    if verb == "read-tree":
        return TRACKED if parsed.has("u") else NOTHING
    if verb == "checkout-index":
        return ANYWHERE if parsed.has("prefix") else TRACKED if parsed.has("a", "all") else PATHS
    if verb == "stash":
        action = operands[0] if operands and operands[0] in _STASH_ACTIONS else "push"
        if action in ("list", "show", "drop", "clear", "create", "store"):
            return NOTHING
        if action != "push" and action != "save" or parsed.has("u", "include-untracked", "a", "all"):
            return WORK_TREE
    if verb == "worktree":
        return PATHS if operands[:1] and operands[0] in ("add", "remove", "move") else NOTHING
    if verb == "bundle":
        return PATHS if operands[:1] == ["create"] else NOTHING
    if verb in ("bisect", "sparse-checkout") and operands[:1] and operands[0] in (
            "log", "visualize", "view", "terms", "help", "list", "check-rules"):
        return NOTHING
    if verb in ("switch", "checkout") and parsed.has("c", "create", "b") and not operands and not parsed.has(
            "f", "force", "discard-changes", "m", "merge", "orphan", "detach", "C", "B", "force-create"):
        return NOTHING  # a new branch at HEAD (no start point): the work tree and the index stay as they are
    if verb == "checkout" and not operands and not parsed.has("f", "force", "b", "B", "orphan", "detach", "m", "merge"):
        return NOTHING  # `git checkout` alone reports where the branch stands
    return row.otherwise


_STASH_ACTIONS = frozenset({"push", "save", "list", "show", "drop", "clear", "create", "store", "apply", "pop",
                            "branch"})


def _named(verb: str, row: Verb, args: list[Value], parsed) -> list[str]:
    """The paths the command names: after `--`, else where its row says they stand."""
    texts = [arg.text for arg in args]
    operands = [value.text for value in parsed.operands]
    if verb == "stash":  # `git stash push [--] PATHSPEC...`; the other actions name no path
        if operands[:1] and operands[0] in _STASH_ACTIONS:
            return operands[1:] if operands[0] == "push" else []
        return operands
    if verb in ("worktree", "bundle"):  # `worktree add PATH [COMMIT]`, `worktree move FROM TO`, `bundle create FILE`
        return operands[1:] if operands[:1] == ["move"] else operands[1:2]
    if "--" in texts:
        after = texts[texts.index("--") + 1:]
        if verb == "checkout" or after:
            return after
    if row.names == "operands":
        return operands
    if row.names == "after first" and not parsed.has("b", "B", "orphan"):
        return operands[1:]
    return []
