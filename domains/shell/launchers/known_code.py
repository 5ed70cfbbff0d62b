"""Code the line shows, read by what it runs: a script the same line wrote with text it spells out and then
runs (`bash f`, `source f`, `./f`, `python3 f.py`), and Python code that starts commands it spells out
(`subprocess.run([...])`, `os.system('...')`). Shell code goes through the line's own reader; Python code
through inline_python's reading of its syntax tree. Code read no further stays what it was: unknown."""

from __future__ import annotations

import posixpath
import re

from ..reading.call import Call, Stdin
from ..programs.inline_code import read_inline
from ..programs.inline_python import commands_started
from ..programs.python_reads import files_read
from ..programs.reads import note_reads
from ..reading.registry import SHELLS
from ..reading.words import Value

PYTHON = re.compile(r"python[0-9.]*|pypy[0-9]*")  # the names Python's interpreters are run by


def language_of(program: str) -> str | None:
    """The language a program reads a script file in: 'shell', 'python', or None for one not read here."""
    if program in SHELLS or program in ("source", "."):
        return "shell"
    return "python" if PYTHON.fullmatch(program) else None


def interpreter_of(text: str) -> str | None:
    """The language of a file run as a program: its `#!` line's interpreter (through `env`), and with none the
    shell, which runs such a file itself (bash(1), COMMAND EXECUTION: execve fails with ENOEXEC)."""
    first = text.split("\n", 1)[0]
    if not first.startswith("#!"):
        return "shell"
    words = first[2:].split()
    if words and posixpath.basename(words[0]) == "env":
        words = [word for word in words[1:] if not word.startswith("-") and "=" not in word]
    return language_of(posixpath.basename(words[0])) if words else "shell"


def run_written(call: Call, script: Value, language: str | None, same_shell: bool = False) -> bool:
    """Read a script this line wrote and spelled out, in `language`; False where it is not such a script or the
    reading cannot follow its code."""
    text = call.written_text(script)
    if text is None or language is None:
        return False
    if language == "shell":
        if same_shell:  # `source f`: its cd and variables are this shell's from here on
            call.reader.run_code(text, call.scope, call.index)
        else:
            call.run_script(text)
        return True
    return read_python(call, text)


def read_python(call: Call, code: str) -> bool:
    """Python code that only computes, or computes and starts commands it spells out (each command is read like
    the line's own: argv as words, a shell string as shell code), or only computes and reads files it names
    (python_reads). False for any other code."""
    started = commands_started(code)
    if started is None:
        read = files_read(code)
        if read is not None:  # it only reads and computes: what it reads is noted, as a program's operands are
            note_reads(call, [Value(path) for path in read])
        return read is not None
    for command in started:
        scope = call.scope.copy()
        if command.cwd is not None:
            scope.cwd = call.scope.path(Value(command.cwd))[0]
        stdin = call.stdin
        if command.input is not None:
            stdin = Stdin("text", text=command.input)
        elif command.piped:
            stdin = Stdin("pipe", from_program=call.program)
        if command.shell is not None:
            call.run_script(command.shell, scope=scope, stdin=stdin)
        else:
            call.run([Value(word) for word in command.argv], stdin=stdin, scope=scope)
    return True


def read_code(call: Call, program: str, code: str) -> bool:
    """Inline code of another interpreter (programs/inline_code.py): the shell commands it spells out are read
    as the line's own, the paths it deletes are deleted; True where the rest is proven to only compute and print,
    False where the rest stays unknown."""
    reading = read_inline(program, code)
    if reading is None:
        return False
    for command in reading.commands:
        call.run_script(command, scope=call.scope.copy())
    for path, tree in reading.deleted:
        call.effect("deleted", call.literal(path), tree=tree)
    return reading.rest_harmless
