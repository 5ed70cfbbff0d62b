"""`agentworld-mcp hook`: a decision for an agent host's tool call (server/hosts/hook.py).

It must start fast, so server/cli/entry.py sends `agentworld-mcp hook ...` on before this table is even
imported: `hook` has to be the first word. The entry here lists it in the top-level --help.
"""

from __future__ import annotations

import argparse

from .flags import Parents
from .prepared import Prepared


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    hook = commands.add_parser(
        "hook", add_help=False,
        help="for hosts' command hooks: a decision for the tool call on stdin (see `hook --help`); "
             "`hook install --host HOST` writes the hook into a host's settings")
    hook.add_argument("arguments", nargs=argparse.REMAINDER)


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    if args.arguments[:1] in (["install"], ["uninstall"]):
        from .hook_install import main as install

        return install(args.arguments)
    from ..hosts.hook import main

    return main(args.arguments)
