"""`agentworld-mcp serve` (the default): the world model's tools over MCP, on stdio or HTTP."""

from __future__ import annotations

import argparse

from .flags import Parents, http_options
from .prepared import Prepared


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    commands.add_parser("serve", parents=[parents.model, parents.serving], help="serve MCP (the default: stdio)")


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    from ..runtime import build_context, guard_settings
    from ..surface.app import create_server

    # In this order, each checked before the transport opens: packs, the guard's policy, the model, HTTP, the store.
    guard = guard_settings(prepared.settings, prepared.domains)
    model = prepared.model
    http = http_options(args)
    store = prepared.store()
    ctx = build_context(prepared.settings, model, prepared.domains, store)
    server = create_server(ctx, http, guard)
    ctx.engine.start()  # loads in the background: initialize and tools/list answer at once
    try:
        if http is not None:
            from ..surface.http_serving import serve

            serve(server, http)
        else:
            server.run("stdio")
    except KeyboardInterrupt:
        pass
    finally:
        ctx.engine.close()
    return 0
