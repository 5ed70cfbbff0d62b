"""A shell word's value as bash would expand it, where the text alone tells.

Quotes and escapes are removed, `~`, `$HOME`, `$PWD` and variables assigned a literal earlier in the
line are substituted, and unquoted braces expand (`{a,b}`). What an unquoted expansion yields is split
into words on IFS, as bash(1) does under "Word Splitting" (`$CMD` holding `rm -rf build` is three
words, `"$CMD"` one). What the text does not tell (a variable from the environment, `$(...)` other than
`$(mktemp)` and an `echo` or `printf` of literal words, `$((...))`) stays in the value as written and
marks it not literal; an unquoted `*`, `?` or `[` marks it a glob. Nothing is ever run.
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
    sourced: tuple[str, ...] = ()  # secret files run into this shell by `source`/`.`: its variables may be theirs

    def copy(self) -> Scope:
        return Scope(self.cwd, self.home, self.workspace, dict(self.variables), self.cwd_known, self.oldpwd,
                     self.sourced)

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


def expand(node: Node, scope: Scope, on_substitution: OnSubstitution, split: bool = True) -> list[Value]:
    """The values of one argument node: several where braces expand or an unquoted expansion splits, none
    where it was only an unquoted expansion of nothing. `split=False` where bash does not split (an
    assignment's value, a redirection's target, a here-string)."""
    parts = _parts(node, scope, on_substitution, quoted=False)
    values: list[Value] = []
    for pieces in _brace_expand(parts):
        fields = _split(pieces, scope) if split else [pieces]
        values.extend(_value(field) for field in fields)
    return values


# A piece: (text, kind) with kind "lit" (quoted or escaped literal), "raw" (unquoted literal: globs
# and braces apply), "field" (what an unquoted expansion yields: split on IFS, then globs apply, but
# braces do not, since bash expands them first), "unknown".
Piece = tuple[str, str]
_DEFAULT_IFS = " \t\n"


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
        if kind == "command_substitution" and (made := _mktemp_name(text, scope)) is not None:
            return [(made, "lit")]
        printed = printed_output(node, scope) if kind == "command_substitution" else None
        if printed is not None:  # bash strips a substitution's trailing newlines
            return [(printed.rstrip("\n"), "lit" if quoted else "field")]
        return [(text, "unknown")]
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


def printed_output(node: Node, scope: Scope) -> str | None:
    """What a command substitution prints when it is one `echo` or `printf` of literal words, as bash's builtins
    print (bash(1), SHELL BUILTIN COMMANDS); None for anything else. echo: leading -n, -e and -E are options,
    and with -e a backslash is left unresolved. printf: a format of plain text, `%s`, `%%` and `\\n` only,
    reused while arguments remain; any other directive or escape is left unresolved."""
    commands = [child for child in node.named_children if child.type != "comment"]
    if len(commands) != 1 or commands[0].type != "command":
        return None
    return printed_by(commands[0], scope)


def printed_by(command: Node, scope: Scope) -> str | None:
    """What one simple command prints when it is an `echo` or `printf` of literal words (see printed_output)."""
    words: list[Value] = []
    for index, child in enumerate(command.children):
        if command.field_name_for_child(index) not in ("name", "argument"):
            return None  # a redirection or an assignment: what reaches the output is not just the words
        words.extend(expand(child, scope, lambda _node, _scope: None))
    if not words or any(not word.literal for word in words):
        return None
    return printed_text([word.text for word in words])


def printed_text(texts: list[str]) -> str | None:
    """What `echo` or `printf` given these literal words (the program's name first) prints (see printed_output)."""
    if texts[:1] == ["echo"]:
        return _echoed(texts[1:])
    if texts[:1] == ["printf"]:
        return _printf(texts[1:])
    return None


def _echoed(args: list[str]) -> str | None:
    newline, escapes = True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        for letter in args.pop(0)[1:]:
            newline = newline and letter != "n"
            escapes = letter == "e" if letter in "eE" else escapes
    text = " ".join(args)
    if escapes and "\\" in text:
        return None
    return text + ("\n" if newline else "")


_PRINTF_PART = re.compile(r"%s|%%|\\n|[^%\\]+")


def _printf(args: list[str]) -> str | None:
    if args[:1] == ["--"]:
        args = args[1:]
    if not args or args[0].startswith("-"):
        return None  # no format, or an option (-v prints into a variable)
    form, rest = args[0], args[1:]
    parts = _PRINTF_PART.findall(form)
    if "".join(parts) != form:
        return None
    slots = parts.count("%s")
    groups = [rest[at:at + slots] for at in range(0, len(rest), slots)] if slots and rest else [[]]
    out: list[str] = []
    for group in groups:
        given = iter(group)
        out.extend(next(given, "") if part == "%s" else {"%%": "%", "\\n": "\n"}.get(part, part) for part in parts)
    return "".join(out)


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
    return (value, "lit" if quoted else "field")


def _split(pieces: list[Piece], scope: Scope) -> list[list[Piece]]:
    """Bash's word splitting (bash(1), "Word Splitting"): the text of unquoted expansions is cut at IFS
    characters; a run of IFS white space is one cut and is dropped at either end, each other IFS character
    is a cut of its own (`a,,b` is three words under IFS=,). A word of unquoted expansions that yield
    nothing is no word at all; a quoted part, even empty, keeps it."""
    if not any(kind == "field" for _, kind in pieces):
        return [pieces]
    ifs = scope.variables.get("IFS", _DEFAULT_IFS)
    if ifs is None:  # IFS set to what the line does not tell: where the words split is unknown
        return [[(text, "unknown" if kind == "field" else kind) for text, kind in pieces]]
    fields: list[list[Piece]] = []
    current: list[Piece] = []
    started = after_blank = False  # the current word has begun; the last cut was IFS white space
    for text, kind in pieces:
        if kind != "field":
            current.append((text, kind))
            started = True
            continue
        for char in text:
            if char not in ifs:
                current.append((char, kind))
                started, after_blank = True, False
            elif char in _DEFAULT_IFS:
                if started:
                    fields.append(current)
                    current, started, after_blank = [], False, True
            else:
                if started or not after_blank:
                    fields.append(current)
                current, started, after_blank = [], False, False
    if started:
        fields.append(current)
    return [_merge(field) for field in fields]


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


_GLOBBED = ("raw", "field")  # unquoted text: a glob character in it is one


def _glob_start(chars: list[tuple[str, str]]) -> int | None:
    """Where the first unquoted glob begins: `*`, `?`, or a `[` that an unquoted `]` closes."""
    for index, (char, kind) in enumerate(chars):
        if kind not in _GLOBBED:
            continue
        if char in "*?":
            return index
        if char == "[" and any(c == "]" and k in _GLOBBED for c, k in chars[index + 2:]):
            return index
    return None


def _ansi_c(body: str) -> str:
    try:
        return codecs.decode(body.encode("latin-1", "backslashreplace"), "unicode_escape")
    except (UnicodeDecodeError, ValueError):
        return body

