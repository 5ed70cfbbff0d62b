"""A Gymnasium environment over the world model, for agent RL and trajectory generation.

    env = WorldModelEnv(Simulator(), "terminal", task="make a notes folder", max_steps=10)
    observation, info = env.reset(seed=0)
    observation, reward, terminated, truncated, info = env.step("mkdir notes")

The environment keeps the history itself: each step's predicted observation becomes a turn that
the next step sees. With `gymnasium` installed (the `gym` extra) it is a `gymnasium.Env` with
Text spaces that passes Gymnasium's `check_env`; without it, a plain class with the same methods.
The bookkeeping of one episode (server/api/episodes.py) is shared with WorldModelVectorEnv.
"""

from __future__ import annotations

from typing import Any

from ...tools.results import Prediction
from .episodes import (
    EPISODE_FIELDS,
    NOT_IN_AN_EPISODE,
    DoneFn,
    Episode,
    EpisodeRules,
    RewardFn,
    failure_penalty,
    text_spaces,
)
from .python_api import Simulator, run_sync

try:
    import gymnasium
except ImportError:  # the optional `gym` extra is not installed
    gymnasium = None  # type: ignore[assignment, unused-ignore]  # an Any module where the extra is not installed

__all__ = ["EPISODE_FIELDS", "NOT_IN_AN_EPISODE", "WorldModelEnv", "failure_penalty"]

_EnvBase: type = gymnasium.Env if gymnasium is not None else object


class WorldModelEnv(_EnvBase):
    """One episode is one simulated session in `domain`, starting from `state` (or the domain's own).

    The reward is `reward_fn(prediction, history)` (a reward, or `(reward, terminated)`) if given;
    else, with rules (`constraints`, `presets`, `success`), -1 per violated constraint and +1 when
    every `success` rule holds; else -1 for a step predicted to fail. The episode terminates when
    the success rules hold, `reward_fn` or `done_fn(prediction, history)` says so, and truncates at
    `max_steps`. An action the domain refuses (malformed, too long) is no step in the world: its
    observation is the error, its reward `invalid_action_reward`, and it counts toward `max_steps`.

    `reset(options=)` may set this episode's `task`, `state`, `domain` and `tools` (mcp). Other
    keywords (temperature, max_tokens, seed, thinking_budget, constraints, presets, tools, ...: any
    SimulateRequest field but those in EPISODE_FIELDS and NOT_IN_AN_EPISODE) go to every simulate
    call; they are checked here, so a bad one fails before the first step. `info` holds the step's
    effects, violations, success, blocked, parse_error, truncated and error; the whole Prediction is
    `last_prediction`.
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
        success: list[dict[str, Any]] | None = None,
        invalid_action_reward: float = -1.0,
        goal: dict[str, Any] | None = None,
        max_action_chars: int = 1024,
        **simulate_options: Any,
    ):
        """Set up the episode; it starts at `reset`.

        Args:
            simulator: the Simulator whose model predicts each step.
            domain: one of `simulator.domains`.
            task: what the agent is asked to do, shown to the model (a reset may give another).
            state: the world the episode starts in; empty: the domain's own initial state.
            reward_fn: `(prediction, history) -> reward` or `(reward, terminated)`; else the rules score.
            max_steps: the episode truncates after this many steps (at most `max_history_turns`).
            done_fn: `(prediction, history) -> bool`: the episode terminates when it says so.
            success: rules (constraints) whose holding ends the episode with +1.
            invalid_action_reward: the reward of an action the domain refuses.
            goal: `{"present": [paths], "absent": [paths]}`: what `reward_components()` checks as `files`.
            max_action_chars: the longest action the action space samples.
            simulate_options: any other SimulateRequest field, for every step (temperature, seed, ...).
        """
        self.simulator = simulator
        self.rules = EpisodeRules.checked(simulator, domain, task, state, reward_fn, done_fn, max_steps, success or [],
                                          invalid_action_reward, simulate_options, goal=goal)
        self.episode: Episode | None = None
        self.last_prediction: Prediction | None = None
        if gymnasium is not None:
            self.action_space, self.observation_space = text_spaces(min(max_action_chars,
                                                                       simulator.settings.max_action_chars))

    # The episode's parts, as attributes (the history is what the next step sees).
    @property
    def history(self) -> list[dict[str, str]]:
        """This episode's steps so far (`action`, `observation`): what the next step's prediction sees."""
        return self.episode.history if self.episode is not None else []

    @property
    def domain(self) -> str:
        """This episode's domain (a reset's `options` may change it)."""
        return self.episode.domain if self.episode is not None else self.rules.domain

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start a new episode; `options` may give this episode's `task`, `state`, `domain` and `tools`."""
        if gymnasium is not None:
            super().reset(seed=seed)
        self.episode = Episode.begin(self.simulator, self.rules, seed, options or {})
        self.last_prediction = None
        return self.episode.first_observation(), self.episode.reset_info()

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Predict the action's observation: `(observation, reward, terminated, truncated, info)`."""
        if self.episode is None or self.episode.over:
            raise RuntimeError("the episode is over (or never began): call reset() first")
        outcome = run_sync(self.episode.step(self.simulator, action))
        self.last_prediction = outcome.prediction
        return outcome.observation, outcome.reward, outcome.terminated, outcome.truncated, outcome.info

    def render(self) -> None:
        """Nothing to draw: the observation is the text a real environment would show."""
        return None

    def close(self) -> None:
        """The simulator belongs to the caller, who closes it."""
