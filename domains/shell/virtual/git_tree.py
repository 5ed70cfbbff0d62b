"""What the virtual git (git.py) reads of a work tree: its files and folders, and its .gitignore rules.

The rules proven against git are a subset: comments, blank lines, and names with `*` that may end in `/`
(folders only), which hold for names at any depth below their file's folder. Negation, anchoring (a `/`
before the end), `**`, `?`, classes, escapes and edge spaces are refused.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from dataclasses import dataclass

Tree = dict[str, bytes | None]  # path relative to the work tree -> content (None: the world does not know it)
# Names git prints as they are (status in double quotes where they hold a space): other bytes it escapes.
PLAIN_NAME = re.compile(r"[\w./+,=@% -]+")
_IGNORE_LINE = re.compile(r"[\w.*+,=@%-]+/?")  # a name or `*` pattern, a folder's with `/`: nothing git reads else


class Refused(Exception):
    """The git command, here, is the model's: the shell refuses the line."""


@dataclass
class WorkTree:
    """The files and folders under the work tree's root (its `.git` left out), and its ignore rules."""

    files: Tree
    folders: set[str]
    _rules: dict[str, list[tuple[str, bool]]] | None = None  # folder -> its .gitignore's (pattern, folders only)

    @classmethod
    def read(cls, fs, root: str, unknown: set[str], filling: bytes) -> WorkTree:
        files: Tree = {}
        folders: set[str] = set()
        pending = [""]
        while pending:
            folder = pending.pop()
            for entry in fs.read_dir(posixpath.join(root, folder) if folder else root):
                path = posixpath.join(folder, entry["name"]) if folder else entry["name"]
                kind = entry["metadata"]["file_type"]
                if entry["name"] == ".git":
                    if folder:
                        raise Refused("a repository inside the work tree: git treats it apart")
                    continue
                if not PLAIN_NAME.fullmatch(path):
                    raise Refused("a name git quotes or escapes in its output")
                if kind == "directory":
                    folders.add(path)
                    pending.append(path)
                elif kind == "file":
                    absolute = posixpath.join(root, path)
                    read = bytes(fs.read_file(absolute))
                    files[path] = None if absolute in unknown and read == filling else read
                else:
                    raise Refused("a link or special file in the work tree")
        return cls(files, folders)

    @property
    def rules(self) -> dict[str, list[tuple[str, bool]]]:
        """The ignore rules, read where git needs them (diff and a commit that commits need none)."""
        if self._rules is None:
            if any(posixpath.basename(folder) == ".gitignore" for folder in self.folders):
                raise Refused("a folder named .gitignore")
            self._rules = {}
            for path, text in self.files.items():
                if posixpath.basename(path) == ".gitignore":
                    if text is None:
                        raise Refused("a .gitignore whose content the world does not know")
                    self._rules[posixpath.dirname(path)] = _ignore_rules(text)
        return self._rules

    def ignored(self, path: str) -> bool:
        """Whether an untracked path is ignored: it, or a folder above it, matches a rule of a .gitignore in a
        folder above it (rules hold for names at any depth below their file's folder)."""
        rules = self.rules
        parts = path.split("/")
        for depth in range(1, len(parts) + 1):
            name, is_folder = parts[depth - 1], depth < len(parts)
            for owner in ("/".join(parts[:at]) for at in range(depth)):
                for pattern, folders_only in rules.get(owner, ()):
                    if (is_folder or not folders_only) and fnmatch.fnmatchcase(name, pattern):
                        return True
        return False


def _ignore_rules(content: bytes) -> list[tuple[str, bool]]:
    """A .gitignore's rules, where every line is a comment, blank, or a name (with `*`) that may end in `/`: the
    rest of git's syntax (negation, anchoring, `**`, `?`, classes, escapes, trailing spaces) is refused."""
    rules = []
    for line in content.decode("ascii").split("\n"):
        if not line or line.startswith("#"):
            continue
        if not _IGNORE_LINE.fullmatch(line) or "**" in line or line.strip("/*") == "" and line != "*" or \
                line.rstrip("/") in (".", ".."):
            raise Refused(f"the .gitignore line {line[:30]!r}: only names, `*` and a folder's `/` are proven")
        rules.append((line.rstrip("/"), line.endswith("/")))
    return rules
