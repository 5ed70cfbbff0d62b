"""The dispatcher: which reader a simple command gets, by its program's name. Here too the programs that run
other programs without a table of their own: bash builtins that change the line's own state (cd, eval,
source), multi-call binaries, shells and interpreters, find's actions and xargs. Wrappers (env, sudo, timeout,
nohup, ...) are wrappers.py's, package runners package_runners.py's; each reads its own options, then hands the
command it runs back to the reader."""

from __future__ import annotations

import fnmatch
import posixpath
import re

# Imported for their handlers, which register themselves.
from . import aliases, batch_editors, make, multiplexers, parallel, script_session  # noqa: F401
from .. import remote  # noqa: F401
from ..programs import archives, files, system  # noqa: F401
from ..reading.call import Call, Stdin
from ..reading.effects import WRITE_KINDS
from ..programs.git import git
from ..programs.python_reads import files_read
from .python_runs import bound_of_code, state_of
from .pytest_runs import bound_of_pytest
from .known_code import PYTHON, interpreter_of, language_of, read_code, read_python, run_written
from ..reading.options import Spec, parse
from .node_scripts import run_node_script
from .package_runners import package_runner, run_package
from ..programs.reads import note_reads, read_operands
from ..remote.conventions import read_unknown
from ..remote.machines import machine_command
from ..remote.safe import LABELS
from ..reading.registry import HANDLERS, INTERPRETERS, READ_ONLY, SHELLS
from ..programs.secrets import secret_kind
from ..reading.words import Value
from .wrappers import WRAPPERS, wrapper

def dispatch(call: Call, program_value: Value) -> None:
    program = call.program
    if program in ("cd", "pushd"):
        _cd(call)
    elif program == "popd":
        call.scope.cwd_known = False
    elif program in ("eval",):
        _eval(call)
    elif program in ("source", "."):
        _script(call, call.args[:1], "runs a script in this shell")
        _source_secret(call)
    elif program in MULTI_CALL:
        _multi_call(call)
    elif program in WRAPPERS:  # nohup, env, timeout, sudo, ...: wrappers.py reads each by its row
        wrapper(call)
    elif program in SHELLS:
        _shell(call)
    elif (named := interpreter_named(program)) is not None and _evaluates(call, named):
        _interpreter(call, named)  # `bun -e CODE`, `deno eval CODE`: inline code, not a script or package
    elif run_node_script(call):  # `npm run NAME`, `yarn NAME`, `bun run NAME`: the package.json script's command
        pass
    elif (runner := package_runner(call)) is not None:  # npx, uvx, `npm exec`, `bun x`, `uv run`: what they start
        run_package(call, *runner)
    elif PYTHON.fullmatch(program) or named is not None:
        _interpreter(call, named or program)
    elif program == "find":
        _find(call)
    elif program == "xargs":
        _xargs(call)
    elif program == "git":
        git(call)
    elif program in HANDLERS:
        HANDLERS[program](call)
        note_reads(call, read_operands(call))
    elif program in READ_ONLY:
        _reads(call)
        note_reads(call, read_operands(call))
    elif "/" in program_value.text and run_written(call, program_value, interpreter_of(
            call.written_text(program_value) or "")):
        pass  # `./f` where this line wrote f with text it spells out: f's code is read
    else:
        _unknown(call, program_value)
        note_reads(call, read_operands(call))


def _cd(call: Call) -> None:
    p = parse(call.args, Spec(permute=False))
    target = p.operands[0] if p.operands else Value(call.scope.home)
    scope = call.scope
    if target.text == "-":
        if scope.oldpwd is None:
            scope.cwd_known = False
            call.opaque("variable", "cd -", "cd - returns to $OLDPWD, which the line does not set")
            return
        target = Value(scope.oldpwd)
    if not target.literal:
        scope.cwd_known = False
        call.opaque("variable", target.text, f"cd goes to {target.text}: paths after it are relative to an unknown folder")
        return
    call.need(target, "bash: cd: {}: No such file or directory")
    path, _ = scope.path(target)
    if scope.cwd_known or target.text.startswith("/"):
        scope.oldpwd = scope.cwd if scope.cwd_known else None
        scope.cwd, scope.cwd_known = path, True


