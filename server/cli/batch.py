"""`agentworld-mcp batch`: JSON Lines of tool calls in, one result line out per call (the runner is
server/api/batch.py). Resumable with --output; see server/cli/scripted.py for stdout and exit status."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import TextIO

from .flags import Parents
from .prepared import Prepared
from .scripted import CommandError, engine_for, read_text, run_scripted

log = logging.getLogger("agentworld_mcp.commands")


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    batch = commands.add_parser(
        "batch", parents=[parents.model], help="run JSON Lines of tool calls, one result line each",
        description='Each input line is {"id": ..., "tool": "simulate_action" | "dry_run_plan" | '
        '"check_constraints" | "world", "arguments": {...}}; without "tool", arguments with "action" mean '
        'simulate_action and with "steps" dry_run_plan. One line out per request: {"id", "ok", "result"} '
        'or {"id", "ok": false, "error"}.',
    )
    batch.add_argument("file", nargs="?", default="-", metavar="FILE", help="the requests (default, or -: stdin)")
    batch.add_argument(
        "--output", type=Path, metavar="FILE",
        help="append results to FILE instead of stdout; a rerun skips ids FILE already has a result for",
    )
    batch.add_argument("--as-completed", action="store_true", help="write results as they finish, not in input order")
    batch.add_argument("--concurrency", type=int, default=4, metavar="N", help="requests in flight at once (4)")


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    prepared.check()
    return run_scripted(lambda stdout: _batch(args, prepared, stdout))


def _batch(args: argparse.Namespace, prepared: Prepared, stdout: TextIO) -> int:
    from ..api.batch import BatchOptions, OutputError, run_batch

    queue_limit = prepared.settings.queue_limit
    if args.concurrency < 1:
        raise CommandError(f"--concurrency must be at least 1, got {args.concurrency}")
    if args.concurrency > queue_limit:
        raise CommandError(f"--concurrency {args.concurrency} is above the queue limit {queue_limit}")
    lines = read_text(args.file, "requests").splitlines()
    options = BatchOptions(args.output, args.as_completed, args.concurrency, sys.stderr.isatty())
    # The batch bounds its own queue (--concurrency), so a long wait there is expected, not overload.
    with engine_for(prepared, queue_deadline=False) as context:
        try:
            counts = asyncio.run(run_batch(lines, stdout, context, options))
        except OutputError as exc:
            raise CommandError(str(exc)) from None
    log.info("batch: %d results (%d errors), %d skipped", counts.ran, counts.errors, counts.skipped)
    return 0
