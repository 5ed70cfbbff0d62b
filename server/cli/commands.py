"""The scripted ways in: `batch` (JSON Lines of tool calls in, one result line out per call; the
runner is server/api/batch.py) and the one-shot `simulate` and `plan` commands. They run the tools in
this process, not through MCP.

stdout carries nothing but results: while a command runs, file descriptor 1 points at stderr and
results go to a private copy of the real stdout, so no library's chatter can slip in between.
Exit status: 0 when the work ran (a batch's error records included), 1 when a one-shot call fails
(one line on stderr), 2 when the arguments are unusable.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO


from ...engine.errors import AgentWorldError, InputError
from ...domains import DomainPack
from ...tools.store import StoreError
from ...tools.context import ToolContext
from ..api.batch import BatchOptions, ContextFactory, OutputError, run_batch
from ..api.python_api import call_tool, parse_arguments
from ..tool_registry import BY_NAME
from ..settings import Settings

if TYPE_CHECKING:
    from ..runtime import ModelSource

log = logging.getLogger("agentworld_mcp.commands")

COMMANDS = ("batch", "simulate", "plan")


class CommandError(InputError):
    """A problem to report in one stderr line; `status` is the exit status."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


# --- argparse ------------------------------------------------------------------------------------
def add_parsers(commands: argparse._SubParsersAction, model_flags: argparse.ArgumentParser) -> None:
    """The batch, simulate and plan subcommands, each with the model flags too."""
    batch = commands.add_parser(
        "batch", parents=[model_flags], help="run JSON Lines of tool calls, one result line each",
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

    one_shot = argparse.ArgumentParser(add_help=False)
    flags = one_shot.add_argument_group("the simulated world and sampling")
    # Each flag's dest is the request field it sets (tools/requests.py); None means not given.
    flags.add_argument("--history-file", dest="history", type=Path, metavar="FILE",
                       help="a JSON list of earlier {action, observation} turns")
    flags.add_argument("--state", help="the current state or screen (default: the domain's initial state)")
    flags.add_argument("--task", help="what the agent is trying to achieve")
    flags.add_argument("--tools-file", dest="tools", type=Path, metavar="FILE",
                       help="domain mcp: a JSON file with the simulated server's tools/list tools")
    flags.add_argument("--constraints-file", dest="constraints", type=Path, metavar="FILE",
                       help="a JSON list of constraints, as the tools take them")
    flags.add_argument("--preset", dest="presets", action="append", metavar="NAME",
                       help="a constraint preset of the domain (repeatable)")
    flags.add_argument("--no-stop-on-violation", dest="stop_on_violation", action="store_false", default=None,
                       help="simulate even when an error-severity constraint is violated")
    flags.add_argument("--world-id", help="simulate inside a stored world (it supplies domain, history, state, tools)")
    flags.add_argument("--commit", action="store_true", default=None, help="with --world-id: append the prediction")
    flags.add_argument("--temperature", type=float, help="sampling temperature; 0 is greedy")
    flags.add_argument("--max-tokens", type=int, help="most tokens to generate per step")
    flags.add_argument("--seed", type=int, help="seed for reproducible sampling")
    flags.add_argument("--include-reasoning", action="store_true", default=None,
                       help="also return the model's reasoning (with --json)")
    one_shot.add_argument("--json", action="store_true", help="print the result as JSON")

    simulate = commands.add_parser(
        "simulate", parents=[model_flags, one_shot], help="predict what one action would do",
    )
    simulate.add_argument("action", metavar="ACTION", help="the action, e.g. 'ls -la' (- reads it from stdin)")
    simulate.add_argument("--domain", help="the environment (default: the world's with --world-id, else terminal)")

    plan = commands.add_parser(
        "plan", parents=[model_flags, one_shot], help="dry-run a plan from a JSON file",
        description="PLAN is a JSON list of steps, or an object with steps and any of dry_run_plan's other "
        "arguments (domain, state, task, history, constraints, presets, ...). Flags override the file.",
    )
    plan.add_argument("plan_file", type=Path, metavar="PLAN", help="the plan file (- reads it from stdin)")
    plan.add_argument("--domain", help="the environment (default: the file's, the world's, else terminal)")
    plan.add_argument("--stop-on-error", action="store_true", default=None, help="stop at the first step predicted to fail")


def run(args: argparse.Namespace, settings: Settings, model: ModelSource, domains: dict[str, DomainPack]) -> int:
    """Run the subcommand `args.command` with its results on the real stdout."""
    try:
        with _reserved_stdout() as stdout:
            if args.command == "batch":
                return _batch(args, settings, model, domains, stdout)
            return _one_shot(args, settings, model, domains, stdout)
    except CommandError as exc:
        print(f"agentworld-mcp: {exc}", file=sys.stderr)
        return exc.status
    except BrokenPipeError:  # the reader went away (`| head`): nobody is left to tell
        return 1
    except KeyboardInterrupt:
        return 130


@contextlib.contextmanager
def _reserved_stdout() -> Iterator[TextIO]:
    """The real stdout for results, while fd 1 points at stderr (restored afterwards)."""
    sys.stdout.flush()
    real = os.dup(1)
    os.dup2(2, 1)
    results = open(real, "w", encoding="utf-8", buffering=1, closefd=False)  # noqa: SIM115 - closed below
    try:
        yield results
    finally:
        with contextlib.suppress(OSError):
            results.close()
        os.dup2(real, 1)
        os.close(real)


@contextlib.contextmanager
def _engine_for(
    settings: Settings,
    model: ModelSource,
    domains: dict[str, DomainPack],
    queue_deadline: bool = True,
    worlds: bool = True,
) -> Iterator[ContextFactory]:
    """A lazily started engine: nothing loads while no request has passed the argument checks. Without
    `queue_deadline`, requests wait in the queue as long as it takes. With `worlds`, the server's
    world store is open (no jobs: a command runs each call to the end). A failed model load ends
    the command with exit status 1 (each request has also said so)."""
    from ..runtime import build_context, open_store

    try:
        store = open_store(settings, settle_jobs=False) if worlds else None  # a server may be running its jobs
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    started: list[ToolContext] = []

    async def context() -> ToolContext:
        if not started:  # no await before this point: concurrent callers cannot both build one
            ctx = build_context(settings, model, domains, store, keep_jobs=False)
            if not queue_deadline:
                ctx.queue_timeout = None
            ctx.engine.start()  # the tools wait for the load, after their own checks
            started.append(ctx)
        return started[0]

    try:
        yield context
    finally:
        for ctx in started:
            ctx.engine.close()
        if store is not None:
            store.close()
    load_error = started[0].engine.stats().load_error if started else None
    if load_error:
        raise CommandError(load_error, status=1)


def _batch(args, settings: Settings, model: ModelSource, domains: dict[str, DomainPack], stdout: TextIO) -> int:
    if args.concurrency < 1:
        raise CommandError(f"--concurrency must be at least 1, got {args.concurrency}")
    if args.concurrency > settings.queue_limit:
        raise CommandError(f"--concurrency {args.concurrency} is above the queue limit {settings.queue_limit}")
    lines = _read_text(args.file, "requests").splitlines()
    options = BatchOptions(args.output, args.as_completed, args.concurrency, sys.stderr.isatty())
    # The batch bounds its own queue (--concurrency), so a long wait there is expected, not overload.
    with _engine_for(settings, model, domains, queue_deadline=False) as context:
        try:
            counts = asyncio.run(run_batch(lines, stdout, context, options))
        except OutputError as exc:
            raise CommandError(str(exc)) from None
    log.info("batch: %d results (%d errors), %d skipped", counts.ran, counts.errors, counts.skipped)
    return 0


def _read_text(name: str | Path, what: str) -> str:
    if str(name) == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot read {what} file {name}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{what} file {name} is not UTF-8 text") from None


def _read_json(name: str | Path, what: str) -> Any:
    text = _read_text(name, what)
    try:
        return json.loads(text)
    except ValueError as exc:
        raise CommandError(f"{what} file {name} is not valid JSON: {exc}") from None


# --- simulate and plan ---------------------------------------------------------------------------
def _one_shot(args, settings: Settings, model: ModelSource, domains: dict[str, DomainPack], stdout: TextIO) -> int:
    if args.command == "simulate":
        tool, arguments = "simulate_action", _simulate_arguments(args)
    else:
        tool, arguments = "dry_run_plan", _plan_arguments(args)
    try:
        checked = parse_arguments(tool, arguments)
    except AgentWorldError as exc:
        raise CommandError(str(exc), status=1) from None
    with _engine_for(settings, model, domains, worlds=bool(checked.world_id)) as context:

        async def call():
            return await call_tool(await context(), checked)

        try:
            result = asyncio.run(call())
        except AgentWorldError as exc:
            raise CommandError(str(exc), status=1) from None
    if args.json:
        stdout.write(result.model_dump_json(indent=2) + "\n")
    else:
        stdout.write(BY_NAME[tool].summary(checked, result) + "\n")
    return 0


# The request fields the one-shot flags set (each flag's dest), and those with no flag and why;
# tests/integration/test_request_models.py checks that together they cover every field of the requests.
FLAG_FIELDS = ("history", "state", "task", "tools", "constraints", "presets", "stop_on_violation", "world_id",
               "commit", "temperature", "max_tokens", "seed", "include_reasoning")
NO_FLAG = {
    "budget_seconds": "a command runs each call to the end; there are no jobs to poll",
    "thinking_budget": "the model flag --thinking-budget sets it for every call of the command",
}
_JSON_FILES = {"history", "tools", "constraints"}


def _flag_arguments(args) -> dict[str, Any]:
    """The request fields given as flags, JSON files read."""
    given = {}
    for name in FLAG_FIELDS:
        value = getattr(args, name)
        if value is not None:
            given[name] = _read_json(value, name) if name in _JSON_FILES else value
    return given


def _simulate_arguments(args) -> dict[str, Any]:
    action = sys.stdin.read() if args.action == "-" else args.action
    arguments = {"action": action, **_flag_arguments(args)}
    arguments["domain"] = args.domain or (None if args.world_id else "terminal")
    return arguments


def _plan_arguments(args) -> dict[str, Any]:
    plan = _read_json(args.plan_file, "plan")
    if isinstance(plan, list):
        plan = {"steps": plan}
    if not isinstance(plan, dict):
        raise CommandError(f"plan file {args.plan_file} must hold a list of steps or an object with steps")
    flags = _flag_arguments(args)
    more_presets = flags.pop("presets", [])
    arguments = {**plan, **flags}
    if more_presets:
        arguments["presets"] = [*arguments.get("presets", []), *more_presets]
    if args.domain:
        arguments["domain"] = args.domain
    elif "domain" not in arguments and not arguments.get("world_id"):
        arguments["domain"] = "terminal"
    if args.stop_on_error:
        arguments["stop_on_error"] = True
    return arguments


