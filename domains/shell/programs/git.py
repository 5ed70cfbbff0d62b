"""git: its global options, then what each verb does to the work tree, the repository and remotes,
as git's own documentation describes them (git-reset, git-clean, git-checkout, git-restore,
git-switch, git-stash, git-branch, git-push, ...). The work tree's files are effects like any
other; what git cannot undo from the repository is named with the git-* kinds."""

from __future__ import annotations

import posixpath
import re

from ..reading.call import Call
from ..reading.effects import Effect
from ..reading.options import Spec, parse
from .git_commands import run_settings, run_verb_commands
from .reads import GIT_READERS, note_reads
from ..reading.words import Value

_GLOBAL = Spec(short_values="Cc", longs=("git-dir=", "work-tree=", "namespace=", "exec-path?", "config-env=",
                                         "no-pager", "paginate", "bare", "literal-pathspecs", "glob-pathspecs",
                                         "noglob-pathspecs", "icase-pathspecs", "no-replace-objects",
                                         "no-optional-locks", "no-lazy-fetch", "super-prefix=", "list-cmds="),
               permute=False)
# Verbs read here only for the refs they move or delete: what else they do to the repository is not followed.
_REFS_ONLY = frozenset({"commit", "tag", "update-ref", "symbolic-ref", "prune", "gc", "replace", "worktree"})
_READS = frozenset("status log show diff blame grep ls-files ls-tree cat-file rev-parse describe shortlog "
                   "reflog help version config remote-v whatchanged name-rev for-each-ref show-ref".split())


def git(call: Call) -> None:
    p = parse(call.args, _GLOBAL)
    scope = call.scope.copy()
    for directory in p.flags.get("C", []):
        scope.cwd = call.scope.path(call.literal(directory))[0] if directory else scope.cwd
    if not p.rest:
        run_settings(call, p.words.get("c", []), "", [], scope)
        return
    verb, args = p.rest[0].text, p.rest[1:]
    if run_settings(call, p.words.get("c", []), verb, args, scope):
        return  # an alias the line defines: read as what it stands for
    run_verb_commands(call, verb, args, scope)
    sub = Call(call.program, args, scope, call.index, call.stdin, call.reader, call.text)
    repo = sub.repository()
    sub.settings = dict(value.partition("=")[::2] for value in p.flags.get("c", []))
    if verb in GIT_READERS:  # `git show HEAD:.env`, `git diff .env`: the files' content is printed
        note_reads(sub, [_path_of(arg) for arg in args if not arg.text.startswith("-")])
    handler = _VERBS.get(verb)
    if handler is not None:
        handler(sub, repo)
    if (handler is None or verb in _REFS_ONLY) and verb not in _READS:
        sub.opaque("program", f"git {verb}", f"git {verb} is not a git verb whose effects are known here")


def _reset(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(longs=("hard", "soft", "mixed", "merge", "keep", "quiet", "patch", "recurse-submodules?",
                                     "pathspec-from-file=")))
    if p.has("hard"):  # --merge and --keep refuse to lose local changes
        call.effect("git-discard", repo, tree=True, forced=True, target=_first(p.operands) or "HEAD")
    # `git reset [<mode>] [<commit>]` moves the current branch; `git reset [<tree-ish>] [--] <paths>` only unstages.
    before, after = _split_dashdash(call.args, p.operands)
    mode = p.has("hard", "soft", "mixed", "merge", "keep")
    commit = before[0] if before and not after and (mode or (len(before) == 1 and _revision(call, before[0]))) \
        else None
    if commit is not None and commit.text not in ("HEAD", "@"):
        if p.has("soft") and not p.has("hard", "mixed", "merge", "keep"):  # unforced: the work tree and index stay
            _ref_move(call, repo, f"git reset --soft moves the current branch to {commit.text}, keeping the work "
                      "tree and the index", forced=False)
        else:
            _ref_move(call, repo, f"git reset moves the current branch to {commit.text}")


