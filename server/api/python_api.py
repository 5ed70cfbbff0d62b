"""The world model from Python, with no MCP in the loop.

Two layers. `parse_arguments` checks a tool call given as a JSON object against the tool's
request model (tools/requests.py, the same models the MCP schemas come from) and `call_tool`
runs it on a ToolContext: the batch command uses them. `Simulator` owns a ToolContext of its own,
built from keyword settings, and offers each tool as an async method with a blocking `*_sync` twin:

    with Simulator(n_ctx=4096) as sim:
        prediction = sim.simulate_sync("terminal", "ls -la", temperature=0, max_tokens=64)
        print(prediction.observation)

Every anticipated failure is an `AgentWorldError` with a one-line message (the one an agent gets
over MCP): `InputError` for bad input, `ConfigurationError` for unusable settings or a missing or
broken model file, `EngineError` when the model cannot answer.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ...domains import DomainPack
from ...engine.errors import AgentWorldError, ConfigurationError, EngineError, InputError, validation_line
from ...tools.constraints import ConstraintReport
from ...tools.context import ToolContext
from ...tools.requests import CheckRequest, JobRequest, PlanRequest, SimulateRequest, ToolRequest, WorldRequest
from ...tools.results import PlanResult, Prediction, WorldView
from ...tools.simulation.plan import ProgressCallback
from ..settings import Settings, load_settings
from ..tool_registry import BY_NAME, BY_REQUEST, CallOptions

__all__ = [
    "AgentWorldError",
    "CheckRequest",
    "ConfigurationError",
    "EngineError",
    "InputError",
    "JobRequest",
    "PlanRequest",
    "SimulateRequest",
    "Simulator",
    "WorldRequest",
    "call_tool",
    "parse_arguments",
]

Result = TypeVar("Result")
TOOL_NAMES = tuple(BY_NAME)


def parse_arguments(tool: str, arguments: Any) -> ToolRequest:
    """The checked arguments of one tool call; an InputError says what is wrong, in one line."""
    entry = BY_NAME.get(tool)
    if entry is None:
        raise InputError(f"unknown tool {tool!r}; the tools are {', '.join(TOOL_NAMES)}")
    if not isinstance(arguments, dict):
        raise InputError(f"arguments of {tool} must be a JSON object, got {type(arguments).__name__}")
    try:
        return entry.request.model_validate(arguments)
    except ValidationError as exc:
        raise InputError(f"{tool}: {validation_line(exc)}") from None


async def call_tool(ctx: ToolContext, request: ToolRequest, on_progress: ProgressCallback | None = None) -> BaseModel:
    """Run one checked tool call on the plain tool functions (no MCP). The guard, given hook
    payloads in a batch, decides with the default policy, budget and fallback."""
    entry = BY_REQUEST.get(type(request))
    if entry is None:
        raise TypeError(f"not a tool request: {type(request).__name__}")
    return await entry.run(ctx, request, CallOptions(on_progress=on_progress))


def run_sync(coroutine: Coroutine[Any, Any, Result]) -> Result:
    """Run a coroutine to the end from blocking code, on a private event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    # Called from inside a running loop (a notebook, an async app): that loop cannot be re-entered.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class Simulator:
    """A language world model in this process: the engine, the domain packs, the world store and the tools.

    Keyword settings are the server's (`model`, `n_ctx`, `n_threads`, `n_gpu_layers`, `effects`,
    `data_dir`, ...; AGENTWORLD_* variables fill what is not given). The model loads on first use,
    or in `start()`. One Simulator may be used from several threads and event loops at once; the
    engine runs one generation at a time in process, or `parallel` on a model server (`base_url`).

    Each tool method takes the fields of its request model (tools/requests.py) as keywords, the
    same arguments the MCP tools take. Worlds live in the same store as the server's (`data_dir`,
    or the per-user default), so a world opened here can be stepped by a server and back. There
    are no jobs: a call runs to the end (bound it with `asyncio.wait_for` if you must), so
    `budget_seconds` is refused and the `job` tool has no method here.
    """

    def __init__(self, **settings: Any):
        """Settings as keywords (see the class); an unknown one is a TypeError naming the known ones."""
        unknown = sorted(set(settings) - set(Settings.model_fields))
        if unknown:
            raise TypeError(f"unknown setting {unknown[0]!r}; the settings are {', '.join(Settings.model_fields)}")
        self.settings = load_settings(settings)
        self._domains: dict[str, DomainPack] | None = None
        self._ctx: ToolContext | None = None
        self._closed = False
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings, domains: dict[str, DomainPack] | None = None) -> Simulator:
        """A Simulator over settings (and packs) already loaded and checked, as the CLI has them."""
        simulator = cls()
        simulator.settings, simulator._domains = settings, domains
        return simulator

    # --- lifecycle ---------------------------------------------------------------------------
    def start(self) -> Simulator:
        """Load the model now (blocking) and raise its load error, if any."""
        run_sync(self._ready())
        return self

    async def astart(self) -> Simulator:
        """Load the model now, awaiting it, and raise its load error, if any."""
        await self._ready()
        return self

    def close(self) -> None:
        """Stop the engine and free the model; a `with` block does this on leaving."""
        with self._lock:
            self._closed = True
            if self._ctx is not None:
                self._ctx.engine.close()
                if self._ctx.store is not None:
                    self._ctx.store.close()

    def __enter__(self) -> Simulator:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> Simulator:
        return await self.astart()

    async def __aexit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def context(self) -> ToolContext:
        """The running parts (engine started, model loading in the background)."""
        with self._lock:
            if self._closed:
                raise RuntimeError("this Simulator is closed; create a new one")
            if self._ctx is None:
                from ..runtime import build_context, open_store, resolve_source

                model = resolve_source(self.settings)
                store = open_store(self.settings, settle_jobs=False)
                self._ctx = build_context(self.settings, model, self._packs(), store, keep_jobs=False)
                self._ctx.engine.start()
            return self._ctx

    async def _ready(self) -> None:
        await self.context.engine.wait_ready()

    # --- domains (no model needed) -----------------------------------------------------------
    def _packs(self) -> dict[str, DomainPack]:
        if self._domains is None:
            from ..runtime import load_domain_packs

            self._domains = load_domain_packs(self.settings)
        return self._domains

    @property
    def domains(self) -> list[str]:
        """The names of the domains it simulates: the seven built-in ones and any in `domains_dir`."""
        return sorted(self._packs())

    def domain(self, name: str) -> DomainPack:
        """The pack of the domain `name` (its prompt, initial state, presets); an InputError lists the known."""
        pack = self._packs().get(name)
        if pack is None:
            raise InputError(f"unknown domain {name!r}; known domains: {', '.join(self.domains)}")
        return pack

    def initial_state(self, domain: str) -> str:
        """The concrete world a call with no `state` simulates."""
        return self.domain(domain).initial_state

    # --- the tools ---------------------------------------------------------------------------
    async def simulate(self, domain: str | None, action: str, **options: Any) -> Prediction:
        """Predict one action. Options: every other SimulateRequest field (history, state, task,
        tools, constraints, presets, world_id, commit, temperature, max_tokens, seed,
        thinking_budget, ...). With world_id, `domain` may be None."""
        return await self._call("simulate_action", {"domain": domain, "action": action, **options})

    async def plan(
        self, domain: str | None, steps: Sequence[str], on_progress: ProgressCallback | None = None, **options: Any
    ) -> PlanResult:
        """Roll a plan forward. Options: every other PlanRequest field (stop_on_error, constraints, ...)."""
        return await self._call("dry_run_plan", {"domain": domain, "steps": list(steps), **options}, on_progress)

    async def check(self, constraints: Sequence[dict] = (), presets: Sequence[str] = (), **options: Any) -> ConstraintReport:
        """Check rules against an action and outcome. Options: action, observation, effects, history, domain."""
        return await self._call("check_constraints", {"constraints": list(constraints), "presets": list(presets), **options})

    async def world(self, operation: str, **options: Any) -> WorldView:
        """A world operation (open, fork, rewind, record, close, get) with WorldRequest's other fields."""
        return await self._call("world", {"operation": operation, **options})

    async def _call(self, tool: str, arguments: dict[str, Any], on_progress: ProgressCallback | None = None) -> Any:
        request = parse_arguments(tool, arguments)  # before the model loads: a bad call costs nothing
        return await call_tool(self.context, request, on_progress)

    def simulate_sync(self, domain: str | None, action: str, **options: Any) -> Prediction:
        """`simulate`, from blocking code."""
        return run_sync(self.simulate(domain, action, **options))

    def plan_sync(self, domain: str | None, steps: Sequence[str], **options: Any) -> PlanResult:
        """`plan`, from blocking code."""
        return run_sync(self.plan(domain, steps, **options))

    def check_sync(self, constraints: Sequence[dict] = (), presets: Sequence[str] = (), **options: Any) -> ConstraintReport:
        """`check`, from blocking code."""
        return run_sync(self.check(constraints, presets, **options))

    def world_sync(self, operation: str, **options: Any) -> WorldView:
        """`world`, from blocking code."""
        return run_sync(self.world(operation, **options))