def _eval(call: Call) -> None:
    if all(arg.literal for arg in call.args):
        call.run_script(" ".join(arg.text for arg in call.args), scope=call.scope)
    else:
        call.opaque("code", call.text, "eval runs text the line does not spell out", risky=True)


def _script(call: Call, operands: list[Value], what: str) -> None:
    if not operands:
        return
    script = operands[0]
    if run_written(call, script, language_of(call.program), same_shell=call.program in ("source", ".")):
        return  # written by this same line with text it spells out, and then run: its code is read
    if language_of(call.program) == "python" and (text := call.text_of(script)) is not None and \
            (read := files_read(text)) is not None:
        note_reads(call, [script, *(Value(path) for path in read)])
        _unless_shadowed(call, text, posixpath.dirname(call.scope.path(script)[0]))
        return  # a script the world (or the workspace) holds, that only reads and computes
    path, _ = call.scope.path(script)
    written = any(effect.path == path and effect.kind in WRITE_KINDS for effect in call.reader.effects)
    if not written and call.exists(script) is False:
        call.need(script, f"{call.program}: {{}}: No such file or directory")
        return  # no such script: it fails to open it, and runs nothing
    reason = f"{call.program} {what} ({script.text}); its commands are not in the line"
    if written:
        reason += ", and the line itself wrote that script"
    bound = None
    if language_of(call.program) == "python" and (text := call.text_of(script)) is not None:
        bound = _python_bound(call, text, posixpath.dirname(path))
    call.opaque("script", script.text, reason, risky=written or not script.literal, bound=bound)
    if script.literal and not written:
        call.need(script, "bash: {}: No such file or directory" if call.program in ("source", ".") else
                  f"{call.program}: {{}}: No such file or directory")


def _source_secret(call: Call) -> None:
    """`source .env`: the secret file's variables are the line's from here on (domains/shell/launchers/sourced.py)."""
    script = call.args[0] if call.args else None
    if script is not None and script.literal and secret_kind(path := call.scope.path(script)[0]):
        call.scope.sourced = (*call.scope.sourced, path)


# Multi-call binaries: the first operand names the applet, which runs as the program of that name
# (busybox(1): "busybox <applet> [arguments...]"; toybox(1) the same). Alone, or listing, they run nothing.
MULTI_CALL = frozenset({"busybox", "toybox"})


def _multi_call(call: Call) -> None:
    if not call.args or call.args[0].text in ("--list", "--list-full", "--help", "--version"):
        return
    call.run(call.args)


def _shell(call: Call) -> None:
    p = parse(call.args, Spec(short_values="oO", longs=("norc", "noprofile", "login", "posix", "rcfile=", "init-file=",
                                                         "restricted", "verbose", "debugger", "noediting"),
                              permute=False))
    letters = "".join(name for name in p.flags if len(name) == 1)
    if "c" in letters:
        command = p.rest[0] if p.rest else None
        if command is None:
            return
        if command.literal:
            call.run_script(command.text, scope=call.scope)
        else:
            call.opaque("code", command.text, f"{call.program} -c runs {command.text}, which the line does not spell "
                        "out", risky=True)
        return
    if p.rest and not p.has("s"):
        _script(call, p.rest[:1], "runs a script file")
        return
    _code_from_stdin(call, shell=True)


# What an interpreter prints and exits on, running nothing (`python3 --version`; not -v, which is python's
# verbose mode and ruby's version-then-run).
_ONLY_PRINTS = frozenset({"--version", "-V", "-VV", "--help", "-h"})


