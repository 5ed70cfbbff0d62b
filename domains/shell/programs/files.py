"""What each file program does, read from its arguments as its manual documents them.

One handler per program (or family): deleting, creating and writing, copying and moving, links,
permissions. A handler reads its arguments with `options.parse` and reports effects, requirements
(operands that must exist, with the program's own error line) and opaque parts through the `Call`
it is given. Sources: the coreutils, findutils, sed and gawk manuals. Archives and the network
have modules of their own; a program without a handler is opaque, never guessed.
"""

from __future__ import annotations

import re

from ..reading.call import Call
from .environment import dumps_variables, environment_read, printenv
from ..reading.options import Spec, parse
from ..reading.registry import handles
from .sed import deletes_every_line, sed_scripts
from ..reading.words import Value, mktemp_target


# --- deleting ----------------------------------------------------------------------------------
@handles("rm")
def _rm(call: Call) -> None:
    p = parse(call.args, Spec(longs=("force", "interactive?", "one-file-system", "no-preserve-root", "preserve-root?",
                                     "recursive", "dir", "verbose", "help", "version")))
    recursive = p.has("r", "R", "recursive")
    asks = p.last_of("f", "force", "i", "I", "interactive") in ("i", "interactive") or (
        p.has("I") and (recursive or len(p.operands) > 3) and not p.has("f", "force"))
    force = p.has("f", "force")
    for operand in p.operands:
        if asks:
            call.opaque("interactive", f"rm -i {operand.text}", f"rm asks before removing {operand.text}; the answer "
                        "decides", risky=call.stdin.piped)
            continue
        call.effect("deleted", operand, tree=recursive, forced=force)
        if not force:
            call.need(operand, "rm: cannot remove '{}': No such file or directory")


@handles("rmdir")
def _rmdir(call: Call) -> None:
    p = parse(call.args, Spec(longs=("ignore-fail-on-non-empty", "parents", "verbose")))
    for operand in p.operands:
        call.effect("deleted", operand)
        call.need(operand, "rmdir: failed to remove '{}': No such file or directory")
        if p.has("p", "parents") and operand.literal:  # then each folder named above it, as it empties
            parent = operand.text.rstrip("/")
            while "/" in parent.strip("/"):
                parent = parent.rsplit("/", 1)[0]
                call.effect("deleted", Value(parent))
        if not p.has("ignore-fail-on-non-empty"):
            call.need(operand, "rmdir: failed to remove '{}': Directory not empty", "empty")


@handles("unlink")
def _unlink(call: Call) -> None:
    for operand in parse(call.args, Spec()).operands[:1]:
        call.effect("deleted", operand)
        call.need(operand, "unlink: cannot unlink '{}': No such file or directory")


@handles("shred")
def _shred(call: Call) -> None:
    p = parse(call.args, Spec(short_values="ns", longs=("force", "iterations=", "random-source=", "size=", "remove?",
                                                          "verbose", "exact", "zero")))
    for operand in p.operands:
        call.effect("deleted" if p.has("u", "remove") else "overwritten", operand)


# --- creating and writing ----------------------------------------------------------------------
@handles("mkdir")
def _mkdir(call: Call) -> None:
    p = parse(call.args, Spec(short_values="m", longs=("mode=", "parents", "verbose", "context?")))
    for operand in p.operands:
        if p.has("p", "parents") and call.exists(operand) is True:
            continue
        if p.has("p", "parents"):
            call.create_parents(operand)
        call.effect("created", operand, forced=p.has("p", "parents"))  # forced: -p, no error if it exists
        if not p.has("p", "parents"):  # coreutils quotes this one with the locale's quotation marks
            call.need(operand, "mkdir: cannot create directory \u2018{}\u2019: File exists", "absent")


