"""llama-cpp-python, which runs a GGUF in this process: the `llama` extra, not a core dependency, so a server
that only talks to a model server (`--base-url`), or a documentation build, installs without compiling
llama.cpp. The first import on each in-process path (the file check, the log router, the CPU kernels) goes
through here, so its absence is a setup error that says what to install; later imports find it loaded."""

from __future__ import annotations

from typing import Any

from .errors import ConfigurationError

INSTALL_HINT = ("install llama-cpp-python for an in-process model: pip install 'agentworld-mcp[llama]' (the "
                "README's CMAKE_ARGS build it for every CPU), or serve from a model server with --base-url URL")


def llama_cpp() -> Any:  # the module, untyped as mypy sees it ([tool.mypy] overrides)
    try:
        import llama_cpp as module
    except ImportError as error:
        raise ConfigurationError(f"the in-process backend needs llama-cpp-python, which is not installed; "
                                 f"{INSTALL_HINT}") from error
    return module
