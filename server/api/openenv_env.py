"""The world model as an OpenEnv environment (openenv-core, the `[openenv]` extra).

    Env = openenv_environment(Simulator(), "terminal", max_steps=8)
    app = create_fastapi_app(Env, WorldAction, WorldObservation, max_concurrent_envs=8)

OpenEnv builds one instance per WebSocket session (and one per stateless HTTP call), so each
session is one episode in its own simulated world; all of them share the Simulator, and so the
engine that keeps each episode on its slot. Episodes follow WorldModelEnv's rules
(server/api/episodes.py): the same reset options, rewards and endings.

An action is the domain's action text, exactly as simulate_action takes it. In the mcp domain the
simulated server's tools are also the agent's tools, in OpenEnv's MCP convention:
`{"type": "list_tools"}` lists the episode's tools and `{"type": "call_tool", "tool_name": ...,
"arguments": {...}}` calls one, so an agent trained here meets the same surface later, against the
real server or the twin recording it.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any, Literal

from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.mcp_types import (
    CallToolObservation,
    ListToolsObservation,
    Tool,
    ToolError,
    ToolErrorType,
)
from openenv.core.env_server.types import Action, EnvironmentMetadata, Observation, State
from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from ...engine.errors import InputError
from ...tools.tool_definitions import parse_tool_definitions
from .episodes import RESET_OPTIONS, DoneFn, Episode, EpisodeRules, Outcome, RewardFn
from .python_api import Simulator, run_sync

TOOL_DOMAIN = "mcp"  # the domain whose actions are tool calls


class WorldAction(Action):
    """One action. `act` (the default): `action` in the domain's action format. In the mcp domain,
    also `list_tools`, and `call_tool` with `tool_name` and `arguments`."""

    type: Literal["act", "list_tools", "call_tool"] = "act"
    action: str = Field(default="", description="the action, in the domain's action format (type act)")
    tool_name: str = Field(default="", description="the tool to call (type call_tool, mcp domain)")
    arguments: dict[str, Any] = Field(default_factory=dict, description="the tool's arguments (type call_tool)")

    @model_validator(mode="after")
    def _complete(self) -> WorldAction:
        # PydanticCustomError, not ValueError: OpenEnv sends a validation error's details as JSON,
        # and a ValueError inside them cannot be serialized (the session would end instead).
        if self.type == "act" and not self.action.strip():
            raise PydanticCustomError("action_missing", "give the action as text in `action`, in the domain's action format")
        if self.type == "call_tool" and not self.tool_name:
            raise PydanticCustomError("tool_missing", "give the tool to call in `tool_name`")
        return self


class _Predicted(Observation):
    """What every answer to an acted step carries besides the observation itself."""

    effects: dict[str, Any] = Field(default_factory=dict, description="what the action changed, and whether it succeeded")
    usage: dict[str, Any] = Field(default_factory=dict, description="tokens and seconds the prediction took")
    warnings: list[str] = Field(default_factory=list)
    violations: list[str] = Field(default_factory=list, description="ids of the rules the step broke")
    reward_components: dict[str, float] = Field(default_factory=dict, description="the episode so far, scored by the "
                                                "world's own checks: success, violations, files, commands")
    error: str | None = Field(default=None, description="why the action was refused; the episode goes on")
    step: int = 0


class WorldObservation(_Predicted):
    observation: str = Field(default="", description="the predicted observation (after reset: the starting state)")


class WorldToolObservation(CallToolObservation):
    """A simulated tool call, as OpenEnv's MCP clients read it (`result`, `error`), with the prediction's figures."""

    effects: dict[str, Any] = Field(default_factory=dict)
    usage: dict[str, Any] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    violations: list[str] = Field(default_factory=list)
    reward_components: dict[str, float] = Field(default_factory=dict)
    step: int = 0


class WorldState(State):
    domain: str = ""
    task: str = ""
    history: list[dict[str, str]] = Field(default_factory=list, description="the episode's actions and observations")
    over: bool = False


def openenv_environment(
    simulator: Simulator,
    domain: str,
    *,
    task: str = "",
    state: str = "",
    max_steps: int = 20,
    reward_fn: RewardFn | None = None,
    done_fn: DoneFn | None = None,
    success: list[dict[str, Any]] | None = None,
    invalid_action_reward: float = -1.0,
    goal: dict[str, Any] | None = None,
    **simulate_options: Any,
) -> type[Environment]:
    """An OpenEnv Environment class (no constructor arguments) over `simulator`; the arguments are
    WorldModelEnv's, checked now, so a bad one fails before anything is served."""
    rules = EpisodeRules.checked(simulator, domain, task, state, reward_fn, done_fn, max_steps, success or [],
                                 invalid_action_reward, simulate_options, goal=goal)
    pack = simulator.domain(domain)

    class WorldModelOpenEnv(Environment):
        SUPPORTS_CONCURRENT_SESSIONS = True  # instances share only the Simulator, which is thread- and loop-safe

        def __init__(self) -> None:
            super().__init__()
            self._episode: Episode | None = None
            self._episode_id: str | None = None

        def get_metadata(self) -> EnvironmentMetadata:
            model = simulator.context.engine.model
            return EnvironmentMetadata(
                name=f"agentworld-{domain}",
                description=f"The {pack.title}, simulated by the language world model "
                            f"{model.name if model else '(loading)'}. {pack.summary}",
            )

        async def reset_async(self, seed: int | None = None, episode_id: str | None = None, **options: Any) -> Observation:
            self._episode = Episode.begin(simulator, rules, seed, {name: value for name, value in options.items()
                                                                   if value is not None})
            self._episode_id = episode_id or uuid.uuid4().hex
            return WorldObservation(observation=self._episode.first_observation(), metadata=self._metadata())

        def reset(self, seed: int | None = None, episode_id: str | None = None, **options: Any) -> Observation:
            return run_sync(self.reset_async(seed, episode_id, **options))

        async def step_async(self, action: Action, timeout_s: float | None = None, **kwargs: Any) -> Observation:
            if not isinstance(action, WorldAction):
                raise InputError(f"this environment takes WorldAction, not {type(action).__name__}")
            if self._episode is None:  # a stateless HTTP /step: a fresh episode for this one action
                await self.reset_async()
            episode = self._episode
            assert episode is not None
            if action.type == "list_tools":
                return ListToolsObservation(tools=_tools(simulator, episode), metadata=self._metadata())
            if episode.over:
                raise InputError("the episode is over: reset to start another")
            if action.type == "call_tool" and episode.domain != TOOL_DOMAIN:
                raise InputError(f"the {episode.domain} domain has no tools: send {{\"action\": ...}} instead")
            text = json.dumps({"name": action.tool_name, "arguments": action.arguments}) \
                if action.type == "call_tool" else action.action
            outcome = await asyncio.wait_for(episode.step(simulator, text), timeout_s)
            if action.type == "call_tool":
                return _tool_answer(action.tool_name, outcome, self._metadata())
            return WorldObservation(observation=outcome.observation, **_figures(outcome), metadata=self._metadata())

        def step(self, action: Action, timeout_s: float | None = None, **kwargs: Any) -> Observation:
            return run_sync(self.step_async(action, timeout_s))

        @property
        def state(self) -> WorldState:
            episode = self._episode
            if episode is None:
                return WorldState(episode_id=self._episode_id, domain=domain)
            return WorldState(episode_id=self._episode_id, step_count=episode.steps, domain=episode.domain,
                              task=episode.task, history=list(episode.history), over=episode.over)

        def _metadata(self) -> dict[str, Any]:
            model = simulator.context.engine.model
            return {"model": model.name if model else None, "episode_id": self._episode_id}

    WorldModelOpenEnv.__name__ = WorldModelOpenEnv.__qualname__ = f"{domain.title()}WorldModelOpenEnv"
    return WorldModelOpenEnv


