"""`agentworld-mcp plan PLAN`: dry-run a plan from a JSON file, in this process (see server/cli/scripted.py)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ...engine.errors import AgentWorldError
from ..api.python_api import parse_arguments
from .flags import Parents
from .one_shot import call_once, flag_arguments, request_flags
from .prepared import Prepared
from .scripted import CommandError, read_json, run_scripted


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    plan = commands.add_parser(
        "plan", parents=[parents.model, request_flags()], help="dry-run a plan from a JSON file",
        description="PLAN is a JSON list of steps, or an object with steps and any of dry_run_plan's other "
        "arguments (domain, state, task, history, constraints, presets, ...). Flags override the file.",
    )
    plan.add_argument("plan_file", type=Path, metavar="PLAN", help="the plan file (- reads it from stdin)")
    plan.add_argument("--domain", help="the environment (default: the file's, the world's, else terminal)")
    plan.add_argument("--stop-on-error", action="store_true", default=None, help="stop at the first step predicted to fail")


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    prepared.check()
    return run_scripted(lambda stdout: call_once("dry_run_plan", _arguments(args), prepared, args.json, stdout))


def _arguments(args: argparse.Namespace) -> dict[str, Any]:
    plan = read_json(args.plan_file, "plan")
    if isinstance(plan, list):
        plan = {"steps": plan}
    if not isinstance(plan, dict):
        raise CommandError(f"plan file {args.plan_file} must hold a list of steps or an object with steps")
    flags = flag_arguments(args, "dry_run_plan")
    more_presets = flags.pop("presets", [])
    arguments = {**plan, **flags}
    if more_presets:
        arguments["presets"] = [*arguments.get("presets", []), *more_presets]
    if "steps" not in arguments:
        raise CommandError(f"plan file {args.plan_file} has no steps; give a list of steps or an object with steps")
    if args.domain:
        arguments["domain"] = args.domain
    elif "domain" not in arguments and not arguments.get("world_id"):
        arguments["domain"] = "terminal"
    if args.stop_on_error:
        arguments["stop_on_error"] = True
    try:  # the plan file's shape, named with the file (the tool checks it again, with everything else)
        parse_arguments("dry_run_plan", arguments)
    except AgentWorldError as exc:
        raise CommandError(f"plan file {args.plan_file}: {exc}") from None
    return arguments
