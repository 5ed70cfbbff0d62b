"""Reading a program's arguments as GNU getopt_long does: bundled short flags (`-rf`), a value glued
or separate (`-n5`, `-n 5`), long options and their unambiguous prefixes (`--rec` is `--recursive`),
`--opt=value`, options after operands, and `--` ending options."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .words import Value


@dataclass(frozen=True)
class Spec:
    """What a program's parser knows: which options take a value."""

    short_values: str = ""  # short options that take a value: "tS" for cp
    longs: tuple[str, ...] = ()  # long options; a trailing "=" takes a value, "?" an optional one (--opt=value only)
    permute: bool = True  # options may follow operands (GNU); False: the first operand ends options (POSIX, wrappers)
    short_optional: str = ""  # short options whose value may only be glued: sed's -i[SUFFIX]


@dataclass
class Parsed:
    flags: dict[str, list[str]] = field(default_factory=dict)  # option -> its values ('' for a flag)
    operands: list[Value] = field(default_factory=list)
    rest: list[Value] = field(default_factory=list)  # with permute=False: the first operand and all after it

    def has(self, *names: str) -> bool:
        return any(name in self.flags for name in names)

    def value(self, *names: str) -> str | None:
        for name in names:
            if self.flags.get(name):
                return self.flags[name][-1]
        return None

    def last_of(self, *names: str) -> str | None:
        """Of flags that override each other (`-f` / `-i`), the one given last."""
        order = [name for name in self._order if name in names]
        return order[-1] if order else None

    _order: list[str] = field(default_factory=list)


def parse(args: Sequence[Value], spec: Spec) -> Parsed:
    parsed = Parsed()
    longs = {name.rstrip("=?"): name[-1] if name[-1] in "=?" else "" for name in spec.longs}
    index = 0

    def add(name: str, value: str = "") -> None:
        parsed.flags.setdefault(name, []).append(value)
        parsed._order.append(name)

    while index < len(args):
        arg = args[index]
        text = arg.text
        index += 1
        if not arg.literal and not text.startswith("-"):
            parsed.operands.append(arg)
            if not spec.permute:
                parsed.rest = [arg, *args[index:]]
                break
            continue
        if text == "--":
            parsed.operands.extend(args[index:])
            parsed.rest = list(args[index:])
            break
        if text.startswith("--") and len(text) > 2:
            name, eq, value = text[2:].partition("=")
            full = _long_name(name, longs)
            takes = longs.get(full, "")
            if takes == "=" and not eq and index < len(args):
                value, index = args[index].text, index + 1
            add(full, value)
            continue
        if text.startswith("-") and len(text) > 1:
            letters = text[1:]
            for at, letter in enumerate(letters):
                if letter in spec.short_values:
                    value = letters[at + 1:]
                    if not value and index < len(args):
                        value, index = args[index].text, index + 1
                    add(letter, value)
                    break
                if letter in spec.short_optional:
                    add(letter, letters[at + 1:])
                    break
                add(letter)
            continue
        parsed.operands.append(arg)
        if not spec.permute:
            parsed.rest = [arg, *args[index:]]
            break
    return parsed


def _long_name(given: str, longs: dict[str, str]) -> str:
    if given in longs:
        return given
    matches = [name for name in longs if name.startswith(given)]
    return matches[0] if len(matches) == 1 else given