def interpreter_named(program: str) -> str | None:
    """The interpreter a program name runs, versioned names too (`perl5.36`, `php8.2`, `lua5.4`, `node20`)."""
    if program in INTERPRETERS:
        return program
    base = re.sub(r"-?[0-9][0-9.]*$", "", program)
    return base if base != program and base in INTERPRETERS else None


def _evaluates(call: Call, program: str) -> bool:
    """Code given inline to an interpreter that is also a package runner or a script runner: bun's -e/--eval and
    -p/--print (bun.sh/docs/cli/run), deno's `eval` subcommand (docs.deno.com, `deno eval`)."""
    if program == "deno":
        return bool(call.args) and call.args[0].text == "eval"
    return program == "bun" and any(arg.text in ("-e", "--eval", "-p", "--print") or
                                    arg.text.startswith(("--eval=", "--print=")) for arg in call.args)


def _interpreter(call: Call, program: str | None = None) -> None:
    program = program or call.program
    if call.args and all(arg.text in _ONLY_PRINTS for arg in call.args):
        return
    if program == "deno" and call.args and call.args[0].text == "eval":
        p = parse(call.args[1:], Spec(longs=("ext=", "print", "quiet", "check?", "config=", "import-map=",
                                             "location=", "seed=", "v8-flags=", "env-file?")))
        if p.operands and not (p.operands[0].literal and read_code(call, program, p.operands[0].text)):
            call.opaque("code", p.operands[0].text, "deno runs code given inline; what it does is its own program",
                        risky=True)
        return
    inline = INTERPRETERS.get(program, ("c",))
    short = "".join(name for name in inline if len(name) == 1)
    p = parse(call.args, Spec(short_values=short + ("mWXQ" if program.startswith(("python", "pypy")) else "Ir"),
                              longs=tuple(f"{name}=" for name in inline if len(name) > 1) + ("require=",),
                              permute=False))
    code = next((p.value(name) for name in inline if p.has(name)), None)
    if program == "perl" and code is not None and p.has("i"):
        for operand in (p.rest if p.rest else []):
            call.effect("modified", operand)
    if code is not None:
        literal = any(arg.literal and arg.text in (code, f"-c{code}") for arg in call.args)  # not from a variable
        if program.startswith(("python", "pypy")) and literal and read_python(call, code):
            if files_read(code) is not None:
                _unless_shadowed(call, code, call.scope.cwd)
            return  # its syntax tree shows it only computes, or starts commands it spells out (read as those)
        if not program.startswith(("python", "pypy")) and literal and read_code(call, program, code):
            return  # its calls that run or delete are read, and the rest only computes and prints
        bound = _python_bound(call, code, call.scope.cwd) if program.startswith(("python", "pypy")) and literal \
            else None
        call.opaque("code", code, f"{program} runs code given inline; what it does is its own program", risky=True,
                    bound=bound)
        return
    if p.has("m"):
        if p.value("m") == "json.tool" and PYTHON.fullmatch(program) and len(p.rest) <= 1 and \
                not any(arg.text.startswith("-") for arg in p.rest):
            note_reads(call, p.rest)  # it reads one file (or its input) and prints it; a second operand it writes
            return
        bytecode = _bytecode(call) if p.value("m") == "pytest" and PYTHON.fullmatch(program) else None
        call.opaque("program", f"{program} -m {p.value('m')}", f"{program} runs the module {p.value('m')}",
                    bound=bound_of_pytest(call, _after_module(call), bytecode) if bytecode is not None else None)
        return
    if p.rest and p.rest[0].text != "-":
        _script(call, p.rest[:1], "runs a script file")
        note_reads(call, [arg for arg in p.rest[1:] if not arg.text.startswith("-")])  # the script may read them
        return
    _code_from_stdin(call, shell=False)


