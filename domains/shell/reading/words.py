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

from . import arithmetic, parameters
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
    status: str | None = None  # what `$?` stands for, where the caller lets it stand for anything
    positional: tuple[str, ...] | None = None  # $1, $2 ... inside a function called with these literal words

    def copy(self) -> Scope:
        return Scope(self.cwd, self.home, self.workspace, dict(self.variables), self.cwd_known, self.oldpwd,
                     self.sourced, self.status, self.positional)

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
        if not "".join(text for text, _ in pieces) and not any(kind == "lit" for _, kind in pieces):
            continue  # nothing quoted and nothing left (`{x,}`, `${E:+y}`): no word at all
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
        if first and text == "~" and node.next_sibling is not None and node.parent is not None and \
                node.parent.type == "concatenation" and not node_text(node.next_sibling).startswith("/"):
            return [(text, "unknown")]  # `~$X`, `~{a,b}`: a tilde-prefix the text alone does not end
        return _unquoted_word(text, scope, first=first)
    if kind == "raw_string":
        return [(text[1:-1], "lit")]
    if kind == "brace_expression":  # `{1..3}`: _brace_expand reads it
        return [(text, "lit" if quoted else "raw")]
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
        if _glued_to_braces(node):
            return [(text, "unknown")]
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
        simple = len(node.children) == 3 and names  # `${X}`: no operator (`${#X}` has one too)
        if simple:
            return [_variable(node_text(names[0]), text, scope, quoted)]
        return _operated(node, scope, on_sub, quoted)
    if kind in ("command_substitution", "process_substitution"):
        on_sub(node, scope)
        if kind == "command_substitution" and (made := _mktemp_name(text, scope)) is not None:
            return [(made, "lit")]
        printed = printed_output(node, scope) if kind == "command_substitution" else None
        if printed is not None:  # bash strips a substitution's trailing newlines
            return [(printed.rstrip("\n"), "lit" if quoted else "field")]
        return [(text, "unknown")]
    if kind == "arithmetic_expansion":
        inner = [child for child in node.named_children if child.type != "comment"]
        number = arithmetic.evaluate(inner[0], scope.variable) if len(inner) == 1 else None
        return [(text, "unknown")] if number is None else [(str(number), "lit" if quoted else "field")]
    if not node.children:  # punctuation inside a concatenation ('{', '}', ...)
        return [(text, "lit" if quoted else "raw")]
    return [(text, "unknown")]


_ASSIGNING = {":-": False, ":=": True, ":+": False}  # the operators that read a word, and whether they assign it
_STRIPPING = ("#", "##", "%", "%%")
_CASE = ("^^", ",,", "^", ",")


def _operated(node: Node, scope: Scope, on_sub: OnSubstitution, quoted: bool) -> list[Piece]:
    """`${X<operator>...}` over a value the line knows (parameters.py), else the text as unknown."""
    text = node_text(node)
    unknown: list[Piece] = [(text, "unknown")]
    children = node.children[1:-1]  # between `${` and `}`
    if not children:
        return unknown
    if len(children) == 2 and node_text(children[0]) == "#" and children[1].type == "variable_name":
        value = scope.variable(node_text(children[1])) if node_text(children[1]) not in _SPECIAL_PARAMETERS else None
        return unknown if value is None else [(str(len(value.encode("utf-8"))), "lit" if quoted else "field")]
    if children[0].type != "variable_name" or len(children) < 2 or node_text(children[0]) in _SPECIAL_PARAMETERS:
        return unknown
    name, operator, operands = node_text(children[0]), node_text(children[1]), children[2:]
    value = scope.variable(name)
    if value is None or children[1].is_named:
        return unknown
    kind = "lit" if quoted else "field"
    if operator in _ASSIGNING:
        if len(operands) > 1:
            return unknown
        word = _operand(operands[0], scope, on_sub, quoted) if operands else [("", kind)]
        if word is None:
            return unknown
        if operator == ":+":
            return word if value else [("", kind)]
        if value:
            return [(value, kind)]
        if operator == ":=":
            if any(piece_kind == "unknown" for _, piece_kind in word):
                return unknown
            scope.variables[name] = "".join(piece for piece, _ in word)
            return [(scope.variables[name] or "", kind)]  # bash expands to the value assigned, split as a value
        return word
    if operator in _CASE and not operands:
        return [(parameters.case_changed(value, operator), kind)]
    if operator in _STRIPPING and len(operands) == 1:
        regex = _pattern(operands[0], scope, on_sub)
        return unknown if regex is None else [(parameters.strip(value, regex, operator), kind)]
    if operator in ("/", "//") and 1 <= len(operands) <= 3:
        regex = _pattern(operands[0], scope, on_sub)
        with_replacement = len(operands) == 3 and node_text(operands[1]) == "/"
        if regex is None or len(operands) == 2 or (len(operands) == 3 and not with_replacement):
            return unknown
        replacement = _operand(operands[2], scope, on_sub, True) if with_replacement else [("", "lit")]
        if replacement is None or any(piece_kind == "unknown" for _, piece_kind in replacement):
            return unknown
        new = "".join(piece for piece, _ in replacement)
        if "&" in new or "\\" in node_text(operands[2] if with_replacement else operands[0]):
            return unknown  # bash 5.2 puts the match where `&` stands (patsub_replacement)
        return [(parameters.replace(value, regex, new, operator == "//"), kind)]
    if operator == ":" and len(operands) in (1, 3) and all(
            re.fullmatch(r"-?\d{1,6}", node_text(operand)) for operand in operands[::2]) and (
            len(operands) == 1 or node_text(operands[1]) == ":"):
        numbers = [int(node_text(operand)) for operand in operands[::2]]
        part = parameters.substring(value, numbers[0], numbers[1] if len(numbers) > 1 else None)
        return unknown if part is None else [(part, kind)]
    return unknown


