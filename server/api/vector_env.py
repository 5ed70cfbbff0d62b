"""N episodes stepped at once over one world model, with Gymnasium's VectorEnv API.

    envs = WorldModelVectorEnv(Simulator(base_url=...), "terminal", num_envs=8, max_steps=4)
    observations, infos = envs.reset(seed=0)
    observations, rewards, terminations, truncations, infos = envs.step(["ls", "pwd", ...])

`step` sends all N actions to the engine together and returns when all are predicted, so they
share one backend: on a model server with several slots they run side by side, in process they
queue. Observations are a tuple of N strings; rewards, terminations and truncations are NumPy
arrays; infos follow Gymnasium's vector form (each key an array, `_key` the mask of envs that have
it). Autoreset follows `autoreset_mode`: "next_step" (Gymnasium's default: the step after an
episode ends resets that env and ignores its action), "same_step" (the reset observation comes at
once, the last one in `infos["final_obs"]`), or "disabled" (reset ended envs with
`reset(options={"reset_mask": ...})`). With `gymnasium` installed (the `gym` extra) it is a
`gymnasium.vector.VectorEnv`; without it, a plain class with the same methods.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

try:
    import numpy as np
except ImportError as missing:  # NumPy comes with the `gym` extra (gymnasium requires it), not the base install
    raise ImportError("WorldModelVectorEnv needs NumPy: pip install 'agentworld-mcp[gym]'") from missing

from .episodes import DoneFn, Episode, EpisodeRules, Outcome, RewardFn, text_spaces
from .python_api import Simulator, run_sync

try:
    import gymnasium
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError:  # the optional `gym` extra is not installed
    gymnasium = None  # type: ignore[assignment, unused-ignore]  # an Any module where the extra is not installed

_VectorBase: type = VectorEnv if gymnasium is not None else object
AUTORESET_MODES = {"next_step": "NEXT_STEP", "same_step": "SAME_STEP", "disabled": "DISABLED"}


class WorldModelVectorEnv(_VectorBase):
    """`num_envs` copies of WorldModelEnv's episode (same arguments; see server/api/gym_env.py),
    stepped together. Reset options may be one value for every env or a list of `num_envs` values,
    e.g. `options={"task": [...]}`; each env keeps them (autoresets included) until a reset gives
    new ones."""

    def __init__(
        self,
        simulator: Simulator,
        domain: str,
        num_envs: int,
        task: str = "",
        state: str = "",
        reward_fn: RewardFn | None = None,
        max_steps: int = 20,
        done_fn: DoneFn | None = None,
        success: list[dict[str, Any]] | None = None,
        invalid_action_reward: float = -1.0,
        goal: dict[str, Any] | None = None,
        max_action_chars: int = 1024,
        autoreset_mode: str = "next_step",
        **simulate_options: Any,
    ):
        """Set up `num_envs` episodes; none starts before `reset`.

        The other arguments (`task`, `state`, `reward_fn`, `max_steps`, `done_fn`, `success`,
        `invalid_action_reward`, `max_action_chars` and the simulate options) are WorldModelEnv's, for every env.

        Args:
            simulator: the Simulator every env steps through (one model, requests batched by its engine).
            domain: the domain of every episode (a reset's options may change it per env).
            num_envs: how many episodes run side by side.
            autoreset_mode: Gymnasium's: `next_step` (an ended env resets on its next step), `same_step`
                (in the step that ended it) or `disabled` (the caller resets, with `options["reset_mask"]`).
        """
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        if autoreset_mode not in AUTORESET_MODES:
            raise ValueError(f"autoreset_mode must be one of {', '.join(AUTORESET_MODES)}, got {autoreset_mode!r}")
        self.simulator = simulator
        self.num_envs = num_envs
        self.autoreset_mode = autoreset_mode
        self.rules = EpisodeRules.checked(simulator, domain, task, state, reward_fn, done_fn, max_steps, success or [],
                                          invalid_action_reward, simulate_options, goal=goal)
        self.episodes: list[Episode | None] = [None] * num_envs
        self._options: list[dict[str, Any]] = [{} for _ in range(num_envs)]  # an autoreset keeps the env's task
        self._needs_reset = np.zeros(num_envs, dtype=bool)  # next_step: ended at the last step
        self._seeder: random.Random | None = None  # after a seeded reset, each autoreset's seed comes from it
        self.metadata: dict[str, Any] = {"render_modes": [], "autoreset_mode": autoreset_mode}
        if gymnasium is not None:
            self.metadata["autoreset_mode"] = AutoresetMode[AUTORESET_MODES[autoreset_mode]]
            action, observation = text_spaces(min(max_action_chars, simulator.settings.max_action_chars))
            self.single_action_space, self.single_observation_space = action, observation
            self.action_space = batch_space(action, num_envs)
            self.observation_space = batch_space(observation, num_envs)

    @property
    def histories(self) -> list[list[dict[str, str]]]:
        """Each env's episode so far (its steps' `action` and `observation`), in env order."""
        return [episode.history if episode is not None else [] for episode in self.episodes]

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[tuple[str, ...], dict[str, Any]]:
        """Start every env's episode (or, with `options["reset_mask"]`, those it marks); options may hold one
        value for every env or a list of `num_envs`."""
        options = dict(options or {})
        mask = np.asarray(options.pop("reset_mask", np.ones(self.num_envs, dtype=bool)), dtype=bool)
        if mask.shape != (self.num_envs,):
            raise ValueError(f"reset_mask must hold {self.num_envs} booleans")
        seeds = self._seeds(seed)
        if seed is not None:
            self._seeder = random.Random(repr(seed))
        infos: dict[str, Any] = {}
        for index in np.flatnonzero(mask):
            chosen = _option_for(options, int(index), self.num_envs) if options else None  # None: keep its last
            self._reset_one(int(index), seeds[index], chosen)
            _add_info(infos, self.episodes[index].reset_info(), int(index), self.num_envs)  # type: ignore[union-attr]
        self._needs_reset[mask] = False
        return self._observations(), infos

    def step(
        self, actions: Sequence[str]
    ) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per env, predicted together: observations, rewards, terminations, truncations, infos."""
        if len(actions) != self.num_envs:
            raise ValueError(f"step takes {self.num_envs} actions, one per env; got {len(actions)}")
        if any(episode is None for episode in self.episodes):
            raise RuntimeError("call reset() before the first step")
        stepping = [index for index in range(self.num_envs) if not self._needs_reset[index]]
        for index in stepping:
            if self.episodes[index].over:  # type: ignore[union-attr]
                raise RuntimeError(f"env {index}'s episode is over: reset it first "
                                   "(reset(options={'reset_mask': ...}) resets only the envs marked)")
        outcomes = run_sync(self._step_all(stepping, actions))
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=bool)
        truncations = np.zeros(self.num_envs, dtype=bool)
        infos: dict[str, Any] = {}
        observations = [""] * self.num_envs
        for index in range(self.num_envs):
            if self._needs_reset[index]:  # next_step: this step only starts the env's next episode
                self._reset_one(index, None)
                observations[index] = self.episodes[index].first_observation()  # type: ignore[union-attr]
                _add_info(infos, self.episodes[index].reset_info(), index, self.num_envs)  # type: ignore[union-attr]
                self._needs_reset[index] = False
                continue
            outcome = outcomes[index]
            rewards[index] = outcome.reward
            terminations[index], truncations[index] = outcome.terminated, outcome.truncated
            observations[index] = outcome.observation
            info = outcome.info
            ended = outcome.terminated or outcome.truncated
            if ended and self.autoreset_mode == "same_step":
                info = {"final_obs": outcome.observation, "final_info": outcome.info}
                self._reset_one(index, None)
                observations[index] = self.episodes[index].first_observation()  # type: ignore[union-attr]
                info.update(self.episodes[index].reset_info())  # type: ignore[union-attr]
            elif ended and self.autoreset_mode == "next_step":
                self._needs_reset[index] = True
            _add_info(infos, info, index, self.num_envs)
        return tuple(observations), rewards, terminations, truncations, infos

    async def _step_all(self, stepping: list[int], actions: Sequence[str]) -> dict[int, Outcome]:
        """Every stepping env's action sent to the engine at once."""
        episodes = [self.episodes[index] for index in stepping]
        done = await asyncio.gather(*(episode.step(self.simulator, actions[index])  # type: ignore[union-attr]
                                      for index, episode in zip(stepping, episodes, strict=True)),
                                    return_exceptions=True)
        failed = [(index, outcome) for index, outcome in zip(stepping, done, strict=True)
                  if isinstance(outcome, BaseException)]
        if failed:  # the others stepped: their episodes moved on, so the whole vector must start again
            index, error = failed[0]
            for episode in episodes:
                episode.over = True  # type: ignore[union-attr]
            raise RuntimeError(f"env {index} could not step ({len(failed)} of {len(stepping)} failed): {error}; "
                               "call reset() to start every env again") from error
        return dict(zip(stepping, done, strict=True))  # type: ignore[arg-type]  # no exceptions left

    def _reset_one(self, index: int, seed: int | None, options: dict[str, Any] | None = None) -> None:
        """A new episode for env `index`, with these options or, on an autoreset, its last ones."""
        if seed is None and self._seeder is not None:  # reproducible runs stay reproducible past autoresets
            seed = self._seeder.randrange(2**31)
        if options is not None:
            self._options[index] = options
        self.episodes[index] = Episode.begin(self.simulator, self.rules, seed, self._options[index])

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int):
            return [seed + index for index in range(self.num_envs)]
        if len(seed) != self.num_envs:
            raise ValueError(f"seed must be one int or {self.num_envs} values, got {len(seed)}")
        return list(seed)

    def _observations(self) -> tuple[str, ...]:
        return tuple(episode.history[-1]["observation"] if episode is not None and episode.history
                     else episode.first_observation() if episode is not None else "" for episode in self.episodes)

    def render(self) -> None:
        """Nothing to draw: each observation is the text a real environment would show."""
        return None

    def close(self, **kwargs: Any) -> None:
        """The simulator belongs to the caller, who closes it."""


