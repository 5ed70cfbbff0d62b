"""The commands a git line gives git to run (git-config(1), git-rebase(1), git-submodule(1), git-bisect(1),
git-fetch(1), git-push(1)): settings given with `-c` whose value is a program (core.sshCommand, core.pager,
core.editor, an alias starting with `!`, a filter's clean and smudge, diff.external, credential.helper, ...),
`rebase --exec CMD`, `submodule foreach CMD`, `bisect run CMD`, and the `--upload-pack`/`--receive-pack`
program of a fetch or push. Each is read as a command run here, in the repository's folder; an alias without
`!` is the git command it stands for.
"""

from __future__ import annotations

import re

from ..reading.call import Call
from ..reading.options import Spec, parse
from ..reading.words import Scope, Value

# Settings whose value git runs as a shell command or program (git-config(1)); `*` is any name of the section.
_PROGRAM_SETTINGS = re.compile(r"(core\.(sshcommand|pager|editor|askpass|fsmonitor|gitproxy)|sequence\.editor|"
                               r"pager\.[^.]+|diff\.external|diff\.[^.]+\.(command|textconv)|merge\.[^.]+\.driver|"
                               r"filter\.[^.]+\.(clean|smudge|process)|gpg(\.[^.]+)?\.program|"
                               r"credential(\..+)?\.helper|"
                               r"uploadpack\.packobjectshook|remote\.[^.]+\.(uploadpack|receivepack)|"
                               r"mergetool\.[^.]+\.cmd|difftool\.[^.]+\.cmd|web\.browser|browser\.[^.]+\.cmd|"
                               r"interactive\.difffilter|core\.alternaterefscommand|trailer\.[^.]+\.(cmd|command)|"
                               r"sendemail\.(sendmailcmd|tocmd|cccmd))",
                               re.IGNORECASE)
# Settings that make git read other settings or run hooks from elsewhere: what they run is not in the line.
# `protocol.ext.allow` lets `ext::` URLs run the command they name.
_INDIRECT = re.compile(r"(include\.path|includeif\..+\.path|core\.hookspath|protocol\.ext\.allow)", re.IGNORECASE)
_OFF = frozenset({"false", "no", "off", "0", "true", "yes", "on", "1", ""})


def run_settings(call: Call, settings: list[Value], verb: str, verb_args: list[Value], scope: Scope) -> bool:
    """Read the `-c KEY=VALUE` settings that name a program; True where an alias stands for the verb and was read
    (the caller reads no further)."""
    for setting in settings:
        key, _, value = setting.text.partition("=")
        lowered = key.lower()
        if lowered.startswith("alias."):
            if key[len("alias."):] == verb:
                return _alias(call, value, setting.literal, verb_args, scope)
            continue
        runs = _PROGRAM_SETTINGS.fullmatch(lowered) or re.fullmatch(r"submodule\..+\.update", lowered) and \
            value.startswith("!")  # `!CMD` is the update's command; checkout, rebase, merge and none are git's own
        if runs and value.lower() not in _OFF:
            _run(call, Value(value.removeprefix("!"), setting.literal), scope, f"git's {key}")
        elif _INDIRECT.fullmatch(lowered):
            call.opaque("script", setting.text, f"git -c {key} runs hooks or reads settings from {value}, which the "
                        "line does not show", risky=True)
    return False


def _alias(call: Call, value: str, literal: bool, args: list[Value], scope: Scope) -> bool:
    """An alias: `!CMD` is shell code run with the alias's arguments after it; any other is a git command line."""
    if value.startswith("!"):
        _run(call, Value(" ".join([value[1:], *(arg.text for arg in args)]), literal and all(a.literal for a in args)),
             scope, "a git alias")
    elif literal:
        call.run_script(" ".join((f"git {value}", *(arg.text for arg in args))), scope=scope)  # read, not run
    else:
        call.opaque("program", call.text, "git runs an alias the line does not spell out", risky=True)
    return True


def run_verb_commands(call: Call, verb: str, args: list[Value], scope: Scope) -> None:
    """The commands a verb's own arguments give it to run."""
    if verb == "rebase":
        p = parse(args, Spec(short_values="xsXC", longs=("exec=", "onto=", "strategy=", "strategy-option=",
                                                          "gpg-sign?", "whitespace=")))
        for command in p.words.get("x", []) + p.words.get("exec", []):
            _run(call, command, scope, "git rebase --exec")
    elif verb == "submodule" and args[:1] and args[0].text == "foreach":
        rest = [arg for arg in args[1:] if arg.text not in ("--recursive", "-q", "--quiet")]
        if rest:
            _run(call, Value(" ".join(arg.text for arg in rest), all(arg.literal for arg in rest)), scope,
                 "git submodule foreach")
    elif verb == "bisect" and args[:1] and args[0].text == "run" and len(args) > 1:
        call.run(args[1:], scope=scope)
    elif verb in ("fetch", "clone", "pull", "ls-remote", "push", "archive"):
        p = parse(args, Spec(short_values="u" if verb == "clone" else "", longs=("upload-pack=", "receive-pack=",
                                                                                 "exec=")))
        for name in ("upload-pack", "receive-pack", "exec", "u"):
            for command in p.words.get(name, []):
                _run(call, command, scope, f"git {verb} --{name}")


def _run(call: Call, code: Value, scope: Scope, what: str) -> None:
    if code.literal:
        call.run_script(code.text, scope=scope.copy())
    else:
        call.opaque("code", code.text, f"{what} runs {code.text}, which the line does not spell out", risky=True)
