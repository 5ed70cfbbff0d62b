"""Terminal multiplexers, which run the commands they are given in windows of their own on this machine: tmux(1)
(`new-session`, `new-window`, `split-window`, `respawn-pane`, `run-shell`, `if-shell`, `pipe-pane`,
`display-popup` take a shell command; `send-keys` types keys into a pane, where a shell runs what Enter ends;
`tmux -c CMD` runs CMD) and GNU screen(1) (`screen CMD` runs CMD in a new window; `screen -X stuff TEXT` types
TEXT into one, `-X exec` and `-X screen` run a command).

What they run is read as the line's own commands. A command typed into a pane runs in that pane's folder, which
the line does not show; one started in a new window runs in the folder tmux or screen was started from.
"""

from __future__ import annotations

import re
import shlex

from ..reading.call import Call
from ..reading.options import Spec, parse
from ..reading.registry import handles
from ..reading.words import Scope, Value

# tmux's commands that take a shell command as their last arguments, by name and alias, with the options of
# each that take a value (tmux(1), COMMANDS).
_RUNS_COMMAND = {
    ("new-session", "new"): "cefnstxyF",
    ("new-window", "neww"): "ceFnt",
    ("split-window", "splitw"): "celFtp",
    ("respawn-pane", "respawnp"): "cet",
    ("respawn-window", "respawnw"): "cet",
    ("run-shell", "run"): "dct",
    ("pipe-pane", "pipep"): "t",
    ("display-popup", "popup"): "bcdehsStTwxy",
}
_IF_SHELL = ("if-shell", "if")
_SEND_KEYS = ("send-keys", "send")
# Key names send-keys turns into a character; Enter's kin end the line typed, the rest are dropped.
_ENTER = frozenset({"Enter", "C-m", "KPEnter", "C-j"})
_KEY_TEXT = {"Space": " ", "Tab": "\t"}
# tmux(1), KEY BINDINGS: the key names, alone or after modifiers; any other argument is typed as text.
_KEY_NAME = re.compile(r"(C-|M-|S-|\^)+\S|(C-|M-|S-)*(Up|Down|Left|Right|BSpace|BTab|DC|End|Escape|F\d{1,2}|Home|IC|"
                       r"NPage|PageDown|PgDn|PPage|PageUp|PgUp)")


@handles("tmux")
def _tmux(call: Call) -> None:
    p = parse(call.args, Spec(short_values="cfLST", permute=False))
    for code in p.words.get("c", []):
        _run(call, code, call.scope.copy())
    command: list[Value] = []
    for word in [*p.rest, Value(";")]:
        if word.literal and word.text == ";":  # `tmux new -d \; send-keys ...`: commands one after another
            _tmux_command(call, command)
            command = []
        else:
            command.append(word)


def _tmux_command(call: Call, words: list[Value]) -> None:
    if not words:
        return
    name, args = words[0].text, words[1:]
    for names, values in _RUNS_COMMAND.items():
        if name in names:
            p = parse(args, Spec(short_values=values, permute=False))
            if name in ("run-shell", "run") and p.has("C"):
                return  # -C: a tmux command, not a shell one
            scope = call.scope.copy()
            if (folder := p.word("c")) is not None and name not in ("run-shell", "run"):
                scope.cwd = call.scope.path(folder)[0]
            if p.rest:
                _run(call, _joined(p.rest), scope)
            return
    if name in _IF_SHELL:
        p = parse(args, Spec(short_values="t", permute=False))
        if p.rest and not p.has("F"):
            _run(call, p.rest[0], call.scope.copy())
    elif name in ("source-file", "source", "set-hook", "set-option", "set", "setw", "set-window-option"):
        # Commands read from a file, a hook's command, or a shell for new panes (default-command, default-shell):
        # what runs is in a file or runs later, and the line does not spell it out whole.
        if name.startswith("source") or name == "set-hook" or any(
                arg.text in ("default-command", "default-shell") for arg in args):
            call.opaque("code", call.text, f"tmux {name} runs commands the line does not spell out", risky=True)
    elif name in _SEND_KEYS:
        p = parse(args, Spec(short_values="Nt", permute=False))
        if p.has("H", "X"):  # hex codes or copy-mode commands, which the line does not spell as text
            call.opaque("code", call.text, "tmux send-keys types keys given as codes", risky=True)
        else:
            _typed(call, p.rest, literal=p.has("l"))


