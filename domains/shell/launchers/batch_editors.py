"""Editors and debuggers given commands to run: vim and its names (vim(1): `-c CMD`, `+CMD`, `--cmd CMD`, and
Ex mode's `-e`/`-es` reading commands from standard input), emacs (`--eval EXPR`, `--batch`), and gdb (gdb(1):
`-ex CMD`, `-iex CMD`, `--eval-command=CMD`, `--batch`).

An Ex command `!CMD` (and `r !CMD`, `w !CMD`, `silent !CMD`) runs CMD in the shell; gdb's `shell CMD` and `!CMD`
do the same, its `run` starts the program under debugging; emacs' `(shell-command "CMD")` runs CMD. Each is read
as the line's own command. Commands that only quit, set options or print pass; writing (`:w`, `:wq`, `:x`)
modifies the files the editor opened; any other command is code the guard does not read: unknown, and asked about.
"""

from __future__ import annotations

import re

from ..reading.call import Call
from ..reading.options import Spec, parse
from ..reading.registry import handles
from ..reading.words import Value

_VIMS = ("vim", "vi", "nvim", "ex", "view", "gvim", "vimdiff", "nvi", "evim")
_SHELL_EX = re.compile(r"(?:sil(?:ent)?!?\s*)?(?:r(?:ead)?\s*|w(?:rite)?\s+|[%\d,.$]*)?!(.*)", re.DOTALL)
# Ex commands that quit, set options, print or move, and change no file (vim's `:help ex-cmd-index`); a substitute
# only without `\=`, whose replacement is an expression vim evaluates (`:help sub-replace-expression`).
_QUIET_EX = re.compile(r"(q|qa|qall|quit|quitall|cq|qa!|q!|quit!|set?l?(ocal)?\b.*|se\b.*|syntax\b.*|syn\b.*|"
                       r"filetype\b.*|noh(lsearch)?|echo\s+['\"][^'\"]*['\"]|version|ve|\d+|redraw!?|messages|"
                       r"[%\d,.$]*s(ubstitute)?/(?:(?!\\=).)*|[%\d,.$]*d(elete)?|[%\d,.$]*norm(al)?!?\s+[^:!]*)",
                       re.IGNORECASE)
# The longest name first, and whole: `wq` is no `w` of a file named `q`.
_WRITES_EX = re.compile(r"(wqall|wqa|wq!|wq|wa|w!|write|w|xit|xa|x!|x|update|up|exit)(?=\s|$)\s*", re.IGNORECASE)
_SYSTEM_CALL = re.compile(r"""\b(?:system|systemlist)\s*\(\s*(['"])(.*?)\1\s*\)""")


@handles(*_VIMS)
def _vim(call: Call) -> None:
    # `-es`/`-Es`: Ex mode, silent (there -s takes no value).
    p = parse([Value("-e") if arg.text in ("-es", "-Es") else arg for arg in call.args if not arg.text.startswith("+")],
              Spec(short_values="cSuUiTswWtrq", longs=("cmd=", "startuptime=", "listen=", "server=", "servername=",
                                                       "remote-send=", "remote-expr=", "clean", "noplugin",
                                                       "version", "help", "headless", "embed")))
    if p.has("version", "help", "h"):
        return
    files = [arg for arg in p.operands]
    commands = [Value(arg.text[1:], arg.literal) for arg in call.args if arg.text.startswith("+") and len(arg.text) > 1]
    commands += p.words.get("c", []) + p.words.get("cmd", [])
    for command in commands:
        _ex(call, command, files)
    for script in p.words.get("S", []) + p.words.get("u", []) + p.words.get("s", []):
        if script.text.upper() not in ("NONE", "NORC", "DEFAULTS"):
            call.opaque("script", script.text, f"{call.program} runs the commands of {script.text}", risky=True)
    ex_mode = p.has("e", "E", "es", "Es") or call.program == "ex" or any(a.text in ("-es", "-Es") for a in call.args)
    if ex_mode and call.stdin.source in ("text", "pipe", "file"):
        if call.stdin.text is None:
            call.opaque("code", call.text, f"{call.program} runs Ex commands from its standard input", risky=True)
        else:
            for line in call.stdin.text.splitlines():
                if line.strip():
                    _ex(call, Value(line), files)


def _ex(call: Call, command: Value, files: list[Value]) -> None:
    """One Ex command line, `|` joining several (the shell's `!` takes the rest of the line)."""
    if not command.literal:
        call.opaque("code", command.text, f"{call.program} runs the Ex command {command.text}, which the line does "
                    "not spell out", risky=True)
        return
    rest = command.text.strip().lstrip(":").strip()
    while rest:
        if (shell := _SHELL_EX.fullmatch(rest)) is not None:
            call.run_script(shell.group(1), scope=call.scope.copy())
            return
        part, _, rest = rest.partition("|")
        part, rest = part.strip(), rest.strip()
        for system in _SYSTEM_CALL.finditer(part):
            call.run_script(system.group(2), scope=call.scope.copy())
        if re.match(r"(call|echo|let|exe(cute)?)\b", part) and _SYSTEM_CALL.search(part) and \
                not _SYSTEM_CALL.sub("", part).count("("):
            continue  # `:call system('CMD')`: only the command it runs
        if _QUIET_EX.fullmatch(part) or not part:
            continue
        if (write := _WRITES_EX.match(part)) is not None:
            target = part[write.end():].strip()
            if target:
                call.write(call.literal(target), "overwritten")
            for file in files if not target else []:
                call.effect("modified", file)
            continue
        call.opaque("code", part, f"{call.program} runs the Ex command {part}, which the guard does not read",
                    risky=True)


