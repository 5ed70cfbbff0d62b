"""Aliases the line defines (`alias k=kubectl`, `alias rmr='rm -rf'`), read wherever the name is later
the first word of a command.

bash(1), ALIASES: the first word of a simple command, if unquoted, is checked for an alias; its value
replaces the word and the text is read again, and an alias is not expanded again inside its own value.
A non-interactive bash expands aliases only under `shopt -s expand_aliases`, and never within the line
of input that defined them (checked with bash 5.2: `bash -c 'shopt -s expand_aliases; alias k=echo; k'`
says `k: command not found`). The guard reads the expansion all the same: the host's shell may be an
interactive one or have expand_aliases set, and a command it may run must not pass for an unknown one.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from ..reading.call import Call
from ..reading.registry import handles

_NAME = re.compile(r"[^\s/$`=\\'\"|&;()<>]+")  # bash(1): an alias name holds none of these


@handles("alias")
def _alias(call: Call) -> None:
    for arg in call.args:
        name, equals, value = arg.text.partition("=")
        if equals and _NAME.fullmatch(name):
            call.reader.aliases[name] = value if arg.literal else None


@handles("unalias")
def _unalias(call: Call) -> None:
    for arg in call.args:
        if arg.text == "-a":
            call.reader.aliases.clear()
        call.reader.aliases.pop(arg.text, None)


def alias_named(name: Node, aliases: dict[str, str | None]) -> str | None:
    """The alias a command's name node calls (an unquoted, unescaped word the line defined as one), or None."""
    words = name.named_children
    if not aliases or len(words) != 1 or words[0].type != "word":
        return None
    text = words[0].text.decode("utf-8", "replace") if words[0].text else ""
    return text if text in aliases and "\\" not in text else None


def with_alias(command: Node, name: Node, value: str, aliases: dict[str, str | None] | None = None) -> str:
    """The command's text with the alias's value in place of its name. bash(1), ALIASES: "If the last character
    of the alias value is a blank, then the next command word following the alias is also checked for alias
    expansion", so each following unquoted word that names an alias of known value is expanded while the value
    before it ends in a blank."""
    whole = command.text or b""
    swaps = [(name, value)]
    words = [child for child in command.children if child.start_byte > name.start_byte and child.type == "word"]
    for word in words:
        if not swaps[-1][1][-1:].isspace() or aliases is None:
            break
        text = word.text.decode("utf-8", "replace") if word.text else ""
        if "\\" in text or aliases.get(text) is None:
            break
        swaps.append((word, aliases[text] or ""))
    for node, text in reversed(swaps):
        start, end = node.start_byte - command.start_byte, node.end_byte - command.start_byte
        whole = whole[:start] + text.encode() + whole[end:]
    return whole.decode("utf-8", "replace")
