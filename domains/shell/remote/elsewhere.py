"""Commands run on another machine: what ssh, `kubectl exec`, `docker exec`, Compose, ansible, `gcloud compute
ssh`, `aws ssm send-command`, `heroku run` and `fly ssh console` run there is read with the same semantics
as a line run here, then judged as effects on that machine.

Nothing there can be undone from here, so what would lose data there (a deletion, an overwrite, a change
of the system, a destruction its own programs name) is `remote-destruction`; a read there passes, and what
the line cannot show (a script file, a variable, commands on standard input) is unknown. A fresh container
or one-off dyno holds nothing of its own: only what reaches beyond it (a database, a cloud) counts there.
The world's knowledge of this folder says nothing of that machine, so it is not consulted.

Each launcher's own options, up to the command it runs there, are a row of reading/wrapper_options.py's
`Wrapper`, from its documentation: ssh(1), `kubectl exec --help`, `docker exec` and `docker run` (docs.docker.com
reference), `docker compose run`/`exec`, `gcloud compute ssh`, `aws ecs execute-command`, `aws ssm
send-command`, `heroku run` (devcenter.heroku.com) and `fly ssh console` (fly.io/docs/flyctl).
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
from ..reading.wrapper_options import Wrapper, read_wrapper
from .tables import destruction

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
# ssh(1): `ssh [options] destination [command [argument ...]]`; -N forwards ports only; -G, -Q, -V print and exit.
_SSH = Wrapper(Spec(short_values="BbcDEeFIiJLlmOopQRSWw", permute=False), skip=1, always_shell=True,
              no_command_with=("N", "V", "G", "Q"))


def ssh_command(call: Call) -> Elsewhere | None:
    """ssh(1): `ssh [options] destination [command [argument ...]]`; the words after the destination are joined
    with spaces and run by the remote user's shell. Without them, commands come from standard input."""
    wrapped = read_wrapper(call.args, _SSH)
    if not wrapped.runs:
        return None
    host = wrapped.skipped[0].text
    if wrapped.words:
        return _words_or_unknown(host, wrapped.words, stdin=call.stdin)
    stdin = call.stdin
    if stdin.text is not None:
        return Elsewhere(host, script=stdin.text)
    if stdin.source in ("pipe", "file"):
        return Elsewhere(host, unknown="commands from its standard input")
    return None  # an interactive session: the agent's terminal sends it nothing


# --- kubectl and oc --------------------------------------------------------------------------------
# Given `--`, its options may follow the pod; without it (the older form), the pod ends them.
_KUBECTL_EXEC = Wrapper(Spec(short_values="cfn", longs=("container=", "filename=", "namespace=",
                                                        "pod-running-timeout=", "stdin", "tty", "quiet"),
                             permute=False), skip=1, after_dashes=True)


# `kubectl run NAME --image=IMAGE [--command] -- COMMAND [args...]` (`kubectl run --help`): its options may come
# anywhere before `--`, and without `--` it runs the image's own command; the words after it are the container's
# command (with --command) or the arguments that replace the image's CMD, which for an image with no entrypoint of
# its own is the command run.
_KUBECTL_RUN = Wrapper(Spec(short_values="ln", longs=(
    "image=", "env=", "port=", "labels=", "namespace=", "overrides=", "restart=", "image-pull-policy=",
    "serviceaccount=", "annotations=", "pod-running-timeout=", "dry-run?", "output=", "override-type=",
    "field-manager=", "timeout=", "grace-period=", "cascade=", "context=", "kubeconfig=", "command", "rm", "stdin",
    "tty", "attach", "quiet", "privileged", "expose", "leave-stdin-open"), permute=True), skip=1,
    after_dashes=True)


