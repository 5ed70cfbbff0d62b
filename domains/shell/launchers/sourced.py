"""Variables a sourced secret file may hold: `source .env && echo "$TOKEN"` prints the file's secret.

`source` and `.` run a file in the current shell (bash(1), SHELL BUILTIN COMMANDS), so every variable it
assigns is the line's from then on. A dotenv file holds tokens and keys as such assignments. After one is
sourced, a command that expands a variable the line did not assign itself, and that is not one the shell
keeps of its own (bash(1), "Shell Variables"), may be given a value from that file: it reads the file.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from ..reading.grammar import node_text
from ..reading.words import Scope

# Variables the shell or the login sets, which a dotenv file has no reason to assign.
_SHELL_OWN = frozenset("""
    HOME PATH PWD OLDPWD USER LOGNAME SHELL IFS TERM LANG LANGUAGE HOSTNAME HOSTTYPE OSTYPE MACHTYPE UID EUID
    PPID RANDOM SRANDOM SECONDS LINENO SHLVL TMPDIR PS1 PS2 PS4 CDPATH OPTARG OPTIND REPLY COLUMNS LINES MAIL
    EDITOR VISUAL PAGER DISPLAY TZ GROUPS DIRSTACK FUNCNAME PIPESTATUS HISTFILE HISTSIZE EPOCHSECONDS
    EPOCHREALTIME
""".split())
_SHELL_OWN_PREFIX = re.compile(r"^(?:BASH\w*|LC_\w+|XDG_\w+)$")
# Programs that only test what they are given and print none of it.
_SILENT = frozenset({"test", "[", "true", "false", ":"})


def sourced_variables(command: Node, scope: Scope, program: str) -> list[str]:
    """The variables `command` expands that a secret file sourced earlier in the line may have set."""
    if not scope.sourced or program in _SILENT:
        return []
    names: list[str] = []
    pending = [command]
    while pending:
        node = pending.pop()
        pending.extend(node.named_children)
        if node.type not in ("simple_expansion", "expansion"):
            continue
        name = next((node_text(child) for child in node.named_children if child.type == "variable_name"), "")
        if name and not name.isdigit() and name not in scope.variables and name not in _SHELL_OWN \
                and not _SHELL_OWN_PREFIX.match(name) and name not in names:
            names.append(name)
    return names
