"""Archives and compressors: what tar, unzip and gzip-like programs create, replace and remove
(the GNU tar, Info-ZIP and gzip manuals)."""

from __future__ import annotations

import re

from ..reading.call import Call
from ..reading.options import Parsed, Spec, parse
from ..reading.registry import handles
from ..reading.words import Value


def parse_tar(call: Call) -> Parsed:
    """tar's arguments, the old style (`tar czf a.tgz src`) read as its bundled options."""
    args = list(call.args)
    if args and args[0].literal and not args[0].text.startswith("-") and re.fullmatch(r"[A-Za-z]+", args[0].text):
        args[0] = call.literal("-" + args[0].text)  # old style: `tar xzf a.tgz`
    return parse(args, Spec(short_values="fCTXbFgKLNVI", longs=(
        "file=", "directory=", "extract", "get", "create", "append", "update", "list", "delete", "files-from=",
        "exclude=", "exclude-from=", "strip-components=", "transform=", "xform=", "gzip", "bzip2", "xz", "zstd",
        "verbose", "keep-old-files", "skip-old-files", "overwrite", "remove-files", "to-stdout",
        "use-compress-program=", "to-command=", "checkpoint-action=", "checkpoint?", "info-script=", "new-volume-script=", "rsh-command=",
        "rmt-command=")))


# GNU tar's options whose value is a command it runs through the shell (GNU tar manual: "Writing to an External
# Program", "Checkpoints", "Using Multiple Tapes", "Creating and Reading Compressed Archives"): each extracted
# file piped to --to-command, the compressor of -I, the script run at each volume's end, the remote shell.
_TAR_COMMANDS = ("to-command", "I", "use-compress-program", "F", "info-script", "new-volume-script", "rsh-command",
                 "rmt-command")


def _tar_commands(call: Call, p: Parsed) -> None:
    commands = [word for name in _TAR_COMMANDS for word in p.words.get(name, [])]
    for action in p.words.get("checkpoint-action", []):
        kind, _, executed = action.text.partition("=")
        if kind == "exec":  # the other actions (bell, dot, echo, sleep, ttyout, wait) run nothing
            commands.append(Value(executed, action.literal))
    for command in commands:
        if command.literal:
            call.run_script(command.text, scope=call.scope.copy())
        else:
            call.opaque("code", command.text, f"tar runs {command.text}, which the line does not spell out",
                        risky=True)


@handles("tar", "bsdtar", "gtar")
def _tar(call: Call) -> None:
    p = parse_tar(call)
    _tar_commands(call, p)
    archive = p.value("f", "file")
    into = call.literal(p.value("C", "directory") or ".")
    if p.has("x", "extract", "get") and not p.has("O", "to-stdout", "to-command"):
        if archive and archive != "-":
            call.need(call.literal(archive), "tar: {}: Cannot open: No such file or directory")
        members = p.operands
        if p.has("T", "files-from"):  # names read from a file: any member may be written
            call.write(into, "overwritten", tree=True, pattern=True)
        if members:
            for member in members:
                placed = call.joined(into, member, keep_path=True)
                call.create_parents(placed)
                call.write(placed, "overwritten", tree=True)
        else:
            call.write(into, "overwritten", tree=True, pattern=True)
    elif p.has("c", "create", "r", "append", "u", "update") and archive and archive != "-":
        call.write(call.literal(archive), "overwritten" if p.has("c", "create") else "modified")
    elif p.has("delete") and archive:
        call.effect("modified", call.literal(archive))
    if p.has("remove-files"):
        for member in p.operands:
            call.effect("deleted", member, tree=True)
        if p.has("T", "files-from"):
            call.effect("deleted", call.literal("*", glob=True), tree=True, pattern=True)


@handles("unzip")
def _unzip(call: Call) -> None:
    p = parse(call.args, Spec(short_values="dxP", permute=False))
    if p.has("l", "t", "v", "p", "Z"):
        return
    into = call.literal(p.value("d") or ".")
    call.write(into, "overwritten", tree=True, pattern=True)


@handles("gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "compress")
def _compressors(call: Call) -> None:
    p = parse(call.args, Spec(short_values="S", longs=("stdout", "to-stdout", "keep", "decompress", "uncompress", "force",
                                                         "suffix=", "list", "test", "rm", "recursive")))
    if p.has("c", "stdout", "to-stdout", "l", "list", "t", "test"):
        return
    decompress = p.has("d", "decompress", "uncompress") or call.program.startswith("un") or call.program == "gunzip"
    suffix = p.value("S", "suffix") or {"gzip": ".gz", "gunzip": ".gz", "bzip2": ".bz2", "bunzip2": ".bz2",
                                         "xz": ".xz", "unxz": ".xz", "zstd": ".zst", "unzstd": ".zst"}.get(call.program, ".Z")
    keep = p.has("k", "keep") or (call.program in ("zstd", "unzstd") and not p.has("rm"))
    if p.has("r", "recursive"):  # every file under each folder is replaced by its (de)compressed form
        for operand in p.operands:
            call.effect("overwritten", operand, tree=True)
        return
    for operand in p.operands:
        if not operand.literal:
            call.effect("created", operand, pattern=True)
            continue
        if decompress:
            name = operand.text[: -len(suffix)] if operand.text.endswith(suffix) else operand.text + ".out"
            out = call.literal(name)
        else:
            out = call.value_after(operand, "", suffix=suffix)
        call.write(out, "overwritten")
        if not keep:
            call.effect("deleted", operand)


# zip(1): `zip [options] zipfile [file ...]`. The options read here: -T/--test tests the new archive with
# -TT/--unzip-command's command (`{}` stands for the archive), -m/--move deletes the files it adds, -d/--delete
# removes entries; the words after -x and -i are patterns, and -b, -n, -t, -tt, -O, -P, -s, -Z take a value.
_ZIP_VALUES = frozenset({"-b", "-n", "-t", "-tt", "-O", "--output-file", "-P", "--password", "-s", "-Z",
                         "--temp-path", "-TT", "--unzip-command"})


@handles("zip")
def _zip(call: Call) -> None:
    options: dict[str, Value] = {}
    operands: list[Value] = []
    args = list(call.args)
    while args:
        word = args.pop(0)
        if word.text in ("-x", "-i", "--exclude", "--include"):
            break  # the rest are patterns
        if word.text.startswith("-") and word.text != "-":
            options[word.text] = args.pop(0) if word.text in _ZIP_VALUES and args else word
        else:
            operands.append(word)
    flags = "".join(name[1:] for name in options if not name.startswith("--") and name not in _ZIP_VALUES)
    if not operands:
        return
    archive, files = operands[0], operands[1:]
    call.write(archive, "modified")
    if "m" in flags or "--move" in options:
        for file in files:
            call.effect("deleted", file, tree="r" in flags)
    command = options.get("-TT") or options.get("--unzip-command")
    if command is not None and ("T" in flags or "--test" in options):
        if command.literal:
            call.run_script(command.text.replace("{}", archive.text), scope=call.scope.copy())
        else:
            call.opaque("code", command.text, f"zip tests the archive with {command.text}, which the line does not "
                        "spell out", risky=True)