def kubectl_run(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`kubectl run NAME --image=IMAGE -- COMMAND`: a new pod, whose own files nobody keeps unless --overrides
    gives it volumes; what its command reaches beyond it (a database, a cloud, the cluster's API) counts."""
    wrapped = read_wrapper(args, _KUBECTL_RUN)
    p = wrapped.options
    if not wrapped.words or (p.has("dry-run") and p.value("dry-run") not in ("none", "false")):
        return None
    image = p.value("image") or "an image"
    stateful = p.has("overrides")
    place = f"a new pod of {image}" + (" with the volumes --overrides gives it" if stateful else "")
    stdin = call.stdin if p.has("i", "stdin") else Stdin()
    return Elsewhere(place, words=wrapped.words, keeps_state=stateful, stdin=stdin)


def kubectl_exec(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`kubectl exec (POD | TYPE/NAME) [-c CONTAINER] [flags] -- COMMAND [args...]` (and its older form without
    `--`), `kubectl debug ... -- COMMAND`, `oc rsh POD [COMMAND]` and `kubectl run` (kubectl_run); `-i` passes
    standard input on."""
    if args and args[0].text == "run":
        return kubectl_run(call, args[1:])
    if not args or args[0].text not in ("exec", "debug", "rsh"):
        return None
    wrapped = read_wrapper(args[1:], _KUBECTL_EXEC)
    if not wrapped.words:
        return None  # `oc rsh POD`: an interactive shell, to which the agent's terminal sends nothing
    stdin = call.stdin if wrapped.options.has("i", "stdin") or args[0].text == "rsh" else Stdin()
    return Elsewhere(f"the pod {wrapped.skipped[0].text}", words=wrapped.words, stdin=stdin)


# --- docker, podman, nerdctl and Compose -----------------------------------------------------------
_DOCKER_EXEC = Wrapper(Spec(short_values="euw", longs=("env=", "env-file=", "user=", "workdir=", "detach-keys=",
                                                       "detach", "interactive", "tty", "privileged"), permute=False),
                       skip=1)  # the container
# `docker run [OPTIONS] IMAGE [COMMAND] [ARG...]` (docker run --help): its options, flags and those taking a value.
_DOCKER_RUN = Wrapper(Spec(short_values="acehlmpuvw", longs=(
    "add-host=", "annotation=", "attach=", "blkio-weight=", "blkio-weight-device=", "cap-add=", "cap-drop=",
    "cgroup-parent=", "cgroupns=", "cidfile=", "cpu-count=", "cpu-percent=", "cpu-period=", "cpu-quota=",
    "cpu-rt-period=", "cpu-rt-runtime=", "cpu-shares=", "cpus=", "cpuset-cpus=", "cpuset-mems=", "detach-keys=",
    "device=", "device-cgroup-rule=", "device-read-bps=", "device-read-iops=", "device-write-bps=",
    "device-write-iops=", "dns=", "dns-opt=", "dns-option=", "dns-search=", "domainname=", "entrypoint=", "env=",
    "env-file=", "expose=", "gpus=", "group-add=", "health-cmd=", "health-interval=", "health-retries=",
    "health-start-interval=", "health-start-period=", "health-timeout=", "hostname=", "io-maxbandwidth=",
    "io-maxiops=", "ip=", "ip6=", "ipc=", "isolation=", "kernel-memory=", "label=", "label-file=", "link=",
    "link-local-ip=", "log-driver=", "log-opt=", "mac-address=", "memory=", "memory-reservation=", "memory-swap=",
    "memory-swappiness=", "mount=", "name=", "net=", "net-alias=", "network=", "network-alias=", "oom-score-adj=",
    "pid=", "pids-limit=", "platform=", "publish=", "pull=", "restart=", "runtime=", "security-opt=", "shm-size=",
    "stop-signal=", "stop-timeout=", "storage-opt=", "sysctl=", "tmpfs=", "ulimit=", "user=", "userns=", "uts=",
    "volume=", "volume-driver=", "volumes-from=", "workdir=",
    "rm", "detach", "interactive", "tty", "privileged", "init", "publish-all", "read-only", "sig-proxy",
    "no-healthcheck", "oom-kill-disable", "disable-content-trust", "help", "quiet", "use-api-socket"),
    permute=False), skip=1)  # the image
_MOUNTS = ("v", "volume", "mount", "volumes-from")


def docker_command(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`docker exec [OPTIONS] CONTAINER COMMAND [ARG...]` runs in a running container; `docker run [OPTIONS] IMAGE
    [COMMAND]` in a new one, which keeps nothing of its own unless volumes are mounted into it."""
    if not args or args[0].text not in ("exec", "run", "container"):
        return None
    if args[0].text == "container":
        return docker_command(call, args[1:]) if len(args) > 1 and args[1].text in ("exec", "run") else None
    wrapped = read_wrapper(args[1:], _DOCKER_EXEC if args[0].text == "exec" else _DOCKER_RUN)
    if not wrapped.words:
        return None  # no command, or `docker run`'s image's own: not in the line, and in a fresh container
    p, named = wrapped.options, wrapped.skipped[0].text
    stdin = call.stdin if p.has("i", "interactive") else Stdin()
    if args[0].text == "exec":
        return Elsewhere(f"the container {named}", words=wrapped.words, stdin=stdin)
    stateful = p.has(*_MOUNTS)
    place = f"a new container of {named}" + (" with mounted volumes" if stateful else "")
    return Elsewhere(place, words=wrapped.words, keeps_state=stateful, stdin=stdin)


# `docker compose run|exec [OPTIONS] SERVICE COMMAND [ARGS...]`.
_COMPOSE_RUN = Wrapper(Spec(short_values="euwlp", longs=("env=", "user=", "workdir=", "volume=", "label=", "publish=",
                                                          "name=", "entrypoint=", "index=", "pull="), permute=False),
                       skip=1)


def compose_command(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`docker compose exec SERVICE COMMAND` and `docker compose run SERVICE COMMAND`: the service's container, with
    the volumes the project gives it."""
    if not args or args[0].text not in ("exec", "run"):
        return None
    wrapped = read_wrapper(args[1:], _COMPOSE_RUN)
    if not wrapped.words:
        return None
    # Both keep standard input open by default (`--interactive`, default true), `-T` or not.
    return Elsewhere(f"the {wrapped.skipped[0].text} service's container", words=wrapped.words, stdin=call.stdin)


# --- cloud CLIs: gcloud compute ssh, aws ssm and ecs, heroku run, fly ssh console ------------------
# `gcloud compute ssh VM [--command=COMMAND] [-- SSH_ARGS... [COMMAND...]]` (and `compute tpus tpu-vm ssh`): its
# options and gcloud's own may come anywhere before `--`; the words after it are ssh's, less the destination.
_GCLOUD_SSH = Wrapper(Spec(longs=(
    "command=", "zone=", "container=", "ssh-flag=", "ssh-key-expire-after=", "strict-host-key-checking=", "worker=",
    "project=", "account=", "configuration=", "flatten=", "format=", "verbosity=", "impersonate-service-account=",
    "billing-project=", "trace-token=", "internal-ip", "tunnel-through-iap", "dry-run", "plain",
    "force-key-file-overwrite"), permute=True), shell=("command",))
_SSH_ARGUMENTS = replace(_SSH, skip=0)
# `aws ecs execute-command --command CMD` and `aws ssm send-command --parameters ...`: the options read of them.
_AWS = Wrapper(Spec(longs=("command=", "cluster=", "task=", "container=", "instance-ids=", "targets=", "parameters=",
                           "document-name=", "comment=", "timeout-seconds=", "interactive", "non-interactive"),
                    permute=True), shell=("command",))
_HEROKU_RUN_OPTIONS = Spec(short_values="arse", longs=("app=", "remote=", "size=", "env=", "type=", "exit-code",
                                                       "no-tty", "no-notify"), permute=False)
# `heroku run [-a APP] COMMAND...`, `run:detached`, and `run:inside DYNO COMMAND...` (a running dyno's name first).
_HEROKU_RUN = {"run": Wrapper(_HEROKU_RUN_OPTIONS), "run:detached": Wrapper(_HEROKU_RUN_OPTIONS),
               "run:inside": Wrapper(_HEROKU_RUN_OPTIONS, skip=1)}
# `fly ssh console [-a APP] -C COMMAND`.
_FLY_SSH = Wrapper(Spec(short_values="aAcCortu", longs=("app=", "address=", "config=", "command=", "org=", "region=",
                                                        "access-token=", "user=", "machine=", "process-group=",
                                                        "pty", "select", "quiet"), permute=True),
                   shell=("C", "command"))


def gcloud_ssh(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`gcloud compute ssh VM --command=COMMAND`, or ssh's command after `--`."""
    wrapped = read_wrapper(args, _GCLOUD_SSH)
    p = wrapped.options
    bare = [word.text for word in p.operands[:len(p.operands) - len(p.rest)]]
    if "ssh" not in bare or "compute" not in bare:
        return None
    vm = bare[bare.index("ssh") + 1] if len(bare) > bare.index("ssh") + 1 else "a VM"
    if wrapped.code:
        return _script_or_unknown(f"the VM {vm}", wrapped.code[0])
    after = read_wrapper(wrapped.words, _SSH_ARGUMENTS).words
    return _words_or_unknown(f"the VM {vm}", after) if after else None


def aws_remote(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`aws ssm send-command --parameters commands=...` runs shell commands on managed instances (the
    AWS-RunShellScript document); `aws ecs execute-command --command CMD` runs one in a task's container."""
    wrapped = read_wrapper(args, _AWS)
    p = wrapped.options
    bare = [word.text for word in p.operands]
    if bare[:2] == ["ecs", "execute-command"]:
        return _script_or_unknown("an ECS task's container", wrapped.code[0]) if wrapped.code else None
    if bare[:2] != ["ssm", "send-command"]:
        return None
    targets = p.word("instance-ids", "targets")
    place = f"the instances {targets.text}" if targets is not None else "managed instances"
    parameters = p.word("parameters")
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
    if not args or args[0].text not in _HEROKU_RUN:
        return None
    words = read_wrapper(args[1:], _HEROKU_RUN[args[0].text]).words
    if not words:
        return None
    keeps = args[0].text == "run:inside"  # a running dyno, not a fresh one
    if len(words) == 1 and words[0].literal:
        return Elsewhere("a heroku dyno", script=words[0].text, keeps_state=keeps)
    return Elsewhere("a heroku dyno", words=words, keeps_state=keeps)


def fly_ssh(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`fly ssh console -C COMMAND` (`--command`) runs a command on a running Machine, with its volumes."""
    wrapped = read_wrapper(args, _FLY_SSH)
    if [word.text for word in wrapped.options.operands[:2]] != ["ssh", "console"] or not wrapped.code:
        return None
    app = wrapped.options.word("a", "app")
    return _script_or_unknown(f"a Machine of {app.text}" if app is not None else "a Fly Machine", wrapped.code[0])


# `az vm run-command invoke -g RG -n VM --command-id RunShellScript --scripts CMD...` (and `az vmss run-command
# invoke`, and `az vm run-command create --script CMD`, which runs it once made); `az aks command invoke -n
# CLUSTER --command CMD` runs CMD in a new pod of the cluster, with kubectl and helm at hand (learn.microsoft.com,
# `az vm run-command`, `az aks command`). Their options take one value each, but --scripts takes several.
_AZ_VALUES = frozenset({"-g", "--resource-group", "-n", "--name", "--vm-name", "--command-id", "--instance-id",
                        "--subscription", "--parameters", "--run-as-user", "--run-as-password", "--location",
                        "-l", "--timeout-in-seconds", "--output-blob-uri", "--error-blob-uri", "--run-command-name",
                        "--file", "--command", "--script", "-o", "--output", "--query"})


def az_run_command(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """The shell code `az ... run-command invoke|create` and `az aks command invoke` run, where they run it."""
    bare = [word.text for word in args if not word.text.startswith("-")][:3]
    if bare[:1] in (["vm"], ["vmss"]) and bare[1:3] in (["run-command", "invoke"], ["run-command", "create"]):
        options = _az_options(args)
        kind = "scale set" if bare[0] == "vmss" else "VM"
        named = options.get("-n") or options.get("--name") or options.get("--vm-name") or []
        place = f"the {kind} {' '.join(word.text for word in named)}".strip()
        command_id = " ".join(word.text for word in options.get("--command-id", [])) or "RunShellScript"
        scripts = options.get("--scripts") or options.get("--script")
        if scripts is None:
            return Elsewhere(place, unknown=f"the command {command_id}, which the line does not show") if \
                command_id not in ("RunShellScript", "") else None
        if command_id not in ("RunShellScript", "") or not all(word.literal for word in scripts):
            return Elsewhere(place, unknown=f"{command_id} {' '.join(word.text for word in scripts)[:60]}, which is "
                                            "not shell code the line spells out")
        if any(word.text.startswith("@") for word in scripts):
            return Elsewhere(place, unknown="a script file of this machine, whose commands are not in the line")
        return Elsewhere(place, script="\n".join(word.text for word in scripts))
    if bare[:3] == ["aks", "command", "invoke"]:
        options = _az_options(args)
        command = options.get("--command") or options.get("-c")
        if not command:
            return None
        cluster = options.get("-n") or options.get("--name")
        place = f"a new pod of the AKS cluster {' '.join(word.text for word in cluster or [])}".strip()
        return _script_or_unknown(place, command[0]) if len(command) == 1 else None
    return None


def _az_options(args: Sequence[Value]) -> dict[str, list[Value]]:
    """az's options and their values: the words after an option up to the next option (--scripts takes several)."""
    options: dict[str, list[Value]] = {}
    name = None
    for word in args:
        if word.text.startswith("-") and len(word.text) > 1:
            name, eq, value = word.text.partition("=")
            options[name] = [Value(value, word.literal)] if eq else []
            name = None if eq else name
        elif name is not None:
            options[name].append(word)
            if name != "--scripts":
                name = None
    return options


def _script_or_unknown(place: str, command: Value) -> Elsewhere:
    if not command.literal:
        return Elsewhere(place, unknown=f"{command.text}, which the line does not spell out")
    return Elsewhere(place, script=command.text)


def _words_or_unknown(place: str, words: Sequence[Value], stdin: Stdin = Stdin()) -> Elsewhere:
    """Words an ssh joins into the command line the remote shell runs."""
    if not all(word.literal for word in words):
        return Elsewhere(place, unknown=f"{' '.join(word.text for word in words)}, which the line does not spell out")
    return Elsewhere(place, script=" ".join(word.text for word in words), stdin=stdin)


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

