"""`agentworld-mcp model`: prepare and check the model file (or ask the model server), and print what it
is, with the CPU kernels llama.cpp runs it on (a slow machine shows why here). An install without the
in-process model (no llama-cpp-python: `uv tool install .`, the guard's) says so in one line, and what it runs."""

from __future__ import annotations

import argparse
import json
import sys

from ...engine.errors import ConfigurationError
from .flags import Parents
from .prepared import Prepared


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    commands.add_parser("model", parents=[parents.model], help="prepare and check the model file, print what it is")


NO_IN_PROCESS_MODEL = ("no in-process model: llama-cpp-python is not installed, so this install runs the guard "
                       "(`agentworld-mcp hook`) and a server on a model server (`agentworld-mcp --base-url URL model` "
                       "checks one); for a model in this process: pip install 'agentworld-mcp[llama]'")


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    from ...engine.llama_import import llama_cpp
    from ...engine.remote import RemoteSettings

    if prepared.settings.backend != "openai" and not prepared.settings.model:
        try:
            llama_cpp()
        except ConfigurationError:  # not a broken set-up: what this install is (a --model PATH still fails below)
            _ = prepared.domains  # the packs are checked all the same
            print(NO_IN_PROCESS_MODEL)
            return 0

    prepared.check()  # the user's packs too: `model` checks the whole set-up
    model = prepared.model
    if isinstance(model, RemoteSettings):  # ask the server what it serves, as the first call would
        from ...engine.remote import OpenAICompatibleBackend

        backend = OpenAICompatibleBackend(model)
        try:
            described = backend.load()
            figures = backend.figures()
        finally:
            backend.close()
        if figures["last_error"]:
            print(f"agentworld-mcp: {figures['last_error']}", file=sys.stderr)
            return 1
        print(json.dumps({"url": described.file, "server": described.architecture, "name": described.name,
                          "slots": figures["slots"], "n_ctx": described.n_ctx or None}, indent=2))
        return 0
    from ...engine.cpu_kernels import ensure_loaded

    print(json.dumps({"path": str(model.path), "name": model.name, "architecture": model.architecture,
                      "quantization": model.quantization, "size_bytes": model.size_bytes,
                      "cpu": ensure_loaded().as_dict()}, indent=2))
    return 0
