"""A world-model environment in the shape TRL's GRPOTrainer takes as `environment_factory`.

    Env = trl_environment(Simulator(base_url=...), "terminal", max_steps=8, goal={"present": ["build/"]})
    trainer = GRPOTrainer(..., environment_factory=Env)   # TRL 1.16 scores each rollout with Env.get_reward()

The trainer builds the class with no arguments, calls `reset(**row)` with each dataset row (its
`task`, `state` and, for mcp, `tools` set the episode; other columns are ignored), and offers the
class's public methods to the policy as tools. The tool is `act(action)`: its docstring gives the
domain's action format under `Args:`, and it returns the predicted observation. An mcp environment
made with `tools=[...]` offers the simulated server's tools instead, one method each (named after
the tool, its parameters and `Args:` from the tool's input schema), so the policy calls the same
tools it will call on the real server. Scoring
and ending follow WorldModelEnv's rules (server/api/episodes.py); `reward` is the sum of the step
rewards so far and `done` says it ended.

The whole episode's reward is the world's own checks (world_rewards.py): `get_reward()` returns their
total, which TRL (1.8 and later) adds as a reward source named after the class, so `reward_funcs` may be
left out; `reward_components` names them, and `trl_component_rewards()` makes one TRL reward function
per component, to log (or weigh) each. `trl_environments` builds TRL's mapping of several worlds,
one chosen per dataset row by its `environment` column. TRL itself is not a dependency.
"""

from __future__ import annotations

import inspect
import json
import keyword
import re
from collections.abc import Callable, Mapping
from typing import Any

from ...tools.results import Prediction
from ...tools.tool_definitions import parse_tool_definitions
from .episodes import RESET_OPTIONS, DoneFn, Episode, EpisodeRules, RewardFn
from .python_api import Simulator, run_sync

OVER = "the episode is over: no further actions are simulated"
NOT_STARTED = "no episode: call reset() before the first action"
# The reward components an episode may have (Episode.reward_components), in the order they are logged.
COMPONENTS = ("success", "violations", "files", "commands")


def trl_environment(
    simulator: Simulator,
    domain: str,
    *,
    max_steps: int = 20,
    reward_fn: RewardFn | None = None,
    done_fn: DoneFn | None = None,
    success: list[dict[str, Any]] | None = None,
    invalid_action_reward: float = -1.0,
    goal: dict[str, Any] | None = None,
    name: str | None = None,
    **simulate_options: Any,
) -> type:
    """A class with a no-argument constructor over `simulator`, one episode per instance at a time.
    The arguments are WorldModelEnv's, checked now: a bad one fails before training starts. `name` is the
    class's name, under which TRL logs its `get_reward` (default: `TerminalWorldModelEnv` for terminal)."""
    rules = EpisodeRules.checked(simulator, domain, "", "", reward_fn, done_fn, max_steps, success or [],
                                 invalid_action_reward, simulate_options, goal=goal)
    pack = simulator.domain(domain)

    # Public methods are the policy's tools (TRL lists the class's functions, all but reset and get_reward);
    # what else the class offers is an attribute or a property, so the policy never sees it as a tool.
    class WorldModelToolEnv:
        def __init__(self) -> None:
            self.episode: Episode | None = None
            self.last_prediction: Prediction | None = None
            self.reward = 0.0
            self.done = False

        def reset(self, **row: Any) -> str:
            """Start an episode from a dataset row; returns the initial state the policy sees."""
            options = {name: row[name] for name in RESET_OPTIONS if row.get(name) is not None}
            episode = Episode.begin(simulator, rules, row.get("seed"), options)  # a bad row keeps the old episode
            self.episode, self.last_prediction = episode, None
            self.reward, self.done = 0.0, False
            return episode.first_observation()

        def get_reward(self) -> float:
            """The episode's reward from the world's own checks: the sum of `reward_components`."""
            return self._started().total_reward(simulator)

        @property
        def reward_components(self) -> dict[str, float]:
            """The episode so far, scored by the world's own checks, by name (only those that apply); none before
            reset (a property never raises: inspect.getmembers on an instance reads it)."""
            return self.episode.reward_components(simulator) if self.episode is not None else {}

        def act(self, action: str) -> str:
            return self._act(action)

        def _started(self) -> Episode:
            if self.episode is None:
                raise RuntimeError(NOT_STARTED)
            return self.episode

        def _act(self, action: str) -> str:
            episode = self._started()
            if self.done:
                return OVER
            # An interrupted step (KeyboardInterrupt, a cancelled task) leaves the episode as it was before it:
            # Episode.step counts a step and appends its turn only once the world has answered.
            outcome = run_sync(episode.step(simulator, action))
            self.last_prediction = outcome.prediction
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
    if name is not None and not name.isidentifier():
        raise ValueError(f"name {name!r} is no Python identifier; TRL logs the reward under the class's name")
    WorldModelToolEnv.__name__ = WorldModelToolEnv.__qualname__ = name or f"{domain.title()}WorldModelEnv"
    WorldModelToolEnv.__doc__ = f"The {pack.title}, simulated by the world model, as a TRL environment."
    return WorldModelToolEnv


