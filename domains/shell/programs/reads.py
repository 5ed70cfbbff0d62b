"""Which files a command reads the content of: for secrets, and for what a pipe carries onwards.

Most programs read the files they are given. The exceptions are named here: programs that only
look at names or metadata (`ls`, `stat`, `test`, `rm`, `mv`, `touch`, ...), whose operands are
never read, and programs whose first operand is a pattern or a script rather than a file (`grep`,
`sed`, `awk`, `jq`), unless the pattern came with `-e`/`-f`. A program without a handler counts
as reading what it is given: the guard does not know that it does not. A secret read is an effect
(`secret-read`); every read path is also remembered per command, so a network program fed by a
pipe, a redirect or a substitution is known to send those files (domains/shell/line.py).
"""

from __future__ import annotations

from .archives import parse_tar
from ..reading.call import Call
from ..reading.options import Spec, parse
from .secrets import folder_secret_kind, glob_may_read_secret, secret_kind
from ..reading.words import Value

# Operands are names: the program looks at them (or removes, moves, times, links them), never prints them.
NAMES_ONLY = frozenset("""
    echo printf ls dir vdir stat file du df test [ [[ which whereis type hash basename dirname realpath readlink
    touch mkdir rmdir rm unlink shred truncate chmod chown chgrp mv ln pwd true false : sleep kill export unset
    alias unalias read exit return set shopt trap ulimit umask history man info help whatis apropos id whoami
    groups hostname uname date cal uptime ps pgrep pstree top htop free lsof printenv locale seq yes tput clear
    reset stty tty logname users who w last mktemp tee mkfifo mknod sync jobs fg bg wait getconf nproc lscpu
    lsblk ip ss netstat ping dig nslookup host look numfmt factor expr tr cd pushd popd
""".split())
# The first operand is a pattern or a program text, unless one came with an option.
_PATTERN_FIRST: dict[str, tuple[Spec, tuple[str, ...], tuple[str, ...]]] = {
    # program: (its options, options that give the pattern, options whose value is a file it reads)
    "grep": (Spec(short_values="efABCmd", longs=("regexp=", "file=", "max-count=", "context=", "after-context=",
                                                  "before-context=", "include=", "exclude=", "exclude-dir=",
                                                  "label=", "color?", "colour?", "binary-files=", "devices=",
                                                  "directories=")), ("e", "f", "regexp", "file"), ("f", "file")),
    "rg": (Spec(short_values="efgtTmABCM", longs=("regexp=", "file=", "glob=", "type=", "max-count=", "context=")),
           ("e", "f", "regexp", "file"), ("f", "file")),
    "sed": (Spec(short_values="efl", short_optional="i", longs=("expression=", "file=", "in-place?", "line-length=")),
            ("e", "f", "expression", "file"), ("f", "file")),
    "awk": (Spec(short_values="fvF", longs=("file=", "assign=", "field-separator=", "source=")),
            ("f", "file", "source"), ("f", "file")),
    "jq": (Spec(short_values="f", longs=("from-file=", "arg=", "argjson=", "slurpfile=", "rawfile=", "indent=")),
           ("f", "from-file"), ("f", "from-file", "slurpfile", "rawfile")),
}
for _twin, _of in (("egrep", "grep"), ("fgrep", "grep"), ("ag", "rg"), ("ack", "rg"), ("gsed", "sed"),
                   ("gawk", "awk"), ("mawk", "awk"), ("nawk", "awk"), ("yq", "jq")):
    _PATTERN_FIRST[_twin] = _PATTERN_FIRST[_of]
# Programs with a handler of their own that read some of their operands (the rest write or only name them).
_SOURCES_THEN_TARGET = frozenset({"cp", "install", "scp", "rsync", "sftp"})
# Programs that start other programs: what they run is read on its own, their own operands are commands.
_LAUNCHERS = frozenset({"find", "xargs", "git", "env", "timeout", "nohup", "nice", "time", "sudo", "doas", "su",
                        "watch", "flock", "stdbuf", "setsid", "command", "builtin", "exec", "eval", "source", ".",
                        "parallel", "script", "make", "gmake"})
# Programs that read a whole tree below each folder they are given.
_SEARCH_TREES = frozenset({"rg", "ag", "ack"})
_TARS = frozenset({"tar", "bsdtar", "gtar"})
# git verbs that print a file's content (or its history's), and the files they are given.
GIT_READERS = frozenset({"show", "diff", "log", "blame", "annotate", "grep", "cat-file", "archive", "format-patch"})


def read_operands(call: Call) -> list[Value]:
    """The values this command reads the content of (literal paths or globs)."""
    program = call.program
    if program in NAMES_ONLY or program in _LAUNCHERS:
        return []
    if program in _PATTERN_FIRST:
        spec, pattern_options, file_options = _PATTERN_FIRST[program]
        p = parse(call.args, spec)
        files = list(p.operands) if p.has(*pattern_options) else list(p.operands[1:])
        return files + [call.literal(value) for name in file_options for value in p.flags.get(name, []) if value]
    if program in _TARS:  # creating, the members; else the archive
        p = parse_tar(call)
        if p.has("c", "create", "r", "append", "u", "update"):
            return [member for member in p.operands if member.text not in ("-", "")]
        archive = p.value("f", "file")
        return [call.literal(archive)] if archive and archive != "-" else []
    p = parse(call.args, Spec())
    operands = [value for value in p.operands if value.text not in ("-", "")]
    if program in _SOURCES_THEN_TARGET:
        return operands[:-1]
    if program == "dd":
        return [call.value_after(arg, "if=") for arg in call.args if arg.text.startswith("if=")]
    return operands


def reads_recursively(call: Call) -> bool:
    """Whether the command reads every file below a folder it is given: grep -r (-R, -d recurse), the searchers
    that always do (ripgrep, ag, ack), cp -r/-a, and tar creating an archive (its members, unless --no-recursion)."""
    program = call.program
    if program in _SEARCH_TREES:
        return True
    if program in ("grep", "egrep", "fgrep"):
        p = parse(call.args, _PATTERN_FIRST["grep"][0])
        return p.has("r", "R", "recursive", "dereference-recursive") or p.value("d", "directories") == "recurse"
    if program == "cp":
        return parse(call.args, Spec(short_values="tS")).has("r", "R", "a", "recursive", "archive")
    if program in _TARS:
        p = parse_tar(call)
        return p.has("c", "create", "r", "append", "u", "update") and not p.has("no-recursion")
    return False


def note_reads(call: Call, values: list[Value]) -> None:
    """Remember what the command reads; a file that holds secrets, or a folder that keeps them read recursively,
    is a `secret-read` effect."""
    recursive = reads_recursively(call)
    for value in values:
        if not value.literal and not value.glob:
            continue
        path, _ = call.scope.path(value)
        call.reader.reads.setdefault(call.index, []).append(path)
        kind = glob_may_read_secret(path) if value.glob else secret_kind(path)
        if not kind and recursive and not value.glob:
            kind = folder_secret_kind(path, call.scope.home)
        if kind:
            call.effect("secret-read", value, target=kind)