def _typed(call: Call, keys: list[Value], literal: bool) -> None:
    """Keys typed into a pane, run by its shell: each Enter ends a command line; a line not ended may be ended by
    a later Enter, so it is read too."""
    lines, current = [], ""
    for key in keys:
        if not key.literal:
            call.opaque("code", call.text, f"tmux types {key.text} into a pane, which the line does not spell out",
                        risky=True)
            return
        if not literal and key.text in _ENTER:
            lines.append(current)
            current = ""
        elif not literal and key.text in _KEY_TEXT:
            current += _KEY_TEXT[key.text]
        elif not literal and _KEY_NAME.fullmatch(key.text):
            continue  # Escape, C-c, Up: keys that type no text
        else:
            current += key.text
    lines.append(current)
    scope = call.scope.copy()
    scope.cwd_known = False  # the pane's shell is in a folder the line does not show
    for line in lines:
        if line.strip():
            call.run_script(line, scope=scope)


def _joined(words: list[Value]) -> Value:
    return Value(" ".join(word.text for word in words), literal=all(word.literal for word in words))


def _run(call: Call, code: Value, scope: Scope) -> None:
    if code.literal:
        call.run_script(code.text, scope=scope)
    else:
        call.opaque("code", code.text, f"{call.program} runs {code.text}, which the line does not spell out",
                    risky=True)


# screen(1): the option letters that take a value (-c file, -e xy, -h lines, -p window, -s shell, -S name, -t
# title, -T term); -r, -x, -R, -ls, -list and -wipe reattach or list, and run no command of the line's.
_SCREEN_VALUES = "cehpsStT"
_SCREEN_NO_COMMAND = frozenset({"ls", "list", "wipe", "v", "version", "help", "Q"})


@handles("screen")
def _screen(call: Call) -> None:
    words = list(call.args)
    while words and words[0].text.startswith("-") and words[0].text != "-":
        name = words.pop(0).text[1:]
        if name in _SCREEN_NO_COMMAND:
            return
        if name == "Logfile":
            words = words[1:]
            continue
        if name in ("fn", "fa", "ln"):
            continue
        for at, letter in enumerate(name):
            if letter == "X":
                _screen_command(call, words)
                return
            if letter in "rxR":
                return  # reattaches to a session: what runs there was started before
            if letter in _SCREEN_VALUES:
                if at == len(name) - 1:
                    words = words[1:]
                break
    if words:
        call.run(words, scope=call.scope.copy())


def _screen_command(call: Call, words: list[Value]) -> None:
    """`screen -X COMMAND ARGS`: a command sent to a running session (screen(1), CUSTOMIZATION)."""
    if not words:
        return
    name, args = words[0].text, words[1:]
    if name == "stuff" and args:
        text = args[0]
        if not text.literal:
            call.opaque("code", call.text, "screen types text the line does not spell out", risky=True)
            return
        typed = text.text.replace("\\n", "\n").replace("\\r", "\n").replace("^M", "\n").replace("\\015", "\n")
        scope = call.scope.copy()
        scope.cwd_known = False  # the window's shell is in a folder the line does not show
        for line in typed.split("\n"):
            if line.strip():
                call.run_script(line, scope=scope)
    elif name in ("exec", "screen"):
        while args and (args[0].text.startswith("-") or set(args[0].text) <= set(".!:|")):
            args = args[1:]  # screen's own window options, exec's fd pattern
        if args:
            call.run(args, scope=call.scope.copy())
    elif name == "eval":
        for command in args:
            if command.literal:
                try:
                    _screen_command(call, [Value(word) for word in shlex.split(command.text)])
                except ValueError:
                    call.opaque("code", command.text, "screen evaluates a command it cannot split", risky=True)
