"""Commands run on many hosts at once: the parallel shells (pdsh(1), pssh(1) and its other name parallel-ssh,
ClusterShell's clush(1)), SaltStack's remote execution (`salt TARGET cmd.run CMD`, salt-ssh, and salt-call on
this machine) and Fabric's `fab -H HOSTS -- CMD`.

Each program's own options, up to the command it runs, are a row of reading/wrapper_options.py's `Wrapper`
from its manual; the command is read where it runs (remote/elsewhere.py's `run_there`), as if typed there.
Salt's other execution functions are read by their verb (`test.ping`, `grains.items` read; `state.apply`
changes the minions as its states say): a function outside the safe class is asked about, as every unknown
verb of a program beyond the folder is (remote/safe.py).
"""

from __future__ import annotations

import re

from ..reading.call import Call
from ..reading.options import Spec, parse
from ..reading.registry import handles
from ..reading.words import Value
from ..reading.wrapper_options import Wrapper, read_wrapper
from .elsewhere import Elsewhere, run_there
from .safe import known_word
from .tables import unknown_verb

# pdsh(1): `pdsh [options]... command`; -q lists its option values, -V and -L print and exit.
_PDSH = Wrapper(Spec(short_values="wxgXRltufM", permute=False), always_shell=True, no_command_with=("q", "V", "L",
                                                                                                  "h"))
# pssh(1): `pssh [-vAiIP] [-h hosts_file] [-H host] [-l user] [-p par] [-o outdir] [-e errdir] [-t timeout]
# [-O options] [-x args] [-X arg] command ...`.
_PSSH = Wrapper(Spec(short_values="hHlpoetOxX", longs=(
    "hosts=", "host=", "user=", "par=", "outdir=", "errdir=", "timeout=", "option=", "extra-args=", "extra-arg=",
    "askpass", "inline", "inline-stdout", "send-input", "print", "verbose", "version", "help"), permute=False),
    always_shell=True, no_command_with=("version", "help"))
# clush(1): `clush [options] command`; -c/--copy and --rcopy copy files and run no command.
_CLUSH = Wrapper(Spec(short_values="wxgXlftuoRsE", longs=(
    "nodes=", "exclude=", "group=", "user=", "fanout=", "connect_timeout=", "command_timeout=", "options=",
    "worker=", "groupsource=", "dest=", "color=", "pick=", "hostfile=", "topology=", "groupsconf=", "all", "copy",
    "rcopy", "preserve", "nostdin", "dshbak", "diff", "quiet", "verbose", "debug", "version", "help", "label",
    "nolabel"), permute=False), always_shell=True, no_command_with=("c", "copy", "rcopy", "version", "help"))
_PARALLEL_SHELLS = {"pdsh": _PDSH, "pssh": _PSSH, "parallel-ssh": _PSSH, "clush": _CLUSH}


@handles(*_PARALLEL_SHELLS)
def _parallel_shell(call: Call) -> None:
    wrapped = read_wrapper(call.args, _PARALLEL_SHELLS[call.program])
    if not wrapped.words:
        return  # no command: an interactive prompt (pdsh, clush), or a listing
    p = wrapped.options
    hosts = p.value("w", "H", "host", "nodes", "g", "group", "h", "hosts")
    place = f"the hosts {hosts}" if hosts else f"the hosts {call.program} reaches"
    if not all(word.literal for word in wrapped.words):
        run_there(call, Elsewhere(place, unknown=f"{wrapped.script}, which the line does not spell out"))
    else:
        run_there(call, Elsewhere(place, script=wrapped.script))


# --- SaltStack -------------------------------------------------------------------------------------
# salt(1): `salt [options] TARGET FUNCTION [ARGUMENTS]`; the targeting flags (-E, -L, -G, -N, -C, ...) take no value.
_SALT = Spec(short_values="tbcl", longs=(
    "timeout=", "batch-size=", "batch=", "config-dir=", "log-level=", "out=", "output=", "return=", "out-file=",
    "subset=", "delimiter=", "roster=", "roster-file=", "user=", "passwd=", "priv=", "extra-filerefs=", "jid=",
    "async", "verbose", "static", "raw-shell", "summary", "hard-crash", "version", "versions-report", "help", "raw",
    "local", "doc", "documentation", "list", "pcre", "grain", "nodegroup", "compound", "pillar", "ipcidr",
    "module-executors=", "retcode-passthrough", "file-root=", "pillar-root="))
# Salt reads an argument that starts as `name=` as a keyword argument (cwd=, runas=, test=), not as a position.
_KEYWORD = re.compile(r"[A-Za-z_]\w*=")
# The functions that run the shell code they are given (docs.saltproject.io, salt.modules.cmdmod).
_RUNS_SHELL = frozenset({"cmd.run", "cmd.shell", "cmd.run_all", "cmd.run_stdout", "cmd.run_stderr", "cmd.retcode",
                         "cmd.run_bg", "cmd.run_chroot", "cmd.exec_code", "cmd.exec_code_all"})
