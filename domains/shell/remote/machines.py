"""Programs with no table that run a command on a machine or container they manage, each form from its
documentation: `vagrant ssh [NAME] -c CMD` (developer.hashicorp.com/vagrant/docs/cli/ssh), `multipass exec NAME --
CMD` (multipass.run/docs/exec-command), `lxc exec INSTANCE -- CMD` and `incus exec` (linuxcontainers.org),
`minikube ssh -- CMD` (minikube.sigs.k8s.io/docs/commands/ssh), `cf ssh APP -c CMD` (docs.cloudfoundry.org,
`cf ssh`), `nomad alloc exec ALLOC CMD` (developer.hashicorp.com/nomad/docs/commands/alloc/exec) and `doctl
compute ssh DROPLET --ssh-command CMD` (docs.digitalocean.com/reference/doctl).

dispatch's reading of a program with no table asks `machine_command` first: where it finds such a form, the command
is read there (elsewhere.py's `run_there`); every other verb keeps the posture of programs with no table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..reading.call import Call
from ..reading.options import Spec
from ..reading.words import Value
from ..reading.wrapper_options import Wrapper, read_wrapper
from .elsewhere import Elsewhere, run_there

_VAGRANT_SSH = Wrapper(Spec(short_values="c", longs=("command=", "plain", "tty", "no-tty", "help")),
                       shell=("c", "command"))
_MULTIPASS_EXEC = Wrapper(Spec(short_values="d", longs=("working-directory=", "no-map-working-directory",
                                                       "verbose"), permute=False), skip=1, after_dashes=True)
_LXC_EXEC = Wrapper(Spec(short_values="", longs=("cwd=", "env=", "user=", "group=", "mode=", "disable-stdin",
                                                 "force-interactive", "force-noninteractive", "project="),
                         permute=False), skip=1, after_dashes=True)
_MINIKUBE_SSH = Wrapper(Spec(short_values="np", longs=("node=", "native-ssh", "profile="), permute=False),
                        always_shell=True)
_CF_SSH = Wrapper(Spec(short_values="icL", longs=("app-instance-index=", "command=", "process=",
                                                  "skip-host-validation", "skip-remote-execution",
                                                  "disable-pseudo-tty", "force-pseudo-tty", "request-pseudo-tty")),
                  shell=("c", "command"))
_DOCTL_SSH = Wrapper(Spec(longs=("ssh-command=", "ssh-key-path=", "ssh-user=", "ssh-port=", "ssh-agent-forwarding",
                                 "ssh-private-ip", "context=", "access-token=", "config=", "output=")),
                     shell=("ssh-command",))
# nomad's flags are Go's (one dash, a whole word): those that take a value.
_NOMAD_VALUES = frozenset({"-task", "-e", "-namespace", "-address", "-region", "-token", "-ca-cert", "-ca-path",
                           "-client-cert", "-client-key", "-tls-server-name"})


def _there(place: str, code: list[Value], words: list[Value], joined: bool = False) -> Elsewhere | None:
    """What runs there: shell code from an option, else the words (an argv, or shell code where `joined`)."""
    if code:
        shown = code[0]
        return Elsewhere(place, script=shown.text) if shown.literal else Elsewhere(
            place, unknown=f"{shown.text}, which the line does not spell out")
    if not words:
        return None  # an interactive session, to which the agent's terminal sends nothing
    if not all(word.literal for word in words):
        return Elsewhere(place, unknown=f"{' '.join(word.text for word in words)}, which the line does not spell out")
    if joined or len(words) == 1:
        return Elsewhere(place, script=" ".join(word.text for word in words))
    return Elsewhere(place, words=words)


def _vagrant(args: Sequence[Value]) -> Elsewhere | None:
    if not args or args[0].text != "ssh":
        return None
    wrapped = read_wrapper(args[1:], _VAGRANT_SSH)
    operands = wrapped.options.operands
    return _there(f"the Vagrant machine {operands[0].text}" if operands else "the default Vagrant machine",
                  wrapped.code, [])


def _exec_in(row: Wrapper, what: str) -> Callable[[Sequence[Value]], Elsewhere | None]:
    def read(args: Sequence[Value]) -> Elsewhere | None:
        if not args or args[0].text != "exec":
            return None
        wrapped = read_wrapper(args[1:], row)
        return _there(f"the {what} {wrapped.skipped[0].text}", [], wrapped.words) if wrapped.runs else None
    return read


def _minikube(args: Sequence[Value]) -> Elsewhere | None:
    if not args or args[0].text != "ssh":
        return None
    wrapped = read_wrapper(args[1:], _MINIKUBE_SSH)
    return _there("the minikube node", [], wrapped.words, joined=True)


def _cf(args: Sequence[Value]) -> Elsewhere | None:
    if not args or args[0].text != "ssh":
        return None
    wrapped = read_wrapper(args[1:], _CF_SSH)
    app = wrapped.options.operands[0].text if wrapped.options.operands else "an app"
    return _there(f"an instance of {app}", wrapped.code, [])


def _nomad(args: Sequence[Value]) -> Elsewhere | None:
    if [arg.text for arg in args[:2]] != ["alloc", "exec"]:
        return None
    rest = list(args[2:])
    while rest and rest[0].text.startswith("-"):
        flag = rest.pop(0).text
        if "=" not in flag and flag in _NOMAD_VALUES and rest:
            rest.pop(0)
    if len(rest) < 2:
        return None
    return _there(f"the allocation {rest[0].text}", [], rest[1:])


def doctl_ssh(call: Call, args: Sequence[Value]) -> Elsewhere | None:
    """`doctl compute ssh DROPLET --ssh-command CMD` (doctl's table reads it as its `runs_elsewhere`)."""
    bare = [arg.text for arg in args if not arg.text.startswith("-")][:2]
    if bare != ["compute", "ssh"]:
        return None
    wrapped = read_wrapper(args, _DOCTL_SSH)
    operands = wrapped.options.operands
    droplet = operands[2].text if len(operands) > 2 else "a droplet"
    return _there(f"the droplet {droplet}", wrapped.code, [])


_LAUNCHERS: dict[str, Callable[[Sequence[Value]], Elsewhere | None]] = {
    "vagrant": _vagrant, "multipass": _exec_in(_MULTIPASS_EXEC, "instance"),
    "lxc": _exec_in(_LXC_EXEC, "container"), "incus": _exec_in(_LXC_EXEC, "container"), "minikube": _minikube,
    "cf": _cf, "nomad": _nomad,
}


def machine_command(call: Call) -> bool:
    """Read the command a program with no table runs on a machine it manages, there; False where it runs none."""
    launcher = _LAUNCHERS.get(call.program)
    there = launcher(call.args) if launcher is not None else None
    if there is None:
        return False
    run_there(call, there)
    return True
