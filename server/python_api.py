"""The world model from Python, with no MCP in the loop.

Two layers. The argument models check a tool call given as plain keywords or a JSON object (what
the MCP layer gets from the SDK's schema validation) and `call_tool` runs it on a ToolContext:
the batch command uses them. `Simulator` owns a ToolContext of its own, built from keyword
settings, and offers each tool as an async method with a blocking `*_sync` twin:

    with Simulator(n_ctx=4096) as sim:
        prediction = sim.simulate_sync("terminal", "ls -la", temperature=0, max_tokens=64)
        print(prediction.observation)

Bad input raises `ToolError` (the same one-line messages an agent gets over MCP); unusable
settings raise `SettingsError`, a missing or broken model file `ModelFileError`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..domains import DomainPack
from ..tools.checks import check_constraints
from ..tools.constraints import ConstraintReport
from ..tools.context import ToolContext
from ..tools.plan import ProgressCallback, dry_run_plan
from ..tools.results import PlanResult, Prediction
from ..tools.simulate import SamplingOverrides, simulate_action
from .settings import Settings, load_settings

__all__ = [
    "CheckArguments",
    "PlanArguments",
    "SimulateArguments",
    "Simulator",
    "ToolError",
    "call_tool",
    "parse_arguments",
]

Result = TypeVar("Result")


class _Arguments(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _SceneArguments(_Arguments):
    """What simulate_action and dry_run_plan share, with the bounds the MCP schema states."""

    domain: str
    history: list[dict[str, Any]] = []
    state: str = ""
    task: str = ""
    tools: list[dict[str, Any]] | None = None
    constraints: list[dict[str, Any]] = []
    presets: list[str] = []
    stop_on_violation: bool = True
    temperature: float | None = Field(default=None, ge=0, le=2)
    max_tokens: int | None = Field(default=None, ge=1)
    seed: int | None = Field(default=None, ge=0)
    include_reasoning: bool = False

    def overrides(self) -> SamplingOverrides:
        return SamplingOverrides(self.temperature, self.max_tokens, self.seed)


class SimulateArguments(_SceneArguments):
    action: str


class PlanArguments(_SceneArguments):
    steps: list[str]
    stop_on_error: bool = False


class CheckArguments(_Arguments):
    constraints: list[dict[str, Any]] = []
    presets: list[str] = []
    action: str = ""
    observation: str = ""
    effects: dict[str, Any] | None = None
    history: list[dict[str, Any]] = []
    domain: str = ""


_ARGUMENTS: dict[str, type[_Arguments]] = {
    "simulate_action": SimulateArguments,
    "dry_run_plan": PlanArguments,
    "check_constraints": CheckArguments,
}
TOOL_NAMES = tuple(_ARGUMENTS)


def parse_arguments(tool: str, arguments: Any) -> _Arguments:
    """The checked arguments of one tool call; a ToolError says what is wrong, in one line."""
    model = _ARGUMENTS.get(tool)
    if model is None:
        raise ToolError(f"unknown tool {tool!r}; the tools are {', '.join(TOOL_NAMES)}")
    if not isinstance(arguments, dict):
        raise ToolError(f"arguments of {tool} must be a JSON object, got {type(arguments).__name__}")
    try:
        return model.model_validate(arguments)
    except ValidationError as exc:
        raise ToolError(f"{tool}: {_one_line(exc)}") from None


def _one_line(exc: ValidationError) -> str:
    problems = [f"{'.'.join(str(part) for part in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()]
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    return "; ".join(problems[:3]) + more


async def call_tool(
    ctx: ToolContext, arguments: _Arguments, on_progress: ProgressCallback | None = None
) -> Prediction | PlanResult | ConstraintReport:
    """Run one checked tool call on the plain tool functions (no MCP)."""
    if isinstance(arguments, SimulateArguments):
        a = arguments
        return await simulate_action(
            ctx, a.domain, a.action, history=a.history, state=a.state, task=a.task, tools=a.tools,
            overrides=a.overrides(), include_reasoning=a.include_reasoning, constraints=a.constraints,
            presets=a.presets, stop_on_violation=a.stop_on_violation,
        )
    if isinstance(arguments, PlanArguments):
        a = arguments
        return await dry_run_plan(
            ctx, a.domain, a.steps, history=a.history, state=a.state, task=a.task, stop_on_error=a.stop_on_error,
            tools=a.tools, overrides=a.overrides(), include_reasoning=a.include_reasoning, on_progress=on_progress,
            constraints=a.constraints, presets=a.presets, stop_on_violation=a.stop_on_violation,
        )
    if isinstance(arguments, CheckArguments):
        a = arguments
        return await check_constraints(
            ctx, a.constraints, a.presets, a.action, a.observation, a.effects, a.history, a.domain
        )
    raise TypeError(f"not a tool's arguments: {type(arguments).__name__}")


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
    """A language world model in this process: the engine, the domain packs and the tools.

    Keyword settings are the server's (`model`, `n_ctx`, `n_threads`, `n_gpu_layers`, `effects`, ...;
    AGENTWORLD_* variables fill what is not given). The model loads on first use, or in `start()`.
    One Simulator may be used from several threads and event loops at once; the engine runs one
    generation at a time.
    """

    def __init__(self, **settings: Any):
        unknown = sorted(set(settings) - set(Settings.model_fields))
        if unknown:
            raise TypeError(f"unknown setting {unknown[0]!r}; the settings are {', '.join(Settings.model_fields)}")
        self.settings = load_settings(settings)
        self._domains: dict[str, DomainPack] | None = None
        self._ctx: ToolContext | None = None
        self._closed = False
        self._lock = threading.Lock()

    # --- lifecycle ---------------------------------------------------------------------------
    def start(self) -> Simulator:
        """Load the model now (blocking) and raise its load error, if any."""
        run_sync(self._ready())
        return self

    async def astart(self) -> Simulator:
        await self._ready()
        return self

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._ctx is not None:
                self._ctx.engine.close()

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
                from .runtime import build_context, resolve_model

                self._ctx = build_context(self.settings, resolve_model(self.settings), self._packs())
                self._ctx.engine.start()
            return self._ctx

    async def _ready(self) -> None:
        await self.context.engine.wait_ready()

    # --- domains (no model needed) -----------------------------------------------------------
    def _packs(self) -> dict[str, DomainPack]:
        if self._domains is None:
            from .runtime import load_domain_packs

            self._domains = load_domain_packs(self.settings)
        return self._domains

    @property
    def domains(self) -> list[str]:
        return sorted(self._packs())

    def domain(self, name: str) -> DomainPack:
        pack = self._packs().get(name)
        if pack is None:
            raise ToolError(f"unknown domain {name!r}; known domains: {', '.join(self.domains)}")
        return pack

    def initial_state(self, domain: str) -> str:
        """The concrete world a call with no `state` simulates."""
        return self.domain(domain).initial_state

    # --- the tools ---------------------------------------------------------------------------
    async def simulate(self, domain: str, action: str, **options: Any) -> Prediction:
        """Predict one action: options as simulate_action's (history, state, task, constraints, presets,
        temperature, max_tokens, seed, include_reasoning, ...)."""
        arguments = parse_arguments("simulate_action", {"domain": domain, "action": action, **options})
        return await call_tool(self.context, arguments)

    async def plan(
        self, domain: str, steps: Sequence[str], on_progress: ProgressCallback | None = None, **options: Any
    ) -> PlanResult:
        """Roll a plan forward: options as dry_run_plan's (stop_on_error, constraints, presets, ...)."""
        arguments = parse_arguments("dry_run_plan", {"domain": domain, "steps": list(steps), **options})
        return await call_tool(self.context, arguments, on_progress)

    async def check(self, constraints: Sequence[dict] = (), presets: Sequence[str] = (), **options: Any) -> ConstraintReport:
        """Check rules against an action and outcome: options action, observation, effects, history, domain."""
        arguments = parse_arguments(
            "check_constraints", {"constraints": list(constraints), "presets": list(presets), **options}
        )
        return await call_tool(self.context, arguments)

    def simulate_sync(self, domain: str, action: str, **options: Any) -> Prediction:
        return run_sync(self.simulate(domain, action, **options))

    def plan_sync(self, domain: str, steps: Sequence[str], **options: Any) -> PlanResult:
        return run_sync(self.plan(domain, steps, **options))

    def check_sync(self, constraints: Sequence[dict] = (), presets: Sequence[str] = (), **options: Any) -> ConstraintReport:
        return run_sync(self.check(constraints, presets, **options))
