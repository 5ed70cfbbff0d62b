"""The scripted ways in: `batch` (JSON Lines of tool calls in, one result line out per call) and the
one-shot `simulate` and `plan` commands. They run the tools in this process, not through MCP.

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
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from mcp.server.mcpserver.exceptions import ToolError

from ..domains import DomainPack
from ..tools.context import ToolContext
from ..tools.results import PlanResult, Prediction
from .model_files import GGUFInfo
from .python_api import call_tool, parse_arguments
from .settings import Settings

log = logging.getLogger("agentworld_mcp.commands")

COMMANDS = ("batch", "simulate", "plan")
ContextFactory = Callable[[], Awaitable[ToolContext]]


class CommandError(Exception):
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
        '"check_constraints", "arguments": {...}}; without "tool", arguments with "action" mean '
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
    flags.add_argument("--history-file", type=Path, metavar="FILE", help="a JSON list of earlier {action, observation} turns")
    flags.add_argument("--state", help="the current state or screen (default: the domain's initial state)")
    flags.add_argument("--task", help="what the agent is trying to achieve")
    flags.add_argument("--temperature", type=float, help="sampling temperature; 0 is greedy")
    flags.add_argument("--max-tokens", type=int, help="most tokens to generate per step")
    flags.add_argument("--seed", type=int, help="seed for reproducible sampling")
    flags.add_argument("--preset", action="append", metavar="NAME", help="a constraint preset of the domain (repeatable)")
    flags.add_argument("--json", action="store_true", help="print the result as JSON")

    simulate = commands.add_parser(
        "simulate", parents=[model_flags, one_shot], help="predict what one action would do",
    )
    simulate.add_argument("action", metavar="ACTION", help="the action, e.g. 'ls -la' (- reads it from stdin)")
    simulate.add_argument("--domain", default="terminal", help="the environment (terminal)")

    plan = commands.add_parser(
        "plan", parents=[model_flags, one_shot], help="dry-run a plan from a JSON file",
        description="PLAN is a JSON list of steps, or an object with steps and any of dry_run_plan's other "
        "arguments (domain, state, task, history, constraints, presets, ...). Flags override the file.",
    )
    plan.add_argument("plan_file", type=Path, metavar="PLAN", help="the plan file (- reads it from stdin)")
    plan.add_argument("--domain", help="the environment (default: the file's, else terminal)")
    plan.add_argument("--stop-on-error", action="store_true", default=None, help="stop at the first step predicted to fail")


def run(args: argparse.Namespace, settings: Settings, model: GGUFInfo, domains: dict[str, DomainPack]) -> int:
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
    settings: Settings, model: GGUFInfo, domains: dict[str, DomainPack], queue_deadline: bool = True
) -> Iterator[ContextFactory]:
    """A lazily started engine: nothing loads while no request has passed the argument checks. Without
    `queue_deadline`, requests wait in the queue as long as it takes. A failed model load ends
    the command with exit status 1 (each request has also said so)."""
    from .runtime import build_context

    started: list[ToolContext] = []

    async def context() -> ToolContext:
        if not started:  # no await before this point: concurrent callers cannot both build one
            ctx = build_context(settings, model, domains)
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
    load_error = started[0].engine.stats().load_error if started else None
    if load_error:
        raise CommandError(load_error, status=1)


# --- batch ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Request:
    line: int
    id: str | int
    arguments: Any  # checked tool arguments (python_api)


@dataclass(frozen=True)
class Rejected:
    """A line that cannot run; it still gets its error record (as `line N` when it has no usable id)."""

    line: int
    id: str | int | None
    error: str

    @property
    def label(self) -> str | int:
        return self.id if self.id is not None else f"line {self.line}"


@dataclass
class BatchOptions:
    output: Path | None = None
    as_completed: bool = False
    concurrency: int = 4
    progress: bool = False


@dataclass
class BatchCounts:
    ran: int = 0
    errors: int = 0
    skipped: int = 0
    ids: list[str | int] = field(default_factory=list)


_REQUEST_KEYS = {"id", "tool", "arguments"}


def read_requests(lines: Iterable[str]) -> list[Request | Rejected]:
    """Every non-blank line as a request to run, or as the error it gets instead."""
    entries: list[Request | Rejected] = []
    first_line_of: dict[str, int] = {}
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        entry = _read_line(number, text)
        if entry.id is not None:
            key = id_key(entry.id)
            if key in first_line_of:  # ids key the resumable output: each must be unique
                entry = Rejected(number, entry.id, f"id {entry.id!r} is already used by line {first_line_of[key]}")
            else:
                first_line_of[key] = number
        entries.append(entry)
    return entries


def _read_line(number: int, text: str) -> Request | Rejected:
    no_id = None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return Rejected(number, no_id, f"line {number}: not valid JSON: {exc.msg} at column {exc.colno}")
    if not isinstance(data, dict):
        return Rejected(number, no_id, f'line {number}: a request is a JSON object {{"id", "tool", "arguments"}}')
    request_id = data.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, (str, int)):
        return Rejected(number, no_id, f"line {number}: every request needs an id, a string or an integer")
    unknown = sorted(set(data) - _REQUEST_KEYS)
    if unknown:
        return Rejected(number, request_id, f"unknown key {unknown[0]!r}; a request has id, tool and arguments")
    arguments = data.get("arguments", {})
    tool = data.get("tool") or _implied_tool(arguments)
    if tool is None:
        return Rejected(number, request_id, 'no "tool", and the arguments have neither "action" nor "steps"')
    if not isinstance(tool, str):
        return Rejected(number, request_id, f"tool must be a tool's name, got {json.dumps(tool)}")
    try:
        return Request(number, request_id, parse_arguments(tool, arguments))
    except ToolError as exc:
        return Rejected(number, request_id, str(exc))


def _implied_tool(arguments: Any) -> str | None:
    if isinstance(arguments, dict):
        if "action" in arguments:
            return "simulate_action"
        if "steps" in arguments:
            return "dry_run_plan"
    return None


def id_key(request_id: Any) -> str:
    """Ids compare as JSON: 1 and "1" are different requests."""
    return json.dumps(request_id)


def finished_ids(path: Path) -> set[str]:
    """Ids that already have a result in an output file (error records are run again)."""
    done: set[str] = set()
    if not path.exists():
        return done
    with path.open(encoding="utf-8") as lines:
        for text in lines:
            try:
                record = json.loads(text)
            except ValueError:
                continue  # a line cut short by an interrupted run
            if isinstance(record, dict) and record.get("ok") is True and "id" in record:
                done.add(id_key(record["id"]))
    return done


async def run_batch(lines: Iterable[str], stdout: TextIO, context: ContextFactory, options: BatchOptions) -> BatchCounts:
    """Run the requests of `lines`, writing one record per request to stdout or options.output."""
    entries = read_requests(lines)
    counts = BatchCounts()
    if options.output is not None:
        done = finished_ids(options.output)
        pending = [entry for entry in entries if entry.id is None or id_key(entry.id) not in done]
        counts.skipped = len(entries) - len(pending)
        entries = pending
        if counts.skipped:
            log.info("skipping %d requests that %s already has results for", counts.skipped, options.output)
    with _sink(options.output, stdout) as sink:
        await _execute(entries, sink, context, options, counts)
    return counts


@contextlib.contextmanager
def _sink(output: Path | None, stdout: TextIO) -> Iterator[TextIO]:
    if output is None:
        yield stdout
        return
    try:
        cut_short = _ends_mid_line(output)
        stream = output.open("a", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {output}: {exc.strerror}") from None
    with stream:
        if cut_short:  # an interrupted run left half a line: start a fresh one
            stream.write("\n")
        yield stream


def _ends_mid_line(path: Path) -> bool:
    if not path.exists() or path.stat().st_size == 0:
        return False
    with path.open("rb") as data:
        data.seek(-1, os.SEEK_END)
        return data.read(1) != b"\n"


async def _execute(
    entries: list[Request | Rejected], sink: TextIO, context: ContextFactory, options: BatchOptions, counts: BatchCounts
) -> None:
    progress = _ProgressLine(len(entries)) if options.progress and entries else None
    waiting: dict[int, dict[str, Any]] = {}  # finished out of order, held back for input order
    next_to_write = 0

    def deliver(index: int, record: dict[str, Any]) -> None:
        nonlocal next_to_write
        waiting[index] = record
        ready = [index] if options.as_completed else []
        while not options.as_completed and next_to_write in waiting:
            ready.append(next_to_write)
            next_to_write += 1
        for position in ready:
            done = waiting.pop(position)
            sink.write(json.dumps(done, ensure_ascii=False) + "\n")
            sink.flush()  # each line is whole on disk: a rerun resumes from here
            counts.ran += 1
            counts.errors += not done["ok"]
            counts.ids.append(done["id"])
        if progress is not None:
            progress.advance()

    work = iter(enumerate(entries))

    async def worker() -> None:
        for index, entry in work:  # one shared iterator: each worker takes the next request
            deliver(index, await _run_one(entry, context))

    try:
        await asyncio.gather(*(worker() for _ in range(min(options.concurrency, len(entries)))))
    finally:
        if progress is not None:
            progress.finish(counts)


async def _run_one(entry: Request | Rejected, context: ContextFactory) -> dict[str, Any]:
    if isinstance(entry, Rejected):
        return {"id": entry.label, "ok": False, "error": entry.error}
    ctx = await context()
    try:
        result = await call_tool(ctx, entry.arguments)
    except ToolError as exc:
        return {"id": entry.id, "ok": False, "error": str(exc)}
    except Exception as exc:  # a fault of ours: the traceback goes to the log, the batch goes on
        log.exception("request %r (line %d) failed", entry.id, entry.line)
        return {"id": entry.id, "ok": False, "error": f"internal error: {exc}"}
    return {"id": entry.id, "ok": True, "result": result.model_dump(mode="json")}


class _ProgressLine:
    """One self-overwriting stderr line: a bar, the count, the rate and the time left."""

    def __init__(self, total: int, width: int = 24):
        self.total, self.width, self.done = total, width, 0
        self.started = time.monotonic()
        self._draw()

    def advance(self) -> None:
        self.done += 1
        self._draw()

    def _draw(self) -> None:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = self.done / elapsed
        left = f"ETA {_clock((self.total - self.done) / rate)}" if self.done else "ETA --:--"
        filled = self.width * self.done // self.total
        bar = "#" * filled + "-" * (self.width - filled)
        sys.stderr.write(f"\rbatch [{bar}] {self.done}/{self.total}  {rate:.2f}/s  {left}  ")
        sys.stderr.flush()

    def finish(self, counts: BatchCounts) -> None:
        elapsed = _clock(time.monotonic() - self.started)
        sys.stderr.write(f"\n{counts.ran} done ({counts.errors} errors) in {elapsed}\n")


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds + 0.5), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{secs:02d}" if minutes >= 60 else f"{minutes}:{secs:02d}"


def _batch(args, settings: Settings, model: GGUFInfo, domains: dict[str, DomainPack], stdout: TextIO) -> int:
    if args.concurrency < 1:
        raise CommandError(f"--concurrency must be at least 1, got {args.concurrency}")
    if args.concurrency > settings.queue_limit:
        raise CommandError(f"--concurrency {args.concurrency} is above the queue limit {settings.queue_limit}")
    lines = _read_text(args.file, "requests").splitlines()
    options = BatchOptions(args.output, args.as_completed, args.concurrency, sys.stderr.isatty())
    # The batch bounds its own queue (--concurrency), so a long wait there is expected, not overload.
    with _engine_for(settings, model, domains, queue_deadline=False) as context:
        counts = asyncio.run(run_batch(lines, stdout, context, options))
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
def _one_shot(args, settings: Settings, model: GGUFInfo, domains: dict[str, DomainPack], stdout: TextIO) -> int:
    if args.command == "simulate":
        tool, arguments = "simulate_action", _simulate_arguments(args)
    else:
        tool, arguments = "dry_run_plan", _plan_arguments(args)
    try:
        checked = parse_arguments(tool, arguments)
    except ToolError as exc:
        raise CommandError(str(exc), status=1) from None
    with _engine_for(settings, model, domains) as context:

        async def call():
            return await call_tool(await context(), checked)

        try:
            result = asyncio.run(call())
        except ToolError as exc:
            raise CommandError(str(exc), status=1) from None
    if args.json:
        stdout.write(result.model_dump_json(indent=2) + "\n")
    else:
        text = describe_prediction(result) if tool == "simulate_action" else describe_plan(result, checked.steps)
        stdout.write(text + "\n")
    return 0


def _common_arguments(args) -> dict[str, Any]:
    given = {
        "state": args.state,
        "task": args.task,
        "temperature": args.temperature,
        "max_tokens": args.max_tokens,
        "seed": args.seed,
        "history": _read_json(args.history_file, "history") if args.history_file else None,
    }
    return {name: value for name, value in given.items() if value is not None}


def _simulate_arguments(args) -> dict[str, Any]:
    action = sys.stdin.read() if args.action == "-" else args.action
    return {"domain": args.domain, "action": action, "presets": args.preset or [], **_common_arguments(args)}


def _plan_arguments(args) -> dict[str, Any]:
    plan = _read_json(args.plan_file, "plan")
    if isinstance(plan, list):
        plan = {"steps": plan}
    if not isinstance(plan, dict):
        raise CommandError(f"plan file {args.plan_file} must hold a list of steps or an object with steps")
    arguments = {"domain": "terminal", **plan, **_common_arguments(args)}
    if args.domain:
        arguments["domain"] = args.domain
    if args.preset:
        arguments["presets"] = [*arguments.get("presets", []), *args.preset]
    if args.stop_on_error:
        arguments["stop_on_error"] = True
    return arguments


_OUTCOMES = {True: "predicted to succeed", False: "predicted to FAIL", None: "outcome unclear"}


def describe_prediction(prediction: Prediction, indent: str = "") -> str:
    """Readable text: the observation, then the effects and the constraints."""
    if prediction.blocked:
        return f"{indent}BLOCKED, {prediction.blocked}"
    lines = []
    if prediction.parse_error:
        lines.append(f"(no usable observation: {prediction.parse_error})")
        lines += (prediction.raw or "").splitlines()
    else:
        lines += prediction.observation.splitlines() or ["(empty screen)"]
    if prediction.truncated:
        lines.append("(cut off at max_tokens)")
    effects = prediction.effects
    lines.append(f"effects: {_OUTCOMES[effects.success]}" + (f": {effects.error}" if effects.error else ""))
    lines += [f"  {change.change}: {change.entity}" for change in effects.changed]
    if prediction.constraints is not None:
        broken = [r for r in prediction.constraints.results if r.status != "holds"]
        lines.append("constraints: " + ("VIOLATED" if prediction.constraints.violated else "none violated"))
        lines += [f"  {r.id} ({r.severity}): {r.status}: {r.reason}" for r in broken]
    return "\n".join(indent + line for line in lines)


def describe_plan(result: PlanResult, given_steps: Sequence[str] = ()) -> str:
    """Readable text, step by step; `given_steps` shows the actions as written, not normalized."""
    lines = []
    for step in result.steps:
        shown = given_steps[step.step - 1] if len(given_steps) >= step.step else step.action
        lines.append(f"step {step.step}: {shown}")
        lines.append(describe_prediction(step.prediction, indent="    "))
    verdict = result.verdict
    if verdict.status == "completed":
        lines.append(f"verdict: completed ({len(result.steps)} steps)")
    else:
        lines.append(f"verdict: stopped at step {verdict.stopped_at}: {verdict.reason}")
    for violation in verdict.violations:
        step = violation.evidence.step if violation.evidence else None
        lines.append(f"  step {step}: {violation.id} ({violation.severity}): {violation.status}: {violation.reason}")
    usage = result.usage
    lines.append(
        f"tokens: {usage.prompt_tokens} prompt ({usage.reused_prompt_tokens} reused), "
        f"{usage.completion_tokens} generated in {usage.generation_seconds:.1f} s"
    )
    return "\n".join(lines)
