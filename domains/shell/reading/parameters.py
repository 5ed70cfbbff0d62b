"""Bash's parameter expansion operators on a value the line knows (bash(1), "Parameter Expansion").

`${X:-w}`, `${X:=w}`, `${X:+w}`, `${#X}`, `${X#p}`, `${X##p}`, `${X%p}`, `${X%%p}`, `${X/p/s}`, `${X//p/s}`,
`${X:off}`, `${X:off:len}`, `${X^^}`, `${X,,}`. Patterns are globs matched against the value (`*`, `?`,
`[...]`; quoted parts literal). Anything else (an indirect `${!X}`, a case pattern after `^^`, a negative
length, bash 5.2's `&` in a replacement, which stands for the match) is left to the caller as unknown.
"""

from __future__ import annotations

import re

# A pattern piece: (text, quoted). Quoted text matches itself; unquoted text is a glob.
PatternPiece = tuple[str, bool]


def pattern_regex(pieces: list[PatternPiece]) -> str | None:
    """A Python regex for a bash glob pattern, or None for one this does not read (a class like [[:alpha:]])."""
    out: list[str] = []
    for text, quoted in pieces:
        if quoted:
            out.append(re.escape(text))
            continue
        index = 0
        while index < len(text):
            char = text[index]
            index += 1
            if char == "*":
                out.append(".*")
            elif char == "?":
                out.append(".")
            elif char == "\\":
                if index < len(text):
                    out.append(re.escape(text[index]))
                    index += 1
                else:
                    out.append(re.escape("\\"))
            elif char == "[":
                close = _bracket_end(text, index)
                if close is None:
                    out.append(re.escape("["))
                    continue
                body = text[index:close]
                if "[" in body or "\\" in body:
                    return None  # character classes, escapes inside a bracket: not read here
                negate = body[:1] in ("!", "^")
                body = body[1:] if negate else body
                out.append("[" + ("^" if negate else "") + body.replace("^", "\\^") + "]")
                index = close + 1
            else:
                out.append(re.escape(char))
    return "".join(out)


def written_pattern(text: str) -> list[PatternPiece] | None:
    """A pattern as written (`'*'.txt`, `"."*`, `\\*`): its quoted and unquoted pieces, or None where it holds an
    expansion or quoting not read here."""
    pieces: list[PatternPiece] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char in "$`":
            return None
        if char == "'":
            close = text.find("'", index + 1)
            if close < 0:
                return None
            pieces.append((text[index + 1:close], True))
            index = close + 1
        elif char == '"':
            close = text.find('"', index + 1)
            if close < 0 or "\\" in text[index:close]:
                return None
            pieces.append((text[index + 1:close], True))
            index = close + 1
        elif char == "\\" and index + 1 < len(text):
            pieces.append((text[index + 1], True))
            index += 2
        else:
            if pieces and not pieces[-1][1]:
                pieces[-1] = (pieces[-1][0] + char, False)  # one unquoted run: a bracket spans it
            else:
                pieces.append((char, False))
            index += 1
    return pieces


def _bracket_end(text: str, start: int) -> int | None:
    """Where the `]` closing a bracket opened just before `start` is (a `]` first in it is a member)."""
    index = start + (text[start:start + 1] in ("!", "^"))
    index += text[index:index + 1] == "]"
    close = text.find("]", index)
    return close if close >= 0 else None


def strip(value: str, regex: str, operator: str) -> str:
    """`${X#p}` (shortest prefix), `##` (longest prefix), `%` (shortest suffix), `%%` (longest suffix)."""
    compiled = re.compile(regex, re.DOTALL)
    size = len(value)
    if operator in ("#", "##"):
        cuts = range(size + 1) if operator == "#" else range(size, -1, -1)
        return next((value[cut:] for cut in cuts if compiled.fullmatch(value[:cut])), value)
    cuts = range(size, -1, -1) if operator == "%" else range(size + 1)
    return next((value[:cut] for cut in cuts if compiled.fullmatch(value[cut:])), value)


def replace(value: str, regex: str, replacement: str, every: bool) -> str:
    """`${X/p/s}` and `${X//p/s}`: the longest match at the leftmost place, once or everywhere; an empty
    pattern replaces nothing."""
    compiled = re.compile(regex, re.DOTALL)
    if not value:  # an empty value: a pattern that matches nothing is replaced (`${E//*/x}` is x)
        return replacement if compiled.fullmatch("") else ""
    out, index, size = [], 0, len(value)
    while index <= size:
        found = next((end for end in range(size, index - 1, -1) if compiled.fullmatch(value, index, end)), None)
        if found is None or found == index:
            if index < size:
                out.append(value[index])
            index += 1
            continue
        out.append(replacement)
        index = found
        if not every:
            out.append(value[index:])
            return "".join(out)
    return "".join(out)


def substring(value: str, offset: int, length: int | None) -> str | None:
    """`${X:off}`, `${X:off:len}` with whole numbers; a negative offset counts from the end (None past it),
    a negative length is not read here."""
    if offset < 0:
        if -offset > len(value):
            return ""
        offset += len(value)
    if length is not None and length < 0:
        return None
    return value[offset:] if length is None else value[offset:offset + length]


def case_changed(value: str, operator: str) -> str:
    """`${X^^}`, `${X,,}`, `${X^}`, `${X,}`: ASCII letters only (the C locale)."""
    def upper(text: str) -> str:
        return "".join(char.upper() if "a" <= char <= "z" else char for char in text)

    def lower(text: str) -> str:
        return "".join(char.lower() if "A" <= char <= "Z" else char for char in text)

    change = upper if operator[0] == "^" else lower
    return change(value) if len(operator) == 2 else change(value[:1]) + value[1:]
