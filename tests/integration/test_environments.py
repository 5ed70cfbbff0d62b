"""The RL environments on the real default model: WorldModelEnv passes Gymnasium's own checker,
WorldModelVectorEnv keeps N episodes apart and resets them as Gymnasium's modes say, rules give
rewards and end episodes, and the TRL class works the way GRPOTrainer drives it."""

from __future__ import annotations

import inspect
import json

import numpy as np
import pytest
from agentworld_mcp import InputError, Simulator, WorldModelEnv, WorldModelVectorEnv
from agentworld_mcp.server.api.gym_env import failure_penalty
from agentworld_mcp.server.api.python_api import run_sync
from agentworld_mcp.server.api.trl_env import OVER, trl_environment
from agentworld_mcp.tools.results import Effects, Prediction, Usage

from ..conftest import TEST_N_CTX

QUICK = {"temperature": 0, "max_tokens": 16}
LISTED = [{"id": "listed", "kind": "rule", "expr": "action.startsWith('ls')"}]  # decided by the action alone


@pytest.fixture(scope="module")
def simulator():
    with Simulator(n_ctx=TEST_N_CTX, effects="parser") as sim:
        yield sim


def test_the_env_keeps_history_scores_with_a_custom_reward_and_truncates(simulator):
    rewards = []

    def reward(prediction, history):
        rewards.append(len(history))
        return 0.5

    env = WorldModelEnv(simulator, "terminal", task="look around", reward_fn=reward, max_steps=2, **QUICK)
    observation, info = env.reset(seed=1)
    assert observation == simulator.initial_state("terminal") and isinstance(info, dict)
    outcomes = []
    for action in ("ls", "pwd"):
        observation, score, terminated, truncated, info = env.step(action)
        assert isinstance(observation, str) and isinstance(score, float)
        assert isinstance(terminated, bool) and isinstance(truncated, bool) and isinstance(info, dict)
        assert isinstance(env.last_prediction, Prediction) and observation == env.last_prediction.observation
        assert info["step"] == len(env.history) and set(info["effects"]) >= {"success", "error", "changed"}
        outcomes.append((score, terminated, truncated, len(env.history)))
    assert outcomes == [(0.5, False, False, 1), (0.5, False, True, 2)]
    assert rewards == [1, 2] and [turn["action"] for turn in env.history] == ["ls", "pwd"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step("whoami")
    try:
        import gymnasium
    except ImportError:
        return
    assert isinstance(env, gymnasium.Env) and env.action_space.contains("ls -la")


def test_the_env_starts_from_a_given_state_and_ends_when_done_fn_says_so(simulator):
    env = WorldModelEnv(simulator, "terminal", state="dev@box:~$", done_fn=lambda p, h: True, **QUICK)
    assert env.reset()[0] == "dev@box:~$"
    _, score, terminated, truncated, _ = env.step("ls")
    assert terminated and not truncated and score in (0.0, -1.0)


def test_the_default_reward_penalises_a_predicted_failure():
    def outcome(success):
        return Prediction(observation="", effects=Effects(success=success, source="parser"), parse_error=None,
                          truncated=False, usage=Usage.nothing(), model=None)

    assert [failure_penalty(outcome(s), []) for s in (True, None, False)] == [0.0, 0.0, -1.0]


def test_the_env_passes_gymnasiums_env_checker(simulator):
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    # Random actions of up to 64 printable characters: the env must answer each, valid or not.
    env = WorldModelEnv(simulator, "terminal", max_steps=5, max_action_chars=64, **QUICK)
    assert isinstance(env, gymnasium.Env)
    check_env(env, skip_render_check=True)


def test_reset_options_set_the_episode_and_bad_ones_are_refused_at_reset(simulator):
    env = WorldModelEnv(simulator, "terminal", **QUICK)
    observation, info = env.reset(options={"state": "ops@db:/srv$", "task": "check the disk"})
    assert observation == "ops@db:/srv$" and info["task"] == "check the disk"
    with pytest.raises(ValueError, match="statee"):
        env.reset(options={"statee": "x"})
    with pytest.raises(InputError, match="unknown domain"):  # a setup mistake, not a penalty at every step
        env.reset(options={"domain": "terminl", "state": "x$"})
    with pytest.raises(ValueError, match="history limit"):
        WorldModelEnv(simulator, "terminal", max_steps=simulator.settings.max_history_turns + 1)


def test_rules_reward_violations_and_success_ends_the_episode(simulator):
    env = WorldModelEnv(simulator, "terminal", presets=["no-recursive-force-delete"], success=LISTED, **QUICK)
    env.reset(seed=0)
    observation, reward, terminated, truncated, info = env.step("rm -rf build")
    assert info["blocked"] and observation == info["blocked"] and info["violations"] == ["no-recursive-force-delete"]
    assert reward == -1.0 and not terminated and env.history == []  # a blocked action never ran
    observation, reward, terminated, truncated, info = env.step("ls -la")
    assert info["success"] is True and terminated and not truncated and reward == 1.0
    assert [turn["action"] for turn in env.history] == ["ls -la"]


def test_an_action_the_domain_refuses_is_an_error_observation_not_a_crash(simulator):
    env = WorldModelEnv(simulator, "terminal", max_steps=2, **QUICK)
    env.reset()
    observation, reward, terminated, truncated, info = env.step("x" * (simulator.settings.max_action_chars + 1))
    assert observation.startswith("error: ") and info["error"] and reward == -1.0
    assert not terminated and not truncated and env.history == []
    *_, truncated, _ = env.step("pwd")
    assert truncated  # a refused action still counts toward max_steps


def test_the_vector_env_keeps_each_episode_apart_and_autoresets_at_the_next_step(simulator):
    envs = WorldModelVectorEnv(simulator, "terminal", num_envs=3, max_steps=2, **QUICK)
    states = ["a@one:~$", "b@two:~$", "c@three:~$"]
    observations, infos = envs.reset(seed=7, options={"state": states})
    assert observations == tuple(states) and list(infos["step"]) == [0, 0, 0] and infos["_step"].all()
    first = ["ls", "pwd", "whoami"]
    observations, rewards, terminations, truncations, infos = envs.step(first)
    assert len(observations) == 3 and rewards.dtype == np.float64 and not truncations.any()
    assert [[turn["action"] for turn in history] for history in envs.histories] == [[a] for a in first]
    observations, rewards, terminations, truncations, infos = envs.step(["cd /", "date", "id"])
    assert truncations.all() and list(infos["step"]) == [2, 2, 2]
    assert [h[1]["action"] for h in envs.histories] == ["cd /", "date", "id"]
    # next_step: this step only resets (each env to its own state); its actions are not taken
    observations, rewards, terminations, truncations, infos = envs.step(["echo x", "echo y", "echo z"])
    assert observations == tuple(states) and not rewards.any() and envs.histories == [[], [], []]


def test_the_vector_env_same_step_mode_returns_the_final_observation_in_infos(simulator):
    envs = WorldModelVectorEnv(simulator, "terminal", num_envs=2, max_steps=1, autoreset_mode="same_step", **QUICK)
    envs.reset(options={"state": "me@here:~$"})
    observations, rewards, terminations, truncations, infos = envs.step(["ls", "pwd"])
    assert truncations.all() and observations == ("me@here:~$", "me@here:~$")
    assert infos["_final_obs"].all() and all(isinstance(text, str) for text in infos["final_obs"])
    assert infos["_final_info"].all() and list(infos["final_info"]["step"]) == [1, 1]  # Gymnasium's nested form
    with pytest.raises(ValueError, match="2 actions"):
        envs.step(["ls"])


def test_the_trl_class_works_the_way_the_trainer_calls_it(simulator):
    environment_class = trl_environment(simulator, "terminal", max_steps=3, success=LISTED, **QUICK)
    env = environment_class()  # the trainer builds it with no arguments
    tools = [name for name, _ in inspect.getmembers(env, inspect.ismethod) if not name.startswith("_")]
    assert sorted(tools) == ["act", "get_reward", "reset"]  # reset and get_reward are the trainer's; act is a tool
    assert "Args:\n    action: " in env.act.__doc__ and "Returns:" in env.act.__doc__
    assert env.reset(prompt=[{"role": "user", "content": "list"}], task="list the files", state="dev@box:~$") == "dev@box:~$"
    assert isinstance(env.act("pwd"), str) and not env.done and env.reward == 0.0
    env.act("ls")
    assert env.done and env.reward == 1.0  # the success rule held
    assert env.act("whoami") == OVER
    env.reset()
    assert not env.done and env.reward == 0.0 and env.episode.history == []


def test_an_mcp_episode_takes_its_tools_from_the_reset_options(simulator):
    tools = [{"name": "close_issue", "description": "Close one issue.",
              "inputSchema": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}}]
    env = WorldModelEnv(simulator, "mcp", **QUICK)
    with pytest.raises(InputError, match="tool definitions"):
        env.reset()  # an mcp episode needs the simulated server's tools, here or in the env's own options
    assert WorldModelEnv(simulator, "mcp", tools=tools, **QUICK).reset()[1]["step"] == 0
    env.reset(options={"tools": tools, "task": "close issue 7"})
    observation, reward, _, _, info = env.step('{"name": "close_issue", "arguments": {"id": 7}}')
    assert info["error"] is None and isinstance(observation, str)
    observation, reward, _, _, info = env.step('{"name": "delete_repo", "arguments": {}}')  # not a tool it has
    assert observation.startswith("error: ") and "delete_repo" in info["error"] and reward == -1.0
    assert [turn["action"] for turn in env.history] == ['{"name": "close_issue", "arguments": {"id": 7}}']


