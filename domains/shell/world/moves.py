"""Where a step the world did not compute leaves the shell, where the exact facts decide it whatever was printed.

A line of simple commands joined by `;`, `&&` and `||` is followed command by command: `cd`, `pushd` and `popd`
into a folder the world knows is there succeed, into a path it knows is absent (or a file) fail and leave the
shell where it was (bash(1): the directory stack and OLDPWD unchanged); `popd` of a stack the world knows empty
fails. A command between them runs or not by the status before it, which is known only for the few that cannot
fail here (`true`, `pwd`, `echo`, `ls` of the working folder) or always fail (`false`); where a move's running
depends on a status not known, or where the line is anything else (a pipeline, a subshell, a construct, a
redirection that may fail), nothing is decided (learning.py then makes where the shell stands unknown).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Literal

from tree_sitter import Node

from ..reading.grammar import broken, node_text, parse_tree
from .knowledge import Knowledge

MOVES = frozenset({"cd", "pushd", "popd"})
STACK_WORDS = re.compile(r"(?:^|[\s;&|(`])(?:pushd|popd|dirs)(?=\s|$|[;&|)])")  # a line that may touch the stack
_PLAIN = re.compile(r"(?:~(?=/|$))?[\w./+-]*")  # a word that is its own text (or `~`, `~/...`)
_LS_OPTIONS = re.compile(r"-[laAh1FtrS]+")  # ls of the working folder, options that cannot fail
# Commands that may run other code in this shell, which may move it, or change how a later cd reads its word
# (`printf -v CDPATH`, `shopt -s cdable_vars`, `set -P`, `enable -n cd`, `read`): nothing is decided for a line with
# one.
_RUNS_CODE = frozenset({"source", ".", "eval", "exec", "builtin", "command", "dirs", "set", "shopt", "enable", "trap",
                        "read", "printf", "mapfile", "readarray", "getopts", "let", "hash", "declare", "typeset",
                        "export", "unset", "local", "readonly", "alias", "unalias", "umask"})


@dataclass(frozen=True)
class Followed:
    cwd: str
    oldpwd: str | None  # as Knowledge.oldpwd: "" unset, None unknown
    stack: tuple[str, ...] | None  # as Knowledge.dirstack


def follow(known: Knowledge, line: str, cwd: str) -> Followed | None:
    """Where the line leaves the shell, its OLDPWD and its directory stack; None where that is not certain. Each
    command whose success the facts do not decide is followed both ways; where the ways part, what differs is
    not known (the shell's folder: nothing is decided)."""
    commands = _chain(line)
    if commands is None or not known.cwd_known or known.shell_changed or any(
            name in known.functions for _, name, _ in commands or ()):
        return None  # (CDPATH, an alias, a function named cd or ls: the shell is not the one these rules read)
    # Each way the line may have gone so far: (folder, OLDPWD, stack, the last command's success)
    ways: list[tuple[str, str | None, tuple[str, ...] | None, bool]] = [(cwd, known.oldpwd, known.dirstack, True)]
    for operator, name, words in commands:
        if name in _RUNS_CODE:
            return None
        following = []
        for way in ways:
            folder, oldpwd, stack, status = way
            if operator == "&&" and not status or operator == "||" and status:
                following.append(way)  # skipped: the status stays
            elif name not in MOVES:
                done = _status(name, words)
                following += [(folder, oldpwd, stack, success) for success in ((True, False) if done is None
                                                                                else (done,))]
            else:
                moved = _move(known, name, words, folder, oldpwd, stack)
                if moved is None:
                    return None
                if moved is not False:  # it succeeded, or may have
                    following.append((moved[0], folder, moved[1], True))
                if moved is False or moved[2]:
                    following.append((folder, oldpwd, stack, False))
        ways = list(dict.fromkeys(following))
        if len(ways) > _MOST_WAYS:
            return None
    folders = {way[0] for way in ways}
    if len(folders) != 1:
        return None
    oldpwds, stacks = {way[1] for way in ways}, {way[2] for way in ways}
    return Followed(folders.pop(), oldpwds.pop() if len(oldpwds) == 1 else None,
                    stacks.pop() if len(stacks) == 1 else None)


_MOST_WAYS = 32  # more ways than this: nothing is decided


def _move(known: Knowledge, name: str, words: list[str], cwd: str, oldpwd: str | None,
          stack: tuple[str, ...] | None) -> tuple[str, tuple[str, ...] | None, bool] | Literal[False] | None:
    """(the folder it enters, the stack after, whether it may fail instead) where it may succeed; False where it
    certainly fails; None where what it would do is not known (an unknown OLDPWD or stack, options)."""
    after: tuple[str, ...] | None
    if any(word.startswith(("-", "+")) and word != "-" for word in words) or len(words) > 1:
        return None  # options, stack rotations, several operands
    if name == "popd" or name == "pushd" and not words:
        if words or stack is None:
            return None
        if not stack:
            return False  # "directory stack empty" / "no other directory"
        target = stack[0]
        after = stack[1:] if name == "popd" else (cwd, *stack[1:])
        if target not in known.folders or known.status(target) != "present":
            return None  # where it fails, what bash leaves of the stack is not followed here
    else:
        word = words[0] if words else "~"
        if word == "-" and name == "cd":
            if oldpwd is None:
                return None
            if not oldpwd:
                return False  # "OLDPWD not set"
            word = oldpwd
        elif word == "-" or not word:
            return None
        parts = word.split("/")
        if any(part == ".." and parts[index - 1] not in ("", ".", "..") for index, part in enumerate(parts) if index):
            return None  # `name/..`: bash fails where name is no folder
        target = posixpath.normpath(posixpath.join(cwd, known.home + word[1:] if word.startswith("~") else word))
        after = stack if name == "cd" else None if stack is None else (cwd, *stack)
    if target in known.folders and known.status(target) == "present":
        return target, after, False
    if known.status(target) == "absent" or target in known.files:
        return False
    return target, after, True  # there as a folder or not: both ways


def _status(name: str, words: list[str]) -> bool | None:
    """Whether a command that does not move the shell succeeds, where that is certain whatever the files hold."""
    if name in ("true", "echo") or name == "pwd" and not words:
        return True
    if name == "false":
        return False
    if name == "ls" and all(_LS_OPTIONS.fullmatch(word) for word in words):
        return True  # the working folder, which the world knows is there
    return None


def _chain(line: str) -> list[tuple[str, str, list[str]]] | None:
    """The line's simple commands in order, each with the operator before it (`;` for the first) and its plain
    words; None where it is anything else, or a word is not its own text, or a redirection may fail."""
    root = parse_tree(line)
    if broken(root):
        return None
    found: list[tuple[str, str, list[str]]] = []
    operator = ";"
    pending = list(root.children)
    while pending:
        node = pending.pop(0)
        if node.type in (";", "\n", "&&", "||"):
            operator = node.type if node.type in ("&&", "||") else ";"
            continue
        if node.type == "comment":
            continue
        if node.type == "list":
            pending[:0] = node.children
            continue
        if node.type == "redirected_statement" and node.named_children and all(
                _cannot_fail(child) for child in node.named_children[1:]):
            pending.insert(0, node.named_children[0])  # (the grammar hangs a last command's redirection on its list)
            continue
        command = _command(node)
        if command is None:
            return None
        found.append((operator, *command))
        operator = ";"
    return found


def _command(node: Node) -> tuple[str, list[str]] | None:
    if node.type != "command":
        return None
    words: list[str] = []
    for child in node.children:
        if child.type.endswith("_redirect"):
            if not _cannot_fail(child):
                return None
            continue
        if child.type not in ("command_name", "word") or not _PLAIN.fullmatch(node_text(child)):
            return None
        words.append(node_text(child))
    return (words[0], words[1:]) if words else None


def _cannot_fail(node: Node) -> bool:
    """A redirection into /dev/null, or of one output stream into the other."""
    destination = node.child_by_field_name("destination")
    text = node_text(destination) if destination is not None else ""
    operator = "".join(node_text(child) for index, child in enumerate(node.children)
                       if node.field_name_for_child(index) != "destination").replace(" ", "")
    return node.type == "file_redirect" and (text == "/dev/null" and operator in (">", "1>", "2>", "&>", ">>", "2>>")
                                             or operator in (">&", "2>&", "1>&") and text in ("1", "2"))
