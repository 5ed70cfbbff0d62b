"""One simulated episode's bookkeeping, shared by WorldModelEnv and WorldModelVectorEnv.

An episode is a session in one domain: its scene (task, state, tools), the turns so far, the step
count, and how a step scores. The environments add only their Gymnasium shapes around it.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine.errors import InputError
from ...tools.inputs import validated_history, validated_scene
from ...tools.results import Prediction
from .python_api import Simulator, parse_arguments
from .world_rewards import Goal, checked_goal, confirmed_share

History = list[dict[str, str]]
RewardFn = Callable[[Prediction, History], "float | tuple[float, bool]"]
DoneFn = Callable[[Prediction, History], bool]

# SimulateRequest fields the episode sets itself, and those an episode cannot take (it keeps its
# own history, so a stored world would be a second, diverging one; a step must return an observation).
EPISODE_FIELDS = ("domain", "action", "history", "state", "task")
NOT_IN_AN_EPISODE = {
    "world_id": "the environment keeps its own history; step a stored world with Simulator.simulate",
    "commit": "the environment keeps its own history; step a stored world with Simulator.simulate",
    "budget_seconds": "a step must return its observation; the Python API keeps no jobs",
}
RESET_OPTIONS = ("task", "state", "domain", "tools", "goal")
# Observations are any text a model writes: the space admits the whole Basic Multilingual Plane
# (surrogates aside), so `contains` holds for real output. Actions are sampled from printable ASCII.
_OBSERVATION_CHARSET = "".join(chr(code) for code in range(0x10000) if not 0xD800 <= code <= 0xDFFF)
_MAX_OBSERVATION_CHARS = 1_000_000


def failure_penalty(prediction: Prediction, history: History) -> float:
    """The reward without rules: -1 for a step the world model predicts to fail, 0 otherwise."""
    return -1.0 if prediction.effects.success is False else 0.0


def text_spaces(max_action_chars: int) -> tuple[Any, Any]:
    """Gymnasium Text spaces for (actions, observations); needs the `gym` extra."""
    from gymnasium import spaces

    return (spaces.Text(max_action_chars, min_length=1, charset=string.printable),
            spaces.Text(_MAX_OBSERVATION_CHARS, min_length=0, charset=_OBSERVATION_CHARSET))


@dataclass(frozen=True)
class EpisodeRules:
    """What every episode of an environment shares: where it starts, how it scores, when it ends."""

    domain: str
    task: str
    state: str
    reward_fn: RewardFn | None
    done_fn: DoneFn | None
    max_steps: int
    success: list[dict[str, Any]]
    invalid_action_reward: float
    simulate_options: dict[str, Any]
    goal: Goal | None = None  # paths the episode should leave present or absent: the `files` reward component

    @classmethod
    def checked(cls, simulator: Simulator, domain: str, task: str, state: str, reward_fn: RewardFn | None,
                done_fn: DoneFn | None, max_steps: int, success: list[dict[str, Any]], invalid_action_reward: float,
                simulate_options: dict[str, Any], goal: Any = None) -> EpisodeRules:
        """Every option checked now, so a bad one fails before the first step (and before any model loads)."""
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}")
        if max_steps > simulator.settings.max_history_turns:  # every step becomes a turn of the next one's history
            raise ValueError(f"max_steps {max_steps} is above the history limit of "
                             f"{simulator.settings.max_history_turns} turns (the max_history_turns setting)")
        for name in simulate_options:
            if name in EPISODE_FIELDS:
                raise ValueError(f"{name} is set by the episode itself; domain, task and state are arguments "
                                 "of the env")
            if name in NOT_IN_AN_EPISODE:
                raise ValueError(f"{name} cannot be used in an episode: {NOT_IN_AN_EPISODE[name]}")
        parse_arguments("simulate_action", {"domain": domain, "action": "", **simulate_options})  # InputError if bad
        if success:
            parse_arguments("check_constraints", {"constraints": success, "domain": domain})
        return cls(domain, task, state, reward_fn, done_fn, max_steps, list(success), invalid_action_reward,
                   dict(simulate_options), checked_goal(simulator.domain(domain), goal))

    @property
    def has_rules(self) -> bool:
        options = self.simulate_options
        return bool(self.success or options.get("constraints") or options.get("presets"))

    def score(self, prediction: Prediction, history: History, violated: Sequence[str],
              succeeded: bool | None) -> tuple[float, bool]:
        """The step's reward, and whether the episode is over by its own rules."""
        terminated = bool(succeeded)
        if self.reward_fn is not None:
            scored = self.reward_fn(prediction, history)
            reward, said_done = scored if isinstance(scored, tuple) else (scored, False)
            terminated = terminated or bool(said_done)
        elif self.has_rules:
            reward = (1.0 if succeeded else 0.0) - len(violated)
        else:
            reward = failure_penalty(prediction, history)
        if self.done_fn is not None and self.done_fn(prediction, history):
            terminated = True
        return float(reward), terminated


@dataclass
class Outcome:
    observation: str
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]
    prediction: Prediction | None  # None for an action the domain refused


