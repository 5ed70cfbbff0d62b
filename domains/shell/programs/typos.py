"""Mistyped commands: a name one slip away from a program agents type every day (`gti`, `sl`, `pyhton3`, `cta`),
that is no program any table here knows. Bash answers such a line with `command not found` (exit 127) and
runs nothing, so a world forgets nothing after it. The guard does not read this: to it an unknown name is
still an unknown program.
"""

from __future__ import annotations

import re
from functools import cache

from ..reading.registry import HANDLERS, INTERPRETERS, PRIVILEGE, READ_ONLY, SHELLS, WRITES_NAMED

# The programs whose slips are read as slips: what agents type most.
EVERYDAY = frozenset("""
    ls cat cd cp mv rm mkdir rmdir touch grep find sed awk head tail less more wc sort uniq cut tr echo printf pwd
    git python python3 pip pip3 node npm npx yarn pnpm make docker kubectl curl wget tar unzip chmod chown ssh scp
    vim nano diff which env export source clear history man jq ps kill top du df
""".split())
# Real programs no table here names, whose names are a slip away from an everyday one.
_ALSO_PROGRAMS = frozenset("vi nvim emacs code go gcc cc clang tsc deno bun rg fd bat eza exa tmux screen gem cargo "
                           "rustc java javac mvn gradle dotnet ruby perl php lua zip mc lf nnn fzf ag ack".split())
_NAME = re.compile(r"[a-z][a-z0-9_.-]*")


def mistyped(program: str) -> str | None:
    """The everyday program `program` is a slip of (one letter swapped with the next, dropped, added or
    replaced; a name of two letters only by a swap, `sl`), where `program` is itself no program known here;
    None otherwise."""
    if not _NAME.fullmatch(program) or program in _known() or len(program) < 2:
        return None
    return next((target for target in sorted(EVERYDAY) if _one_slip(program, target) and (
        len(program) > 2 or sorted(program) == sorted(target))), None)


@cache
def _known() -> frozenset[str]:
    return frozenset(HANDLERS) | READ_ONLY | WRITES_NAMED | SHELLS | PRIVILEGE | frozenset(INTERPRETERS) | EVERYDAY | \
        _ALSO_PROGRAMS


def _one_slip(typed: str, meant: str) -> bool:
    if typed == meant or abs(len(typed) - len(meant)) > 1:
        return False
    if len(typed) == len(meant):
        differ = [index for index, (a, b) in enumerate(zip(typed, meant, strict=True)) if a != b]
        return len(differ) == 1 or len(differ) == 2 and differ[1] == differ[0] + 1 and \
            typed[differ[0]] == meant[differ[1]] and typed[differ[1]] == meant[differ[0]]
    shorter, longer = sorted((typed, meant), key=len)
    return any(longer[:index] + longer[index + 1:] == shorter for index in range(len(longer)))