def _figures(outcome: Outcome) -> dict[str, Any]:
    prediction = outcome.prediction
    return {
        "reward": outcome.reward,
        "done": outcome.terminated or outcome.truncated,
        "effects": outcome.info.get("effects", {}),
        "usage": prediction.usage.model_dump(mode="json") if prediction is not None else {},
        "warnings": list(prediction.warnings) if prediction is not None else [],
        "violations": outcome.info.get("violations", []),
        "reward_components": outcome.info.get("reward_components", {}),
        "error": outcome.info.get("error"),
        "step": outcome.info.get("step", 0),
    }


def _tool_answer(tool_name: str, outcome: Outcome, metadata: dict[str, Any]) -> WorldToolObservation:
    figures = _figures(outcome)
    refused = figures.pop("error")
    error = ToolError(error_type=ToolErrorType.INVALID_ARGS, message=refused) if refused else None
    return WorldToolObservation(tool_name=tool_name, result=None if refused else outcome.observation, error=error,
                                metadata=metadata, **figures)


def _tools(simulator: Simulator, episode: Episode) -> list[Tool]:
    """The episode's tool definitions (checked at reset), as OpenEnv lists tools."""
    if not episode.tools:
        return []
    definitions = parse_tool_definitions(episode.tools, simulator.settings.limits().max_state_chars).definitions
    return [Tool(name=tool["name"], description=tool["description"], input_schema=tool.get("inputSchema") or {})
            for tool in definitions]


__all__ = ["RESET_OPTIONS", "WorldAction", "WorldObservation", "WorldState", "WorldToolObservation",
           "openenv_environment"]
