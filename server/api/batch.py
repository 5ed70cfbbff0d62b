"""The batch runner: JSON Lines of tool calls in, one result record out per call.

Records come out in input order (or as they finish), each flushed whole, so an interrupted run
resumes from its output file: ids that already have a result are skipped, error records run again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO


from ...engine.errors import AgentWorldError, InputError
from ...tools.context import ToolContext
from .python_api import call_tool, parse_arguments

log = logging.getLogger("agentworld_mcp.batch")

ContextFactory = Callable[[], Awaitable[ToolContext]]


class OutputError(InputError):
    """The output file cannot be written; the message names it."""


@dataclass(frozen=True)
class Request:
    line: int
    id: str | int
    arguments: Any  # the tool's checked request model (tools/requests.py)


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
    except AgentWorldError as exc:
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
        raise OutputError(f"cannot write {output}: {exc.strerror}") from None
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
    except AgentWorldError as exc:
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


