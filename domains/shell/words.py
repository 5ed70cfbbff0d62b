"""A shell word's value as bash would expand it, where the text alone tells.

Quotes and escapes are removed, `~`, `$HOME`, `$PWD` and variables assigned a literal earlier in the
line are substituted, and unquoted braces expand (`{a,b}`). What the text does not tell (a variable
from the environment, `$(...)`, `$((...))`) stays in the value as written and marks it not literal;
an unquoted `*`, `?` or `[` marks it a glob. Nothing is ever run.
"""

from __future__ import annotations

import codecs
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node

from .effects import Where
from .grammar import node_text

_SPECIAL_PARAMETERS = set("0123456789@*#?$!-_")


@dataclass(frozen=True)
class Value:
    text: str  # the expanded text; unknown parts kept as written
    literal: bool = True  # every part is known and nothing is a glob
    prefix: str | None = None  # the known text before the first unknown part or glob (None: all of it)
    glob: bool = False
    unknown: str = ""  # the first unknown part, as written: "$DIR", "$(pwd)"

    @property
    def known_prefix(self) -> str:
        return self.text if self.prefix is None else self.prefix


@dataclass
class Scope:
    """What the line has established so far: where it is and which variables hold literals."""

    cwd: str
    home: str
    workspace: str
    variables: dict[str, str | None] = field(default_factory=dict)  # None: assigned something unknown
    cwd_known: bool = True  # False after `cd $X`: relative paths are then unknown
    oldpwd: str | None = None  # where `cd -` goes back to

    def copy(self) -> Scope:
        return Scope(self.cwd, self.home, self.workspace, dict(self.variables), self.cwd_known, self.oldpwd)

    def variable(self, name: str) -> str | None:
        if name in self.variables:
            return self.variables[name]
        if name == "HOME":
            return self.home
        if name == "PWD":
            return self.cwd if self.cwd_known else None
        if name == "OLDPWD":
            return self.oldpwd
        return None

    def path(self, value: Value) -> tuple[str, Where]:
        """A value as an absolute, normalized path, and where it lies relative to the workspace."""
        text = value.text
        path = posixpath.normpath(posixpath.join(self.cwd, text)) if text else self.cwd
        if text.endswith("/") and path != "/":
            path += "/"
        if not value.literal and not value.glob:
            return path, "unknown"
        known = value.known_prefix
        # A glob cannot climb out with `..` unless written: the directory part before it decides.
        base = posixpath.normpath(posixpath.join(self.cwd, known.rsplit("/", 1)[0] if "/" in known else ""))
        return path.rstrip("/") or "/", self.where(base if value.glob else path)

    def where(self, path: str) -> Where:
        workspace = self.workspace.rstrip("/") or "/"
        inside = path == workspace or path.startswith(workspace + "/") or workspace == "/"
        return "inside" if inside else "outside"


# Called for each command substitution met while expanding a word: its commands run too.
OnSubstitution = Callable[[Node, Scope], None]


def expand(node: Node, scope: Scope, on_substitution: OnSubstitution) -> list[Value]:
    """The values of one argument node (several where braces expand)."""
    parts = _parts(node, scope, on_substitution, quoted=False)
    texts = _brace_expand(parts)
    return [_value(pieces) for pieces in texts]


# A piece: (text, kind) with kind "lit" (quoted or escaped literal), "raw" (unquoted literal: globs
# and braces apply), "unknown".
Piece = tuple[str, str]


def _parts(node: Node, scope: Scope, on_sub: OnSubstitution, quoted: bool) -> list[Piece]:
    kind, text = node.type, node_text(node)
    if kind in ("word", "number", "variable_name", "extglob_pattern"):
        if quoted:
            return [(text, "lit")]
        first = node.prev_sibling is None or node.parent is None or node.parent.type != "concatenation"
        return _unquoted_word(text, scope, first=first)
    if kind == "raw_string":
        return [(text[1:-1], "lit")]
    if kind == "ansi_c_string":
        return [(_ansi_c(text[2:-1]), "lit")]
    if kind in ("string", "translated_string"):
        pieces: list[Piece] = []
        for child in node.named_children:
            if child.type == "string_content":
                pieces.append((re.sub(r'\\([$`"\\\n])', r"\1", node_text(child)), "lit"))
            else:
                pieces.extend(_parts(child, scope, on_sub, quoted=True))
        return pieces or [("", "lit")]
    if kind == "command_name":
        return [piece for child in node.children for piece in _parts(child, scope, on_sub, quoted)]
    if kind == "concatenation":
        pieces = []
        for child in node.children:
            pieces.extend(_parts(child, scope, on_sub, quoted))
        return pieces
    if kind == "simple_expansion":
        # Inside quotes the grammar may fold the blanks before `$` into the node ("$A $B": ' $B').
        written = text.lstrip()
        lead = text[: len(text) - len(written)]
        return ([(lead, "lit")] if lead else []) + [_variable(written[1:], written, scope, quoted)]
    if kind == "expansion":
        names = [child for child in node.named_children if child.type == "variable_name"]
        simple = len(node.named_children) == 1 and names
        if simple:
            return [_variable(node_text(names[0]), text, scope, quoted)]
        return [(text, "unknown")]
    if kind in ("command_substitution", "process_substitution"):
        on_sub(node, scope)
        made = _mktemp_name(text, scope) if kind == "command_substitution" else None
        return [(made, "lit")] if made is not None else [(text, "unknown")]
    if kind == "arithmetic_expansion":
        return [(text, "unknown")]
    if not node.children:  # punctuation inside a concatenation ('{', '}', ...)
        return [(text, "lit" if quoted else "raw")]
    return [(text, "unknown")]