def _operand(node: Node, scope: Scope, on_sub: OnSubstitution, quoted: bool) -> list[Piece] | None:
    """The word after `:-`, `:=`, `:+` or a replacement's `/`: unquoted literal text is split like a value."""
    if quoted and node.type == "raw_string":
        return None  # single quotes inside "${X:-'w'}" stay in the value: not read here
    pieces = _parts(node, scope, on_sub, quoted)
    return [(text, "field" if kind == "raw" else kind) for text, kind in pieces]


def _pattern(node: Node, scope: Scope, on_sub: OnSubstitution) -> str | None:
    """A `#`, `%` or `/` pattern as a regex: quoted parts literal, the rest a glob."""
    if node.type == "regex":  # the grammar keeps its quotes and escapes in the text
        written = parameters.written_pattern(node_text(node))
        return None if written is None else parameters.pattern_regex(written)
    pieces = _parts(node, scope, on_sub, quoted=False)
    if any(kind == "unknown" for _, kind in pieces):
        return None
    return parameters.pattern_regex([(text, kind == "lit") for text, kind in pieces])


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


def _glued_to_braces(node: Node) -> bool:
    """A word with braces and a `$NAME` not written `${NAME}`: bash expands the braces first, and what they
    put beside the name becomes part of it (`$A{1,2}` reads $A1 and $A2)."""
    children = node.children
    return any(child.type == "simple_expansion" for child in children) and any(
        child.type == "brace_expression" or (child.type == "word" and "{" in node_text(child)) for child in children)


def _unquoted_word(text: str, scope: Scope, first: bool) -> list[Piece]:
    if first and text.startswith("~"):
        user, slash, rest = text[1:].partition("/")
        if not user:
            return [(scope.home, "lit"), *_unescaped(slash + rest)]
        # Another user's home (`~bob`), the folder stack's (`~+`, `~-`, `~2`), or a prefix bash reads otherwise
        # (`~:x`): where it is, the text does not say.
        return [(text, "unknown")]
    return _unescaped(text)


def _unescaped(text: str) -> list[Piece]:
    """Backslashes quote the next character; what they quote is literal, the rest stays raw."""
    pieces: list[Piece] = []
    for index, chunk in enumerate(re.split(r"\\(.)", text, flags=re.DOTALL)):
        if chunk:
            pieces.append((chunk if chunk != "\n" else "", "lit" if index % 2 else "raw"))
    return pieces


def _variable(name: str, written: str, scope: Scope, quoted: bool) -> Piece:
    if name == "?" and scope.status is not None:
        return (scope.status, "lit" if quoted else "field")
    if (given := _positional(name, scope)) is not None:
        return (given, "lit" if quoted else "field")
    if name in _SPECIAL_PARAMETERS or name.isdigit():
        return (written, "unknown")
    value = scope.variable(name)
    if value is None:
        return (written, "unknown")
    return (value, "lit" if quoted else "field")


