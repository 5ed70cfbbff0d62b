"""A Gymnasium-style environment over the world model, for agent RL and trajectory generation.

    env = WorldModelEnv(Simulator(), "terminal", task="make a notes folder", max_steps=10)
    observation, info = env.reset(seed=0)
    observation, reward, terminated, truncated, info = env.step("mkdir notes")

The environment keeps the history itself: each step's predicted observation becomes a turn that
the next step sees. With `gymnasium` installed (the `gym` extra) it is a `gymnasium.Env` with
Text spaces; without it, a plain class with the same methods.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

from ...tools.results import Prediction
from .python_api import Simulator, parse_arguments

try:
    import gymnasium
    from gymnasium import spaces
except ImportError:  # the optional `gym` extra is not installed
    gymnasium = None  # type: ignore[assignment, unused-ignore]  # an Any module where the extra is not installed

History = list[dict[str, str]]
RewardFn = Callable[[Prediction, History], "float | tuple[float, bool]"]
DoneFn = Callable[[Prediction, History], bool]

_EnvBase: type = gymnasium.Env if gymnasium is not None else object
# The spaces describe the text for tools that inspect them; actions and observations may be any text.
_TEXT_CHARSET = string.printable
_MAX_OBSERVATION_CHARS = 1_000_000
# SimulateRequest fields the episode sets itself, and those an episode cannot take (it keeps its
# own history, so a stored world would be a second, diverging one; a step must return an observation).
EPISODE_FIELDS = ("domain", "action", "history", "state", "task")
NOT_IN_AN_EPISODE = {
    "world_id": "the environment keeps its own history; step a stored world with Simulator.simulate",
    "commit": "the environment keeps its own history; step a stored world with Simulator.simulate",
    "budget_seconds": "a step must return its observation; the Python API keeps no jobs",
}


def failure_penalty(prediction: Prediction, history: History) -> float:
    """The default reward: -1 for a step the world model predicts to fail, 0 otherwise."""
    return -1.0 if prediction.effects.success is False else 0.0


class WorldModelEnv(_EnvBase):
    """One episode is one simulated session in `domain`, starting from `state` (or the domain's own).

    `reward_fn(prediction, history)` returns a reward, or `(reward, terminated)`; `done_fn` with the
    same arguments may end the episode too. `truncated` comes at `max_steps`. Other keywords
    (temperature, max_tokens, seed, thinking_budget, constraints, presets, tools, ...: any
    SimulateRequest field but those in EPISODE_FIELDS and NOT_IN_AN_EPISODE) go to every
    simulate call; they are checked here, so a bad one fails before the first step. `info` holds the
    step's effects, blocked, parse_error and truncated; the whole Prediction is `last_prediction`.
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        simulator: Simulator,
        domain: str,
        task: str = "",
        state: str = "",
        reward_fn: RewardFn | None = None,
        max_steps: int = 20,
        done_fn: DoneFn | None = None,
        **simulate_options: Any,
    ):
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}")
        for name in simulate_options:
            if name in EPISODE_FIELDS:
                raise ValueError(f"{name} is set by the episode itself; domain, task and state are arguments of the env")
            if name in NOT_IN_AN_EPISODE:
                raise ValueError(f"{name} cannot be used in an episode: {NOT_IN_AN_EPISODE[name]}")
        parse_arguments("simulate_action", {"domain": domain, "action": "", **simulate_options})  # InputError if bad
        self.simulator = simulator
        self.domain = domain
        self.task = task
        self.state = state
        self.reward_fn = reward_fn or failure_penalty
        self.done_fn = done_fn
        self.max_steps = max_steps
        self.simulate_options = simulate_options
        self.history: History = []
        self.last_prediction: Prediction | None = None
        self._episode_over = True  # until reset()
        self._seed: int | None = None
        self._episode_task, self._episode_state = task, state
        if gymnasium is not None:
            action_chars = simulator.settings.max_action_chars
            self.action_space = spaces.Text(action_chars, min_length=1, charset=_TEXT_CHARSET)
            self.observation_space = spaces.Text(_MAX_OBSERVATION_CHARS, min_length=0, charset=_TEXT_CHARSET)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start a new episode; `options` may give this episode's `state` and `task`."""
        if gymnasium is not None:
            super().reset(seed=seed)
        options = options or {}
        self._seed = seed
        self._episode_task = options.get("task", self.task)
        self._episode_state = options.get("state", self.state)
        self.history = []
        self.last_prediction = None
        self._episode_over = False
        observation = self._episode_state or self.simulator.initial_state(self.domain)
        return observation, {"domain": self.domain, "task": self._episode_task, "step": 0}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self._episode_over:
            raise RuntimeError("the episode is over (or never began): call reset() first")
        options = dict(self.simulate_options)
        if self._seed is not None and "seed" not in options:
            options["seed"] = self._seed + len(self.history)  # reproducible, yet not the same draw every step
        prediction = self.simulator.simulate_sync(
            self.domain, action, history=self.history, state=self._episode_state, task=self._episode_task, **options
        )
        self.history.append({"action": action, "observation": prediction.observation})
        reward, terminated = self._score(prediction)
        truncated = not terminated and len(self.history) >= self.max_steps
        self._episode_over = terminated or truncated
        self.last_prediction = prediction
        return prediction.observation, reward, terminated, truncated, self._info(prediction)

    def _info(self, prediction: Prediction) -> dict[str, Any]:
        # Only what the same seed and action reproduce (no timings or cache counts: Gymnasium checks
        # that); the whole prediction is `last_prediction`.
        return {
            "step": len(self.history),
            "effects": prediction.effects.model_dump(mode="json"),
            "blocked": prediction.blocked,
            "parse_error": prediction.parse_error,
            "truncated": prediction.truncated,
        }

    def _score(self, prediction: Prediction) -> tuple[float, bool]:
        scored = self.reward_fn(prediction, self.history)
        reward, terminated = scored if isinstance(scored, tuple) else (scored, False)
        if self.done_fn is not None and self.done_fn(prediction, self.history):
            terminated = True
        return float(reward), bool(terminated)

    def render(self) -> None:
        return None

    def close(self) -> None:
        """The simulator belongs to the caller, who closes it."""
