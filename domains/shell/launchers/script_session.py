"""script(1), which records a terminal session into a typescript file.

util-linux: `script [options] [file]`; `-c CMD` / `--command CMD` runs CMD through the shell instead of an
interactive one; without it an interactive shell starts. The typescript (`file`, by default `typescript`,
appended to under `-a`) and the log files of `-O`, `-I`, `-B`, `-T` and `-t=FILE` are written. BSD and
macOS: `script [-aeFkqr] [-t time] [file [command ...]]`: words after the file are the command.
"""

from __future__ import annotations

from dataclasses import replace

from ..reading.call import Call
from ..reading.effects import EffectKind
from ..reading.options import Spec, parse
from ..reading.registry import handles

_SPEC = Spec(short_values="cEBIOTmo", short_optional="t", longs=(
    "command=", "echo=", "log-io=", "log-in=", "log-out=", "log-timing=", "logging-format=", "output-limit=",
    "timing?", "append", "return", "flush", "force", "quiet", "help", "version"), permute=False)


@handles("script")
def _script(call: Call) -> None:
    p = parse(call.args, _SPEC)
    if len(p.rest) > 1 and p.rest[1].text.startswith("-"):  # util-linux reads options after the file too
        p = parse(call.args, replace(_SPEC, permute=True))
    if p.has("h", "help", "V", "version"):
        return
    kind: EffectKind = "appended" if p.has("a", "append") else "overwritten"
    logs = [value for name in ("B", "log-io", "I", "log-in", "O", "log-out", "T", "log-timing", "t", "timing")
            for value in p.flags.get(name, []) if value]
    operands = p.rest or p.operands
    typescript = operands[:1] or ([] if logs else [call.literal("typescript")])
    for file in [*typescript, *(call.literal(log) for log in logs)]:
        call.write(file, kind)
    command = p.value("c", "command")
    if command is not None:
        call.run_script(command)
    elif len(operands) > 1:  # BSD: the command follows the file
        call.run(operands[1:])
    else:
        call.opaque("interactive", call.text, "script starts an interactive shell")