def trl_environments(simulator: Simulator, worlds: Mapping[str, Mapping[str, Any]]) -> dict[str, type]:
    """TRL's mapping of several worlds, one chosen per dataset row by its `environment` column:
    `{"tidy": {"domain": "terminal", "goal": ...}, "build": {...}}` gives `{"tidy": TidyWorldModelEnv, ...}`.
    Each world's options are `trl_environment`'s; each class is named after its key, so TRL logs each
    world's reward apart (it keeps one reward column per class)."""
    if not worlds:
        raise ValueError("name at least one world: {'name': {'domain': ..., ...}}")
    classes = {}
    for key, options in worlds.items():
        if not isinstance(key, str) or not key.strip():
            raise ValueError(f"a world's name is the value of the dataset's `environment` column: {key!r} is none")
        if not isinstance(options, Mapping) or "domain" not in options:
            raise ValueError(f"world {key!r}: give its options as a mapping with at least a `domain`")
        options = dict(options)
        title = "".join(part.title() for part in re.split(r"\W+|_", key) if part)
        options.setdefault("name", f"{title if title[:1].isalpha() else 'World' + title}WorldModelEnv")
        classes[key] = trl_environment(simulator, options.pop("domain"), **options)
    names = [cls.__name__ for cls in classes.values()]
    if len(set(names)) < len(names):
        raise ValueError(f"two worlds share a class name ({sorted(names)}): give them distinct `name`s, "
                         "as TRL logs each world's reward under its class's name")
    return classes


def trl_component_rewards(*components: str) -> list[Callable[..., list[float | None]]]:
    """TRL reward functions, one per reward component (all of COMPONENTS unless named), each named after
    its component so the trainer logs `rewards/files/mean` and so on. Each reads the `environments` TRL
    passes to reward functions; a component that does not apply to an episode is None (TRL leaves it out).
    The environments' `get_reward` already counts every component once: give these the weight 0 to log them
    only (`GRPOConfig(reward_weights=[0.0] * n)`), or a weight w to count that component 1 + w times."""
    wanted = components or COMPONENTS
    unknown = sorted(set(wanted) - set(COMPONENTS))
    if unknown:
        raise ValueError(f"unknown reward component {unknown[0]!r}; the components are {', '.join(COMPONENTS)}")
    return [_component_reward(component) for component in wanted]


def _component_reward(component: str) -> Callable[..., list[float | None]]:
    def reward(environments: list[Any] | None = None, **_: Any) -> list[float | None]:
        if environments is None:
            raise ValueError("this reward reads the trainer's environments: pass environment_factory to GRPOTrainer")
        return [_component_of(environment, component) for environment in environments]

    reward.__name__ = reward.__qualname__ = component
    return reward


def _component_of(environment: Any, component: str) -> float | None:
    components = getattr(environment, "reward_components", None)  # another framework's environment has none
    return components.get(component) if isinstance(components, dict) else None


_TAKEN = {"reset", "act", "episode", "reward", "done", "get_reward", "reward_components", "last_prediction"}

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
