"""Which CPU kernels llama.cpp runs: the best this machine supports, chosen when the library loads.

The README's build (`GGML_BACKEND_DL=ON`, `GGML_CPU_ALL_VARIANTS=ON`) ships one CPU library per
x86 generation (haswell, skylakex, icelake, zen4, ...) instead of one portable AVX2 library. Each
variant scores the running CPU (`ggml_backend_score`, 0 when it lacks a feature the variant needs);
the highest score is loaded, so one wheel runs everywhere and uses AVX-512 where it exists.
llama-cpp-python binds no loader, so this module does it through ctypes before the first model.

Variants that use AMX are left out unless asked for by name: on virtual machines that report AMX
the native AMX build crashed in the first multi-token decode. `AGENTWORLD_CPU_VARIANT=<name>`
picks a variant by name (a slower one, to compare; or an AMX one, where AMX is known to work).
A build without variants (a pip cache from an older install, or a GPU build) has its kernels built
in: nothing is loaded, and the kernels are described as they are.
"""

from __future__ import annotations

import ctypes
import os
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .errors import ConfigurationError
from .llama_import import llama_cpp as import_llama_cpp

AMX_VARIANTS = frozenset({"sapphirerapids"})  # ggml's x86 variants whose kernels use AMX tiles
_VARIANT_FILE = re.compile(r"^libggml-cpu-(?P<name>[\w-]+)\.so$")
_loaded: CpuKernels | None = None
_lock = threading.Lock()


@dataclass(frozen=True)
class CpuKernels:
    variant: str  # the loaded variant's name; "built in" for a build without variants
    features: tuple[str, ...]  # the instruction sets the loaded kernels use, as llama.cpp reports them
    scores: dict[str, int]  # each variant found and how it scored this CPU (0: unsupported)

    def as_dict(self) -> dict[str, object]:
        return {"variant": self.variant, "features": list(self.features), "variants_scored": self.scores}


def choose(scores: dict[str, int], wanted: str = "") -> str:
    """The variant to load: `wanted` if given (it must exist and run here), else the best-scoring
    one that does not use AMX."""
    if wanted:
        if wanted not in scores:
            raise ConfigurationError(f"AGENTWORLD_CPU_VARIANT={wanted!r} is not a CPU variant of this build; "
                                     f"it has {', '.join(sorted(scores))}")
        if scores[wanted] <= 0:
            runnable = ", ".join(name for name, score in sorted(scores.items()) if score > 0)
            raise ConfigurationError(f"AGENTWORLD_CPU_VARIANT={wanted!r} needs instructions this CPU lacks; "
                                     f"it runs {runnable}")
        return wanted
    usable = {name: score for name, score in scores.items() if score > 0 and name not in AMX_VARIANTS}
    if not usable:
        raise ConfigurationError("none of llama.cpp's CPU variants runs on this CPU; rebuild llama-cpp-python with "
                                 'CMAKE_ARGS="-DGGML_NATIVE=OFF" for a portable build')
    return max(usable, key=lambda name: usable[name])


def ensure_loaded() -> CpuKernels:
    """Load the CPU kernels once per process (before the first model), and say which they are."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = _load(os.environ.get("AGENTWORLD_CPU_VARIANT", "").strip())
        return _loaded


def _load(wanted: str) -> CpuKernels:
    llama_cpp = import_llama_cpp()  # loads libllama and the libggml it links: the registry the model will use

    ggml = _loaded_ggml()
    if ggml is not None:
        ggml.ggml_backend_reg_count.restype = ctypes.c_size_t
    if ggml is None or ggml.ggml_backend_reg_count() > 0:  # kernels built in (or loaded already): nothing to choose
        if wanted:
            raise ConfigurationError(f"AGENTWORLD_CPU_VARIANT={wanted!r} needs a llama-cpp-python built with "
                                     "GGML_BACKEND_DL=ON and GGML_CPU_ALL_VARIANTS=ON (the README's install); "
                                     "this one has its kernels built in")
        return CpuKernels("built in", _features(llama_cpp), {})
    files = _variant_files(Path(llama_cpp.__file__).resolve().parent)
    if not files:
        raise ConfigurationError("this llama-cpp-python was built with GGML_BACKEND_DL but its CPU libraries "
                                 "(libggml-cpu-*.so) are missing; reinstall it as the README says")
    scores = {name: _score(path) for name, path in files.items()}
    variant = choose(scores, wanted)
    ggml.ggml_backend_load.restype = ctypes.c_void_p
    ggml.ggml_backend_load.argtypes = [ctypes.c_char_p]
    if not ggml.ggml_backend_load(str(files[variant]).encode()):
        raise ConfigurationError(f"llama.cpp could not load its CPU library {files[variant]}")
    return CpuKernels(variant, _features(llama_cpp), scores)


def _loaded_ggml() -> ctypes.CDLL | None:
    """The libggml that libllama linked, or None where none is found (not Linux: variants are a
    Linux build here, and other builds have their kernels built in). A wheel stores its soname links
    as copies, so opening a file by another name would load a second registry that the model never
    sees: open the very file this process mapped."""
    try:
        maps = Path("/proc/self/maps").read_text().splitlines()
    except OSError:
        maps = []
    for line in maps:
        path = line.split(maxsplit=5)[-1]
        if re.search(r"/libggml\.so[.\d]*$", path):
            return ctypes.CDLL(path)
    try:
        return ctypes.CDLL("libggml.so.0")  # no /proc: the soname finds the loaded copy
    except OSError:
        return None


def _variant_files(package: Path) -> dict[str, Path]:
    """The CPU variants beside the package: scikit-build puts them in site-packages/bin."""
    found: dict[str, Path] = {}
    for folder in (package / "lib", package.parent / "bin"):
        for path in sorted(folder.glob("libggml-cpu-*.so")) if folder.is_dir() else ():
            match = _VARIANT_FILE.match(path.name)
            if match:
                found.setdefault(match["name"], path)
    return found


def _score(path: Path) -> int:
    """How well the variant fits this CPU (ggml's own check, run without loading it as a backend)."""
    import _ctypes

    try:
        library = ctypes.CDLL(str(path), mode=os.RTLD_LOCAL)
    except OSError:  # unreadable or built for another system: it cannot run here
        return 0
    try:
        library.ggml_backend_score.restype = ctypes.c_int
        return int(library.ggml_backend_score())
    except AttributeError:
        return 0
    finally:
        _ctypes.dlclose(library._handle)  # scored only: the loader opens the chosen one again


def _features(llama_cpp) -> tuple[str, ...]:
    """The CPU features the loaded kernels use, from llama.cpp's `CPU : AVX = 1 | AVX2 = 1 | ...` line."""
    info = llama_cpp.llama_print_system_info().decode(errors="replace")
    return tuple(_on_flags(part for part in info.split("|")))


def _on_flags(parts: Iterable[str]) -> list[str]:
    flags = []
    for part in parts:
        name, sep, value = part.rpartition("=")
        name = name.split(":")[-1].strip()
        if sep and value.strip() == "1" and name:
            flags.append(name)
    return flags
