"""Commands run on another machine: what ssh, `kubectl exec`, `docker exec`, Compose, ansible, `gcloud compute
ssh`, `aws ssm send-command`, `heroku run` and `fly ssh console` run there is read with the same semantics
as a line run here, then judged as effects on that machine.

Nothing there can be undone from here, so what would lose data there (a deletion, an overwrite, a change
of the system, a destruction its own programs name) is `remote-destruction`; a read there passes, and what
the line cannot show (a script file, a variable, commands on standard input) is unknown. A fresh container
or one-off dyno holds nothing of its own: only what reaches beyond it (a database, a cloud) counts there.
The world's knowledge of this folder says nothing of that machine, so it is not consulted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..reading.call import Call, Stdin
from ..reading.effects import Effect, Opaque
from ..reading.options import Spec, parse
from ..reading.registry import handles
from ..reading.words import Scope, Value
from .tables import after_options, destruction

# Effects that lose what was there: on another machine, each is a destruction nobody here can undo.
_LOSSES = ("deleted", "overwritten", "truncated", "modified", "moved-to", "permissions", "git-discard", "git-clean",
           "git-force-push", "git-branch-delete", "git-stash-drop", "git-history-rewrite", "git-ref-move",
           "system-change")
_DOES = {"deleted": "deletes", "overwritten": "overwrites", "truncated": "truncates", "modified": "modifies",
         "moved-to": "moves a file over", "permissions": "changes the permissions of", "system-change": "changes"}
# Effects that say the same wherever they happen.
_KEPT = ("remote-destruction", "secret-read", "exec-download", "upload", "download")


@dataclass(frozen=True)
class Elsewhere:
    """A command a launcher runs on another machine."""

    place: str  # for the reason: "web1", "the pod db-0"
    words: Sequence[Value] = ()  # an argv run there
    script: str | None = None  # or shell code run there
    keeps_state: bool = True  # False: a fresh container or dyno, whose own files nobody keeps
    unknown: str = ""  # why what runs there is not known ('' when it is)
    stdin: Stdin = Stdin()  # what the command there reads: ssh forwards its own standard input


def run_there(call: Call, there: Elsewhere) -> None:
    """Read what runs `there` with this line's reader, then turn its findings into effects on that machine."""
    if there.unknown:
        destruction(call, there.place, f"runs {there.unknown} on {there.place}; what it does there is only known "
                                       "when it runs, and nothing there can be undone from here", loss="unknown")
        return
    reader = call.reader
    effects, opaque, requirements = len(reader.effects), len(reader.opaque), len(reader.requirements)
    state, reader.state = reader.state, None  # this folder's facts are no facts of that machine
    scope = Scope("/", "/root", "/nonexistent-workspace", cwd_known=False)
    try:
        if there.script is not None:
            reader.run_code(there.script, scope, call.index, there.stdin)
        elif there.words:
            reader.run_words(list(there.words), scope, call.index, there.stdin, " ".join(w.text for w in there.words))
    finally:
        reader.state = state
    found, unknown = reader.effects[effects:], reader.opaque[opaque:]
    del reader.effects[effects:], reader.opaque[opaque:], reader.requirements[requirements:]
    for effect in as_elsewhere(found, unknown, there.place, there.keeps_state, call.program, call.index):
        reader.add_effect(effect)
    reader.opaque.extend(part for part in unknown if not part.risky and part.what != "script")