def _positional(name: str, scope: Scope) -> str | None:
    """A positional parameter's value inside a function called with known words: `$N` (empty beyond the last),
    `$#`, and `$@` or `$*` where there is exactly one word (then one word either way; more would be several)."""
    given = scope.positional
    if given is None:
        return None
    if name.isdigit() and name != "0":
        return given[int(name) - 1] if int(name) <= len(given) else ""
    if name == "#":
        return str(len(given))
    return given[0] if name in ("@", "*") and len(given) == 1 else None


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
    """Bash's brace expansion (at most 64 words): the leftmost `{` whose first unquoted `}` after an unquoted
    comma at its level closes a list (`{a,'b c'}`, `{x,{y,z}}`) or a sequence (`{1..5}`, `{a..e}`) becomes one word per
    alternative, left to right; quoted text and what expansions yield are never its braces or commas."""
    flat = [(char, kind) for text, kind in pieces for char in (text or [""])]  # an empty quote stays a mark
    found = _brace_at(flat)
    if found is None:
        return [pieces]
    start, end, options = found
    results: list[list[Piece]] = []
    for option in options:
        results.extend(_brace_expand(_merge(flat[:start] + option + flat[end:])))
        if len(results) >= 64:
            break
    return results[:64]


_SEQUENCE = re.compile(r"(-?\d{1,6})\.\.(-?\d{1,6})(?:\.\.(-?\d{1,6}))?|([a-z])\.\.([a-z])(?:\.\.(-?\d{1,6}))?|"
                       r"([A-Z])\.\.([A-Z])(?:\.\.(-?\d{1,6}))?")


def _brace_at(flat: list[tuple[str, str]]) -> tuple[int, int, list[list[Piece]]] | None:
    """The first brace expression: where it starts and ends, and its alternatives. From a `{`, bash looks for
    a `}` at its level that follows a comma there (`{a}b,c}` is a}b and c), or closes a sequence."""
    start = 0
    while start < len(flat):
        char, kind = flat[start]
        if char != "{" or kind != "raw" or (start and flat[start - 1] == ("$", "raw")):
            start += 1
            continue
        found = _brace_from(flat, start)
        if isinstance(found, tuple):
            return found
        start = found
    return None


def _brace_from(flat: list[tuple[str, str]], start: int) -> tuple[int, int, list[list[Piece]]] | int:
    """The brace expression opened at `start`, or where to look for the next one (none here)."""
    depth, commas = 0, list[int]()
    for index in range(start + 1, len(flat)):
        inner, inner_kind = flat[index]
        if inner_kind != "raw":
            continue
        if inner == "{":
            depth += 1
        elif inner == "}" and depth:
            depth -= 1
        elif inner == "}":
            if commas:
                cuts = [start, *commas, index]
                return start, index + 1, [flat[a + 1:b] for a, b in zip(cuts, cuts[1:], strict=False)]
            body = flat[start + 1:index]
            text = "".join(c for c, k in body if k == "raw")
            if ".." not in text:
                continue  # no comma nor `..` yet: bash reads this `}` as text and looks on
            plain = all(k == "raw" for _, k in body)
            if plain and (match := _SEQUENCE.fullmatch(text)):
                groups = list(match.groups())
                first, last, step = next(groups[at:at + 3] for at in (0, 3, 6) if groups[at] is not None)
                return start, index + 1, [[(word, "raw")] for word in _sequence(first, last, step)]
            # From one case to the other (signs between), or a `..` that is no sequence (`{1..a}` stays text,
            # `{a..}b,c}` looks on): what bash makes of it is not read here.
            return start, index + 1, [[("{" + text + "}", "unknown")]]
        elif inner == "," and not depth:
            commas.append(index)
    return start + 1


def _sequence(first: str, last: str, step: str | None) -> list[str]:
    """A brace sequence's words: whole numbers (zero-padded to the widest end when either end is written with
    a leading zero) or single letters, from first to last by the step's size (at most 64 words)."""
    size = abs(int(step)) if step else 1
    size = size or 1
    numeric = first.lstrip("-").isdigit()
    start, stop = (int(first), int(last)) if numeric else (ord(first), ord(last))
    direction = 1 if stop >= start else -1
    values = list(range(start, stop + direction, direction * size))[:64]
    if not numeric:
        return [chr(value) for value in values]
    padded = any(re.fullmatch(r"-?0\d+", end) for end in (first, last))
    width = max(len(first), len(last)) if padded else 0
    return [f"{value:0{width}d}" if value >= 0 or not width else "-" + f"{-value:0{width - 1}d}" for value in values]


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

