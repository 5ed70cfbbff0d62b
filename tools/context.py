"""What every tool needs: the running services (engine, domains, store, jobs) and the operator's
choices (the limits in limits.py, and the modes of making predictions below)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from ..domains import DomainPack
from ..engine import Engine, ModelDescription
from ..engine.errors import InputError
from .limits import Limits, SnapshotBounds
from .modes import DemonstrationsMode, EffectsMode, StateCheckMode, StructuredResultsMode

if TYPE_CHECKING:  # the services' types: the context is made of them, but imports none of their folders to run
    from .data.redaction import Redactor
    from .data.retrieval import RealStepIndex
    from .worlds.store import Store
    from .worlds.tracking import Tracker


class JobKeeper(Protocol):
    """What the tools ask of the server's jobs (tools/jobs.py `Jobs`): run a call that may outlive its budget,
    and report on one. Named here so that the context does not import the jobs, which import the context."""

    async def run(self, tool: str, work: Callable[[Any], Coroutine[Any, Any, BaseModel]],
                  budget: float) -> BaseModel | tuple[str, Any]: ...

    async def status(self, job_id: str, wait_seconds: float = 0.0, cancel: bool = False) -> Any: ...


@dataclass
class ToolContext:
    """The services a tool call runs on, with the operator's choices flat beside them: the tools read
    `ctx.effects` or `ctx.limits` directly, and a caller may adjust one (a batch drops the queue
    deadline) without rebuilding the rest."""

    engine: Engine
    domains: dict[str, DomainPack]
    limits: Limits = field(default_factory=Limits)
    effects: EffectsMode = "model"
    state_check: StateCheckMode = "correct"
    state_reask: bool = True  # correct: ask the model once more with the state as a hint before correcting it
    structured_results: StructuredResultsMode = "constrained"
    demonstrations: DemonstrationsMode = "auto"
    queue_timeout: float | None = 300.0  # seconds a request may wait for the model before it is dropped
    thinking_budget: int | None = None  # None: three quarters of each call's max_tokens
    store: Store | None = None  # worlds and jobs; None runs without persistence
    retrieval: RealStepIndex | None = None  # real steps shown as examples; None: retrieval off
    redact_real_steps: bool = True  # secrets in recorded reality become markers before the store keeps it
    computed: bool = True  # lines a world's virtual shell determines are computed, not predicted (tools/worlds/computed.py)
    # Real folders a world may start from (from_dir): --allow-dir folders, the client's declared roots (added
    # per call by the MCP layer) and, but over HTTP, the server's working folder.
    allow_dirs: tuple[str, ...] = ()
    working_dir: str = ""
    snapshot_bounds: SnapshotBounds = field(default_factory=SnapshotBounds)
    steps_served: dict[str, int] = field(default_factory=lambda: {"computed": 0, "predicted": 0})
    # Per world: (steps replayed, their digest, the tracker after them), most recent last (tools/worlds/worlds.py).
    trackers: OrderedDict[str, tuple[int, str, Tracker]] = field(default_factory=OrderedDict)
    redactors: dict[str, Redactor] = field(default_factory=dict)  # per world: the secrets its steps showed
    budget_seconds: float = 50.0  # a call running longer hands back a job (hosts cut calls at ~60 s)
    world_locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    jobs: JobKeeper | None = None

    def visible_dirs(self) -> tuple[str, ...]:
        return (*self.allow_dirs, self.working_dir) if self.working_dir else self.allow_dirs

    def domain(self, name: str) -> DomainPack:
        pack = self.domains.get(name)
        if pack is None:
            raise InputError(f"unknown domain {name!r}; known domains: {', '.join(sorted(self.domains))}")
        return pack

    def use_demonstrations(self, model: ModelDescription) -> bool:
        """A trained world model already knows the protocol; ordinary instruct models are shown it."""
        if self.demonstrations != "auto":
            return self.demonstrations == "on"
        return not is_world_model(model)


def is_world_model(model: ModelDescription) -> bool:
    return "agentworld" in f"{model.name} {model.file}".lower().replace("-", "").replace("_", "")
