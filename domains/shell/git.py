"""git: its global options, then what each verb does to the work tree, the repository and remotes,
as git's own documentation describes them (git-reset, git-clean, git-checkout, git-restore,
git-switch, git-stash, git-branch, git-push, ...). The work tree's files are effects like any
other; what git cannot undo from the repository is named with the git-* kinds."""

from __future__ import annotations

import posixpath
import re

from .call import Call
from .options import Spec, parse
from .words import Value

_GLOBAL = Spec(short_values="Cc", longs=("git-dir=", "work-tree=", "namespace=", "exec-path?", "config-env=",
                                         "no-pager", "paginate", "bare", "literal-pathspecs", "glob-pathspecs",
                                         "noglob-pathspecs", "icase-pathspecs", "no-replace-objects",
                                         "no-optional-locks", "no-lazy-fetch", "super-prefix=", "list-cmds="),
               permute=False)
_READS = frozenset("status log show diff blame grep ls-files ls-tree cat-file rev-parse describe shortlog "
                   "reflog help version config remote-v whatchanged name-rev for-each-ref show-ref".split())


def git(call: Call) -> None:
    p = parse(call.args, _GLOBAL)
    scope = call.scope.copy()
    for directory in p.flags.get("C", []):
        scope.cwd = call.scope.path(call.literal(directory))[0] if directory else scope.cwd
    if any(value.startswith("alias.") for value in p.flags.get("c", [])):
        call.opaque("program", call.text, "git runs an alias defined on the command line", risky=True)
        return
    if not p.rest:
        return
    verb, args = p.rest[0].text, p.rest[1:]
    sub = Call(call.program, args, scope, call.index, call.stdin, call.reader, call.text)
    repo = sub.repository()
    sub.settings = dict(value.partition("=")[::2] for value in p.flags.get("c", []))
    handler = _VERBS.get(verb)
    if handler is not None:
        handler(sub, repo)
    elif verb not in _READS:
        sub.opaque("program", f"git {verb}", f"git {verb} is not a git verb whose effects are known here")


def _reset(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(longs=("hard", "soft", "mixed", "merge", "keep", "quiet", "patch", "recurse-submodules?",
                                     "pathspec-from-file=")))
    if p.has("hard"):  # --merge and --keep refuse to lose local changes
        call.effect("git-discard", repo, tree=True, forced=True, target=_first(p.operands) or "HEAD")


def _clean(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(short_values="e", longs=("force", "dry-run", "quiet", "exclude=", "interactive")))
    force = len(p.flags.get("f", [])) + len(p.flags.get("force", []))
    required = call.settings.get("clean.requireForce", "true").lower() not in ("false", "no", "off", "0")
    if p.has("n", "dry-run") or not (force or p.has("i", "interactive") or not required):
        return  # clean.requireForce (true unless set otherwise): without -f, git clean refuses
    places = p.operands or [repo]
    for place in places:
        call.effect("git-clean", place, tree=True, forced=True,
                    target="untracked and ignored files" if p.has("x") else "untracked files")


def _checkout(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(short_values="bB", longs=("force", "ours", "theirs", "merge", "quiet", "detach",
                                                         "track?", "orphan=", "patch", "pathspec-from-file=",
                                                         "overlay", "no-overlay", "conflict=", "ignore-skip-worktree-bits")))
    before, after = _split_dashdash(call.args, p.operands)
    if after:
        paths = after
    elif len(before) >= 2 and not p.has("b", "B", "orphan"):
        paths = before[1:]  # `git checkout TREE-ISH PATH...`
    elif len(before) == 1 and (before[0].text in (".", "./") or before[0].glob or call.exists(before[0]) is True):
        paths = before
    else:
        paths = []
        if len(before) == 1 and call.exists(before[0]) is None and not p.has("b", "B", "orphan"):
            call.opaque("variable", f"git checkout {before[0].text}",
                        f"{before[0].text} may name a branch or a path; a path's changes would be discarded")
    for path in paths:
        call.effect("git-discard", path, tree=True, target="work tree")
    if p.has("f", "force") and not paths:
        call.effect("git-discard", repo, tree=True, forced=True, target="work tree")


def _restore(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(short_values="s", longs=("source=", "staged", "worktree", "ours", "theirs", "merge",
                                                         "quiet", "patch", "overlay", "no-overlay",
                                                         "pathspec-from-file=", "ignore-unmerged")))
    if p.has("S", "staged") and not p.has("W", "worktree"):
        return  # the index only
    for path in p.operands:
        call.effect("git-discard", path, tree=True, target="work tree")


def _switch(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(short_values="cC", longs=("create=", "force-create=", "discard-changes", "force",
                                                         "merge", "detach", "track?", "orphan=", "quiet")))
    if p.has("f", "force", "discard-changes"):
        call.effect("git-discard", repo, tree=True, forced=True, target="work tree")


def _stash(call: Call, repo: Value) -> None:
    action = call.args[0].text if call.args else "push"
    if action in ("drop", "clear"):
        target = call.args[1].text if len(call.args) > 1 else ("every stash" if action == "clear" else "stash@{0}")
        call.effect("git-stash-drop", repo, target=target)
    elif action in ("push", "save", "-u", "--include-untracked", "-a", "--all", "-k", "--keep-index", "-m",
                    "--message", "-p", "--patch", "-q", "--quiet", "--staged"):
        call.effect("modified", repo, tree=True)  # changes move into the stash; the tree returns to HEAD
    elif action in ("pop", "apply"):
        call.effect("modified", repo, tree=True)


