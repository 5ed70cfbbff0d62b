"""`agentworld-mcp bench`: the speed run, where the time goes, as ratios from one run (server/measure/bench.py)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from .flags import Parents
from .prepared import Prepared

SECTIONS = range(1, 17)


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    bench = commands.add_parser("bench", parents=[parents.model],
                                help="measure where the time goes; prints ratios from one run")
    bench.add_argument("--section", type=int, action="append", choices=SECTIONS, metavar="N",
                       help=f"run only section N ({SECTIONS[0]}-{SECTIONS[-1]}; repeatable; default all)")


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    from ..measure.bench import run_bench
    from ..model_files import GGUFInfo

    prepared.check()
    model = prepared.model
    if not isinstance(model, GGUFInfo):
        print("agentworld-mcp: bench measures the in-process model (and starts its own llama-server to compare); "
              "drop --base-url and give --model", file=sys.stderr)
        return 2
    return asyncio.run(run_bench(prepared.settings, model, set(args.section or ())))
