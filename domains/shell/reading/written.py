"""What the line itself writes into files, known before anything runs.

A command of the line that writes text the line spells out (a here-document without expansions fed to
`cat` or `tee`, a literal `echo` or `printf` redirected into a file) leaves that text in the file for a
later command of the same line to run or read (`bash f`, `psql -f q.sql`, `./f`). Any other write leaves
the content unknown; an append adds to what was known; a later write replaces it. Nothing is run.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node

from .effects import Effect
from .grammar import node_text
from .words import Scope, Value, expand, printed_text

# Effects after which a path no longer holds what the line knew it to hold (a mode change keeps the content).
_CHANGES = frozenset({"created", "appended", "modified", "overwritten", "truncated", "moved-to", "moved-from",
                      "deleted"})


@dataclass(frozen=True)
class _Entry:
    text: str | None  # None: written with what the line does not spell out
    command: int  # the command that last wrote it
    before: _Entry | None  # what it held before that command wrote it (an append's start)


class WrittenFiles:
    """Path -> what the line has written there so far."""

    def __init__(self) -> None:
        self._files: dict[str, _Entry] = {}

    def lookup(self, path: str) -> tuple[bool, str | None]:
        """Whether the line wrote `path`, and its text where the line spells it out."""
        entry = self._files.get(path)
        return (False, None) if entry is None else (True, entry.text)

    def changed(self, effect: Effect) -> None:
        """An effect that may change what files hold: their content is unknown from here on."""
        if effect.kind not in _CHANGES:
            return
        if effect.path and effect.where != "unknown" and not effect.tree and not effect.pattern:
            self._forget(effect.path, effect.command)
            return
        # A tree, a glob or a path the line does not know: every file it may reach.
        top = effect.path.rstrip("/") if effect.where != "unknown" else ""
        if effect.pattern:
            top = posixpath.dirname(top.split("*")[0].split("?")[0].split("[")[0])
        for path in list(self._files):
            if not top or path == top or path.startswith(top.rstrip("/") + "/"):
                self._forget(path, effect.command)

    def settle(self, path: str, text: str, append: bool, command: int, on_disk: Callable[[str], str | None]) -> None:
        """Command `command` wrote `text` into `path` (after its write effect was recorded)."""
        entry = self._files.get(path)
        before = entry.before if entry is not None and entry.command == command else entry
        if append:
            start = before.text if before is not None else on_disk(path)
            self._files[path] = _Entry(None if start is None else start + text, command, before)
        else:
            self._files[path] = _Entry(text, command, before)

    def _forget(self, path: str, command: int) -> None:
        entry = self._files.get(path)
        before = entry.before if entry is not None and entry.command == command else entry
        self._files[path] = _Entry(None, command, before)


def output_of(program: str, words: list[Value], stdin_text: str | None) -> str | None:
    """What a command prints, where its words and input alone tell: a literal `echo` or `printf`; `cat` with no
    file, or `tee`, passing a known standard input on."""
    if any(not word.literal for word in words):
        return None
    texts = [word.text for word in words]
    if program in ("echo", "printf"):
        return printed_text([program, *texts])
    if program == "cat" and all(text == "-" for text in texts):
        return stdin_text
    if program == "tee":
        return stdin_text
    return None


def tee_files(words: list[Value]) -> tuple[list[Value], bool]:
    """The files `tee` writes its input into, and whether it appends (tee(1): -a, --append)."""
    files, append, options = [], False, True
    for word in words:
        if options and word.text == "--":
            options = False
        elif options and word.text.startswith("--") and len(word.text) > 2:
            append = append or "--append".startswith(word.text.split("=")[0])
        elif options and word.text.startswith("-") and len(word.text) > 1:
            append = append or "a" in word.text
        elif word.text != "-":
            files.append(word)
    return files, append


def output_files(command: Node, redirects: tuple[Node, ...], scope: Scope) -> list[tuple[Value, bool]]:
    """The files a command's standard output goes into, from the redirections that belong to it alone (not to a
    group or loop around it), and whether each is appended to."""
    found: list[tuple[Value, bool]] = []
    for node in redirects:
        inner = [node] if node.type == "file_redirect" else [c for c in node.children if c.type == "file_redirect"]
        for redirect in inner:
            operator = "".join(node_text(c) for c in redirect.children if not c.is_named).replace(" ", "")
            descriptor = next((node_text(c) for c in redirect.children if c.type == "file_descriptor"), "1")
            destination = redirect.child_by_field_name("destination")
            if operator not in _OUTPUT or descriptor != "1" or destination is None or not _belongs(redirect, command):
                continue
            value = expand(destination, scope, lambda _node, _scope: None, split=False)[0]
            found.append((value, operator.endswith(">>")))
    return found


_OUTPUT = frozenset({">", ">|", ">>", "&>", "&>>"})


def _belongs(redirect: Node, command: Node) -> bool:
    holder = redirect.parent
    while holder is not None and holder.type not in ("command", "redirected_statement"):
        holder = holder.parent
    if holder is not None and holder.type == "redirected_statement":
        holder = holder.child_by_field_name("body")
    return holder is not None and (holder.start_byte, holder.end_byte, holder.type) == (
        command.start_byte, command.end_byte, command.type)
