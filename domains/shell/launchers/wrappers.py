"""Wrappers: programs (and bash's builtins) that run the command after their own options, each a row of
reading/wrapper_options.py's `Wrapper` from its manual: GNU coreutils' nohup, nice, stdbuf, env and timeout;
util-linux's ionice, setsid, chrt, taskset and flock; GNU time; procps' watch; strace(1), ltrace(1), valgrind(1),
xvfb-run(1), unbuffer(1), caffeinate(8); bash's command, builtin and exec; and the programs that run it with
another user's rights: sudo(8), su(1), doas(1), pkexec(1), runuser(1) and run0(1).

`wrapper` reads a call by its row and runs what it reads: the command is handed back to the line's reader.
Package runners and environment wrappers (npx, uv run, conda run) are package_runners.py's, on the same
reader; what runs on another machine is remote/elsewhere.py's.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..programs.environment import environment_read
from ..reading.call import Call
from ..reading.options import Spec
from ..reading.registry import PRIVILEGE
from ..reading.words import Scope, Value
from ..reading.wrapper_options import Wrapped, Wrapper, read_wrapper

_PRIVILEGED = Wrapper(Spec(short_values="uCgD", permute=False))  # doas, pkexec, runuser, run0: `-u USER CMD`
WRAPPERS: dict[str, Wrapper] = {
    "nohup": Wrapper(),
    "time": Wrapper(Spec(short_values="fo", longs=("format=", "output=", "append", "portability", "verbose"),
                         permute=False), writes=("o", "output"), appends=("a", "append")),
    "nice": Wrapper(Spec(short_values="n", longs=("adjustment=",), permute=False)),
    "ionice": Wrapper(Spec(short_values="cnpPu", longs=("class=", "classdata=", "pid=", "pgid=", "uid="),
                           permute=False)),
    "stdbuf": Wrapper(Spec(short_values="ioe", longs=("input=", "output=", "error="), permute=False)),
    "setsid": Wrapper(Spec(longs=("ctty", "fork", "wait"), permute=False)),
    "chrt": Wrapper(Spec(short_values="T", permute=False), skip=1),  # the priority
    "taskset": Wrapper(skip=1),  # the CPU mask
    "command": Wrapper(no_command_with=("v", "V")),  # `command -v x` looks x up and runs nothing
    "builtin": Wrapper(),
    "exec": Wrapper(Spec(short_values="a", permute=False)),
    "unbuffer": Wrapper(),
    "caffeinate": Wrapper(),
    # flock(1): `flock [options] FILE COMMAND [ARGS]` or `flock [options] FILE -c COMMAND` (-c before FILE read
    # too, so that it is never missed).
    "flock": Wrapper(Spec(short_values="wEc", longs=("timeout=", "wait=", "conflict-exit-code=", "command=",
                                                     "shared", "exclusive", "unlock", "nonblock", "nb", "close",
                                                     "no-fork", "verbose"), permute=False),
                     skip=1, shell=("c", "command"), code_words=("-c", "--command")),
    "watch": Wrapper(Spec(short_values="nd", longs=("interval=",), permute=False), always_shell=True),
    # entr(1): `entr [-acdnprsz] utility [argument ...]` runs the utility when a file changes; -s hands the words
    # to the shell.
    "entr": Wrapper(shell=("s",), shell_flags=True),
    "strace": Wrapper(Spec(short_values="eopsuESP", permute=False)),
    "ltrace": Wrapper(Spec(short_values="eopsu", permute=False)),
    "valgrind": Wrapper(),
    "xvfb-run": Wrapper(Spec(short_values="nsfe", permute=False)),
    "env": Wrapper(Spec(short_values="uCS", longs=("ignore-environment", "unset=", "chdir=", "split-string=", "null",
                                                   "debug", "argv0=", "block-signal?", "default-signal?",
                                                   "ignore-signal?"), permute=False),
                   shell=("S", "split-string"), folder_options=("C", "chdir"), assignments=True),
    "timeout": Wrapper(Spec(short_values="sk", longs=("signal=", "kill-after=", "preserve-status", "foreground",
                                                      "verbose"), permute=False), skip=1),  # the duration
    "sudo": Wrapper(Spec(short_values="uUgpChDrtT", longs=(
        "user=", "group=", "prompt=", "host=", "chdir=", "role=", "type=", "close-from=", "other-user=",
        "command-timeout=", "login", "shell", "preserve-env?", "non-interactive", "background", "edit"),
        permute=False), edits=("e", "edit")),
    # su(1): its operands are the user and the shell's arguments; only -c's code is a command.
    "su": Wrapper(Spec(short_values="cgGsw", longs=("command=", "shell=", "group=", "login", "preserve-environment",
                                                    "session-command=")),
                  shell=("c", "command", "session-command"), no_operand_command=True),
    **{name: _PRIVILEGED for name in PRIVILEGE - {"sudo", "su"}},
}
# bash's builtins run the command in this same shell (`builtin cd DIR` moves it); every other wrapper is a
# program of its own, so what the command changes of the shell (its folder, its variables) stays there.
_SAME_SHELL = frozenset({"command", "builtin", "exec", "time"})


def wrapper(call: Call) -> None:
    row = WRAPPERS[call.program]
    if call.program in PRIVILEGE:
        call.privilege(f"{call.program} runs a command with another user's rights")
    wrapped = read_wrapper(call.args, row)
    p = wrapped.options
    if row.writes and (report := p.value(*row.writes)):
        call.write(call.literal(report), "appended" if p.has(*row.appends) else "overwritten")
    if p.has(*row.edits):
        for operand in p.operands:
            call.effect("modified", operand)
    scope = wrapped_scope(call, wrapped, shared=call.program in _SAME_SHELL)
    if words := run_code(call, wrapped, scope):
        call.run(words, scope=scope)
    elif call.program == "env" and not wrapped.code and not p.has("i", "ignore-environment"):
        environment_read(call)  # env(1): with no command, it prints the environment


def wrapped_scope(call: Call, wrapped: Wrapped, shared: bool = False, folder: str | None = None) -> Scope:
    """Where the command runs: the shell's own scope (`shared`) or a copy, moved to the folder the wrapper names
    (else to `folder`, one its program's own options named before the wrapper's words)."""
    folder = wrapped.folder.text if wrapped.folder is not None else folder
    if shared and folder is None:
        return call.scope
    scope = call.scope.copy()
    if folder is not None:
        scope.cwd = call.scope.path(call.literal(folder))[0]
    return scope


def run_code(call: Call, wrapped: Wrapped, scope: Scope) -> Sequence[Value]:
    """Runs the shell code a reading gives (its options' code, or its words joined); the argv left to run."""
    for code in wrapped.code:
        call.run_script(code.text, scope=scope)
    if wrapped.joined and wrapped.words:
        call.run_script(wrapped.script, scope=scope)
        return []
    return wrapped.words