@handles("touch")
def _touch(call: Call) -> None:
    p = parse(call.args, Spec(short_values="drt", longs=("date=", "reference=", "time=", "no-create", "no-dereference")))
    for operand in p.operands:
        if p.has("c", "no-create") or call.exists(operand) is True or operand.text.endswith("/"):
            continue  # only its times change (`touch d/` makes nothing: it fails unless d is a folder)
        call.effect("created", operand)
        call.need_parent(operand, "touch: cannot touch '{}': No such file or directory")


@handles("truncate")
def _truncate(call: Call) -> None:
    p = parse(call.args, Spec(short_values="rs", longs=("no-create", "io-blocks", "reference=", "size=")))
    size = p.value("s", "size") or ""
    for operand in p.operands:
        if call.exists(operand) is False:
            if not p.has("c", "no-create"):
                call.effect("created", operand)
            continue
        call.effect("appended" if size.startswith(("+", ">")) else "truncated", operand)


@handles("tee")
def _tee(call: Call) -> None:
    p = parse(call.args, Spec(longs=("append", "ignore-interrupts", "output-error?")))
    for operand in p.operands:
        if operand.text != "-":
            call.write(operand, "appended" if p.has("a", "append") else "overwritten")


@handles("dd")
def _dd(call: Call) -> None:
    operands = {arg.text.partition("=")[0]: arg for arg in call.args if "=" in arg.text}
    if "of" in operands:
        target = call.value_after(operands["of"], "of=")
        conv = operands["conv"].text if "conv" in operands else ""
        call.write(target, "modified" if "notrunc" in conv else "overwritten")
    if "if" in operands:
        call.need(call.value_after(operands["if"], "if="), "dd: failed to open '{}': No such file or directory")


@handles("sed", "gsed")
def _sed(call: Call) -> None:
    p = parse(call.args, Spec(short_values="efl", short_optional="i",
                              longs=("in-place?", "expression=", "file=", "line-length=", "quiet", "silent",
                                     "regexp-extended", "separate", "null-data", "zero-terminated", "posix",
                                     "sandbox", "debug", "follow-symlinks", "unbuffered", "binary")))
    files = p.operands if p.has("e", "expression", "f", "file") else p.operands[1:]
    if not p.has("i", "in-place"):
        return
    suffix = p.value("i", "in-place") or ""
    # A script that deletes every line leaves each file empty (sed.py), unless a backup keeps what it held;
    # a script file's commands are not read.
    empties = not suffix and not p.has("f", "file") and deletes_every_line(sed_scripts([a.text for a in call.args]))
    for operand in files:
        call.effect("truncated" if empties else "modified", operand)
        call.need(operand, "sed: can't read {}: No such file or directory")
        if suffix and operand.literal:
            call.write(call.value_after(operand, "", suffix=suffix), "overwritten")


@handles("awk", "gawk", "mawk", "nawk")
def _awk(call: Call) -> None:
    p = parse(call.args, Spec(short_values="fvF", longs=("file=", "assign=", "field-separator=", "source=")))
    if p.has("f", "file"):
        call.opaque("script", call.text, f"{call.program} runs a program file", risky=False)
        return
    if not p.operands:
        return
    program = p.operands[0]
    # POSIX awk writes or runs only through system(), `| getline`, and print's > >> | redirections.
    code = re.sub(r'"(\\.|[^"\\])*"', '""', program.text)
    if not program.literal or re.search(r"\bsystem\s*\(|\|\s*getline|\b(print|printf)\b[^;{}]*(>|\|)", code):
        call.opaque("code", program.text, f"{call.program}'s program writes files or runs commands", risky=True)


@handles("sort")
def _sort(call: Call) -> None:
    p = parse(call.args, Spec(short_values="ktToS", longs=("output=", "key=", "field-separator=", "temporary-directory=",
                                                           "buffer-size=", "parallel=", "files0-from=", "sort=",
                                                           "compress-program=", "batch-size=", "random-source=")))
    if output := p.value("o", "output"):
        call.write(call.literal(output), "overwritten")


