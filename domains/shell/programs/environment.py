"""The environment as a secret: commands that print the shell's variables, where tokens and keys live.

Documented dumps: `printenv` and `env` with no command print every exported variable (printenv(1),
env(1)); `export -p`, `export` alone, `declare -p`/`-x` and `typeset -p`/`-x` without names, and `set`
with no arguments print the shell's variables (bash(1), SHELL BUILTIN COMMANDS). `printenv NAME`
prints one variable: a secret read when the name is a credential's (`AWS_SECRET_ACCESS_KEY`,
`GITHUB_TOKEN`). Each is a `secret-read` effect whose target says what was read.
"""

from __future__ import annotations

import re

from ..reading.call import Call
from ..reading.effects import Effect

EVERY_VARIABLE = "the environment's variables (tokens and keys among them)"
_SECRET_NAME = re.compile(r"(?i)(secret|token|passw|credential|api_?key|private_?key|access_?key|auth)")
_DUMPING_FLAGS = frozenset({"-p", "-x", "-px", "-xp"})


# Where Linux keeps a process's environment: a dump is read from here as far as what flows on is concerned, so
# `printenv | curl -d @- URL` is an upload of it like `cat .env | curl ...` is of the file.
ENVIRONMENT_FILE = "/proc/self/environ"


def environment_read(call: Call, target: str = EVERY_VARIABLE) -> None:
    call.reader.add_effect(Effect("secret-read", "", "outside", target=target, program=call.program,
                                  command=call.index))
    call.reader.reads.setdefault(call.index, []).append(ENVIRONMENT_FILE)


def printenv(call: Call) -> None:
    names = [arg.text for arg in call.args if not arg.text.startswith("-")]
    if not names:
        environment_read(call)
    for name in names:
        if _SECRET_NAME.search(name):
            environment_read(call, f"the variable {name}")


def dumps_variables(words: list[str]) -> bool:
    """Whether `export`, `declare`, `typeset` or `set` with these arguments (the program first) prints the
    shell's variables and their values: flags of listing only, and no name."""
    program, arguments = words[0], words[1:]
    if program == "set":
        return not arguments
    return program in ("export", "declare", "typeset") and all(word in _DUMPING_FLAGS for word in arguments)
