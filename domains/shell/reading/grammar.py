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
    source = _UNSAFE.sub("\ufffd", code).encode("utf-8")
    root = _parser().parse(source).root_node
    for _ in range(64):
        repaired = _braced_expansion(root, source)
        if repaired is None:
            repaired = _dropped_word(root, source)
        if repaired is None:
            break
        source = repaired
        root = _parser().parse(source).root_node
    return root


_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def _braced_expansion(root: Node, source: bytes) -> bytes | None:
    """The source with one misread `$NAME` written `${NAME}`, or None when there is none. tree-sitter-bash
    reads `$D/$F.html` as the word `$D/$` and then a word `F.html` of its own (a `$NAME` after an
    expansion and more text, followed by a `.`); bash reads `$F` as `${F}` there, as everywhere."""
    stack = [root]
    while stack:
        node = stack.pop()
        following = node.next_sibling
        if node.type == "concatenation" and following is not None and following.start_byte == node.end_byte \
                and node.children and node.children[-1].type == "$" and not node.children[-1].is_named:
            name = _NAME.match(source, following.start_byte)
            word = re.sub(rb"\$\{\w+\}", b"", source[node.start_byte:following.end_byte])
            if name is not None and b"{" not in word:  # with braces, what they expand to may lengthen the name
                return (source[:following.start_byte] + b"{" + name.group() + b"}" + source[name.end():])
        stack.extend(node.children)
    return None


_PLAIN_WORD = re.compile(rb"([ \t]*)([A-Za-z0-9_./+-]+)([ \t]*)")


def _dropped_word(root: Node, source: bytes) -> bytes | None:
    """The source with one word the grammar left out of every node written quoted, or None when there is none.
    tree-sitter-bash drops a lone `-` before a redirection (`python3 - <<'EOF'`, `cd - 1>/dev/null`); quoted, a
    plain word is the same word to bash, and the grammar keeps it."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "redirected_statement":
            for left, right in zip(node.children, node.children[1:], strict=False):
                gap = _PLAIN_WORD.fullmatch(source, left.end_byte, right.start_byte)
                if left.end_byte != right.start_byte and gap is not None and not gap.group(2).isdigit():
                    return source[:gap.start(2)] + b"'" + gap.group(2) + b"'" + source[gap.end(2):]
        stack.extend(node.named_children)
    return None


def broken(root: Node) -> bool:
    """Whether the line has a part bash would not parse. The grammar does not know the `<>` operator
    (it reads `<` then an error at `>`); that one alone is not a broken line."""
    if _misread_words(root):
        return True
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


_GAP = re.compile(rb"(?:[ \t]|\\\n)+")


def _misread_words(root: Node) -> bool:
    """Whether the grammar split one of bash's words: two of a command's words with no blank between them
    (`'a b'\\*`, `${A}\\{x}`), or an escaped blank left out of every word (`echo \\ x`)."""
    source = root.text or b""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "command":
            if any(not child.is_named for child in node.children):
                return True  # `echo a == b`: the grammar reads `==` as an operator, no argument
            words = [child for child in node.children if not child.type.endswith("_redirect")]
            if any(not _GAP.fullmatch(source[left.end_byte:right.start_byte])
                   for left, right in zip(words, words[1:], strict=False)):
                return True
        if node.type == "redirected_statement" and any(
                not _GAP.fullmatch(source[left.end_byte:right.start_byte]) and left.end_byte != right.start_byte
                for left, right in zip(node.children, node.children[1:], strict=False)):
            return True  # `cd - 1>/dev/null`: the grammar leaves the `-` out of every node
        stack.extend(node.named_children)
    return False


def node_text(node: Node) -> str:
    """A node's source text (what the grammar read, as a string)."""
    return node.text.decode("utf-8", errors="replace") if node.text is not None else ""
