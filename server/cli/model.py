"""`agentworld-mcp model`: prepare and check the model file (or ask the model server), and print what it
is, with the CPU kernels llama.cpp runs it on (a slow machine shows why here)."""

from __future__ import annotations

import argparse
import json
import sys

from .flags import Parents
from .prepared import Prepared


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    commands.add_parser("model", parents=[parents.model], help="prepare and check the model file, print what it is")


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    from ...engine.remote import RemoteSettings

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
