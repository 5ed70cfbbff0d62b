"""git's configuration files read as git-config(1) defines their syntax, without running git.

A file is sections (`[core]`, `[remote "origin"]`, the older `[branch.main]`) holding variables (`name = value`,
or a bare `name`, the boolean true). Names are case-insensitive and come back lower-cased, a quoted subsection
keeps its case. A value loses its leading and trailing blanks and what follows `#` or `;`, except inside double
quotes; `\\"`, `\\\\`, `\\n`, `\\t` and `\\b` are its escapes, and a backslash ending a line continues it. Where
git's own reader differs from the manual's wording, this follows the reader (config.c): blanks outside quotes
become one space each. A file git would reject raises ConfigUnreadable. `include` and `includeIf` come back as
variables like any other: what they name is not read here.
"""

from __future__ import annotations

from collections.abc import Iterator


class ConfigUnreadable(ValueError):
    """Text git refuses as a configuration file (`fatal: bad config line N`)."""


Entry = tuple[str, str | None]  # (section[.subsection].name, value; None: a bare name, the boolean true)

_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", "\\": "\\", '"': '"'}
_BLANK = " \t\r"  # git's own isspace(), less the line's end: no other control or Unicode space
_TRUE, _FALSE = frozenset({"true", "yes", "on"}), frozenset({"false", "no", "off", ""})


def entries(text: str) -> list[Entry]:
    """Every variable the file sets, in its order (a name set twice comes twice: the last one is its value)."""
    return list(_Reader(text.replace("\r\n", "\n").removeprefix("\ufeff")).read())


def boolean(value: str | None) -> bool:
    """A value read as git reads a boolean: true, yes, on, a non-zero integer or a bare name; false, no, off, 0 or
    nothing. Anything else git refuses (`bad boolean config value`): ConfigUnreadable."""
    if value is None:
        return True
    word = value.lower()
    if word in _TRUE or word in _FALSE:
        return word in _TRUE
    try:
        return int(word, 10) != 0
    except ValueError:
        raise ConfigUnreadable(f"not a boolean: {value[:30]!r}") from None


def _key(section: str | None, name: str) -> str:
    return name if section is None else f"{section}.{name}"


class _Reader:
    def __init__(self, text: str):
        self.text, self.at = text, 0

    def _next(self) -> str:
        """The next character; "\n" at the end (git reads a missing last newline as one)."""
        if self.at >= len(self.text):
            self.at += 1
            return "\n"
        char = self.text[self.at]
        self.at += 1
        return char

    @property
    def _ended(self) -> bool:
        return self.at > len(self.text)

    def read(self) -> Iterator[Entry]:
        section: str | None = None
        comment = False
        while True:
            char = self._next()
            if char == "\n":
                if self._ended:
                    return
                comment = False
                continue
            if comment or char in _BLANK:
                continue
            if char in "#;":
                comment = True
                continue
            if char == "[":
                section = self._section()
                continue
            if not char.isascii() or not char.isalpha():
                raise ConfigUnreadable(f"a line starting with {char!r}")
            yield self._variable(section, char)  # (before any section git reads it too, under its name alone)

    def _section(self) -> str:
        """`[name]`, `[name "subsection"]` or `[name.subsection]` (lower-cased whole), after its `[`."""
        name = ""
        while True:
            char = self._next()
            if char == "\n":
                raise ConfigUnreadable("a section header not closed on its line")
            if char == "]":
                if not name:
                    raise ConfigUnreadable("a section without a name")
                return name
            if char in _BLANK:
                return self._subsection(name)
            if not (char.isascii() and (char.isalnum() or char in "-.")):
                raise ConfigUnreadable(f"{char!r} in a section name")
            name += char.lower()

    def _subsection(self, name: str) -> str:
        char = self._next()
        while char in _BLANK:
            char = self._next()
        if char != '"' or not name:
            raise ConfigUnreadable("a subsection not in double quotes")
        subsection = ""
        while (char := self._next()) != '"':
            if char == "\n":
                raise ConfigUnreadable("a subsection not closed on its line")
            if char == "\\":
                char = self._next()  # any character stands for itself after a backslash
                if char == "\n":
                    raise ConfigUnreadable("a subsection not closed on its line")
            subsection += char
        if self._next() != "]":
            raise ConfigUnreadable("a section header with more after its subsection")
        return f"{name}.{subsection}"

    def _variable(self, section: str | None, first: str) -> Entry:
        name, char = first.lower(), self._next()
        while char.isascii() and (char.isalnum() or char == "-"):
            name += char.lower()
            char = self._next()
        while char in " \t":
            char = self._next()
        if char == "\n":
            self.at -= not self._ended  # the line's end is the reader's again
            return _key(section, name), None
        if char != "=":
            raise ConfigUnreadable(f"{char!r} after the variable {name[:30]!r}")
        return _key(section, name), self._value()

    def _value(self) -> str:
        value, spaces, quoted, comment = "", 0, False, False
        while True:
            char = self._next()
            if char == "\n":
                if quoted:
                    raise ConfigUnreadable("a value whose double quote is not closed")
                self.at -= not self._ended
                return value
            if comment:
                continue
            if char in _BLANK and not quoted:
                spaces += bool(value)  # blanks before the value are dropped, those after it too (never added)
                continue
            if not quoted and char in "#;":
                comment = True
                continue
            value += " " * spaces
            spaces = 0
            if char == "\\":
                escaped = self._next()
                if escaped == "\n":
                    continue  # a continued line (at the file's end, the value ends there)
                if escaped not in _ESCAPES:
                    raise ConfigUnreadable(f"the escape \\{escaped!r}")
                value += _ESCAPES[escaped]
            elif char == '"':
                quoted = not quoted
            else:
                value += char
