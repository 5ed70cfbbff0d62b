"""The virtual git's branches (git.py): `git branch` (its list, or a new branch at HEAD), `git switch -c`/`git
checkout -b` (a new branch, the work tree and index kept), and `git switch`/`git checkout` of a branch or `-` (the
branch before, where the world saw the switch from it), with git's words (2.39) on stderr.

A switch to another branch is computed only from a clean state (the index is HEAD's tree, every tracked file as
staged): then git prints no list of local changes and carries none, and the work tree becomes the branch's tree
(files only HEAD tracks removed, with the folders they leave empty). An untracked or ignored file or folder where
the branch has a file, an attributes file (it may convert what git writes), or a file whose content the world does
not know on the branch, is the model's. So are the forms git reads otherwise: a name that is also a path (`git
checkout NAME` may restore a file), options, a start point, and a name git may refuse (git_settings.BRANCH).
"""

from __future__ import annotations

import posixpath
from dataclasses import replace

from ..world.knowledge import GitRepository as Repository
from .git_tree import Refused, Tree, WorkTree

Result = tuple[str, str, int, Repository]  # stdout, stderr, status, the repository after
UNKNOWN = "@"  # a record's `previous` where the world does not know which branch `-` names (no branch is so named)


def listing(repository: Repository) -> Result:
    """`git branch`: every branch, the current one marked (before the first commit it is no branch yet)."""
    names = sorted({*repository.branches, *([repository.branch] if repository.head is not None else [])})
    return "".join(f"{'*' if name == repository.branch else ' '} {name}\n" for name in names), "", 0, repository


def create(repository: Repository, name: str, switch: bool) -> Result:
    """`git branch NAME` (switch False), or `git switch -c NAME` / `git checkout -b NAME`."""
    if name in repository.branches or name == repository.branch and repository.head is not None:
        return "", f"fatal: a branch named '{name}' already exists\n", 128, repository
    if name == repository.branch:
        raise Refused("a new branch named as the unborn one")
    if any(other.startswith(name + "/") or name.startswith(other + "/") for other in (*repository.branches,
                                                                                       repository.branch)):
        raise Refused("a branch whose name is a folder of another's, or the other way: git cannot lock its ref")
    if repository.head is None:
        if not switch:
            return "", f"fatal: not a valid object name: '{repository.branch}'\n", 128, repository
        # An unborn branch only changes its name; what git's reflog then holds for `-` is not proven.
        return "", f"Switched to a new branch '{name}'\n", 0, replace(repository, branch=name, previous=UNKNOWN)
    if not switch:
        return "", "", 0, replace(repository, branches={**repository.branches,
                                                        name: (repository.head, repository.commits)})
    branches = {**repository.branches, repository.branch: (repository.head, repository.commits)}
    return "", f"Switched to a new branch '{name}'\n", 0, replace(repository, branch=name, branches=branches,
                                                                   previous=repository.branch)


def switch(repository: Repository, name: str, work: WorkTree, fs, root: str, verb: str) -> Result:
    """`git switch NAME` / `git checkout NAME` (`-`: the branch before: `@{-1}` in HEAD's reflog)."""
    if name == "-":
        if repository.previous == UNKNOWN:
            raise Refused("`git switch -` after a new branch before the first commit: git's reflog is not proven")
        if not repository.previous:
            return _no_such("@{-1}", verb, repository)
        name = repository.previous
    if name != repository.branch and name not in repository.branches:
        return _no_such(name, verb, repository)
    if repository.head is None:
        raise Refused("a switch from an unborn branch")
    head = repository.head
    if repository.index != head or any(path not in work.files or work.files[path] is None
                                       or work.files[path] != content for path, content in head.items()):
        raise Refused("a switch with local changes (or files the world does not know): git lists or carries them")
    if name == repository.branch:  # git's reflog records even this: `-` then names the branch itself
        return "", f"Already on '{name}'\n", 0, replace(repository, previous=name)
    tree, commits = repository.branches[name]
    _check_target(tree, head, work)
    for path in sorted(set(head) - set(tree)):
        fs.remove(posixpath.join(root, path), False)
        folder = posixpath.dirname(path)
        while folder and not fs.read_dir(posixpath.join(root, folder)):
            fs.remove(posixpath.join(root, folder), False)
            folder = posixpath.dirname(folder)
    for path, content in sorted(tree.items()):
        if head.get(path) != content:
            fs.mkdir(posixpath.join(root, posixpath.dirname(path)), True)
            fs.write_file(posixpath.join(root, path), content)
    branches = {key: value for key, value in repository.branches.items() if key != name}
    branches[repository.branch] = (head, repository.commits)
    after = replace(repository, branch=name, head=tree, index=dict(tree), commits=commits, branches=branches,
                    previous=repository.branch)
    return "", f"Switched to branch '{name}'\n", 0, after


def _no_such(name: str, verb: str, repository: Repository) -> Result:
    """A switch to a branch that is not there (a name that is no path: git.py refuses those for checkout)."""
    if verb == "switch":
        return "", f"fatal: invalid reference: {name}\n", 128, repository
    shown = "-" if name == "@{-1}" else name
    return "", f"error: pathspec '{shown}' did not match any file(s) known to git\n", 1, repository


def _check_target(tree: Tree, head: Tree, work: WorkTree) -> None:
    """Refused where writing the branch's tree is not what git proves to do."""
    for path, content in tree.items():
        if content is None:
            raise Refused("a branch holding a file whose content the world does not know")
        if posixpath.basename(path) == ".gitattributes":
            raise Refused("a branch holding an attributes file: it may convert the files git writes")
        if path in head:
            continue
        above = [posixpath.dirname(path)]
        while above[-1]:
            above.append(posixpath.dirname(above[-1]))
        if path in work.files or path in work.folders or any(folder in work.files for folder in above):
            raise Refused("an untracked or ignored file where the branch has one: git refuses or overwrites it")
        if any(folder in head for folder in above) or any(tracked.startswith(path + "/") for tracked in head):
            raise Refused("a branch where a file and a folder change places")