def _clean(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(short_values="e", longs=("force", "dry-run", "quiet", "exclude=", "interactive")))
    force = len(p.flags.get("f", [])) + len(p.flags.get("force", []))
    required = call.settings.get("clean.requireForce", "true").lower() not in ("false", "no", "off", "0")
    if p.has("n", "dry-run") or not (force or p.has("i", "interactive") or not required):
        return  # clean.requireForce (true unless set otherwise): without -f, git clean refuses
    places = p.operands or [repo]
    for place in places:
        # git-clean(1): -x also removes ignored files, -X only them.
        call.effect("git-clean", place, tree=True, forced=True,
                    target="ignored files only" if p.has("X") else
                    "untracked and ignored files" if p.has("x") else "untracked files")


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
    if p.has("B"):
        _ref_move(call, repo, f"git checkout -B resets branch {p.value('B')}")
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
    if p.has("C", "force-create"):
        _ref_move(call, repo, f"git switch -C resets branch {p.value('C', 'force-create')}")


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
    elif p.has("m", "M", "move"):
        _ref_move(call, repo, f"git branch {'-M' if p.has('M') else '-m'} renames {_names(p.operands)}"
                  + (", replacing an existing branch" if p.has("M", "f", "force") else ""))
    elif p.has("C") or (p.has("c", "copy") and p.has("f", "force")):
        _ref_move(call, repo, f"git branch -C copies onto {_first(p.operands[-1:]) or 'a branch'}, replacing it")
    elif p.has("f", "force") and p.operands and not p.has("list", "l", "contains", "merged", "no-merged"):
        _ref_move(call, repo, f"git branch -f resets branch {p.operands[0].text}")


def _tag(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(short_values="mFun", longs=("delete", "force", "list", "annotate", "sign",
                                                          "local-user=", "message=", "file=", "contains=", "sort=",
                                                          "format=", "points-at=", "merged?", "no-merged?")))
    if p.has("d", "delete"):
        _ref_move(call, repo, f"git tag -d deletes tag {_names(p.operands)}")
    elif p.has("f", "force") and p.operands:
        _ref_move(call, repo, f"git tag -f moves tag {p.operands[0].text}")


def _update_ref(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(short_values="m", longs=("stdin", "no-deref", "create-reflog", "batch-updates")))
    if p.operands or p.has("stdin"):
        verb = "deletes" if p.has("d") else "sets"
        _ref_move(call, repo, f"git update-ref {verb} {_first(p.operands) or 'refs read from its input'}")


def _symbolic_ref(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(short_values="m", longs=("delete", "quiet", "short", "recurse", "no-recurse")))
    if p.has("d", "delete") or len(p.operands) >= 2:
        _ref_move(call, repo, f"git symbolic-ref {'deletes' if p.has('d', 'delete') else 'points'} "
                  f"{_first(p.operands) or 'a ref'}" + (f" at {p.operands[1].text}" if len(p.operands) >= 2 else ""))


def _rebase(call: Call, repo: Value) -> None:
    _work_tree(call, repo)
    if not any(arg.text in ("--abort", "--quit", "--show-current-patch", "--edit-todo") for arg in call.args):
        _ref_move(call, repo, "git rebase rewrites the current branch's commits")


def _commit(call: Call, repo: Value) -> None:
    if any(arg.text == "--amend" for arg in call.args):
        _ref_move(call, repo, "git commit --amend replaces the branch's last commit")


def _fetch(call: Call, repo: Value) -> None:
    _fetching(call, repo)
    p = parse(call.args, Spec(short_values="jo", longs=("force", "prune", "prune-tags", "all", "tags", "depth=",
                                                         "deepen=", "shallow-since=", "shallow-exclude=", "jobs=",
                                                         "refmap=", "upload-pack=", "server-option=", "recurse-submodules?",
                                                         "dry-run", "quiet", "verbose", "append", "atomic")))
    if p.has("dry-run"):
        return
    if p.has("P", "prune-tags"):
        _ref_move(call, repo, "git fetch --prune-tags deletes local tags the remote does not have")
    forced = p.has("f", "force")
    for refspec in (value.text for value in p.operands[1:]):  # a local destination the remote may overwrite
        destination = refspec.partition(":")[2]
        if destination and not destination.startswith("refs/remotes/") and (forced or refspec.startswith("+")):
            _ref_move(call, repo, f"git fetch force-updates {destination} from {p.operands[0].text}")


