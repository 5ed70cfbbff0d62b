"""A twin of a real MCP server: its tools, answered by the world model, by the real server, or both.

- simulate: the world model answers every call in a persistent world (it remembers what the agent
  created). A call the real server would refuse before running it (an unknown tool, arguments
  that break the input schema) is refused here, at once and without the model. With real reads,
  read-only tools reach the real server until the first simulated call, so the world starts
  from real state; after that, reality and the simulation have parted and everything is simulated.
- record: every call runs on the real server; call and result are recorded into the world.
- shadow: as record, and each recorded step is predicted in the background from the real steps
  before it, so the agent never waits for the model; similarity and error agreement are reported.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from collections import Counter
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import Any, Literal

import anyio
from anyio.abc import TaskGroup
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, REQUEST_TIMEOUT, CallToolResult, TextContent, Tool

from ...engine.errors import AgentWorldError, ConfigurationError
from ...tools.context import ToolContext
from ...tools.inputs import validated_scene
from ...tools.requests import SimulateRequest
from ...tools.simulation.hindsight import predict_recorded_step
from ...tools.simulation.simulate import SamplingOverrides, simulate_action
from ...tools.tool_definitions import ToolSet
from ...tools.worlds.worlds import record_reality, rounded_mean, store_of, world_view
from .observations import BrokenPrediction, observation_of, predicts_error, protocol_error_observation, result_of
from .real_server import RealServer, RealServerGone

log = logging.getLogger("agentworld_mcp.twin")

Mode = Literal["simulate", "record", "shadow"]
MODES: tuple[Mode, ...] = ("simulate", "record", "shadow")
_WORLD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_RECENT_COMPARISONS = 20
_META_KEY = "agentworld/twin"


class TwinError(ConfigurationError):
    """The twin cannot start as asked; one line that says why."""


@dataclass(frozen=True)
class TwinOptions:
    mode: Mode = "simulate"
    world: str = ""  # the world's name; empty: twin-<the real server's name>
    real_reads: bool = False
    fresh: bool = False  # start the named world empty
    state: str = ""  # what lies behind the real server, for the model (files, records, accounts)
    max_tokens: int | None = None
    tools: tuple[str, ...] = ()  # serve only these of the real server's tools (a large server, a small context)


@dataclass(frozen=True)
class Comparison:
    """One shadowed call: the prediction beside reality."""

    step: int
    tool: str
    similarity: float
    predicted_error: bool
    real_error: bool


class Twin:
    """Open with `async with` (it starts the real server and opens the world), then `call`."""

    def __init__(self, ctx: ToolContext, real: RealServer, options: TwinOptions):
        self.ctx, self.real, self.options = ctx, real, options
        self.world_id = ""
        self.counts: Counter[str] = Counter()
        self.comparisons: list[Comparison] = []
        self._served: list[Tool] = []
        self._tools_by_name: dict[str, Tool] = {}
        self._tool_set: ToolSet | None = None
        self._parted = False  # a simulated step exists: reality no longer describes the world
        # Simulate mode takes calls one at a time: a real read must not land between a simulated
        # write and its step, and a prediction the twin refuses is dropped as the last step.
        self._one_at_a_time = anyio.Lock()
        self._shadowing = 0
        self._tasks: TaskGroup | None = None
        self._exits = AsyncExitStack()

    @property
    def tools(self) -> list[Tool]:
        return self._served

    async def __aenter__(self) -> Twin:
        try:
            await self._start_real_server()
            self._open_world()
            if self.options.mode == "simulate" and not self.options.real_reads:
                await self.real.close("closed once its tools were read: simulate mode never calls it")
            self._tasks = await self._exits.enter_async_context(anyio.create_task_group())
        except BaseException:
            await self._exits.aclose()
            raise
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        if self._tasks is not None:  # pending hindsight predictions: their real steps are already kept
            self._tasks.cancel_scope.cancel()
        await self._exits.aclose()

    async def _start_real_server(self) -> None:
        try:
            await self._exits.enter_async_context(self.real)
        except Exception as exc:  # it did not start, or did not answer in time: say so in one line
            cause = _innermost(exc)
            timed_out = isinstance(cause, MCPError) and cause.code == REQUEST_TIMEOUT
            reason = f"no answer within {self.real.start_seconds:g} s" if timed_out else _described(cause)
            raise TwinError(f"the real server ({self.real.address.describe()}) did not start: {reason}") from None

    def _open_world(self) -> None:
        store = store_of(self.ctx)
        name = self.options.world or "twin-" + re.sub(r"[^A-Za-z0-9_.-]", "-", self.real.info.name or "server")[:58]
        if not _WORLD_NAME.fullmatch(name):
            raise TwinError(f"world name {name!r}: use 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit")
        self._served = self._chosen_tools()
        definitions = [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in self._served]
        state = self.options.state or (
            f"The MCP server {self.real.info.name} {self.real.info.version}, reached as {self.real.address.describe()}."
        )
        try:
            scene = validated_scene(self.ctx, "mcp", state, "", definitions)
        except AgentWorldError as exc:
            raise TwinError(f"the real server's tools cannot be simulated ({exc}); serve fewer with --tool NAME") from None
        row = store.world(name)
        if row is None:
            store.create_world("mcp", "", state, definitions, world_id=name, origin={"host": "twin", "session": name})
        elif row.domain != "mcp" or row.closed:
            raise TwinError(f"world {name!r} exists and is {'closed' if row.closed else 'not an mcp world'}; pick another --world")
        else:
            if self.options.fresh:
                store.truncate(name, 0)
            simulated = sum(step.source == "predicted" for step in store.steps(name))
            if simulated and self.options.mode != "simulate":
                # Recording reality after them would drop them: they grew from a future that did not happen.
                raise TwinError(f"world {name!r} holds {simulated} simulated steps that {self.options.mode} mode would "
                                "drop; pass --fresh to start it empty, or another --world")
            store.set_world_scene(name, state, definitions)
        self.world_id = name
        self._tools_by_name = {tool.name: tool for tool in self._served}
        self._tool_set = scene.tools
        self._parted = any(step.source == "predicted" for step in store.steps(name))

    def _chosen_tools(self) -> list[Tool]:
        if not self.options.tools:
            return list(self.real.tools)
        known = {tool.name for tool in self.real.tools}
        if unknown := [name for name in self.options.tools if name not in known]:
            raise TwinError(f"--tool {', '.join(unknown)}: the real server has no such tool; it has {', '.join(sorted(known))}")
        return [tool for tool in self.real.tools if tool.name in self.options.tools]

    # --- calls ----------------------------------------------------------------------------------
    async def call(self, name: str, arguments: dict[str, Any]) -> CallToolResult:
        """The result the agent gets. Raises MCPError for a protocol error (as the real server would)."""
        served = name in self._tools_by_name
        if self.options.mode != "simulate":
            if self.options.tools and not served:  # not served, so not called for real either
                raise self._unknown(name)
            return await self._real_call(name, arguments, hindsight=self.options.mode == "shadow")
        if not served:
            raise self._unknown(name)
        # A served tool means _open_world ran, and an mcp scene always has its tool definitions.
        assert self._tool_set is not None
        problem = self._tool_set.call_problem(name, arguments)
        if problem is not None:
            self.counts["refused"] += 1
            # The code and wording of the SDKs' own argument-validation errors, so agents read it as they would.
            return self._error(f"MCP error {INVALID_PARAMS}: input validation error: {problem}")
        async with self._one_at_a_time:
            tool = self._tools_by_name[name]
            if self._reads_reality(tool):
                try:
                    return await self._real_call(name, arguments, fall_back=True)
                except RealServerGone:
                    pass  # the world model answers instead
            return await self._simulated_call(tool, arguments)

    def _unknown(self, name: str) -> MCPError:
        self.counts["refused"] += 1
        return MCPError(INVALID_PARAMS, f"Unknown tool: {name}")

    def _reads_reality(self, tool: Tool) -> bool:
        read_only = tool.annotations is not None and tool.annotations.read_only_hint is True
        return self.options.real_reads and read_only and not self._parted and self.real.gone is None

    async def _simulated_call(self, tool: Tool, arguments: dict[str, Any]) -> CallToolResult:
        request = SimulateRequest(world_id=self.world_id, action=_action(tool.name, arguments), commit=True,
                                  max_tokens=self.options.max_tokens)
        try:
            prediction = await simulate_action(self.ctx, request)
        except AgentWorldError as exc:
            self.counts["failed"] += 1
            return self._error(f"agentworld twin: no prediction: {exc}")
        if prediction.parse_error is not None:
            self.counts["failed"] += 1
            return self._error(f"agentworld twin: the world model gave no usable result: {prediction.parse_error}")
        try:
            result = result_of(prediction.observation, tool.output_schema)
        except BrokenPrediction as exc:
            # The agent is told nothing happened, so the world must not keep the step either.
            store = store_of(self.ctx)
            store.truncate(self.world_id, len(store.steps(self.world_id)) - 1)
            self.counts["broke_output_schema"] += 1
            # The result was generated under the schema: only a reply cut off at max_tokens can break it.
            cut = " (the reply was cut off at max_tokens, also when asked again with twice the room: raise --max-tokens)"
            return self._error(str(exc) + (cut if prediction.truncated else ""))
        self._parted = True
        self.counts["simulated"] += 1
        return _with_meta(result, {"mode": "simulate", "world_id": self.world_id, "truncated": prediction.truncated})

    async def _real_call(
        self, name: str, arguments: dict[str, Any], hindsight: bool = False, fall_back: bool = False
    ) -> CallToolResult:
        """Run on the real server and record into the world. `fall_back`: a gone server raises
        RealServerGone for the caller to simulate instead; else the agent gets an error result."""
        action = _action(name, arguments)
        try:
            result = await self.real.call(name, arguments)
        except MCPError as exc:  # the real server's protocol error is an observation too
            self.counts["real"] += 1
            await self._record(action, protocol_error_observation(exc), name, hindsight, real_error=True)
            raise
        except RealServerGone as exc:
            if fall_back:
                raise
            self.counts["failed"] += 1
            return self._error(f"agentworld twin: {exc}")
        self.counts["real"] += 1
        await self._record(action, observation_of(result), name, hindsight, bool(result.is_error))
        return result

    async def _record(self, action: str, observation: str, tool: str, hindsight: bool, real_error: bool) -> None:
        """Keep a real step, even if the agent cancels now: it happened. A failure to keep it is
        counted and logged, never put between the agent and its result."""
        with anyio.CancelScope(shield=True):
            try:
                view = await record_reality(self.ctx, self.world_id, action, observation)
            except AgentWorldError as exc:
                self.counts["unrecorded"] += 1
                log.warning("twin: a real step could not be recorded in %s: %s", self.world_id, exc)
                return
        recorded = view.recorded
        if recorded is None:
            return
        if recorded.dropped_steps:
            log.warning("twin: recording reality dropped %d simulated steps of %s", recorded.dropped_steps, self.world_id)
        if recorded.anchored and recorded.similarity is not None:  # an earlier simulated step met reality
            predicted = view.steps[recorded.step - 1].predicted
            self._compare(recorded.step, tool, recorded.similarity, predicted, real_error)
        elif hindsight and self._tasks is not None:
            self._shadowing += 1
            self._tasks.start_soon(self._hindsight, recorded.step, tool, real_error)

    async def _hindsight(self, step: int, tool: str, real_error: bool) -> None:
        """Background work: whatever goes wrong here is counted and logged; it must not stop the twin."""
        try:
            overrides = SamplingOverrides(max_tokens=self.options.max_tokens)
            prediction, similarity = await predict_recorded_step(self.ctx, self.world_id, step, overrides)
            if similarity is not None:
                self._compare(step, tool, similarity, prediction.observation, real_error)
            else:
                self.counts["uncompared"] += 1
        except Exception as exc:
            self.counts["uncompared"] += 1
            log.warning("twin: step %d of %s was not predicted: %s", step, self.world_id, exc)
        finally:
            self._shadowing -= 1

    def _compare(self, step: int, tool: str, similarity: float, predicted: str | None, real_error: bool) -> None:
        schema = self._tools_by_name[tool].output_schema if tool in self._tools_by_name else None
        predicted_error = predicts_error(predicted, schema) if predicted is not None else False
        self.comparisons.append(Comparison(step, tool, similarity, predicted_error, real_error))

    def _error(self, text: str) -> CallToolResult:
        """An error result the twin made itself (not the real server's, not the model's), marked as such."""
        return CallToolResult(content=[TextContent(text=text)], is_error=True,
                              _meta={_META_KEY: {"mode": self.options.mode, "world_id": self.world_id, "by_twin": True}})

    # --- what it reports ------------------------------------------------------------------------
    def report(self) -> dict[str, Any]:
        view = world_view(self.ctx, self.world_id)
        by_tool: dict[str, list[float]] = {}
        for comparison in self.comparisons:
            by_tool.setdefault(comparison.tool, []).append(comparison.similarity)
        compared = self.comparisons
        return {
            "mode": self.options.mode,
            "world_id": self.world_id,
            "world_uri": f"world://{self.world_id}",
            "real_server": {
                "address": self.real.address.describe(), "name": self.real.info.name, "version": self.real.info.version,
                "answering": self.real.gone is None, "stopped": self.real.gone,
            },
            "calls": dict(self.counts),
            "shadow": {
                "compared": len(compared),
                "pending": self._shadowing,
                "mean_similarity": rounded_mean([c.similarity for c in compared]),
                "error_agreement": rounded_mean([float(c.predicted_error == c.real_error) for c in compared]),
                "by_tool": {tool: {"compared": len(s), "mean_similarity": rounded_mean(s)} for tool, s in sorted(by_tool.items())},
                "recent": [dataclasses.asdict(c) for c in compared[-_RECENT_COMPARISONS:]],
            },
            "drift": view.drift.model_dump(),
            "steps": len(view.steps),
        }


def _innermost(exc: BaseException) -> BaseException:
    """The error itself, out of the task groups the SDK wraps it in."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _described(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _action(name: str, arguments: dict[str, Any]) -> str:
    return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


def _with_meta(result: CallToolResult, meta: dict[str, Any]) -> CallToolResult:
    return result.model_copy(update={"meta": {**(result.meta or {}), _META_KEY: meta}})