def _branch(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(short_values="u", longs=("delete", "force", "move", "copy", "remotes", "all",
                                                         "set-upstream-to=", "track?", "list", "contains=",
                                                         "merged?", "no-merged?", "sort=", "format=", "verbose",
                                                         "quiet", "show-current")))
    forced = p.has("D") or (p.has("d", "delete") and p.has("f", "force"))
    if p.has("d", "D", "delete"):
        for name in p.operands:
            call.effect("git-branch-delete", repo, forced=forced, target=name.text)
    elif p.has("M") or (p.has("m", "move") and p.has("f", "force")) or p.has("C"):
        call.effect("git-branch-delete", repo, forced=True, target=_first(p.operands[-1:]) or "")


def _push(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(short_values="o", longs=(
        "force", "force-with-lease?", "force-if-includes", "mirror", "delete", "all", "branches", "tags", "prune",
        "dry-run", "porcelain", "set-upstream", "repo=", "receive-pack=", "exec=", "push-option=", "signed?",
        "atomic", "no-verify", "verify", "follow-tags", "quiet", "verbose", "progress", "recurse-submodules=",
        "thin", "no-thin", "ipv4", "ipv6")))
    if p.has("n", "dry-run"):
        return
    remote = p.operands[0].text if p.operands else "origin"
    refs = [ref.text for ref in p.operands[1:]]
    call.network("upload", remote)
    forced = p.has("f", "force", "force-with-lease", "force-if-includes", "mirror", "prune")
    deleting = p.has("d", "delete") or any(ref.startswith(":") for ref in refs)
    plus = [ref for ref in refs if ref.startswith("+")]
    if forced or deleting or plus:
        how = ("--mirror" if p.has("mirror") else "deletes " + ", ".join(refs) if deleting
               else "+" + plus[0][1:] if plus and not forced else "force")
        call.effect("git-force-push", repo, forced=True, target=f"{remote} ({how})")


def _filter(call: Call, repo: Value) -> None:
    call.effect("git-history-rewrite", repo, tree=True, forced=True, target="every commit")


def _rm(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(longs=("cached", "force", "dry-run", "quiet", "ignore-unmatch", "sparse",
                                     "pathspec-from-file=")))
    if p.has("cached", "n", "dry-run"):
        return
    for path in p.operands:
        call.effect("deleted", path, tree=p.has("r"))


def _mv(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(longs=("force", "dry-run", "verbose")))
    if p.has("n", "dry-run") or len(p.operands) < 2:
        return
    *sources, target = p.operands
    into = len(sources) > 1 or call.is_dir(target) is True
    for source in sources:
        call.effect("moved-from", source, tree=call.is_dir(source) is not False)
        call.effect("moved-to", call.joined(target, source) if into else target, tree=call.is_dir(source) is not False)


def _fetching(call: Call, repo: Value) -> None:
    remote = next((arg.text for arg in call.args if not arg.text.startswith("-")), "origin")
    call.network("download", remote)


def _pull(call: Call, repo: Value) -> None:
    _fetching(call, repo)
    call.effect("modified", repo, tree=True)


def _clone(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(short_values="obucj", longs=("origin=", "branch=", "upload-pack=", "reference=",
                                                            "separate-git-dir=", "depth=", "config=", "jobs=",
                                                            "filter=", "bare", "mirror", "quiet", "recursive",
                                                            "single-branch", "no-checkout", "template=")))
    if not p.operands:
        return
    source = p.operands[0].text
    call.network("download", re.sub(r"^.*?://([^/]+).*$|^[^@]*@([^:]+):.*$", lambda m: m.group(1) or m.group(2), source))
    name = p.operands[1] if len(p.operands) > 1 else call.literal(
        posixpath.basename(source.rstrip("/")).removesuffix(".git") + (".git" if p.has("bare", "mirror") else ""))
    call.write(name, "created", tree=True)


def _init(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(short_values="b", longs=("bare", "quiet", "template=", "separate-git-dir=",
                                                         "initial-branch=", "shared?", "object-format=")))
    place = p.operands[0] if p.operands else call.literal(".")
    if call.exists(place) is not True:
        call.write(place, "created", tree=True)
    git_dir = place if p.has("bare") else call.joined(place, call.literal(".git"))
    call.write(git_dir, "created", tree=True)


def _work_tree(call: Call, repo: Value) -> None:
    """Verbs that write the work tree as a whole: merge, rebase, cherry-pick, revert, am, apply."""
    call.effect("modified", repo, tree=True)


def _first(values) -> str | None:
    return values[0].text if values else None


def _split_dashdash(args, operands):
    texts = [arg.text for arg in args]
    if "--" not in texts:
        return operands, []
    cut = texts.index("--")
    after = list(args[cut + 1:])
    before = [value for value in operands if value not in after]
    return before, after


_VERBS = {
    "reset": _reset, "clean": _clean, "checkout": _checkout, "restore": _restore, "switch": _switch,
    "stash": _stash, "branch": _branch, "push": _push, "filter-branch": _filter, "filter-repo": _filter,
    "rm": _rm, "mv": _mv, "fetch": _fetching, "pull": _pull, "clone": _clone, "init": _init,
    "merge": _work_tree, "rebase": _work_tree, "cherry-pick": _work_tree, "revert": _work_tree, "am": _work_tree,
    "apply": _work_tree,
}
