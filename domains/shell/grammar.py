"""The bash grammar: tree-sitter-bash's parser, guarded against the input that crashes it, and
whether a parsed line has a part bash would not accept."""

from __future__ import annotations

import functools
import re

import tree_sitter_bash
from tree_sitter import Language, Node, Parser


@functools.cache
def _parser() -> Parser:
    return Parser(Language(tree_sitter_bash.language()))


# tree-sitter-bash's scanner reads out of bounds, and may crash the process, on characters far above
# the BMP after `{` (seen from U+60000 up, in 0.23 to 0.25, under tree-sitter 0.25 and 0.26); nothing
# assigned lives past U+3FFFF but tags and private use. Those, and lone surrogates, become U+FFFD.
_UNSAFE = re.compile("[\U00040000-\U0010ffff\ud800-\udfff]")


def parse_tree(code: str) -> Node:
    return _parser().parse(_UNSAFE.sub("\ufffd", code).encode("utf-8")).root_node


def broken(root: Node) -> bool:
    """Whether the line has a part bash would not parse. The grammar does not know the `<>` operator
    (it reads `<` then an error at `>`); that one alone is not a broken line."""
    if not root.has_error:
        return False
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            return True
        if node.type == "ERROR":
            previous = node.prev_sibling
            if not (node_text(node) == ">" and previous is not None and node_text(previous) == "<"
                    and node.parent is not None and node.parent.type == "file_redirect"):
                return True
        stack.extend(child for child in node.children if child.has_error or child.is_missing)
    return False


def node_text(node: Node) -> str:
    """A node's source text (what the grammar read, as a string)."""
    return node.text.decode("utf-8", errors="replace") if node.text is not None else ""