@handles("uniq")
def _uniq(call: Call) -> None:
    p = parse(call.args, Spec(short_values="fsw", longs=("skip-fields=", "skip-chars=", "check-chars=", "group?",
                                                         "all-repeated?")))
    if len(p.operands) > 1:
        call.write(p.operands[1], "overwritten")


@handles("cp", "install")
def _copy(call: Call) -> None:
    install = call.program == "install"
    short = "tSmogC" if install else "tS"
    p = parse(call.args, Spec(short_values=short, longs=(
        "archive", "attributes-only", "backup?", "copy-contents", "dereference", "force", "interactive", "link",
        "no-clobber", "no-dereference", "preserve?", "no-preserve=", "parents", "recursive", "reflink?", "remove-destination",
        "sparse=", "strip-trailing-slashes", "symbolic-link", "suffix=", "target-directory=", "no-target-directory",
        "update?", "verbose", "one-file-system", "context?", "mode=", "owner=", "group=", "directory", "compare",
        "strip", "preserve-timestamps", "debug")))
    if install and p.has("d", "directory"):
        for operand in p.operands:
            if call.exists(operand) is not True:
                call.create_parents(operand)
                call.effect("created", operand)
        return
    if install and p.has("D") and len(p.operands) >= 2:
        call.create_parents(p.operands[-1])
    recursive = p.has("r", "R", "a", "recursive", "archive")
    no_clobber = p.has("n", "no-clobber") or p.last_of("f", "force", "i", "interactive", "n") == "n"
    _transfer(call, p, "cp" if not install else "install", recursive, no_clobber, moves=False)


@handles("mv")
def _mv(call: Call) -> None:
    p = parse(call.args, Spec(short_values="tS", longs=(
        "backup?", "force", "interactive", "no-clobber", "no-copy", "strip-trailing-slashes", "suffix=",
        "target-directory=", "no-target-directory", "update?", "verbose", "context", "exchange", "debug")))
    no_clobber = p.last_of("f", "force", "i", "interactive", "n", "no-clobber") in ("n", "no-clobber")
    _transfer(call, p, "mv", True, no_clobber, moves=True)


def _transfer(call: Call, p, program: str, recursive: bool, no_clobber: bool, moves: bool) -> None:
    """cp, install and mv: sources go to the target, into it when it is a directory."""
    operands = list(p.operands)
    target_dir = p.value("t", "target-directory")
    if target_dir is not None:
        target, into = call.literal(target_dir), True
    elif len(operands) >= 2:
        target = operands.pop()
        into = len(operands) > 1 or target.text.endswith("/") or (
            not p.has("T", "no-target-directory") and call.is_dir(target) is True)
    else:
        return
    for source in operands:
        call.need(source, f"{program}: cannot stat '{{}}': No such file or directory")
        destination = call.joined(target, source) if into else target
        source_is_dir = call.is_dir(source)
        if no_clobber and call.exists(destination) is True:
            continue  # -n: an existing target is kept, and so is the source
        if moves:
            call.effect("moved-from", source, tree=source_is_dir is not False)
        if moves:
            call.effect("moved-to", destination, tree=source_is_dir is not False)
        elif recursive and source_is_dir is not False:
            call.write(destination, "overwritten", tree=True)
        else:
            call.write(destination, "overwritten")
        if p.has("b", "backup") and call.exists(destination) is not False:
            call.write(_backup_name(call, p, destination), "overwritten")


@handles("ln")
def _ln(call: Call) -> None:
    p = parse(call.args, Spec(short_values="tS", longs=("backup?", "directory", "force", "interactive", "logical",
                                                         "no-dereference", "physical", "relative", "symbolic",
                                                         "suffix=", "target-directory=", "no-target-directory",
                                                         "verbose")))
    operands = list(p.operands)
    target_dir = p.value("t", "target-directory")
    if target_dir is not None:
        links = [call.joined(call.literal(target_dir), source) for source in operands]
    elif len(operands) == 1:
        links = [call.joined(call.literal("."), operands[0])]
    elif len(operands) >= 2:
        name = operands.pop()
        into = len(operands) > 1 or (not p.has("T", "no-target-directory") and not p.has("n", "no-dereference")
                                     and call.is_dir(name) is True)
        links = [call.joined(name, source) for source in operands] if into else [name]
    else:
        return
    for link in links:
        if call.exists(link) is True and not p.has("f", "force"):
            continue  # ln refuses an existing name without -f
        call.write(link, "overwritten")