_MKTEMP = re.compile(r"\$\(\s*mktemp((?:\s+[^\s;&|()<>`$'\"\\]+)*)\s*\)")


def _mktemp_name(text: str, scope: Scope) -> str | None:
    """The file `$(mktemp ...)` makes (`mktemp_target`), or None for any other substitution."""
    match = _MKTEMP.fullmatch(text)
    return mktemp_target(match.group(1).split(), scope.cwd, scope.variables.get("TMPDIR") or "/tmp") if match \
        else None


def mktemp_target(words: list[str], cwd: str, tmpdir: str) -> str | None:
    """Where mktemp, given these arguments, makes its file, as mktemp(1) says (the X's stand for the random
    part): with no template, tmp.XXXXXXXXXX in $TMPDIR or /tmp; a template under -p DIR, --tmpdir[=DIR] or
    -t goes there too, and a bare template is relative to the working folder. None for an option not read
    here or a template mktemp refuses."""
    folder, template, relative, suffix = None, None, True, ""
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word in ("--directory", "--quiet", "--dry-run"):
            continue
        if word == "--tmpdir" or word.startswith("--tmpdir="):
            folder, relative = word.partition("=")[2] or folder, False
        elif word.startswith("--suffix="):
            suffix = word.partition("=")[2]
        elif word.startswith("-") and not word.startswith("--") and len(word) > 1:
            for at, letter in enumerate(word[1:], 1):  # combined short options: -dq, -dt, -pDIR, -p DIR
                if letter == "t":
                    relative = False
                elif letter == "p":
                    glued = word[at + 1:]
                    if not glued and index >= len(words):
                        return None
                    folder, relative = glued or words[index], False
                    index += not glued
                    break
                elif letter not in "dqu":
                    return None
        elif word.startswith("-") or template is not None:
            return None
        else:
            template = word
    if template is None:
        return posixpath.join(folder or tmpdir, "tmp.XXXXXXXXXX" + suffix)
    if "/" in template and not relative:
        return None  # a template with a folder under -t, -p or --tmpdir: mktemp refuses it
    base = folder or (cwd if relative else tmpdir)
    return posixpath.normpath(posixpath.join(base, template + suffix))


def _unquoted_word(text: str, scope: Scope, first: bool) -> list[Piece]:
    if first and text.startswith("~"):
        user, slash, rest = text[1:].partition("/")
        if not user:
            return [(scope.home, "lit"), *_unescaped(slash + rest)]
        if re.fullmatch(r"[a-z_][a-z0-9_-]*", user):
            return [(text, "unknown")]  # another user's home: where it is, the text does not say
    return _unescaped(text)


def _unescaped(text: str) -> list[Piece]:
    """Backslashes quote the next character; what they quote is literal, the rest stays raw."""
    pieces: list[Piece] = []
    for index, chunk in enumerate(re.split(r"\\(.)", text, flags=re.DOTALL)):
        if chunk:
            pieces.append((chunk if chunk != "\n" else "", "lit" if index % 2 else "raw"))
    return pieces


def _variable(name: str, written: str, scope: Scope, quoted: bool) -> Piece:
    if name in _SPECIAL_PARAMETERS or name.isdigit():
        return (written, "unknown")
    value = scope.variable(name)
    if value is None:
        return (written, "unknown")
    return (value, "lit" if quoted else "raw")


def _brace_expand(pieces: list[Piece]) -> list[list[Piece]]:
    """`{a,b}` in unquoted text becomes one word per alternative (at most 64), as bash expands it."""
    raw = "".join(text if kind == "raw" else "\0" * len(text) for text, kind in pieces)
    match = re.search(r"\{([^{}\0]*,[^{}\0]*)\}", raw)
    if match is None:
        return [pieces]
    start, end = match.span()
    flat = [(char, kind) for text, kind in pieces for char in text]
    before, after = flat[:start], flat[end:]
    results = []
    for option in match.group(1).split(","):
        results.extend(_brace_expand(_merge(before + [(c, "raw") for c in option] + after)))
        if len(results) >= 64:
            break
    return results[:64]


def _merge(chars: list[Piece]) -> list[Piece]:
    merged: list[Piece] = []
    for char, kind in chars:
        if merged and merged[-1][1] == kind:
            merged[-1] = (merged[-1][0] + char, kind)
        else:
            merged.append((char, kind))
    return merged


def _value(pieces: list[Piece]) -> Value:
    text = "".join(piece for piece, _ in pieces)
    chars = [(char, kind) for piece, kind in pieces for char in (piece if kind != "unknown" else "\0")]
    unknown = next((piece for piece, kind in pieces if kind == "unknown"), "")
    stop = next((index for index, (_, kind) in enumerate(chars) if kind == "unknown"), len(chars))
    glob_at = _glob_start(chars[:stop])
    if glob_at is None and not unknown:
        return Value(text)
    cut = glob_at if glob_at is not None else stop
    prefix = "".join(char for char, _ in chars[:cut])
    return Value(text, literal=False, prefix=prefix, glob=glob_at is not None and not unknown, unknown=unknown)


def _glob_start(chars: list[tuple[str, str]]) -> int | None:
    """Where the first unquoted glob begins: `*`, `?`, or a `[` that an unquoted `]` closes."""
    for index, (char, kind) in enumerate(chars):
        if kind != "raw":
            continue
        if char in "*?":
            return index
        if char == "[" and any(c == "]" and k == "raw" for c, k in chars[index + 2:]):
            return index
    return None


def _ansi_c(body: str) -> str:
    try:
        return codecs.decode(body.encode("latin-1", "backslashreplace"), "unicode_escape")
    except (UnicodeDecodeError, ValueError):
        return body

