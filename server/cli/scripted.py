"""What the scripted commands share (`batch`, `simulate`, `plan`): they run the tools in this process,
not through MCP, with results on stdout.

stdout carries nothing but results: while a command runs, file descriptor 1 points at stderr and
results go to a private copy of the real stdout, so no library's chatter can slip in between.
Exit status: 0 when the work ran (a batch's error records included), 1 when a one-shot call fails
while it runs (an unknown world, the model), 2 when the arguments or the files given are unusable
(one line on stderr each).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import TextIO

from ...engine.errors import InputError
from ...tools.context import ToolContext
from ...tools.worlds.store import StoreError
from ..api.batch import ContextFactory
from ..input_files import read_json, read_text  # noqa: F401  (the scripted commands read their files here)
from .prepared import Prepared


class CommandError(InputError):
    """A problem to report in one stderr line; `status` is the exit status."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


def run_scripted(work: Callable[[TextIO], int]) -> int:
    """Run `work` with the real stdout for its results; its CommandError becomes one stderr line."""
    try:
        with _reserved_stdout() as stdout:
            return work(stdout)
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
def engine_for(prepared: Prepared, queue_deadline: bool = True, worlds: bool = True) -> Iterator[ContextFactory]:
    """A lazily started engine: nothing loads while no request has passed the argument checks. Without
    `queue_deadline`, requests wait in the queue as long as it takes. With `worlds`, the server's
    world store is open (no jobs: a command runs each call to the end). A failed model load ends
    the command with exit status 1 (each request has also said so)."""
    from ..runtime import build_context

    settings, model, domains = prepared.settings, prepared.model, prepared.domains
    try:
        store = prepared.store(settle_jobs=False) if worlds else None  # a server may be running its jobs
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
    load_error = started[0].engine.stats().load_error if started else None
    if load_error:
        raise CommandError(load_error, status=1)
