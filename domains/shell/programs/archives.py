"""Archives and compressors: what tar, unzip and gzip-like programs create, replace and remove
(the GNU tar, Info-ZIP and gzip manuals)."""

from __future__ import annotations

import re

from ..reading.call import Call
from ..reading.options import Parsed, Spec, parse
from ..reading.registry import handles


def parse_tar(call: Call) -> Parsed:
    """tar's arguments, the old style (`tar czf a.tgz src`) read as its bundled options."""
    args = list(call.args)
    if args and args[0].literal and not args[0].text.startswith("-") and re.fullmatch(r"[A-Za-z]+", args[0].text):
        args[0] = call.literal("-" + args[0].text)  # old style: `tar xzf a.tgz`
    return parse(args, Spec(short_values="fCTXbFgKLNV", longs=(
        "file=", "directory=", "extract", "get", "create", "append", "update", "list", "delete", "files-from=",
        "exclude=", "exclude-from=", "strip-components=", "transform=", "xform=", "gzip", "bzip2", "xz", "zstd",
        "verbose", "keep-old-files", "skip-old-files", "overwrite", "remove-files", "to-stdout", "use-compress-program=")))


@handles("tar", "bsdtar", "gtar")
def _tar(call: Call) -> None:
    p = parse_tar(call)
    archive = p.value("f", "file")
    into = call.literal(p.value("C", "directory") or ".")
    if p.has("x", "extract", "get") and not p.has("O", "to-stdout"):
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
