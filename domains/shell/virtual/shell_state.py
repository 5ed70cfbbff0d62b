"""The shell's own state a computed line may change and later lines run under: functions and `set -o pipefail`.

The world keeps each function as the definition it was typed in (Knowledge.functions) and the options it set
(Knowledge.options); the virtual shell replays them in the same script as each later line (bashkit keeps no
option from one script to the next). What is kept is only what the differential test proves bashkit runs as
bash does (tests/shell_lines.py `shell_state_scenario`): a function whose body the gate reads like any line,
called outside a pipeline, and `pipefail`. Other options (`set -e` and `-u` end the shell where bash meets a
failure, `set -a` is not followed by bashkit, `shopt` changes the globbing the gate reads itself), traps,
aliases and sourced files still make every later line the model's (learning.py's `shell_changed`).
Within a line the gate also follows `unset NAME` of the user's variables and `local` inside a function it reads;
pushd's directory stack is directory_stack.py's.
"""

from __future__ import annotations

import re

from collections.abc import Callable

from tree_sitter import Node

from ..reading.grammar import node_text, parse_tree
from ..reading.words import Scope
from ..world import functions
from .refusal import NotComputable

# `unset NAME`: a name of the user's (bash's own variables may be read-only, or lose what makes them special)
_USER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BASH_OWN = re.compile(r"BASH\w*|EUID|UID|PPID|SHELLOPTS|PWD|OLDPWD|HOME|PATH|IFS|CDPATH|RANDOM|SRANDOM|SECONDS|LINENO|"
                       r"HOSTNAME|HOSTTYPE|MACHTYPE|OSTYPE|OPTIND|OPTARG|OPTERR|PS\d|SHLVL|GROUPS|FUNCNAME|DIRSTACK|"
                       r"PIPESTATUS|HIST\w*|COMP\w*|EPOCH\w*|LANG|LC_\w+|TZ|GLOBIGNORE|POSIXLY_CORRECT|TMOUT|USER|_")

PROVEN_OPTIONS = frozenset({"pipefail"})  # `set -o NAME` / `set +o NAME` the virtual shell honours as bash does
MAX_DEPTH = 4  # function calls nested deeper (or recursion) are the model's


def option_change(arguments: list[str]) -> tuple[str, bool] | None:
    """(option, on) for `set -o NAME` or `set +o NAME` of a proven option; None for any other `set`."""
    if len(arguments) == 2 and arguments[0] in ("-o", "+o") and arguments[1] in PROVEN_OPTIONS:
        return arguments[1], arguments[0] == "-o"
    return None


def definition(node: Node) -> tuple[str, str]:
    """A function definition's name and its text as typed (`name() { ...; }`), or NotComputable."""
    read = functions.definition(node)
    if read is None:
        raise NotComputable("a function whose name is not a plain word, or whose body is not a plain { ...; } group")
    return read


def body_of(source: str) -> Node:
    """The `{ ... }` body of a kept definition (its text as definition() returned it)."""
    root = parse_tree(source)
    found = root.named_children[0] if root.named_children else None
    body = found.child_by_field_name("body") if found is not None and found.type == "function_definition" else None
    if body is None:
        raise NotComputable("a kept function that no longer reads as a definition")
    return body


def prelude(functions: dict[str, str], options: frozenset[str]) -> str:
    """What runs before a line, in the same script: the kept definitions and options, one a line."""
    return "".join(f"{source}\n" for _, source in sorted(functions.items())) + \
        "".join(f"set -o {option}\n" for option in sorted(options))


def unset_names(node: Node, defined: set[str]) -> list[str]:
    """The variables `unset NAME...` or `unset -v NAME...` unsets (bash(1)), or NotComputable: an option other than
    -v, a word not spelled as a name, a name of bash's own, or one that may name a function (`defined`: those the
    world keeps and the line defines), which `unset NAME` unsets where no variable has the name."""
    words = [child for child in node.named_children]
    if words and node_text(words[0]) == "-v":
        words = words[1:]
    texts = [node_text(word) for word in words]
    if not texts or any(word.type not in ("word", "variable_name") or not _USER_NAME.fullmatch(text) or
                        _BASH_OWN.fullmatch(text) or text in defined for word, text in zip(words, texts, strict=True)):
        raise NotComputable("unset other than of variables of the user's, by name, with -v or no option")
    return texts


_UNKNOWN = object()  # a local's value before the call: one the gate did not know


def declare_local(declared: list[Node], scope: Scope, before: dict[str, object],
                  assign: Callable[[Node, Scope], None]) -> None:
    """`local NAME[=WORD]...` inside a function the gate reads: each name keeps its value until the call returns
    (bash(1): dynamic scope), then is as before (`restore_locals`); a name without a value is unset in the call
    (read as empty, as `unset_names` does). Options (`local -r`, `-a`) and bash's own names are refused."""
    if not declared:
        raise NotComputable("local alone lists the locals")
    for child in declared:
        named = child.child_by_field_name("name") if child.type == "variable_assignment" else child
        name = node_text(named) if named is not None and named.type == "variable_name" else ""
        if not _USER_NAME.fullmatch(name) or _BASH_OWN.fullmatch(name):
            raise NotComputable(f"local {node_text(child)[:40]!r}: only names of the user's, with or without a value")
        before.setdefault(name, scope.variables.get(name, _UNKNOWN))
        if child.type == "variable_assignment":
            assign(child, scope)
        else:
            scope.variables[name] = ""


def restore_locals(before: dict[str, object], scope: Scope) -> None:
    """The call returned: its locals are what they were before it."""
    for name, value in before.items():
        if value is _UNKNOWN:
            scope.variables.pop(name, None)
        else:
            scope.variables[name] = value  # type: ignore[assignment]  # (a str or None, as it was)