def as_elsewhere(effects: Sequence[Effect], opaque: Sequence[Opaque], place: str, keeps_state: bool,
                 program: str, command: int = 0) -> list[Effect]:
    """Effects read as if here, as effects on `place`: its losses are destructions, a risky unknown is unknown."""
    moved: list[Effect] = []
    for effect in effects:
        if effect.kind in _KEPT:
            secret = effect.kind == "secret-read"
            moved.append(replace(effect, path=f"{place}:{effect.path}" if secret else effect.path,
                                 where="outside" if secret else effect.where, program=program, command=command))
        elif effect.kind in _LOSSES and keeps_state:
            what = f"{effect.program} {_DOES.get(effect.kind, effect.kind)} {effect.path or effect.target}".strip()
            moved.append(Effect("remote-destruction", "", "unknown", target=f"{place}: {what}"[:160],
                                fact=f"{what} on {place}; nothing there can be undone from here",
                                program=program, command=command, maybe=effect.maybe))
    for part in opaque:
        # A script there is that machine's file: what it holds cannot be read from here.
        if (part.risky or part.what == "script") and keeps_state:
            moved.append(Effect("remote-destruction", "", "unknown", target=f"{place}: {part.text}"[:160],
                                fact=f"on {place}: {part.reason}", program=program, command=command,
                                loss="unknown"))
    return moved


def launcher(command: Callable[[Call, Sequence[Value]], Elsewhere | None]) -> Callable[[Call, Sequence[Value]], bool]:
    """A table's `runs_elsewhere`: finds the command a call runs elsewhere and reads it there."""
    def runs(call: Call, args: Sequence[Value]) -> bool:
        there = command(call, args)
        if there is not None:
            run_there(call, there)
        return there is not None
    return runs


# --- ssh -------------------------------------------------------------------------------------------
_SSH = Spec(short_values="BbcDEeFIiJLlmOopQRSWw", permute=False)


def ssh_command(call: Call) -> Elsewhere | None:
    """ssh(1): `ssh [options] destination [command [argument ...]]`; the words after the destination are joined
    with spaces and run by the remote user's shell. Without them, commands come from standard input."""
    p = parse(call.args, _SSH)
    if not p.rest or p.has("N", "V", "G", "Q"):  # -N forwards ports only; -G, -Q, -V print and exit
        return None
    host = p.rest[0].text
    command = p.rest[1:]
    if command:
        if not all(word.literal for word in command):
            return Elsewhere(host, unknown=f"{' '.join(w.text for w in command)}, which the line does not spell out")
        return Elsewhere(host, script=" ".join(word.text for word in command), stdin=call.stdin)
    stdin = call.stdin
    if stdin.text is not None:
        return Elsewhere(host, script=stdin.text)
    if stdin.source in ("pipe", "file"):
        return Elsewhere(host, unknown="commands from its standard input")
    return None  # an interactive session: the agent's terminal sends it nothing


# --- kubectl and oc --------------------------------------------------------------------------------
_KUBECTL_EXEC = Spec(short_values="cfn", longs=("container=", "filename=", "namespace=", "pod-running-timeout=",
                                                "stdin", "tty", "quiet"))


