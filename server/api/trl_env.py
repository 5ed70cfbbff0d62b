"""A world-model environment in the shape TRL's GRPOTrainer takes as `environment_factory`.

    Env = trl_environment(Simulator(base_url=...), "terminal", max_steps=8)
    trainer = GRPOTrainer(..., environment_factory=Env,
                          reward_funcs=[lambda environments, **_: [env.reward for env in environments]])

The trainer builds the class with no arguments, calls `reset(**row)` with each dataset row (its
`task`, `state` and, for mcp, `tools` set the episode; other columns are ignored), and offers the
class's public methods to the policy as tools. The tool is `act(action)`: its docstring gives the
domain's action format under `Args:`, and it returns the predicted observation. An mcp environment
made with `tools=[...]` offers the simulated server's tools instead, one method each (named after
the tool, its parameters and `Args:` from the tool's input schema), so the policy calls the same
tools it will call on the real server. Scoring
and ending follow WorldModelEnv's rules (server/api/episodes.py); `reward` is the episode's total
so far and `done` says it ended. TRL itself is not a dependency.
"""

from __future__ import annotations

import inspect
import json
import keyword
import re
from collections.abc import Callable
from typing import Any

from ...tools.tool_definitions import parse_tool_definitions
from .episodes import RESET_OPTIONS, DoneFn, Episode, EpisodeRules, RewardFn
from .python_api import Simulator, run_sync

OVER = "the episode is over: no further actions are simulated"


def trl_environment(
    simulator: Simulator,
    domain: str,
    *,
    max_steps: int = 20,
    reward_fn: RewardFn | None = None,
    done_fn: DoneFn | None = None,
    success: list[dict[str, Any]] | None = None,
    invalid_action_reward: float = -1.0,
    **simulate_options: Any,
) -> type:
    """A class with a no-argument constructor over `simulator`, one episode per instance at a time.
    The arguments are WorldModelEnv's, checked now: a bad one fails before training starts."""
    rules = EpisodeRules.checked(simulator, domain, "", "", reward_fn, done_fn, max_steps, success or [],
                                 invalid_action_reward, simulate_options)
    pack = simulator.domain(domain)

    class WorldModelToolEnv:
        def __init__(self) -> None:
            self.episode: Episode | None = None
            self.reward = 0.0
            self.done = False

        def reset(self, **row: Any) -> str:
            """Start an episode from a dataset row; returns the initial state the policy sees."""
            options = {name: row[name] for name in RESET_OPTIONS if row.get(name) is not None}
            self.episode = Episode.begin(simulator, rules, row.get("seed"), options)
            self.reward, self.done = 0.0, False
            return self.episode.first_observation()

        def act(self, action: str) -> str:
            return self._act(action)

        def _act(self, action: str) -> str:
            if self.episode is None:
                raise RuntimeError("call reset() before the first action")
            if self.done:
                return OVER
            outcome = run_sync(self.episode.step(simulator, action))
            self.reward += outcome.reward
            self.done = outcome.terminated or outcome.truncated
            return outcome.observation

    WorldModelToolEnv.act.__doc__ = (
        f"Act in the {pack.title} and see what it answers.\n\n"
        f"Args:\n    action: {pack.action_format}\n\n"
        "Returns:\n    The environment's answer, in its own format."
    )
    tools = simulate_options.get("tools")
    if domain == "mcp" and tools:  # the simulated server's own tools replace `act`
        del WorldModelToolEnv.act
        for definition in parse_tool_definitions(tools, simulator.settings.limits().max_state_chars).definitions:
            name = _method_name(definition["name"])
            if name in _TAKEN or hasattr(WorldModelToolEnv, name):
                raise ValueError(f"tool {definition['name']!r} would be the method {name!r}, which the class already has")
            setattr(WorldModelToolEnv, name, _tool_method(name, definition))
    WorldModelToolEnv.__name__ = WorldModelToolEnv.__qualname__ = f"{domain.title()}WorldModelEnv"
    WorldModelToolEnv.__doc__ = f"The {pack.title}, simulated by the world model, as a TRL environment."
    return WorldModelToolEnv


_TAKEN = {"reset", "act", "episode", "reward", "done"}  # the class's own methods and attributes

_JSON_TYPES: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list,
                                "object": dict}


def _method_name(tool: str) -> str:
    """A Python identifier for a tool name (`list-issues` becomes `list_issues`)."""
    name = re.sub(r"\W", "_", tool)
    return f"tool_{name}" if name[:1].isdigit() or keyword.iskeyword(name) or name.startswith("_") else name


def _tool_method(name: str, definition: dict[str, Any]) -> Callable[..., str]:
    """A method that calls the simulated tool with its keyword arguments. Its signature, annotations and
    docstring come from the tool's input schema, as a trainer builds the tool's JSON schema from them."""
    schema = definition.get("inputSchema") or {}
    properties: dict[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or [])

    def call(self: Any, **arguments: Any) -> str:
        given = {key: value for key, value in arguments.items() if value is not None}
        return self._act(json.dumps({"name": definition["name"], "arguments": given}))

    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    for argument in properties:
        if not argument.isidentifier() or keyword.iskeyword(argument) or argument == "self":
            raise ValueError(f"tool {definition['name']!r} has a parameter {argument!r} that is no Python name, so it "
                             "cannot be a method's argument; leave the tool out of `tools`")
    for argument in sorted(properties, key=lambda key: key not in required):  # required ones first
        kind = _JSON_TYPES.get(str(properties[argument].get("type")), str)
        annotations[argument] = kind if argument in required else kind | None
        parameters.append(inspect.Parameter(argument, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                            default=inspect.Parameter.empty if argument in required else None,
                                            annotation=annotations[argument]))
    annotations["return"] = str
    call.__signature__ = inspect.Signature(parameters, return_annotation=str)  # type: ignore[attr-defined]
    call.__annotations__ = annotations
    call.__name__ = call.__qualname__ = name
    described = "\n".join(f"    {argument}: {properties[argument].get('description') or argument}"
                          for argument in properties)
    call.__doc__ = (f"{definition.get('description') or definition['name']}\n\n"
                    + (f"Args:\n{described}\n\n" if properties else "")
                    + "Returns:\n    The tool's result, as the simulated server answers it.")
    return call
