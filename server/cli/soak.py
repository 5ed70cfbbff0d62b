"""`agentworld-mcp soak`: many clients and random cancels against real server processes (server/measure/soak.py)."""

from __future__ import annotations

import argparse
import asyncio

from .flags import Parents
from .prepared import Prepared


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    soak = commands.add_parser(
        "soak", parents=[parents.model],
        help="many clients, random cancels, against real server processes: do calls end, does the queue drain")
    soak.add_argument("--clients", type=int, default=8, help="concurrent clients (8)")
    soak.add_argument("--calls", type=int, default=25, help="calls per client (25)")
    soak.add_argument("--cancel-rate", type=float, default=0.25, help="share of calls cancelled after 0.05-2 s (0.25)")
    soak.add_argument("--transport", choices=["stdio", "http", "both"], default="both")


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    from ..measure.soak import run_soak
    from ..settings import settings_env

    prepared.check()  # a bad pack or model file ends here in one line, not in each server the soak starts
    transports = ["stdio", "http"] if args.transport == "both" else [args.transport]
    env = settings_env(prepared.settings)
    return asyncio.run(run_soak(env, args.clients, args.calls, args.cancel_rate, transports))
