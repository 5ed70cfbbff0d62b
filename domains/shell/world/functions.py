"""Functions the shell keeps: a definition read from a line's syntax, as typed.

A definition's effect is certain whatever a step printed (bash defines the function when the line parses and the
definition stands alone), so the world keeps it even from a step the model predicted; its body runs only when
called, and the virtual shell reads it then (virtual/shell_state.py).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from ..reading.grammar import broken, node_text, parse_tree

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def definition(node: Node) -> tuple[str, str] | None:
    """A function definition's name and its text as typed (`name() { ...; }`); None where its name is not a plain
    word or its body not a plain `{ ...; }` group without redirections."""
    name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
    if name is None or body is None or not _NAME.fullmatch(node_text(name)):
        return None
    if body.type != "compound_statement" or not body.children or node_text(body.children[0]) != "{" or any(
            child.type.endswith("_redirect") for child in node.children):
        return None
    return node_text(name), node_text(node)


def top_level_definitions(line: str) -> tuple[dict[str, str], str]:
    """The functions a line defines as statements of its own (bash runs each: `;` and newlines do not branch), and
    the line with those definitions blanked out (what else it does). A definition inside a construct or a list
    (`true && f() { ...; }`), or one defined twice, is left in the line, unread."""
    root = parse_tree(line)
    if broken(root):
        return {}, line
    found: dict[str, str] = {}
    data = bytearray(line.encode("utf-8", "surrogateescape"))
    for statement in root.named_children:
        read = definition(statement) if statement.type == "function_definition" else None
        if read is None or read[0] in found:
            continue
        found[read[0]] = read[1]
        data[statement.start_byte:statement.end_byte] = b" " * (statement.end_byte - statement.start_byte)
    return found, data.decode("utf-8", "surrogateescape")
