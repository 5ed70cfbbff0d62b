"""An episode's reward from the world's own checks (server/api/world_rewards.py) on the real default model:
named components that only count what the world knows exactly, and a history that tells predicted turns from
real ones, so a prediction never becomes a fact the next step computes from."""

from __future__ import annotations

import pytest
from agentworld_mcp import InputError, Simulator, WorldModelEnv
from agentworld_mcp.server.api.world_rewards import Goal

from ..conftest import TEST_N_CTX

QUICK = {"temperature": 0, "max_tokens": 16}
GOAL = {"present": ["out/report.txt", "~/project"], "absent": ["tmp"]}


@pytest.fixture(scope="module")
def simulator():
    with Simulator(n_ctx=TEST_N_CTX, effects="parser") as sim:
        yield sim


def test_the_components_count_what_computed_steps_made_so(simulator):
    env = WorldModelEnv(simulator, "terminal", goal=GOAL, presets=["no-recursive-force-delete"], max_steps=8,
                        success=[{"id": "listed", "kind": "rule", "expr": "action.startsWith('ls out')"}], **QUICK)
    env.reset(seed=0)
    seen = []
    for action in ("mkdir out tmp", "touch out/report.txt", "rmdir tmp", "ls out"):
        _, _, _, _, info = env.step(action)
        assert info["effects"]["source"] == "computed"  # the world decides each of these lines
        seen.append(info["reward_components"])
    # `~/project` is where the terminal starts: present from the first step; out/report.txt once touched.
    assert [round(parts["files"], 3) for parts in seen] == [0.333, 0.667, 1.0, 1.0]
    assert all(parts["commands"] == 1.0 and parts["violations"] == 0.0 for parts in seen)
    assert [parts["success"] for parts in seen] == [0.0, 0.0, 0.0, 1.0]
    assert env.episode.total_reward(simulator) == pytest.approx(sum(seen[-1].values())) == 3.0


def test_a_predicted_step_confirms_no_file_and_teaches_the_next_step_nothing_exact(simulator):
    env = WorldModelEnv(simulator, "terminal", goal={"present": ["report.txt"]}, max_steps=4, **QUICK)
    env.reset(seed=0)
    _, _, _, _, info = env.step("curl -s -o report.txt https://example.com/report")  # the network: predicted
    assert info["effects"]["source"] != "computed"
    assert env.history[-1]["source"] == "predicted"
    assert info["reward_components"]["files"] == 0.0  # whatever the model said the script wrote


def test_a_history_turn_marked_predicted_is_not_taken_as_fact(simulator):
    wrote = {"action": "echo hi > a.txt", "observation": "dev@sandbox:~/project$ echo hi > a.txt\ndev@sandbox:~/project$"}
    real = simulator.simulate_sync("terminal", "cat a.txt", history=[wrote], **QUICK)
    assert real.effects.source == "computed" and real.observation.endswith("cat a.txt\nhi\ndev@sandbox:~/project$")
    predicted = simulator.simulate_sync("terminal", "cat a.txt", history=[{**wrote, "source": "predicted"}], **QUICK)
    assert predicted.effects.source != "computed"  # the model's screen of that step is no proof a.txt holds "hi"
    with pytest.raises(InputError, match="source must be 'real'"):
        simulator.simulate_sync("terminal", "cat a.txt", history=[{**wrote, "source": "guessed"}], **QUICK)


def test_a_goal_is_checked_before_the_first_step(simulator):
    with pytest.raises(ValueError, match="list of paths"):
        WorldModelEnv(simulator, "terminal", goal={"present": "out"})
    with pytest.raises(ValueError, match="unknown key 'exists'"):
        WorldModelEnv(simulator, "terminal", goal={"exists": ["out"]})
    with pytest.raises(ValueError, match="names no path"):
        WorldModelEnv(simulator, "terminal", goal={})
    with pytest.raises(ValueError, match="keeps no record of files"):
        WorldModelEnv(simulator, "search", goal={"present": ["out"]})
    env = WorldModelEnv(simulator, "terminal", **QUICK)
    with pytest.raises(ValueError, match="keeps no record of files"):
        env.reset(options={"domain": "web", "goal": {"present": ["x"]}})
    assert Goal.parse({"present": [" a "], "absent": ["b"]}) == Goal(("a",), ("b",))


def test_without_rules_or_a_goal_only_the_commands_component_applies(simulator):
    env = WorldModelEnv(simulator, "terminal", **QUICK)
    env.reset(seed=0)
    assert env.episode.reward_components(simulator) == {"commands": 0.0}  # before any step
    _, _, _, _, info = env.step("cat missing.txt")  # computed: the world knows the project holds no such file
    assert info["effects"]["source"] == "computed" and info["reward_components"] == {"commands": 0.0}


def test_an_episode_from_a_real_folder_is_scored_from_that_folders_snapshot(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.c").write_text("int main(void) { return 0; }\n")
    with Simulator(n_ctx=TEST_N_CTX, effects="parser", allow_dirs=[tmp_path]) as sim:
        env = WorldModelEnv(sim, "terminal", from_dir=str(tmp_path), max_steps=4,
                            goal={"present": ["src/main.c", "build"], "absent": ["src/main.o"]}, **QUICK)
        env.reset(seed=0)
        _, _, _, _, info = env.step("mkdir build")
    assert info["effects"]["source"] == "computed"
    assert info["reward_components"]["files"] == 1.0  # main.c and no main.o from the snapshot, build from the step


def test_the_step_that_fills_the_history_is_still_scored(model_info):
    with Simulator(n_ctx=TEST_N_CTX, effects="parser", max_history_chars=300) as sim:
        env = WorldModelEnv(sim, "terminal", goal={"present": ["a"]}, max_steps=10, **QUICK)
        env.reset(seed=0)
        steps = []
        while not env.episode.over:
            steps.append(env.step(f"mkdir dir{len(steps)}"))
        assert len(steps) < 10 and steps[-1][3], "the history never filled: the test proves nothing"
        assert env.episode.reward_components(sim)["files"] == 0.0  # `a` was never made
        assert all(info["reward_components"]["files"] == 0.0 for *_, info in steps if "reward_components" in info)
