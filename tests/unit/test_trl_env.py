"""The TRL environment's reward and mapping, as TRL 1.16 reads them, on computed steps only (no model loads).
TRL's own trainer drives it in tests/e2e/test_trl.py."""

from __future__ import annotations

import inspect
import re

import pytest

from agentworld_mcp import Simulator
from agentworld_mcp.server.api.trl_env import (
    COMPONENTS,
    NOT_STARTED,
    OVER,
    trl_component_rewards,
    trl_environment,
    trl_environments,
)


@pytest.fixture(scope="module")
def sim():
    with Simulator(n_ctx=4096) as simulator:
        yield simulator


def _tools(environment_class: type) -> list[str]:
    """What TRL 1.16 offers the policy: the class's public functions but reset and get_reward."""
    return [name for name, _ in inspect.getmembers(environment_class, predicate=inspect.isfunction)
            if name not in ("reset", "get_reward") and not name.startswith("_")]


def test_the_reward_is_the_worlds_own_checks_and_no_tool(sim):
    Terminal = trl_environment(sim, "terminal", max_steps=2, presets=["no-recursive-force-delete"],
                               goal={"present": ["made"], "absent": ["README.md"]})
    assert _tools(Terminal) == ["act"], "get_reward and reward_components must not become the policy's tools"
    env = Terminal()
    env.reset(prompt=[{"role": "user", "content": "make it"}])  # TRL passes the whole row: other columns are ignored
    env.act("mkdir made")
    env.act("rm README.md")
    assert env.done and env.act("ls") == OVER
    assert env.reward_components == {"violations": 0.0, "files": 1.0, "commands": 1.0}
    assert env.get_reward() == 2.0 == env.episode.total_reward(sim)
    assert env.last_prediction is not None and env.last_prediction.effects.source == "computed"
    env.reset(goal={"present": ["elsewhere"]})  # a row's goal replaces the class's; the instance starts afresh
    assert env.reward_components == {"violations": 0.0, "files": 0.0, "commands": 0.0} and not env.done


def test_a_lost_session_is_a_clear_error_and_a_bad_row_keeps_the_episode(sim):
    env = trl_environment(sim, "terminal")()
    for call in (lambda: env.act("ls"), env.get_reward):
        with pytest.raises(RuntimeError, match=re.escape(NOT_STARTED)):
            call()
    assert env.reward_components == {}
    env.reset()
    env.act("mkdir kept")
    with pytest.raises(ValueError, match="goal"):
        env.reset(goal={"present": "not a list"})
    assert env.episode.steps == 1


def test_component_rewards_read_the_environments_trl_passes(sim):
    functions = trl_component_rewards()
    assert [function.__name__ for function in functions] == list(COMPONENTS)
    env = trl_environment(sim, "terminal", success=[{"id": "made", "kind": "rule", "expr": "action.startsWith('mkdir')"}])()
    env.reset()
    env.act("mkdir x")
    other = object()  # another environment of a multi-environment run: its components do not apply
    scored = {function.__name__: function(prompts=[], completions=[], environments=[env, other]) for function in functions}
    assert scored == {"success": [1.0, None], "violations": [0.0, None], "files": [None, None], "commands": [1.0, None]}
    with pytest.raises(ValueError, match="unknown reward component 'speed'"):
        trl_component_rewards("files", "speed")
    with pytest.raises(ValueError, match="environment_factory"):
        functions[0](prompts=[], completions=[])


def test_a_mapping_of_worlds_names_each_class_after_its_key(sim):
    worlds = trl_environments(sim, {"tidy-up": {"domain": "terminal", "goal": {"absent": ["build"]}},
                                    "repo": {"domain": "swe", "max_steps": 3}})
    assert {key: world.__name__ for key, world in worlds.items()} == {"tidy-up": "TidyUpWorldModelEnv",
                                                                       "repo": "RepoWorldModelEnv"}
    for bad, message in (({}, "at least one world"), ({"": {"domain": "terminal"}}, "environment"),
                         ({"a": {"max_steps": 3}}, "domain"), ({"a": {"domain": "terminal", "max_steps": 0}}, "max_steps"),
                         ({"a": {"domain": "terminal"}, "A": {"domain": "terminal"}}, "distinct"),
                         ({"a": {"domain": "os", "goal": {"present": ["x"]}}}, "no record of files")):
        with pytest.raises(ValueError, match=message):
            trl_environments(sim, bad)