# Execution modules whose every function only reports (salt.modules.test, sys, status), and the report functions of
# the data modules (grains.items, pillar.item, disk.usage); grains.setval and pillar's writers are not among them.
_READ_MODULES = frozenset({"test", "sys", "status"})
_READ_FUNCTIONS = frozenset({"items", "item", "raw", "usage", "interfaces"})
# cmd.script and cmd.script_retcode fetch a script from a URL or the file server and run it there.
_RUNS_SCRIPT = frozenset({"cmd.script", "cmd.script_retcode"})


@handles("salt", "salt-ssh", "salt-call")
def _salt(call: Call) -> None:
    p = parse(call.args, _SALT)
    if p.has("version", "versions-report", "help", "h", "doc", "documentation", "d"):
        return
    local = call.program == "salt-call"  # salt-call runs the function on this machine's own minion
    operands = [word for word in p.operands if not (word.literal and _KEYWORD.match(word.text) and
                                                    not word.text.startswith("cmd="))]
    target = "this machine" if local else (operands[0].text if operands else "")
    rest = operands if local else operands[1:]
    place = "this machine" if local else f"the minions {target}"
    if call.program == "salt-ssh" and p.has("r", "raw", "raw-shell"):
        _run_salt(call, place, local, rest)  # `salt-ssh TARGET -r CMD`: the raw command, with no function
        return
    if not rest:
        return
    function, arguments = rest[0], rest[1:]
    if not function.literal:
        run_there(call, Elsewhere(place, unknown=f"the function {function.text}"))
    elif function.text in _RUNS_SHELL:
        _run_salt(call, place, local, arguments)
    elif function.text in _RUNS_SCRIPT:
        script = arguments[0].text if arguments else "a script"
        run_there(call, Elsewhere(place, unknown=f"the script {script}, which the line does not show"))
    elif any(word.literal and word.text.lower() in ("test=true", "test=1") for word in call.args):
        return  # states run with test=True report what they would change, and change nothing
    else:
        module, _, verb = function.text.rpartition(".")
        found = known_word(call.program, [verb] if module else [function.text])
        if module in _READ_MODULES or verb in _READ_FUNCTIONS:
            return
        if found is None or found[1] not in ("read", "plan", "help"):
            unknown_verb(call, call.program, [function.text], f"{call.program} runs {function.text} on {place}")


def _run_salt(call: Call, place: str, local: bool, arguments: list[Value]) -> None:
    """The command of cmd.run: its first argument, or its `cmd=` keyword."""
    given = [word for word in arguments if not (word.literal and _KEYWORD.match(word.text)
                                                and not word.text.startswith("cmd="))]
    if not given:
        return
    command = given[0]
    text = command.text[4:] if command.text.startswith("cmd=") else command.text
    if not command.literal:
        run_there(call, Elsewhere(place, unknown=f"{text}, which the line does not spell out"))
    elif local:
        call.run_script(text, scope=call.scope.copy())
    else:
        run_there(call, Elsewhere(place, script=text))


# --- Fabric ----------------------------------------------------------------------------------------
# fab(1) (docs.fabfile.org, "Command-line interface"): `fab [options] -- COMMAND` runs COMMAND on each host of -H;
# without `--`, it runs the fabfile's tasks, whose code the line does not show.
_FAB = Spec(short_values="HicfrSTtDeRl", longs=(
    "hosts=", "identity=", "collection=", "config=", "search-root=", "ssh-config=", "command-timeout=",
    "connect-timeout=", "prompt-for-login-password", "prompt-for-passphrase", "prompt-for-sudo-password",
    "list", "list-format=", "list-depth=", "complete", "version", "help", "echo", "dry", "debug", "hide=",
    "warn-only", "pty", "roles=", "write-pyc", "print-completion-script="))


@handles("fab")
def _fab(call: Call) -> None:
    at = next((i for i, word in enumerate(call.args) if word.text == "--"), None)
    p = parse(call.args[:at] if at is not None else call.args, _FAB)
    if p.has("list", "l", "version", "V", "help", "h", "complete", "dry", "print-completion-script"):
        return
    hosts = p.value("H", "hosts")
    place = f"the hosts {hosts}" if hosts else "the hosts fab reaches"
    if at is not None:
        words = call.args[at + 1:]
        if not words:
            return
        script = " ".join(word.text for word in words)
        run_there(call, Elsewhere(place, script=script) if all(word.literal for word in words) else
                  Elsewhere(place, unknown=f"{script}, which the line does not spell out"))
    elif p.operands:
        tasks = " ".join(word.text for word in p.operands)
        run_there(call, Elsewhere(place, unknown=f"the fabfile's tasks {tasks}, whose code the line does not show"))
