"""make(1): the recipes a `make` call runs, read from the workspace's Makefile (domains/shell/launchers/makefile.py)
and each recipe line read like the line's own shell code.

Options (GNU make's manual, "Summary of Options"): `-C DIR` (cumulative), `-f FILE`/`--file`/`--makefile`
(several are read in order), `VAR=value` operands override the Makefile's variables, targets (none: the
default goal), `--eval`. `-n`/`--just-print`/`--dry-run`/`--recon`, `-q`/`--question` and `-t`/`--touch`
run no recipe line but those starting with `+` or using $(MAKE). With no `-f`, make reads GNUmakefile,
makefile or Makefile, the first that exists. Each recipe line runs in a shell of its own, in the folder
make runs in (one shell for all under .ONESHELL). A Makefile the workspace cannot read, and whatever the
reading does not follow, is named as unknown and risky: the guard asks.
"""

from __future__ import annotations

import posixpath
import re

from ..reading.call import Call
from .makefile import Variable, read_makefile, steps
from ..reading.options import Spec, parse
from ..reading.registry import handles

_SPEC = Spec(short_values="CfIoWE", short_optional="jlO", longs=(
    "directory=", "file=", "makefile=", "include-dir=", "old-file=", "assume-old=", "new-file=", "assume-new=",
    "what-if=", "jobs?", "load-average?", "max-load?", "eval=", "debug?", "output-sync?", "just-print", "dry-run",
    "recon", "question", "touch", "keep-going", "always-make", "ignore-errors", "silent", "quiet",
    "environment-overrides", "print-data-base", "no-print-directory", "print-directory", "version", "help",
    "check-symlink-times", "no-builtin-rules", "no-builtin-variables", "no-keep-going", "stop",
    "warn-undefined-variables", "trace", "shuffle?", "jobserver-auth=", "jobserver-style=", "sync-mutex="))
_DEFAULT_FILES = ("GNUmakefile", "makefile", "Makefile")
_NAME = re.compile(r"[^\s:#=]+")


@handles("make", "gmake")
def _make(call: Call) -> None:
    args = list(call.args)
    for at in range(len(args) - 1, 0, -1):  # `-j 4`, `-l 2`: make takes a number after them as their value
        if args[at - 1].text in ("-j", "-l") and re.fullmatch(r"[0-9.]+", args[at].text):
            del args[at]
    p = parse(args, _SPEC)
    if p.has("v", "version", "h", "help"):
        return
    folder = call.scope.cwd
    for directory in p.flags.get("C", []) + p.flags.get("directory", []):
        folder = posixpath.normpath(posixpath.join(folder, directory))
    assignments = {word.text.split("=", 1)[0]: word.text.split("=", 1)[1] if word.literal else None
                   for word in p.operands if "=" in word.text and _NAME.fullmatch(word.text.split("=", 1)[0])}
    goals = [word for word in p.operands if not ("=" in word.text and _NAME.fullmatch(word.text.split("=", 1)[0]))]
    dry = p.has("n", "just-print", "dry-run", "recon", "q", "question", "t", "touch")
    text = _makefile_text(call, folder, p.flags.get("f", []) + p.flags.get("file", []) + p.flags.get("makefile", []))
    if text is None:
        return
    evaluated = "\n".join(p.flags.get("E", []) + p.flags.get("eval", []))
    makefile = read_makefile(f"{evaluated}\n{text}" if evaluated else text,
                             lambda name: call.text_of(call.literal(posixpath.join(folder, name))), assignments)
    if dry:  # sub-makes inherit -n through MAKEFLAGS
        makefile.variables["MAKE"] = Variable("make -n", recursive=False)
    scope = call.scope.copy()
    scope.cwd = folder
    for reason in makefile.unread:
        call.opaque("script", call.text, f"make: {reason}", risky=True)
    for goal in goals or ([call.literal(makefile.default_goal)] if makefile.default_goal else []):
        if not goal.literal:
            call.opaque("script", goal.text, f"make builds {goal.text}, a target the line does not set", risky=True)
            continue
        for step in steps(makefile, goal.text):
            for reason in step.unread:
                call.opaque("script", f"make {step.target}", f"make {step.target}: {reason}", risky=True)
            lines = [code for prefix, code in step.lines if not dry or "+" in prefix]
            for code in (["\n".join(lines)] if makefile.one_shell and lines else lines):
                call.run_script(code, scope=scope)


def _makefile_text(call: Call, folder: str, given: list[str]) -> str | None:
    """The Makefiles' text; None where make runs none (no Makefile exists), after naming one it cannot read."""
    names = given or list(_DEFAULT_FILES)
    texts: list[str] = []
    for name in names:
        if name == "-":
            call.opaque("script", call.text, "make reads its Makefile from standard input", risky=True)
            return None
        value = call.literal(posixpath.join(folder, name))
        text = call.text_of(value)
        if text is not None:
            texts.append(text)
            if not given:
                break
            continue
        if given or call.exists(value) is not False:
            call.opaque("script", call.text, f"make runs the recipes of {value.text}, which the guard cannot read",
                        risky=True)
            return None
    return "\n".join(texts) if texts else None