def kubectl_exec(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`kubectl exec (POD | TYPE/NAME) [-c CONTAINER] [flags] -- COMMAND [args...]` (and its older form without
    `--`), `kubectl debug ... -- COMMAND`, and `oc rsh POD [COMMAND]`; `-i` passes standard input on."""
    if not args or args[0].text not in ("exec", "debug", "rsh"):
        return None
    texts = [arg.text for arg in args]
    if "--" in texts:
        at = texts.index("--")
        p, command = parse(args[1:at], _KUBECTL_EXEC), list(args[at + 1:])
        pod = p.operands[0].text if p.operands else "a pod"
    else:
        p = parse(args[1:], Spec(short_values="cfn", longs=_KUBECTL_EXEC.longs, permute=False))
        if not p.rest:
            return None
        pod, command = p.rest[0].text, list(p.rest[1:])
    if not command:
        return None  # `oc rsh POD`: an interactive shell, to which the agent's terminal sends nothing
    stdin = call.stdin if p.has("i", "stdin") or args[0].text == "rsh" else Stdin()
    return Elsewhere(f"the pod {pod}", words=command, stdin=stdin)


# --- docker, podman, nerdctl and Compose -----------------------------------------------------------
_DOCKER_EXEC = Spec(short_values="euw", longs=("env=", "env-file=", "user=", "workdir=", "detach-keys=", "detach",
                                                "interactive", "tty", "privileged"), permute=False)
# `docker run`'s options that take no value (docker run --help); every other one takes one.
_DOCKER_RUN_FLAGS = frozenset("""
    --rm -d --detach -i --interactive -t --tty --privileged --init -P --publish-all --read-only --sig-proxy
    --no-healthcheck --oom-kill-disable --disable-content-trust --help -q --quiet --use-api-socket
""".split())
_DOCKER_RUN_SHORT_FLAGS = "dirtPq"
_MOUNTS = ("-v", "--volume", "--mount", "--volumes-from")


def docker_command(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`docker exec [OPTIONS] CONTAINER COMMAND [ARG...]` runs in a running container; `docker run [OPTIONS] IMAGE
    [COMMAND]` in a new one, which keeps nothing of its own unless volumes are mounted into it."""
    if not args or args[0].text not in ("exec", "run", "container"):
        return None
    if args[0].text == "container":
        return docker_command(call, args[1:]) if len(args) > 1 and args[1].text in ("exec", "run") else None
    if args[0].text == "exec":
        p = parse(args[1:], _DOCKER_EXEC)
        if len(p.rest) < 2:
            return None
        stdin = call.stdin if p.has("i", "interactive") else Stdin()
        return Elsewhere(f"the container {p.rest[0].text}", words=p.rest[1:], stdin=stdin)
    rest, options = _docker_run_operands(args[1:])
    if len(rest) < 2:
        return None  # the image's own command: not in the line, and in a fresh container
    stateful = any(option in _MOUNTS for option in options)
    place = f"a new container of {rest[0].text}" + (" with mounted volumes" if stateful else "")
    stdin = call.stdin if {"-i", "--interactive"} & set(options) else Stdin()
    return Elsewhere(place, words=rest[1:], keeps_state=stateful, stdin=stdin)


def _docker_run_operands(args: Sequence[Value]) -> tuple[list[Value], list[str]]:
    """The image and its command, and the options given (`-it` as `-i` and `-t`; `-v/:/h` as `-v`): a short
    option that takes a value ends its bundle, and every long option but the flags takes one."""
    index, seen = 0, []
    while index < len(args) and args[index].text.startswith("-") and args[index].text != "-":
        text = args[index].text
        index += 1
        if text == "--":
            break
        if text.startswith("--"):
            name = text.split("=", 1)[0]
            seen.append(name)
            if name not in _DOCKER_RUN_FLAGS and "=" not in text:
                index += 1
            continue
        for at, letter in enumerate(text[1:], start=1):
            seen.append(f"-{letter}")
            if letter not in _DOCKER_RUN_SHORT_FLAGS:
                index += 0 if text[at + 1:] else 1  # its value: the rest of the bundle, else the next word
                break
    return list(args[index:]), seen


_COMPOSE_RUN_VALUES = frozenset({"-e", "--env", "-u", "--user", "-w", "--workdir", "-v", "--volume", "-l", "--label",
                                 "-p", "--publish", "--name", "--entrypoint", "--index", "--pull"})


def compose_command(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`docker compose exec SERVICE COMMAND` and `docker compose run SERVICE COMMAND`: the service's container, with
    the volumes the project gives it."""
    if not args or args[0].text not in ("exec", "run"):
        return None
    rest = after_options(args[1:], _COMPOSE_RUN_VALUES)
    if len(rest) < 2:
        return None
    # Both keep standard input open by default (`--interactive`, default true), `-T` or not.
    return Elsewhere(f"the {rest[0].text} service's container", words=rest[1:], stdin=call.stdin)


# --- cloud CLIs: gcloud compute ssh, aws ssm and ecs, heroku run, fly ssh console ------------------
def gcloud_ssh(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`gcloud compute ssh VM [--command=COMMAND] [-- SSH_ARGS... [COMMAND...]]` (and `compute tpus tpu-vm ssh`): the
    words after `--` go to ssh, whose own options come before the command."""
    texts = [arg.text for arg in args]
    at = texts.index("--") if "--" in texts else len(texts)
    bare = [text for text in texts[:at] if not text.startswith("-")]
    if "ssh" not in bare or "compute" not in bare:
        return None
    vm = bare[bare.index("ssh") + 1] if len(bare) > bare.index("ssh") + 1 else "a VM"
    command = _option_value(args[:at], "--command")
    if command is not None:
        return _script_or_unknown(f"the VM {vm}", command)
    after = parse(args[at + 1:], Spec(short_values=_SSH.short_values, permute=False)).rest
    if not after:
        return None
    if not all(word.literal for word in after):
        return Elsewhere(f"the VM {vm}", unknown=f"{' '.join(w.text for w in after)}, which the line does not spell out")
    return Elsewhere(f"the VM {vm}", script=" ".join(word.text for word in after))


def aws_remote(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`aws ssm send-command --parameters commands=...` runs shell commands on managed instances (the
    AWS-RunShellScript document); `aws ecs execute-command --command CMD` runs one in a task's container."""
    bare = [arg.text for arg in args if not arg.text.startswith("-")]
    if bare[:2] == ["ecs", "execute-command"]:
        command = _option_value(args, "--command")
        return _script_or_unknown("an ECS task's container", command) if command is not None else None
    if bare[:2] != ["ssm", "send-command"]:
        return None
    targets = _option_value(args, "--instance-ids") or _option_value(args, "--targets")
    place = f"the instances {targets.text}" if targets is not None else "managed instances"
    parameters = _option_value(args, "--parameters")
    if parameters is None:
        return Elsewhere(place, unknown="the document's commands, which the line does not show")
    if not parameters.literal:
        return Elsewhere(place, unknown=f"the commands in {parameters.text}")
    commands = _ssm_commands(parameters.text)
    if commands is None:
        return Elsewhere(place, unknown=f"commands the line does not spell out ({parameters.text[:40]})")
    return Elsewhere(place, script="\n".join(commands))


def _ssm_commands(text: str) -> list[str] | None:
    """The `commands` of --parameters, given as JSON (`{"commands":["..."]}`) or in the CLI's shorthand
    (`commands=["a","b"]` or `commands=a`); None where they cannot be read."""
    if text.startswith("file://") or text.startswith("fileb://"):
        return None
    try:
        parsed = json.loads(text)
    except ValueError:
        match = re.match(r"\s*commands\s*=\s*(.*)$", text, re.DOTALL)
        if match is None:
            return None
        value = match.group(1).strip()
        if value.startswith("["):
            try:
                parsed = {"commands": json.loads(value)}
            except ValueError:
                parsed = {"commands": [part.strip().strip('"') for part in value.strip("[]").split(",")]}
        else:
            parsed = {"commands": [value]}
    commands = parsed.get("commands") if isinstance(parsed, dict) else None
    if isinstance(commands, str):
        commands = [commands]
    if not isinstance(commands, list) or not all(isinstance(item, str) for item in commands):
        return None
    return commands


def heroku_run(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`heroku run [-a APP] COMMAND...`: a one-off dyno, whose own files nobody keeps; what it reaches counts."""
    if not args or args[0].text not in ("run", "run:detached", "run:inside"):
        return None
    rest = after_options(args[1:], frozenset({"-a", "--app", "-r", "--remote", "-s", "--size", "-e", "--env",
                                              "--type"}))
    if args[0].text == "run:inside" and rest:
        rest = rest[1:]  # the dyno's name comes first
    if not rest:
        return None
    keeps = args[0].text == "run:inside"  # a running dyno, not a fresh one
    if len(rest) == 1 and rest[0].literal:
        return Elsewhere("a heroku dyno", script=rest[0].text, keeps_state=keeps)
    return Elsewhere("a heroku dyno", words=rest, keeps_state=keeps)


def fly_ssh(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`fly ssh console -C COMMAND` (`--command`) runs a command on a running Machine, with its volumes."""
    bare = [arg.text for arg in args if not arg.text.startswith("-")]
    if bare[:2] != ["ssh", "console"]:
        return None
    command = _option_value(args, "-C") or _option_value(args, "--command")
    app = _option_value(args, "-a") or _option_value(args, "--app")
    place = f"a Machine of {app.text}" if app is not None else "a Fly Machine"
    return _script_or_unknown(place, command) if command is not None else None


def _option_value(args: Sequence[Value], name: str) -> Value | None:
    """The value of `name` given as `NAME VALUE` or `NAME=VALUE`."""
    for at, arg in enumerate(args):
        if arg.text == name and at + 1 < len(args):
            return args[at + 1]
        if arg.text.startswith(name + "="):
            return Value(arg.text[len(name) + 1:], literal=arg.literal)
    return None


def _script_or_unknown(place: str, command: Value) -> Elsewhere:
    if not command.literal:
        return Elsewhere(place, unknown=f"{command.text}, which the line does not spell out")
    return Elsewhere(place, script=command.text)


# --- ansible ---------------------------------------------------------------------------------------
_ANSIBLE = Spec(short_values="aeiMmouBPfbKkctT", longs=(
    "args=", "extra-vars=", "inventory=", "module-name=", "module-path=", "limit=", "user=", "become-user=",
    "become-method=", "forks=", "timeout=", "connection=", "private-key=", "vault-id=", "vault-password-file=",
    "background=", "poll=", "tree=", "playbook-dir=", "check", "diff", "become", "one-line", "list-hosts",
    "syntax-check", "version", "help"))
# Modules that run the given command line (ansible.builtin.command, shell, raw); `script` runs a local file there.
_COMMAND_MODULES = frozenset({"command", "shell", "raw", "ansible.builtin.command", "ansible.builtin.shell",
                              "ansible.builtin.raw"})
# Modules documented to only gather, test or print.
_READ_MODULES = frozenset({"ping", "setup", "gather_facts", "debug", "stat", "slurp", "find", "package_facts",
                           "service_facts", "wait_for", "uri", "assert", "fail", "fetch"})


@handles("ansible")
def _ansible(call: Call) -> None:
    """ansible(1): `ansible PATTERN -m MODULE -a ARGS`; the module defaults to command."""
    p = parse(call.args, _ANSIBLE)
    if p.has("check", "C", "list-hosts", "syntax-check", "version", "help", "h") or not p.operands:
        return
    hosts = p.operands[0].text
    module = (p.value("m", "module-name") or "command").split(".")[-1]
    arguments = p.value("a", "args")
    if module in _COMMAND_MODULES or f"ansible.builtin.{module}" in _COMMAND_MODULES:
        if arguments is None:
            return
        there = Elsewhere(f"the hosts {hosts}", script=arguments) if all(a.literal for a in call.args) else Elsewhere(
            f"the hosts {hosts}", unknown=f"{arguments}, which the line does not spell out")
        run_there(call, there)
    elif module in _READ_MODULES:
        return
    elif arguments is not None and re.search(r"\bstate\s*=\s*absent\b", arguments):
        destruction(call, f"{module} {arguments[:60]}", f"the {module} module removes what it names on {hosts} "
                                                        "(state=absent); nothing there can be undone from here")
    else:
        destruction(call, f"{module} {(arguments or '')[:60]}".strip(),
                    f"the {module} module changes the hosts {hosts} as its arguments say; what it changes is "
                    "only known when it runs", loss="unknown")


@handles("ansible-playbook")
def _ansible_playbook(call: Call) -> None:
    """A playbook's tasks change its hosts; the line does not show them. --check and the listing options change
    nothing."""
    p = parse(call.args, _ANSIBLE)
    listing = {"check", "C", "syntax-check", "list-hosts", "list-tasks", "list-tags", "version", "help", "h"}
    if any(name in p.flags for name in listing) or not p.operands:
        return
    playbooks = " ".join(o.text for o in p.operands)
    destruction(call, playbooks, f"runs the playbook {playbooks} on its hosts; its tasks are not in the line",
                loss="unknown")

