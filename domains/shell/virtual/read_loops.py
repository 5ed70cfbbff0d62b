"""`while [IFS=C] read [-r] NAME...; do BODY; done < FILE` over a file whose content the world knows.

bash runs the body once per line that ends in a newline (a last line without one is read, but `read`
fails and the body does not run), with the names set to the line's fields: split at runs of blanks
(default IFS) or at each C (`IFS=C`), the last name taking the rest of the line. The gate walks the
body turn by turn with the values this module gives. The fine print of `read` is left out where it
would matter: backslashes (escapes without -r), spaces other than blanks and, with IFS=C, lines ending
in C (bash drops one such C only in some cases) are refused, and so are IFS values other than one of `,:;|`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from ..reading.grammar import node_text
from .refusal import NotComputable

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SEPARATORS = ",:;|"


@dataclass(frozen=True)
class Read:
    names: tuple[str, ...]
    raw: bool  # -r
    separator: str  # "" for the default IFS (blanks)


def read_command(node: Node) -> Read:
    """The `read` a loop's condition runs, or NotComputable: `[IFS=C] read [-r] NAME...` only."""
    if node.type != "command":
        raise NotComputable("a loop whose condition is not one test")
    separator, words = "", []
    for child in node.named_children:
        if child.type == "variable_assignment":
            text = node_text(child)
            if not re.fullmatch(rf"IFS=(?:[{re.escape(_SEPARATORS)}]|'[{re.escape(_SEPARATORS)}]')", text) or \
                    separator:
                raise NotComputable(f"read with {text[:20]!r}: only IFS set to one of {_SEPARATORS} is proven")
            separator = text[4:].strip("'")
        elif child.type in ("command_name", "word"):
            words.append(node_text(child))
        else:
            raise NotComputable(f"read with {node_text(child)[:20]!r}: only -r and names are proven")
    if not words or words[0] != "read":
        raise NotComputable("a loop whose condition is not one test")
    raw = words[1:2] == ["-r"]
    names = tuple(words[2 if raw else 1:])
    if not names or not all(_NAME.fullmatch(name) for name in names) or len(set(names)) != len(names):
        raise NotComputable("read without names, or with options other than -r: not proven")
    return Read(names, raw, separator)


def turns(read: Read, content: bytes, most: int) -> list[dict[str, str]]:
    """The names' values at each turn of the body, or NotComputable where `read`'s fine print would matter."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        raise NotComputable("read from a file that is not UTF-8 text") from None
    if "\\" in text or "\0" in text:
        raise NotComputable("read from a file with backslashes or NUL bytes: escapes are not proven")
    lines = text.split("\n")[:-1]  # a last line without a newline: read fails, the body does not run
    if len(lines) > most:
        raise NotComputable("a read loop of more turns than are proven")
    values = []
    for line in lines:
        if not read.separator and any(char.isspace() and char not in " \t" for char in line):
            raise NotComputable("read of a line with spaces other than blanks: not proven")
        if read.separator and line.endswith(read.separator):
            raise NotComputable("read of a line ending in IFS: bash drops that IFS in some cases only")
        # Blanks at the ends are IFS whitespace by default (stripped), ordinary text under IFS=C (kept).
        fields = line.strip(" \t").split(None, len(read.names) - 1) if not read.separator else \
            line.split(read.separator, len(read.names) - 1)
        fields += [""] * (len(read.names) - len(fields))
        values.append(dict(zip(read.names, fields)))
    return values
