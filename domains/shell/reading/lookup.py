"""A command word that only looks its program up: `"$(command -v kubectl)"`, `$(which kubectl)`,
`` `type -P kubectl` ``. Each prints where the program of that name is (bash(1): `command -v` and
`type -P`/`-p` print the file the name runs; which(1) prints the path it finds in PATH), so the word
runs that program, wherever it is installed."""

from __future__ import annotations

import posixpath
import re

from tree_sitter import Node

from .grammar import node_text

_PLAIN = re.compile(r"[A-Za-z0-9_./+@-]+")
_LOOKUPS = {("command", "-v"), ("type", "-P"), ("type", "-p"), ("which",)}


def looked_up_program(name: Node) -> str | None:
    """The program a command's name looks up when the name is exactly such a substitution, quoted or not."""
    parts = [child for child in name.named_children]
    if len(parts) == 1 and parts[0].type == "string":
        parts = [child for child in parts[0].named_children]
    if len(parts) != 1 or parts[0].type != "command_substitution":
        return None
    commands = [child for child in parts[0].named_children if child.type != "comment"]
    if len(commands) != 1 or commands[0].type != "command":
        return None
    words = [_plain(child) for child in commands[0].named_children]
    if not words or any(word is None for word in words):
        return None
    *lookup, program = words
    return posixpath.basename(program) if tuple(lookup) in _LOOKUPS and program else None


def _plain(node: Node) -> str | None:
    if node.type == "command_name":
        return _plain(node.named_children[0]) if len(node.named_children) == 1 else None
    if node.type == "raw_string":
        text = node_text(node)[1:-1]
    elif node.type == "word":
        text = node_text(node)
    else:
        return None
    return text if _PLAIN.fullmatch(text) else None