@dataclass
class Episode:
    rules: EpisodeRules
    domain: str
    task: str
    state: str
    tools: Any
    seed: int | None
    initial_state: str
    goal: Goal | None = None
    history: History = field(default_factory=list)
    steps: int = 0
    over: bool = False
    # What the episode's whole-episode reward reads (world_rewards.py): kept as the steps come.
    violations: int = 0
    succeeded_steps: int = 0
    last_success: bool | None = None
    # The components at a step count: they change only with a step, and `files` replays the world's record.
    _scored: tuple[int, dict[str, float]] | None = field(default=None, init=False, repr=False)

    @classmethod
    def begin(cls, simulator: Simulator, rules: EpisodeRules, seed: int | None, options: dict[str, Any]) -> Episode:
        unknown = sorted(set(options) - set(RESET_OPTIONS) - {"reset_mask"})
        if unknown:
            raise ValueError(f"unknown reset option {unknown[0]!r}; the options are {', '.join(RESET_OPTIONS)}")
        domain = options.get("domain", rules.domain)
        state, task = options.get("state", rules.state), options.get("task", rules.task)
        tools = options.get("tools", rules.simulate_options.get("tools"))  # the env's own, unless reset gives some
        # The scene is checked now (domain, state, task, tools): a setup mistake is an error here, not a
        # penalty at every step. Only the action is left to judge per step.
        scene = validated_scene(simulator.context, domain, state, task, tools)
        goal = checked_goal(scene.pack, options["goal"] if "goal" in options else rules.goal)
        return cls(rules, domain, task, state, tools, seed, state or simulator.initial_state(domain), goal)

    def first_observation(self) -> str:
        return self.initial_state

    def reset_info(self) -> dict[str, Any]:
        return {"domain": self.domain, "task": self.task, "step": 0}

    async def step(self, simulator: Simulator, action: str) -> Outcome:
        options = dict(self.rules.simulate_options)
        if self.tools is not None:
            options["tools"] = self.tools
        if self.seed is not None and "seed" not in options:
            options["seed"] = self.seed + self.steps  # reproducible, yet not the same draw every step
        if self._history_full(simulator):  # the next prompt could not hold it: the episode ends here
            self.over = True
            return Outcome("", 0.0, False, True, {**self._info(None, [], None, "the history is full"),
                                                  "step": self.steps}, None)
        try:
            prediction = await simulator.simulate(self.domain, action, history=list(self.history), state=self.state,
                                                  task=self.task, **options)
        except InputError as exc:  # the scene was checked at reset: this is the action's fault, and it pays
            self.steps += 1
            return self._end(Outcome(f"error: {exc}", self.rules.invalid_action_reward, False, False,
                                     self._info(None, [], None, str(exc)), None))
        self.steps += 1
        results = prediction.constraints.results if prediction.constraints is not None else []
        violated = [result.id for result in results if result.status == "violated"]
        if prediction.blocked is None:  # a blocked action never ran: the world has no turn for it
            turn = {"action": action, "observation": prediction.observation}
            if prediction.effects.source != "computed":  # the next step must not take a prediction for a fact
                turn["source"] = "predicted"
            self.history.append(turn)
        self.violations += len(violated)
        self.succeeded_steps += prediction.effects.success is True and prediction.blocked is None
        succeeded = await self._succeeded(simulator, action, prediction) if self.rules.success else None
        self.last_success = succeeded
        reward, terminated = self.rules.score(prediction, self.history, violated, succeeded)
        observation = prediction.observation if prediction.blocked is None else prediction.blocked
        info = {**self._info(prediction, violated, succeeded, None), "reward_components": self.reward_components(simulator)}
        return self._end(Outcome(observation, reward, terminated, False, info, prediction))

    def reward_components(self, simulator: Simulator) -> dict[str, float]:
        """The episode so far, scored by the world's own checks (world_rewards.py): only the components that apply."""
        if self._scored is not None and self._scored[0] == self.steps:
            return dict(self._scored[1])
        components: dict[str, float] = {}
        if self.rules.success:
            components["success"] = 1.0 if self.last_success else 0.0
        if self.rules.has_rules:
            components["violations"] = -float(self.violations) if self.violations else 0.0
        if self.goal is not None:
            components["files"] = confirmed_share(simulator.context, simulator.domain(self.domain), self.state,
                                                  self.history, self.goal, self.rules.simulate_options.get("from_dir", ""))
        components["commands"] = self.succeeded_steps / self.steps if self.steps else 0.0
        self._scored = (self.steps, components)
        return dict(components)

    def total_reward(self, simulator: Simulator) -> float:
        """The sum of the reward components: each weighs one."""
        return sum(self.reward_components(simulator).values())

    def _history_full(self, simulator: Simulator) -> bool:
        """The history breaks the limits every call checks (tools/inputs.py), so no call could take it."""
        try:
            validated_history(simulator.context, None, self.history)
        except InputError:
            return True
        return False

    async def _succeeded(self, simulator: Simulator, action: str, prediction: Prediction) -> bool:
        if prediction.blocked is not None:
            return False
        checked = await simulator.check(self.rules.success, action=action, observation=prediction.observation,
                                        effects=prediction.effects.model_dump(mode="json"),
                                        history=self.history[:-1], domain=self.domain)
        return all(result.status == "holds" for result in checked.results)

    def _end(self, outcome: Outcome) -> Outcome:
        outcome.truncated = not outcome.terminated and self.steps >= self.rules.max_steps
        self.over = outcome.terminated or outcome.truncated
        outcome.info["step"] = self.steps
        return outcome

    def _info(self, prediction: Prediction | None, violated: list[str], succeeded: bool | None,
              error: str | None) -> dict[str, Any]:
        # Only what the same seed and action reproduce (no timings or cache counts: Gymnasium checks
        # that); the whole prediction is the env's `last_prediction`.
        return {
            "effects": prediction.effects.model_dump(mode="json") if prediction is not None else {},
            "violations": violated,
            "success": succeeded,
            "blocked": prediction.blocked if prediction is not None else None,
            "parse_error": prediction.parse_error if prediction is not None else None,
            "truncated": prediction.truncated if prediction is not None else False,
            "error": error,
        }