def _pull(call: Call, repo: Value) -> None:
    _fetch(call, repo)
    call.effect("modified", repo, tree=True)
    if any(arg.text in ("-r", "--rebase", "--rebase=true", "--rebase=merges", "--rebase=interactive")
           for arg in call.args):
        _ref_move(call, repo, "git pull --rebase rewrites the current branch's commits")


def _reflog(call: Call, repo: Value) -> None:
    if call.args and call.args[0].text in ("expire", "delete"):
        _ref_move(call, repo, f"git reflog {call.args[0].text} drops the record that recovers moved refs")


def _prune(call: Call, repo: Value) -> None:
    if not any(arg.text in ("-n", "--dry-run") for arg in call.args):
        _ref_move(call, repo, "git prune deletes commits no ref reaches, which the reflog could still recover")


def _gc(call: Call, repo: Value) -> None:
    if any(arg.text in ("--prune=now", "--prune=all") for arg in call.args):
        _ref_move(call, repo, "git gc --prune=now deletes commits no ref reaches, which the reflog could still recover")


def _replace(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(longs=("delete", "force", "edit", "graft", "convert-graft-file", "list", "format=",
                                     "raw")))
    if p.has("d", "delete", "f", "force", "edit", "graft", "convert-graft-file") or len(p.operands) >= 2:
        _ref_move(call, repo, "git replace changes which commits history shows")


def _worktree(call: Call, repo: Value) -> None:
    p = parse(call.args, Spec(longs=("force", "expire=")))
    if p.operands[:1] and p.operands[0].text == "remove" and p.has("f", "force") and len(p.operands) > 1:
        call.effect("git-discard", p.operands[1], tree=True, forced=True, target="a worktree's changes")


def _revision(call: Call, operand: Value) -> bool:
    """Whether `git reset X` reads X as a commit: not a path the world knows, or where it knows nothing,
    spelled as a revision (`HEAD~1`, `main^`, `@{1}`, a hash, `origin/main`)."""
    exists = call.exists(operand)
    if exists is not None:
        return not exists
    return bool(re.search(r"[~^]|@\{|^[0-9a-f]{7,40}$|^(origin|upstream)/|_HEAD$", operand.text))


def _ref_move(call: Call, repo: Value, what: str, forced: bool = True) -> None:
    """`forced`: the move may leave commits behind; an unforced one (reset --soft) keeps every change in the
    work tree and the index, and the reflog keeps the commit it leaves."""
    call.effect("git-ref-move", repo, forced=forced, target=what)


def _names(values) -> str:
    return ", ".join(value.text for value in values) or "a branch"


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
    forced = p.has("f", "force", "mirror", "prune")
    deleting = p.has("d", "delete") or any(ref.startswith(":") for ref in refs)
    plus = [ref for ref in refs if ref.startswith("+")]
    if p.has("force-with-lease") and not (forced or deleting or plus):
        # git-push(1): the remote branch is rewritten only if it is still where this clone last saw it, so what it
        # drops was fetched here; a background fetch moves that mark, which --force-if-includes checks.
        why = ("rewrites the remote branch, dropping commits this clone fetched; a background fetch can move the "
               "lease it does not name")
        why += "" if p.has("force-if-includes") else " (--force-if-includes checks for that)"
        call.reader.add_effect(Effect("remote-destruction", "", "unknown", target=f"{remote} (force-with-lease)",
                                      fact=why, program=call.program, command=call.index))
        return
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


def _path_of(arg: Value) -> Value:
    """`REV:path` names a file in a commit; a plain operand is a path (or a revision, which is no file)."""
    rev, colon, path = arg.text.partition(":")
    return Value(path or ".", literal=arg.literal, glob=arg.glob) if colon and arg.literal else arg


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
    "rm": _rm, "mv": _mv, "fetch": _fetch, "pull": _pull, "clone": _clone, "init": _init,
    "merge": _work_tree, "rebase": _rebase, "cherry-pick": _work_tree, "revert": _work_tree, "am": _work_tree,
    "apply": _work_tree, "tag": _tag, "update-ref": _update_ref, "symbolic-ref": _symbolic_ref, "commit": _commit,
    "reflog": _reflog, "prune": _prune, "gc": _gc, "replace": _replace, "worktree": _worktree,
}
