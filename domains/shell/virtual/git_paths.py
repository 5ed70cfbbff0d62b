"""The virtual git's commands on named paths (git.py): `git restore PATH...` and `git checkout -- PATH...` (the
work tree's files from the index), `git restore --staged PATH...` (the index's from HEAD), and `git rm --cached
[-q] FILE...` (the index forgets the files, "rm 'FILE'" for each unless -q), with git 2.39's words.

Computed only where the outcome is one the generated test proves: a pathspec matching nothing (alone: git's error),
a folder given to rm (it needs -r), staged content rm refuses to drop (differing from both HEAD and the file), a
restore before the first commit of --staged, a folder or a file above where a restored file goes, and content the
world does not know are the model's.
"""

from __future__ import annotations

import posixpath
from dataclasses import replace

from ..world.knowledge import GitRepository as Repository
from .git_tree import Refused, WorkTree

Result = tuple[str, str, int, Repository]


def _matched(tops: tuple[str, ...], paths, error: str, status: int) -> list[str] | tuple[str, str, int]:
    """The paths under the pathspecs' tops, or git's error where one matches none (a lone pathspec only)."""
    matched = sorted(path for path in paths if any(not top or path == top or path.startswith(top + "/")
                                                    for top in tops))
    for top in tops:
        if not any(not top or path == top or path.startswith(top + "/") for path in paths):
            if len(tops) > 1:
                raise Refused("a pathspec that matches nothing beside others: what git does with the rest")
            return "", error.format(top or "."), status
    return matched


def restore(repository: Repository, tops: tuple[str, ...], staged: bool, work: WorkTree, fs, root: str) -> Result:
    if staged:
        if repository.head is None:
            raise Refused("`git restore --staged` before the first commit: git cannot resolve HEAD")
        head = repository.head
        found = _matched(tops, {*repository.index, *head},
                         "error: pathspec '{}' did not match any file(s) known to git\n", 1)
        if isinstance(found, tuple):
            return (*found, repository)
        index = dict(repository.index)
        for path in found:
            if path in head:
                index[path] = head[path]
            else:
                index.pop(path, None)
        return "", "", 0, replace(repository, index=index)
    found = _matched(tops, repository.index, "error: pathspec '{}' did not match any file(s) known to git\n", 1)
    if isinstance(found, tuple):
        return (*found, repository)
    for path in found:
        content = repository.index[path]
        if content is None:
            raise Refused("a restore of a file whose staged content the world does not know")
        above = posixpath.dirname(path)
        while above:
            if above in work.files:
                raise Refused("a restore where a file stands above the path")
            above = posixpath.dirname(above)
        if path in work.folders:
            raise Refused("a restore where a folder stands at the path")
    for path in found:
        if work.files.get(path, b"\0unknown") != repository.index[path]:
            fs.mkdir(posixpath.join(root, posixpath.dirname(path)), True)
            fs.write_file(posixpath.join(root, path), repository.index[path])
    return "", "", 0, repository


def remove_cached(repository: Repository, tops: tuple[str, ...], quiet: bool, work: WorkTree) -> Result:
    found = _matched(tops, repository.index, "fatal: pathspec '{}' did not match any files\n", 128)
    if isinstance(found, tuple):
        return (*found, repository)
    if any(top not in repository.index for top in tops):
        raise Refused("`git rm --cached` of a folder: it needs -r")
    head = repository.head or {}
    for path in found:
        staged, tracked, there = repository.index[path], head.get(path), work.files.get(path)
        if staged is None or path in head and tracked is None or path in work.files and there is None:
            raise Refused("`git rm --cached` of a file whose content the world does not know")
        if path not in work.files or staged != tracked and staged != there:
            raise Refused("`git rm --cached` of staged content that differs from both HEAD and the file, or of a "
                          "file gone from the work tree")
    index = {path: content for path, content in repository.index.items() if path not in found}
    return "" if quiet else "".join(f"rm '{path}'\n" for path in found), "", 0, replace(repository, index=index)
