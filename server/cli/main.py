"""The `agentworld-mcp` command: a table of subcommands. With none it serves MCP over stdio, as MCP servers do.

Each subcommand is a module here with `add_parser(commands, parents)` and `run(args, prepared)`.
Every problem a user can fix (a bad flag, a missing or broken model file) ends the process with one
line on stderr and exit status 2, before the transport opens. stdout carries nothing but protocol
frames.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys

from ...engine.errors import AgentWorldError
from . import batch, bench, env, evaluate, export, hook, import_sessions, model, plan, serve, simulate, soak, twin, view
from .flags import Parents, settings_from
from .prepared import Prepared

SUBCOMMANDS = {
    "serve": serve, "twin": twin, "view": view, "hook": hook, "model": model, "bench": bench, "soak": soak,
    "eval": evaluate, "batch": batch, "simulate": simulate, "plan": plan, "env": env,
    "import": import_sessions, "export": export,
}


def parser() -> argparse.ArgumentParser:
    parents = Parents.make()
    top = argparse.ArgumentParser(
        prog="agentworld-mcp",
        description="An MCP server that predicts what an agent's actions would do, using a language world model.",
        parents=[parents.model],
        epilog="Each command's flags: agentworld-mcp COMMAND --help. The documentation: docs/ in the repository "
               "(docs/reference/cli.md lists every command and flag; pip install -e '.[docs]' && mkdocs serve).",
    )
    top.add_argument("--version", action="version", version=f"%(prog)s {version()}",
                     help="print the installed package's version and exit")
    commands = top.add_subparsers(dest="command")
    for module in SUBCOMMANDS.values():
        module.add_parser(commands, parents)
    return top


def version() -> str:
    """The installed distribution's version (what pip, uv or pipx installed), as `--version` prints it."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("agentworld-mcp")
    except PackageNotFoundError:
        return "unknown (not installed: run from a source folder)"


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    command = SUBCOMMANDS[args.command or "serve"]
    try:
        settings = settings_from(args)
        stderr = logging.StreamHandler(sys.stderr)
        stderr.setLevel(settings.log_level)  # a client that asks for more gets it over MCP (client_log), not here
        logging.basicConfig(handlers=[stderr], level=settings.log_level,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        with contextlib.closing(Prepared(settings)) as prepared:
            return command.run(args, prepared)
    except AgentWorldError as exc:  # settings, model file, packs, store, HTTP options, policy: one line each
        print(f"agentworld-mcp: {exc}", file=sys.stderr)
        return 2
