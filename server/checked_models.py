"""A record of model files that passed the start-up checks, so that only the first start with a
given file pays for them (reading the header, loading the vocabulary: about half a second).

An entry holds for one file as it is on disk (path, device, inode, size, mtime) and for one
llama.cpp build (llama-cpp-python's version and its native library's size and mtime), with the
same metadata overrides. Anything else, including every failed check, is checked afresh, so a
bad file still ends the start with its one-line error. The record is a convenience: when it
cannot be read or written, the checks simply run.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
from pathlib import Path

from .model_files import GGUFInfo, cache_dir

_KEPT = 32  # entries; one per model file and build a user switches between


def _record() -> Path:
    return cache_dir() / "checked-models.json"


def _native_library() -> list[int]:
    """Size and mtime of the libllama this process would load: a rebuild of the same version counts."""
    spec = importlib.util.find_spec("llama_cpp")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return []
    lib = Path(spec.submodule_search_locations[0]) / "lib"
    found = sorted(lib.glob("*llama.*")) if lib.is_dir() else []
    return [stat.st_size, stat.st_mtime_ns] if found and (stat := found[0].stat()) else []


def _key(path: Path, kv_overrides: dict | None) -> str:
    stat = path.stat()
    try:
        version = importlib.metadata.version("llama_cpp_python")
    except importlib.metadata.PackageNotFoundError:
        version = ""
    return json.dumps([
        str(path), stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns,
        version, _native_library(), sorted((kv_overrides or {}).items()),
    ])


def _entries() -> dict[str, dict]:
    try:
        entries = json.loads(_record().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return entries if isinstance(entries, dict) else {}


def recall(path: Path, kv_overrides: dict | None) -> GGUFInfo | None:
    """What the checks found for this very file and build last time, or None: check it."""
    try:
        entry = _entries().get(_key(path, kv_overrides))
    except OSError:  # the file went away: the checks say so in their own words
        return None
    if not isinstance(entry, dict):
        return None
    try:
        return GGUFInfo(path=path, architecture=entry["architecture"], name=entry["name"],
                        file_type=entry["file_type"], size_bytes=entry["size_bytes"])
    except KeyError:
        return None


def remember(info: GGUFInfo, kv_overrides: dict | None) -> None:
    """Record a file that passed both checks."""
    record = _record()
    partial = record.with_suffix(f".partial-{os.getpid()}")
    try:
        entries = _entries()
        entries.pop(key := _key(info.path, kv_overrides), None)
        entries[key] = {"architecture": info.architecture, "name": info.name,
                        "file_type": info.file_type, "size_bytes": info.size_bytes}
        record.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(json.dumps(dict(list(entries.items())[-_KEPT:]), indent=1), encoding="utf-8")
        os.replace(partial, record)  # atomic: a concurrent start reads the old record or the new one
    except OSError:
        partial.unlink(missing_ok=True)