def test_the_vector_env_with_autoreset_disabled_resets_only_the_masked_envs(simulator):
    envs = WorldModelVectorEnv(simulator, "terminal", num_envs=2, max_steps=1, autoreset_mode="disabled", **QUICK)
    envs.reset(options={"state": ["one$", "two$"]})
    *_, truncations, _ = envs.step(["ls", "pwd"])
    assert truncations.all()
    with pytest.raises(RuntimeError, match="reset_mask"):
        envs.step(["ls", "pwd"])
    observations, infos = envs.reset(options={"reset_mask": [True, False]})
    assert observations[0] == "one$" and list(infos["_step"]) == [True, False]
    assert envs.histories[0] == [] and [turn["action"] for turn in envs.histories[1]] == ["pwd"]


def test_more_episodes_than_slots_keep_reusing_their_cached_prompts(model_info):
    """On llama-server with 2 slots, 4 episodes stepped together reuse as large a share of their prompt
    tokens from the server's caches as 2 do: conversations beyond the slots cost no reuse."""
    from agentworld_mcp.server.measure import llama_server

    try:
        server = llama_server.start(model_info.path, slots=2, n_ctx=2 * TEST_N_CTX)
    except llama_server.LlamaServerMissing as exc:
        pytest.skip(str(exc))
    try:
        # Every step the model's (`mkdir few0` would be computed): this measures the server's prompt reuse.
        with Simulator(base_url=server.base_url, effects="parser", result_cache=0, n_ctx=TEST_N_CTX,
                       computed="off") as sim:
            run_sync(sim.simulate("terminal", "true", **QUICK))  # the system prompt is cached before either side

            def reuse(count: int, name: str) -> float:
                before = sim.context.engine.stats()
                envs = WorldModelVectorEnv(sim, "terminal", num_envs=count, max_steps=3, **QUICK)
                envs.reset(seed=0)
                for step in range(3):
                    envs.step([[f"mkdir {name}{index}", f"cd {name}{index}", "ls"][step] for index in range(count)])
                after = sim.context.engine.stats()
                read = after.prompt_tokens - before.prompt_tokens
                return (after.reused_prompt_tokens - before.reused_prompt_tokens) / read

            within, beyond = reuse(2, "few"), reuse(4, "many")
            assert sim.context.engine.stats().backend["slot_pinning"]
    finally:
        server.stop()
    assert beyond >= within - 0.02, (within, beyond)


def test_an_mcp_trl_class_offers_the_simulated_servers_tools_as_its_methods(simulator):
    tools = [{"name": "close-issue", "description": "Close one issue.",
              "inputSchema": {"type": "object", "required": ["id"], "properties": {
                  "reason": {"type": "string", "description": "why it is closed"},
                  "id": {"type": "integer", "description": "the issue number"}}}}]
    env = trl_environment(simulator, "mcp", tools=tools, max_steps=2, **QUICK)()
    methods = [name for name, _ in inspect.getmembers(env, inspect.ismethod) if not name.startswith("_")]
    assert sorted(methods) == ["close_issue", "get_reward", "reset"]  # the tool replaces `act`
    signature = inspect.signature(env.close_issue)
    assert list(signature.parameters) == ["id", "reason"] and signature.parameters["reason"].default is None
    assert signature.parameters["id"].annotation is int and signature.return_annotation is str
    assert "Args:\n    reason: why it is closed\n    id: the issue number" in env.close_issue.__doc__
    env.reset(task="close issue 7")
    assert isinstance(env.close_issue(id=7), str)
    assert json.loads(env.episode.history[0]["action"]) == {"name": "close-issue", "arguments": {"id": 7}}