def _bytecode(call: Call) -> bool | None:
    """Whether Python writes bytecode caches: not under -B; None for an option that changes where it finds modules
    or what it reads of the environment (-E, -I, -P, -S, -s, -X, -W...), which no bound follows."""
    options = call.args[:next((i for i, arg in enumerate(call.args) if not arg.text.startswith("-") or
                               arg.text in ("-", "-c", "-m") or arg.text.startswith(("-c", "-m"))), len(call.args))]
    letters = {letter for arg in options for letter in arg.text[1:]}
    return None if letters - set("uqB") else "B" not in letters


def _after_module(call: Call) -> list[Value]:
    """The words after `-m MODULE` (or `-mMODULE`): the module's own arguments, as python passes them on."""
    index = next(i for i, arg in enumerate(call.args) if arg.text.startswith("-m") or
                 arg.text.startswith("-") and not arg.text.startswith("--") and "m" in arg.text)
    word = call.args[index].text
    return call.args[index + (1 if word.endswith("m") else 0) + 1:]


def _unless_shadowed(call: Call, code: str, folder: str) -> None:
    """Code that only reads, run where a world's record cannot place what it imports (a project's `json.py` is
    found before the library's; an option or variable that moves the search): for the world, it may do anything."""
    if state_of(call) is not None and _python_bound(call, code, folder) is None:
        call.opaque("code", code, f"{call.program} may import a module of the project in place of the library's")


def _python_bound(call: Call, code: str, folder: str) -> tuple[str, ...] | None:
    """The bound of a Python run of `code` with sys.path[0] `folder` (python_runs.py); None where not known."""
    bytecode = _bytecode(call)
    return None if bytecode is None else bound_of_code(call, code, folder, writes_bytecode=bytecode)


def _code_from_stdin(call: Call, shell: bool) -> None:
    stdin = call.stdin
    if stdin.source == "text" and stdin.text is not None and shell:
        call.run_script(stdin.text, stdin=Stdin())
        return
    if stdin.from_download:
        call.reader.add_effect_exec_download(call, stdin.from_download)
    if stdin.source in ("pipe", "text"):
        source = f"the output of {stdin.from_program or 'another command'}" if stdin.piped else "a here-document"
        bound = _python_bound(call, stdin.text, call.scope.cwd) if not shell and stdin.source == "text" and \
            stdin.text is not None and PYTHON.fullmatch(call.program) else None
        call.opaque("code", call.text, f"{call.program} runs code read from {source}", risky=True, bound=bound)
    elif stdin.source == "file" and stdin.path is not None:
        _script(call, [stdin.path], "runs a script from its standard input")
    elif stdin.source == "":
        call.opaque("interactive", call.text, f"{call.program} starts an interactive session")


# find's global options and actions that neither test entries nor change files; every other
# primary is a test (-name, -type, -newer, ...) that narrows what -delete removes.
_FIND_OPTIONS = {"-maxdepth": 1, "-mindepth": 1, "-depth": 0, "-mount": 0, "-xdev": 0, "-follow": 0, "-daystart": 0,
                 "-noleaf": 0, "-ignore_readdir_race": 0, "-regextype": 1, "-warn": 0, "-nowarn": 0, "-print": 0,
                 "-print0": 0, "-ls": 0, "-printf": 1, "-prune": 0, "-quit": 0, "-true": 0, "-o": 0, "-a": 0,
                 "-or": 0, "-and": 0, "-not": 0, "!": 0, "(": 0, ")": 0, ",": 0}


# Words of find's expression that only narrow what one `-name GLOB` matches (or what it prints), or bound the depth.
_NARROWING = frozenset({"-type", "-prune", "-print", "-print0", "-maxdepth", "-mindepth", "-depth", "-a", "-and"})