def _option_for(options: dict[str, Any], index: int, num_envs: int) -> dict[str, Any]:
    """The reset options of env `index`: a list of `num_envs` values gives each env its own."""
    chosen = {}
    for name, value in options.items():
        # `tools` is itself a list: it is per env only as a list of `num_envs` tool lists.
        per_env = isinstance(value, list) and len(value) == num_envs and (
            name != "tools" or all(isinstance(item, list) for item in value))
        chosen[name] = value[index] if per_env else value
    return chosen


def _add_info(infos: dict[str, Any], info: dict[str, Any], index: int, num_envs: int) -> None:
    """Gymnasium's vector info form: each key an array over the envs, `_key` the mask of those that have
    it, a dict (effects, final_info) the same form one level down; `final_obs` an array of observations."""
    for key, value in info.items():
        if isinstance(value, dict):
            _add_info(infos.setdefault(key, {}), value, index, num_envs)
            mask = infos.setdefault(f"_{key}", np.zeros(num_envs, dtype=bool))
            mask[index] = True
        else:
            if key not in infos:
                typed = type(value) in (bool, int, float)  # as Gymnasium batches them; anything else: objects
                infos[key] = np.zeros(num_envs, dtype=type(value)) if typed else np.full(num_envs, None, dtype=object)
                infos[f"_{key}"] = np.zeros(num_envs, dtype=bool)
            elif infos[key].dtype != object and np.asarray(value).dtype != infos[key].dtype:
                infos[key] = infos[key].astype(object)  # envs disagree (a computed exit code, a model's None)
            infos[key][index] = value
            infos[f"_{key}"][index] = True