# --- emacs -----------------------------------------------------------------------------------------
_EMACS_SHELL = re.compile(r"""\((?:shell-command|shell-command-to-string|async-shell-command|"""
                          r"""call-process-shell-command|start-process-shell-command)\s+"""
                          r"""(?:"[^"]*"\s+)?"((?:[^"\\]|\\.)*)"\s*\)""")
# Deletions spelled out: (delete-file "F") and (delete-directory "D" RECURSIVE).
_EMACS_DELETE = re.compile(r"""\((delete-file|delete-directory)\s+"((?:[^"\\]|\\.)*)"\s*([^()\s]*)\s*\)""")
_EMACS_QUIET = re.compile(r"""\(\s*(message|princ|print|prin1|kill-emacs|emacs-version)\b"""
                          r"""[^()]*(\([^()]*\)[^()]*)*\)\s*""")


@handles("emacs", "emacsclient")
def _emacs(call: Call) -> None:
    args = [Value("--" + arg.text[1:], arg.literal) if re.fullmatch(r"-(eval|batch|load|funcall|script)", arg.text)
            else arg for arg in call.args]
    p = parse(args, Spec(short_values="lfLaesdt", longs=("eval=", "load=", "funcall=", "script=", "batch",
                                                         "no-init-file", "quick", "no-site-file", "directory=",
                                                         "version", "help", "kill")))
    if p.has("version", "help"):
        return
    for expression in p.words.get("eval", []) + p.words.get("e", []):
        if not expression.literal:
            call.opaque("code", expression.text, "emacs evaluates code the line does not spell out", risky=True)
            continue
        text = expression.text
        for shell in _EMACS_SHELL.finditer(text):
            call.run_script(shell.group(1).replace('\\"', '"'), scope=call.scope.copy())
        for deletion in _EMACS_DELETE.finditer(text):
            call.effect("deleted", call.literal(deletion.group(2)), tree=deletion.group(3) not in ("", "nil"))
        left = _EMACS_DELETE.sub("", _EMACS_SHELL.sub("", text)).strip()
        if left and not _EMACS_QUIET.fullmatch(left):
            call.opaque("code", text, f"{call.program} evaluates Lisp the guard does not read", risky=True)
    for name in ("load", "l", "script", "funcall", "f"):
        for word in p.words.get(name, []):
            call.opaque("script", word.text, f"emacs runs {word.text}, whose code the line does not show", risky=True)


# --- gdb -------------------------------------------------------------------------------------------
# gdb commands that only show, set the debugger's own settings or end the session.
_GDB_QUIET = re.compile(r"(bt|backtrace|where|info|i|p|print|output|x|list|l|disassemble|frame|f|up|down|thread|"
                        r"quit|q|set|show|break|b|tbreak|watch|delete|d|display|echo|printf|help|core-file|file|"
                        r"symbol-file|directory|dir|handle|catch|detach|continue|c|next|n|step|s|finish|kill)(\s.*)?",
                        re.DOTALL)


@handles("gdb", "gdb-multiarch", "cgdb")
def _gdb(call: Call) -> None:
    args = list(call.args)
    at = next((i for i, arg in enumerate(args) if arg.text == "--args"), None)
    program = args[at + 1:] if at is not None else []
    args = args[:at] if at is not None else args
    args = [Value("--" + arg.text[1:], arg.literal) if re.fullmatch(r"-(ex|iex|eval-command|init-eval-command|batch|"
                                                                     r"command|x|ix|nx|quiet)", arg.text) else arg
            for arg in args]
    p = parse(args, Spec(short_values="cpdsetbDi", longs=(
        "ex=", "iex=", "eval-command=", "init-eval-command=", "command=", "x=", "ix=", "batch", "nx", "quiet",
        "version", "help", "core=", "pid=", "cd=", "tty=", "data-directory=")))
    if p.has("version", "help"):
        return
    operands = p.operands
    program = program or operands[:1]
    for command in [*p.words.get("iex", []), *p.words.get("init-eval-command", []), *p.words.get("ex", []),
                    *p.words.get("eval-command", [])]:
        _gdb_command(call, command, program)
    for script in p.words.get("x", []) + p.words.get("command", []) + p.words.get("ix", []):
        call.opaque("script", script.text, f"gdb runs the commands of {script.text}", risky=True)


def _gdb_command(call: Call, command: Value, program: list[Value]) -> None:
    text = command.text.strip()
    if not command.literal:
        call.opaque("code", text, "gdb runs a command the line does not spell out", risky=True)
    elif (shell := re.fullmatch(r"(?:shell\s+|!)(.*)", text, re.DOTALL)) is not None:
        call.run_script(shell.group(1), scope=call.scope.copy())
    elif re.fullmatch(r"(run|r|start|starti)(\s.*)?", text, re.DOTALL):
        if program:
            call.run([*program, *(Value(word) for word in text.split()[1:])], scope=call.scope.copy())
    elif not _GDB_QUIET.fullmatch(text):
        call.opaque("code", text, f"gdb runs the command {text}, which the guard does not read", risky=True)
