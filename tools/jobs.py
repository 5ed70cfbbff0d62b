"""Jobs: work that outlives a host's tool-call timeout (Claude Desktop cuts calls at about 60 s).

A call runs as a task. If it finishes within its budget, its result is returned as usual and no
job exists. Otherwise the call returns a job id with what is done so far, the task goes on, and
its progress and final result are kept in the store, where they survive a restart (a job cut off
by one is reported as interrupted, with its progress).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ..engine.errors import AgentWorldError, InputError
from .context import ToolContext
from .requests import JobRequest
from .results import JobStatus, PlanResult, Prediction

if TYPE_CHECKING:  # the store is a type here: the shared modules import no folder to run
    from .worlds.store import Store

log = logging.getLogger(__name__)


class Progress:
    """What a running call has done so far; persisted once the call has become a job."""

    def __init__(self) -> None:
        self.snapshot: dict[str, Any] = {}
        self.partial: BaseModel | None = None
        self._persist: Callable[[], None] | None = None

    def update(self, done: int, total: int, message: str, partial: BaseModel | None = None) -> None:
        self.snapshot = {"done": done, "total": total, "message": message}
        if partial is not None:
            self.partial = partial
        if self._persist is not None:
            self._persist()


Work = Callable[[Progress], Coroutine[Any, Any, BaseModel]]


# How often a process renews its jobs' leases and looks for a cancellation asked for through another server.
WATCH_SECONDS = 1.0
_POLL_SECONDS = 0.2  # how often a status call waiting on another server's job reads it again


class Jobs:
    """The calls that outlived their budget, run in this process; on a store other servers share, any of them
    reads a job's progress and result, and cancels it (this process notices within WATCH_SECONDS)."""

    def __init__(self, store: Store):
        self._store = store
        self._tasks: dict[str, asyncio.Task] = {}
        self._progress: dict[str, Progress] = {}
        self._watcher: asyncio.Task | None = None

    async def run(self, tool: str, work: Work, budget: float) -> BaseModel | tuple[str, Progress]:
        """The result, or (job id, progress so far) when the budget ran out first."""
        progress = Progress()
        task: asyncio.Task[BaseModel] = asyncio.create_task(work(progress))
        try:
            done, _ = await asyncio.wait({task}, timeout=budget)
        except asyncio.CancelledError:  # the caller gave up before the budget: so does the work
            task.cancel()
            raise
        if task in done:
            return task.result()
        job_id = self._store.create_job(tool)
        self._tasks[job_id], self._progress[job_id] = task, progress

        def persist() -> None:
            partial = progress.partial.model_dump(mode="json") if progress.partial is not None else None
            self._store.update_job(job_id, progress.snapshot, partial)

        progress._persist = persist
        persist()
        log.info("%s outlived its %.0f s budget and goes on as job %s", tool, budget, job_id)
        task.add_done_callback(lambda finished: self._settle(job_id, finished))
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.create_task(self._watch())
        return job_id, progress

    async def _watch(self) -> None:
        """While jobs run here: renew their leases, and cancel those whose cancellation was asked for elsewhere."""
        while self._tasks:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                cancelled = self._store.renew_leases(list(self._tasks))
            except Exception:  # noqa: BLE001 - a store that does not answer now may answer next time
                log.warning("could not renew the jobs' leases", exc_info=True)
                continue
            for job_id in cancelled:
                if (task := self._tasks.get(job_id)) is not None:
                    task.cancel()

    def _settle(self, job_id: str, task: asyncio.Task) -> None:
        if task.cancelled():
            self._store.finish_job(job_id, "cancelled", error="cancelled by the client")
        elif task.exception() is not None:
            error = task.exception()
            message = str(error) if isinstance(error, AgentWorldError) else f"the job failed: {error}"
            if not isinstance(error, AgentWorldError):
                log.error("job %s failed", job_id, exc_info=error)
            self._store.finish_job(job_id, "failed", error=message)
        else:
            self._store.finish_job(job_id, "completed", result=task.result().model_dump(mode="json"))
            log.info("job %s completed", job_id)
        self._tasks.pop(job_id, None)

    async def status(self, job_id: str, wait_seconds: float = 0.0, cancel: bool = False) -> JobStatus:
        task = self._tasks.get(job_id)
        if self._store.shared:
            self._store.interrupt_lapsed_jobs()  # a job whose server is gone is settled by whoever looks next
        if self._store.job(job_id) is None:
            raise InputError(f"unknown job {job_id!r}; job ids come from a call that outlived its budget")
        if task is not None and cancel:
            task.cancel()
            await asyncio.wait({task})  # the model stops at its next token; the record settles
            await asyncio.sleep(0)
        elif task is not None and wait_seconds > 0:
            await asyncio.wait({task}, timeout=wait_seconds)
            await asyncio.sleep(0)  # let the done-callback record the outcome
        elif task is None and self._store.shared and (cancel or wait_seconds > 0):  # another server may run it
            if cancel:
                self._store.request_cancel(job_id)  # that server cancels it at its next look
            await self._settled_elsewhere(job_id, max(wait_seconds, 3 * WATCH_SECONDS if cancel else 0.0))
        row = self._store.job(job_id)
        assert row is not None
        if cancel and task is None and row.status == "running" and not self._store.shared:
            raise InputError(f"job {job_id!r} is not running in this server process")
        progress = self._progress.get(job_id)
        partial = row.result if row.status != "completed" else None
        return JobStatus(
            job_id=row.id,
            tool=row.tool,
            status=row.status,  # type: ignore[arg-type]
            progress=progress.snapshot if progress is not None else row.progress,
            partial=partial,
            result=row.result if row.status == "completed" else None,
            error=row.error,
        )


    async def _settled_elsewhere(self, job_id: str, seconds: float) -> None:
        """Wait up to `seconds` for another server's job to end, reading the store."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            row = self._store.job(job_id)
            if row is None or row.status != "running":
                return
            await asyncio.sleep(_POLL_SECONDS)


async def follow_job(ctx: ToolContext, request: JobRequest) -> JobStatus:
    """The job tool: a job's progress and result; waits at most the call budget for news."""
    if ctx.jobs is None:
        raise InputError("there are no jobs to follow here: only the MCP server keeps jobs")
    return await ctx.jobs.status(request.job_id, min(request.wait_seconds, ctx.budget_seconds), request.cancel)


async def within_budget(
    ctx: ToolContext, tool: str, work: Work, budget_seconds: float | None, pending: Callable[[str, Progress], Any]
):
    """Run `work`; past the budget, hand back `pending(job_id, progress)` and let the job go on."""

    async def timed(progress: Progress) -> BaseModel:
        started = time.perf_counter()
        result = await work(progress)
        assert isinstance(result, (Prediction, PlanResult))  # the two tools that may outlive a budget
        result.usage.seconds = round(time.perf_counter() - started, 4)
        return result

    if ctx.jobs is None:
        if budget_seconds is not None:  # a job id nobody could poll would be worse than an error
            raise InputError(
                "budget_seconds hands back a job to poll, but only the MCP server keeps jobs: here every call "
                "runs to the end, so leave it out"
            )
        return await timed(Progress())
    budget = ctx.budget_seconds if budget_seconds is None else budget_seconds
    outcome = await ctx.jobs.run(tool, timed, budget)
    return pending(*outcome) if isinstance(outcome, tuple) else outcome