@handles("chmod", "chown", "chgrp")
def _permissions(call: Call) -> None:
    spec = Spec(longs=("changes", "silent", "quiet", "verbose", "recursive", "reference=", "dereference",
                       "no-dereference", "preserve-root", "no-preserve-root", "from="))
    args, dropped = call.args, []
    if call.program == "chmod":  # `chmod -w f`: a mode may begin with '-'; GNU chmod reads it as the mode
        mode_like = re.compile(r"^-[rwxXstugo]+$|^-[0-7]+$")
        args = [arg for arg in args if not mode_like.match(arg.text)]
        dropped = [arg.text for arg in call.args if mode_like.match(arg.text)]
    p = parse(args, spec)
    operands = list(p.operands)
    setting = ""
    if not p.has("reference") and operands and not (call.program == "chmod" and dropped):
        setting = operands.pop(0).text
        if call.program == "chmod" and re.search(r"[ugoa]*[+=][^,]*s|^[0-7]?[4-7][0-7]{3}$", setting):
            call.privilege(f"chmod {setting} sets the set-user-id or set-group-id bit")
        if call.program == "chown" and re.match(r"^(root|0)([:.]|$)", setting):
            call.privilege(f"chown {setting} gives files to root")
    mode = setting if call.program == "chmod" and not p.has("reference") and not dropped else ""
    for operand in operands:
        call.effect("permissions", operand, tree=p.has("R", "recursive"), target=mode)
        call.need(operand, f"{call.program}: cannot access '{{}}': No such file or directory")


@handles("printenv")
def _printenv(call: Call) -> None:
    printenv(call)


@handles("set", "export", "declare", "typeset")
def _variables(call: Call) -> None:
    if dumps_variables([call.program, *(arg.text for arg in call.args)]):
        environment_read(call)


@handles("mktemp")
def _mktemp(call: Call) -> None:
    if any(arg.text in ("-u", "--dry-run") or re.fullmatch(r"-[dqt]*u[dqtu]*", arg.text) for arg in call.args):
        return  # makes nothing, only prints a name
    target = mktemp_target([arg.text for arg in call.args], call.scope.cwd,
                           call.scope.variables.get("TMPDIR") or "/tmp")
    path = target or "/tmp/tmp.XXXXXXXXXX"  # arguments not read here: a new file somewhere, most likely there
    call.effect("created", call.literal(path.replace("X", "?"), glob=True), pattern=True)


@handles("patch")
def _patch(call: Call) -> None:
    p = parse(call.args, Spec(short_values="pdiorDBFVYzgs", longs=("input=", "output=", "directory=", "strip=",
                                                                     "dry-run", "reverse", "backup")))
    if p.has("dry-run"):
        return
    output = p.word("o", "output")
    if output is not None:  # patch(1): -o sends the patched file there instead of patching it in place
        if output.text != "-":
            call.write(output, "overwritten")
    elif p.operands:
        call.effect("modified", p.operands[0])
    else:
        call.opaque("stdin-arguments", call.text, "patch reads which files to change from the patch itself")


def _backup_name(call: Call, p, destination: Value) -> Value:
    """The backup GNU cp, mv, install and ln make: FILE~ (or --suffix), or FILE.~N~ when numbered."""
    control = p.value("backup") or ""
    if control in ("t", "numbered"):
        return Value(destination.text + ".~*~", literal=False, glob=True, prefix=destination.text + ".~")
    return call.value_after(destination, "", suffix=p.value("S", "suffix") or "~")