def _named_only(args: list[Value], starts: list[Value]) -> str | None:
    """The GLOB of an expression whose one test a match must pass is `-name GLOB` (find(1): the base name, with
    `*` matching a leading dot too), narrowed only by -type, -prune, depths and -print, before its one action
    (-delete, or -exec ending the expression): what it acts on lies below each start and is so named. None for
    any other expression (-execdir runs its words in each match's folder), or where a start itself would match."""
    texts = [value.text for value in args]
    action = next((at for at, word in enumerate(texts) if word in ("-delete", "-exec", "-execdir")), len(texts))
    if texts[action:action + 1] == ["-execdir"]:
        return None
    rest = texts[action + 1:]
    ended = not rest if texts[action:action + 1] == ["-delete"] else rest[-1:] in (["+"], [";"]) and not any(
        word in ("+", ";") for word in rest[:-1])
    if not ended or texts[:action].count("-name") != 1 or not all(value.literal for value in args):
        return None
    index, glob = 0, ""
    while index < action:
        word = texts[index]
        # (Python's fnmatch reads `[^a]`, `[[:digit:]]` and `\` otherwise than find's fnmatch(3): none here)
        if word == "-name" and index + 1 < action and not any(char in texts[index + 1] for char in "/[\\"):
            glob, index = texts[index + 1], index + 2
        elif word in ("-type", "-maxdepth", "-mindepth") and index + 1 < action:
            index += 2
        elif word in _NARROWING:
            index += 1
        else:
            return None
    if not glob or any(fnmatch.fnmatchcase(posixpath.basename(posixpath.normpath(start.text)), glob)
                       for start in starts):
        return None
    return glob


def _below(start: Value, name: str) -> Value:
    """What find acts on below `start`: everything, or what is named `name` at any depth (`start/**/name`)."""
    return Value(posixpath.join(start.text, "**", name) if name else posixpath.join(start.text, "**"), literal=False,
                 glob=True, prefix=start.text.rstrip("/") + "/")


def _find(call: Call) -> None:
    args = list(call.args)
    while args and (args[0].text in ("-H", "-L", "-P") or args[0].text.startswith("-O")):
        args.pop(0)
    starts = []
    while args and not args[0].text.startswith("-") and args[0].text not in ("(", "!", ")", ","):
        starts.append(args.pop(0))
    starts = starts or [call.literal(".")]
    follows_links = any(value.text in ("-L", "-H", "-follow") for value in call.args)
    named = None if follows_links else _named_only(args, starts)
    tests, index = False, 0
    while index < len(args):
        word = args[index].text
        index += 1
        if word == "-delete":
            for start in starts:  # with no test, the whole tree under each start, the start itself last
                if named is not None:
                    call.effect("deleted", _below(start, named), pattern=True)
                else:
                    call.effect("deleted", start, tree=not tests, pattern=tests)
        elif word in ("-exec", "-execdir", "-ok", "-okdir"):
            end = next((i for i in range(index, len(args)) if args[i].text in (";", "+")), len(args))
            command, index = args[index:end], end + 1
            for start in starts:
                match = _below(start, named or "")
                call.run([match if w.text == "{}" else Value(w.text.replace("{}", match.text), literal=False, glob=True,
                                                             prefix=w.text.split("{}")[0]) if "{}" in w.text else w
                          for w in command])
        elif word in ("-fprint", "-fprint0", "-fprintf", "-fls"):
            if index < len(args):
                call.write(args[index], "overwritten")
            index += 2 if word == "-fprintf" else 1
        elif word in _FIND_OPTIONS:
            index += _FIND_OPTIONS[word]
        elif word.startswith("-"):
            tests = True
    for start in starts:
        call.need(start, "find: '{}': No such file or directory")


