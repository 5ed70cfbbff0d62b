"""A world-model environment in the shape TRL's GRPOTrainer takes as `environment_factory`.

    Env = trl_environment(Simulator(base_url=...), "terminal", max_steps=8)
    trainer = GRPOTrainer(..., environment_factory=Env,
                          reward_funcs=[lambda environments, **_: [env.reward for env in environments]])

The trainer builds the class with no arguments, calls `reset(**row)` with each dataset row (its
`task`, `state` and, for mcp, `tools` set the episode; other columns are ignored), and offers the
class's public methods to the policy as tools. The one tool here is `act(action)`: its docstring
gives the domain's action format under `Args:`, and it returns the predicted observation. Scoring
and ending follow WorldModelEnv's rules (server/api/episodes.py); `reward` is the episode's total
so far and `done` says it ended. TRL itself is not a dependency.
"""

from __future__ import annotations

from typing import Any

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
    WorldModelToolEnv.__name__ = WorldModelToolEnv.__qualname__ = f"{domain.title()}WorldModelEnv"
    WorldModelToolEnv.__doc__ = f"The {pack.title}, simulated by the world model, as a TRL environment."
    return WorldModelToolEnv
