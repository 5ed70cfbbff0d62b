"""Reading a program's arguments as GNU getopt_long does: bundled short flags (`-rf`), a value glued
or separate (`-n5`, `-n 5`), long options and their unambiguous prefixes (`--rec` is `--recursive`),
`--opt=value`, options after operands, and `--` ending options. What a wrapper reads before the command it
runs is wrapper_options.py's, on this reader."""

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

    @classmethod
    def taking(cls, names: frozenset[str]) -> Spec:
        """The options named with their dashes (`-n`, `--namespace`) take a value, the first operand ends them (a
        name of one dash and several letters, Go's `-chdir`, is no getopt option: left out)."""
        return cls(short_values="".join(sorted(name[1] for name in names if len(name) == 2 and name[1] != "-")),
                   longs=tuple(sorted(name[2:] + "=" for name in names if name.startswith("--"))), permute=False)


@dataclass
class Parsed:
    flags: dict[str, list[str]] = field(default_factory=dict)  # option -> its values ('' for a flag)
    operands: list[Value] = field(default_factory=list)
    rest: list[Value] = field(default_factory=list)  # with permute=False: the first operand and all after it
    words: dict[str, list[Value]] = field(default_factory=dict)  # option -> its values as words (literal or not)

    def has(self, *names: str) -> bool:
        return any(name in self.flags for name in names)

    def value(self, *names: str) -> str | None:
        for name in names:
            if self.flags.get(name):
                return self.flags[name][-1]
        return None

    def word(self, *names: str) -> Value | None:
        """`value` as the word given, which says whether the line spells it out (`--command "$CMD"` does not)."""
        for name in names:
            if self.words.get(name):
                return self.words[name][-1]
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

    def add(name: str, value: str | Value = "", given: Value | None = None) -> None:
        """An option given, and its value: the next word, or text glued to `given`'s option."""
        word = value if isinstance(value, Value) else Value(value, literal=given.literal if given else True)
        parsed.flags.setdefault(name, []).append(word.text)
        parsed.words.setdefault(name, []).append(word)
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
                add(full, args[index])
                index += 1
                continue
            add(full, value, arg)
            continue
        if text.startswith("-") and len(text) > 1:
            letters = text[1:]
            for at, letter in enumerate(letters):
                if letter in spec.short_values:
                    if not letters[at + 1:] and index < len(args):
                        add(letter, args[index])
                        index += 1
                    else:
                        add(letter, letters[at + 1:], arg)
                    break
                if letter in spec.short_optional:
                    add(letter, letters[at + 1:], arg)
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