def _xargs(call: Call) -> None:
    # xargs(1): -i[replace], -e[eof] and -l[max-lines] take a value only glued to them.
    p = parse(call.args, Spec(short_values="IELnPsda", short_optional="iel", longs=("replace?", "eof?", "max-lines?", "max-args=",
                                                                   "max-procs=", "max-chars=", "delimiter=", "arg-file=",
                                                                   "null", "no-run-if-empty", "verbose", "interactive",
                                                                   "exit", "open-tty", "process-slot-var="),
                              permute=False))
    command = p.rest or [call.literal("echo")]
    stand_in = Value("<stdin>", literal=False, unknown="arguments read from standard input")
    replace_with = p.value("I", "i", "replace")
    if replace_with is not None:
        replace_with = replace_with or "{}"
        words = [stand_in if w.text == replace_with else w for w in command]
    else:
        words = [*command, stand_in]
    call.opaque("stdin-arguments", call.text, "xargs takes its operands from standard input")
    call.run(words, stdin=Stdin())


def _reads(call: Call) -> None:
    """Read-only programs: operands that must exist, with the program's own error line."""
    errors = {
        "cat": "cat: {}: No such file or directory",
        "ls": "ls: cannot access '{}': No such file or directory",
        "head": "head: cannot open '{}' for reading: No such file or directory",
        "tail": "tail: cannot open '{}' for reading: No such file or directory",
        "wc": "wc: {}: No such file or directory",
        "stat": "stat: cannot statx '{}': No such file or directory",
        "du": "du: cannot access '{}': No such file or directory",
    }
    template = errors.get(call.program)
    if template is None:
        return
    p = parse(call.args, Spec(short_values="nc" if call.program in ("head", "tail") else "", permute=True))
    for operand in p.operands:
        call.need(operand, template)


def _unknown(call: Call, program_value: Value) -> None:
    """A program with no table: read by the conventions CLIs share (remote/conventions.py); a program that only
    reads by them is harmless wherever its operands point. One that runs a command on a machine it manages
    (`vagrant ssh -c`, `lxc exec`) has that command read there (remote/machines.py)."""
    if machine_command(call):
        return
    path, _ = call.scope.path(program_value)
    written = "/" in program_value.text and any(
        effect.path == path and effect.kind in WRITE_KINDS for effect in call.reader.effects)
    if "/" in program_value.text and not written and call.exists(program_value) is False and not any(
            effect.command < call.index for effect in call.reader.effects) and not any(
            part.command < call.index for part in call.reader.opaque):
        call.need(program_value, "bash: {}: No such file or directory")
        return  # no such file, and nothing before it in the line may have made one: bash runs nothing
    reads = read_unknown(call)
    reached = "" if reads or written else _reaches(call)  # what it does there is unknown, and matters more
    reason = f"{call.program} is not a program whose effects are known here"
    if written:
        reason = f"{program_value.text} was written by this same line and then run"
    elif reached:
        reason = f"{call.program}, whose effects are not known here, is given {reached}"
    call.opaque("program", call.text, reason, risky=bool(written or reached))


# Devices that hold no data of their own: reading or writing them changes nothing.
_HARMLESS_DEVICES = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero", "/dev/random",
                     "/dev/urandom", "/dev/full")
_SCRATCH = ("/tmp", "/var/tmp", "/dev/shm", "/dev/fd")


def _reaches(call: Call) -> str:
    """A path outside the workspace or a device among the arguments of a program without a handler ('' for none)."""
    for arg in call.args:
        text = arg.text.split("=", 1)[1] if arg.text.startswith("-") and "=" in arg.text else arg.text
        if not text.startswith("/") and "../" not in text + "/":
            continue  # a name, an option or a URL: relative paths stay in the workspace unless they climb out
        if text.startswith("//") and call.program in LABELS:
            continue  # a build target's label (`//pkg:target`), which names a target of the workspace
        path, where = call.scope.path(Value(text, literal=arg.literal, glob=arg.glob, prefix=arg.prefix))
        if path in _HARMLESS_DEVICES or any(path == top or path.startswith(top + "/") for top in _SCRATCH):
            continue
        if path.startswith("/dev/"):
            return f"the device {path}"
        if where == "outside":
            return f"{path}, outside the workspace"
    return ""
