"""sed's scripts, read from its arguments as the GNU sed manual gives them: each `-e`'s value, else
the first operand. The virtual shell's gate checks their commands; the semantics ask whether one
deletes every line, which with `-i` leaves the file empty."""

from __future__ import annotations

import re

# Addresses that select every line ("sed, a stream editor", 4 Addresses): none, `1,$`, `0~1`/`1~1`,
# and a regular expression every line matches (`/^/`, `/$/`, `/.*/`, `/^.*$/`).
_EVERY_LINE = r"(?:1\s*,\s*\$|[01]~1|/\^/|/\$/|/\^?\.\*\$?/)?"
_DELETES_EVERY_LINE = re.compile(rf"\s*{_EVERY_LINE}\s*d\s*;?\s*")
# The commands whose GNU behaviour the virtual shell has proven: p, d, q, =, s and y (without w or e), with
# line-number, `$` and regex addresses.
_SED_ADDRESS = r"(?:\d+|\$|/(?:[^/\\\n]|\\.)*/)"
_SED_PART = r"(?:[^/\\\n]|\\.)*"
# `s` with another delimiter (`s|a|b|`), none escaped inside: an escaped delimiter's meaning is not proven.
_SED_OTHER_S = "|".join(rf"s{d}(?:[^{d}\\\n]|\\[^{d}\n])*{d}(?:[^{d}\\\n]|\\[^{d}\n])*{d}"
                        for d in map(re.escape, "|#,:!@%_"))
_SED_COMMAND = (rf"(?:{_SED_ADDRESS}(?:,{_SED_ADDRESS})?)?!?\s*(?:[pdq=]|(?:s/{_SED_PART}/{_SED_PART}/|{_SED_OTHER_S})"
                rf"[gpI0-9]*|y/{_SED_PART}/{_SED_PART}/)")
SED_SCRIPT = re.compile(rf"\s*{_SED_COMMAND}(?:\s*;\s*{_SED_COMMAND})*\s*;?\s*")


def sed_scripts(words: list[str]) -> list[str]:
    """The scripts among sed's arguments: each `-e`'s (or `--expression`'s) value, else the first operand."""
    scripts, index, seen = [], 0, False
    given_e = any(word.startswith(("-e", "--expression")) for word in words)
    while index < len(words):
        word = words[index]
        index += 1
        if word.startswith("-e"):
            scripts.append(word[2:] or (words[index] if index < len(words) else ""))
            index += not word[2:]
        elif word == "--expression" or word.startswith("--expression="):
            glued = word.partition("=")[2] if "=" in word else None
            scripts.append(glued if glued is not None else words[index] if index < len(words) else "")
            index += glued is None
        elif not word.startswith("-") and not seen and not given_e:
            scripts.append(word)
            seen = True
    return scripts


def deletes_every_line(scripts: list[str]) -> bool:
    """Whether the script is one `d` of every line (`d`, `1,$d`, `/.*/d`): sed prints nothing at all. A script
    of several commands, or one that deletes some lines (`2d`, `$d`, `/x/d`), is not read here."""
    return len(scripts) == 1 and bool(_DELETES_EVERY_LINE.fullmatch(scripts[0]))
