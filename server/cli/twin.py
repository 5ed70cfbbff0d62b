"""`agentworld-mcp twin [--mode simulate|record|shadow] -- COMMAND ARGS...`: stand in for a real MCP server.

A host config that started the real server starts the twin instead, with the real command after
`--`. Problems the user can fix (no command, a server that does not start, a world that cannot be
used) end the process with one line on stderr and exit status 2, before the transport opens.
"""

from __future__ import annotations

import argparse
import logging
import sys

import anyio

from ..settings import Settings
from ..twin.twin import MODES, TwinError, TwinOptions
from .flags import Parents, http_options
from .prepared import Prepared

log = logging.getLogger("agentworld_mcp.twin")


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    twin = commands.add_parser(
        "twin", parents=[parents.model, parents.serving],
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


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    from ..runtime import build_context
    from ..twin.real_server import RealServer, RealServerAddress
    from ..twin.surface import serve_twin

    settings, domains, model, http = prepared.settings, prepared.domains, prepared.model, http_options(args)
    # A twin is a server too, but it leaves the jobs in the store to the server that runs them.
    store = prepared.store(settle_jobs=False)
    command = args.real_command[1:] if args.real_command[:1] == ["--"] else args.real_command
    problem = _flag_problem(args, settings, command)
    if problem:
        print(f"agentworld-mcp: {problem}", file=sys.stderr)
        return 2
    options = TwinOptions(mode=args.mode, world=args.world, real_reads=args.real_reads, fresh=args.fresh,
                          state=args.state, max_tokens=args.max_tokens, tools=tuple(args.tool))
    # No jobs: the agent talks to the twin as to the real server and knows no job tool; a call runs to its end.
    ctx = build_context(settings, model, domains, store, keep_jobs=False)
    if options.mode != "record":
        ctx.engine.start()  # loads in the background while the real server starts
    try:
        anyio.run(serve_twin, ctx, RealServer(RealServerAddress(tuple(command), args.url), args.start_timeout), options, http)
    except TwinError as exc:
        print(f"agentworld-mcp: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    finally:
        ctx.engine.close()
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
