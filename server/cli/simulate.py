"""`agentworld-mcp simulate ACTION`: predict what one action would do, in this process (see server/cli/scripted.py)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .flags import Parents
from .one_shot import call_once, flag_arguments, request_flags
from .prepared import Prepared
from .scripted import run_scripted


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    simulate = commands.add_parser(
        "simulate", parents=[parents.model, request_flags()], help="predict what one action would do",
    )
    simulate.add_argument("action", metavar="ACTION", help="the action, e.g. 'ls -la' (- reads it from stdin)")
    simulate.add_argument("--domain", help="the environment (default: the world's with --world-id, else terminal)")


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    prepared.check()
    return run_scripted(lambda stdout: call_once("simulate_action", _arguments(args), prepared, args.json, stdout))


def _arguments(args: argparse.Namespace) -> dict[str, Any]:
    action = sys.stdin.read() if args.action == "-" else args.action
    arguments = {"action": action, **flag_arguments(args, "simulate_action")}
    arguments["domain"] = args.domain or (None if args.world_id else "terminal")
    return arguments
