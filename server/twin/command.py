"""`agentworld-mcp twin [--mode simulate|record|shadow] -- COMMAND ARGS...`: stand in for a real MCP server.

A host config that started the real server starts the twin instead, with the real command after
`--`. Problems the user can fix (no command, a server that does not start, a world that cannot be
used) end the process with one line on stderr and exit status 2, before the transport opens.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

import anyio

from ...domains import DomainPack
from ...tools.store import Store
from ..surface.http_serving import HttpOptions
from ..settings import Settings
from .twin import MODES, TwinError, TwinOptions

log = logging.getLogger("agentworld_mcp.twin")


def add_twin_parser(commands: Any, parents: list[argparse.ArgumentParser]) -> None:
    twin = commands.add_parser(
        "twin", parents=parents,
        help="stand in for a real MCP server: the same tools, answered by the world model (simulate), "
             "by the real server and recorded (record), or both and compared (shadow)",
        description="Give the real server's command after --, e.g. "
                    "agentworld-mcp twin --mode shadow -- npx -y @modelcontextprotocol/server-filesystem /tmp/work",
    )
    twin.add_argument("--mode", choices=MODES, default="simulate",
                      help="simulate: no call reaches the real server; record: every call does and is recorded; "
                           "shadow: every call does, and is also predicted and compared (default simulate)")
    twin.add_argument("--url", default="", help="a real server over streamable HTTP instead of a command")
    twin.add_argument("--world", default="", metavar="NAME",
                      help="the world the twin keeps (default twin-<the real server's name>); it persists across restarts")
    twin.add_argument("--fresh", action="store_true", help="start the world empty instead of continuing it")
    twin.add_argument("--real-reads", action="store_true",
                      help="simulate: let read-only tools reach the real server until the first simulated call, "
                           "so the world starts from real state")
    twin.add_argument("--state", default="", help="what lies behind the real server, for the model (files, records, ...)")
    twin.add_argument("--max-tokens", type=int, help="most tokens the model writes per call (default: the domain's)")
    twin.add_argument("--start-timeout", type=float, default=60.0, metavar="SECONDS",
                      help="how long the real server may take to start and list its tools (60)")
    twin.add_argument("--tool", action="append", default=[], metavar="NAME",
                      help="serve only this one of the real server's tools (repeatable; default all)")
    twin.add_argument("real_command", nargs=argparse.REMAINDER, help="-- then the real server's command and arguments")


def run_twin(
    args: argparse.Namespace,
    settings: Settings,
    model: Any,
    domains: dict[str, DomainPack],
    store: Store,
    http: HttpOptions | None,
) -> int:
    from ..runtime import build_context
    from .real_server import RealServer, RealServerAddress

    command = args.real_command[1:] if args.real_command[:1] == ["--"] else args.real_command
    problem = _flag_problem(args, settings, command)
    if problem:
        store.close()
        print(f"agentworld-mcp: {problem}", file=sys.stderr)
        return 2
    options = TwinOptions(mode=args.mode, world=args.world, real_reads=args.real_reads, fresh=args.fresh,
                          state=args.state, max_tokens=args.max_tokens, tools=tuple(args.tool))
    # No jobs: the agent talks to the twin as to the real server and knows no job tool; a call runs to its end.
    ctx = build_context(settings, model, domains, store, keep_jobs=False)
    if options.mode != "record":
        ctx.engine.start()  # loads in the background while the real server starts
    try:
        anyio.run(_serve, ctx, RealServer(RealServerAddress(tuple(command), args.url), args.start_timeout), options, http)
    except TwinError as exc:
        print(f"agentworld-mcp: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    finally:
        ctx.engine.close()
        store.close()
    return 0


def _flag_problem(args: argparse.Namespace, settings: Settings, command: list[str]) -> str:
    """What makes the flags unusable, in one line (empty if nothing); flags that only do nothing are logged."""
    if bool(command) == bool(args.url):
        return "twin needs the real server: its command after -- (stdio), or --url (HTTP), not both"
    limit = settings.limits().max_tokens
    if args.max_tokens is not None and not 1 <= args.max_tokens <= limit:
        return f"--max-tokens {args.max_tokens}: give 1 to {limit}"
    if args.start_timeout <= 0:
        return "--start-timeout must be positive"
    # Flags that do nothing in this mode are said so, not refused: a host config may switch modes and keep them.
    if args.real_reads and args.mode != "simulate":
        log.warning("--real-reads does nothing in %s mode: every call reaches the real server", args.mode)
    if args.mode == "record" and (args.max_tokens is not None or args.state):
        log.warning("--max-tokens and --state do nothing in record mode: it never asks the model")
    return ""


async def _serve(ctx: Any, real: Any, options: TwinOptions, http: HttpOptions | None) -> None:
    from .surface import create_twin_server
    from .twin import Twin

    async with Twin(ctx, real, options) as twin:
        server = create_twin_server(twin)
        log.info("twin of %s (%s mode) in world %s", real.info.name, options.mode, twin.world_id)
        if http is None:
            from mcp.server.stdio import stdio_server

            async with stdio_server() as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())
        else:
            await _serve_http(server, http)


async def _serve_http(server: Any, http: HttpOptions) -> None:
    import uvicorn

    from ..surface.http_serving import StaticTokenVerifier, auth_settings, transport_security

    app = server.streamable_http_app(
        stateless_http=http.stateless,
        max_request_body_size=http.max_body_bytes,
        transport_security=transport_security(http),
        host=http.host,
        token_verifier=StaticTokenVerifier(http.auth_token) if http.auth_token else None,
        auth=auth_settings(http) if http.auth_token else None,
    )
    await uvicorn.Server(uvicorn.Config(app, host=http.host, port=http.port, log_level="warning")).serve()

