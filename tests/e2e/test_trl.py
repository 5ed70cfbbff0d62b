"""TRL 1.16's own GRPOTrainer drives real episodes through trl_environment: tests/e2e/trl_training.py trains a
tiny scripted policy in the .ci/trl virtual environment against the world model on a real llama-server, and
prints what the trainer did; here we check it.

What a cancel means for TRL: GRPOTrainer has no way to stop an episode but to stop training. It calls the tools
on its own thread, one rollout after another, so a run is stopped either between tool calls (its
`max_tool_calling_iterations` ends a rollout while the episode goes on; the instance is reset for the next
batch) or in the middle of one (Ctrl-C while a step waits on the world model). Either way the episode keeps
only the steps the world answered, the model server's request is cancelled, and training starts again."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from agentworld_mcp.server.measure import llama_server

from ..third_party import REPO, TRL_INSTALL, TRL_PYTHON, installed

DRIVER = Path(__file__).with_name("trl_training.py")


@pytest.fixture(scope="module")
def trained(model_info):
    python = installed(TRL_PYTHON, TRL_INSTALL)
    with llama_server.llama_server(model_info.path, slots=4, n_ctx=4 * 4096) as server:
        done = subprocess.run([str(python), str(DRIVER), "--base-url", server.base_url], check=False, cwd=REPO,
                              capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _logged_mean(step: dict, logged: dict, name: str) -> None:
    """The trainer's logged reward for a class is the mean of its environments' get_reward()."""
    totals = [total for total, kind in zip(step["totals"], step["classes"]) if kind == name]
    assert logged[f"rewards/{name}/mean"] == pytest.approx(sum(totals) / len(totals), abs=1e-4)


def test_the_trainer_scores_each_rollout_with_the_environments_own_total(trained):
    one = trained["one"]
    assert trained["trl"] == "1.16.0"
    [step], [logged] = one["steps"], one["logs"]
    assert step["instances"] == 4, "the generation batch: four rollouts, four environments"
    # get_reward is TRL's reward source (weight 1, named after the class); the components are logged at weight 0.
    assert one["names"] == [*trained["components"], "seen_tools", "TerminalWorldModelEnv"]
    _logged_mean(step, logged, "TerminalWorldModelEnv")
    assert logged["reward"] == pytest.approx(sum(step["totals"]) / 4, abs=1e-4)
    for total, components in zip(step["totals"], step["components"]):
        assert total == pytest.approx(sum(components.values()))
        assert set(components) == {"violations", "files", "commands"}  # no success rules, so no `success`
    assert len(set(step["totals"])) > 1, "the rows' goals differ, so must the rewards"
    for name in ("violations", "files", "commands"):
        mean = sum(components[name] for components in step["components"]) / 4
        assert logged[f"rewards/{name}/mean"] == pytest.approx(mean, abs=1e-4)


def test_steps_are_computed_where_the_world_knows_and_predicted_where_it_does_not(trained):
    [step] = trained["one"]["steps"]
    by_plan = dict(zip(map(tuple, step["sources"]), step["tool_answers"]))
    # mkdir alpha, ls: computed; python3 app.py: the world model's, through the llama-server.
    assert ("computed", "computed", "predicted") in by_plan
    # The second plan runs rm -rf beta: the preset blocks it (no turn), and its answer says so.
    assert any(len(sources) == 2 for sources in step["sources"])


def test_an_episode_past_its_end_answers_over_and_the_trainer_goes_on(trained):
    [step] = trained["one"]["steps"]
    long_ones = [answers for answers in step["tool_answers"] if len(answers) == 4]
    assert long_ones and all(answers[-1] == trained["over"] for answers in long_ones)
    assert all(done for done, steps in zip(step["done"], step["steps"]) if steps == 3)


def test_worlds_are_chosen_per_row_and_each_is_scored_under_its_own_name(trained):
    mapped = trained["mapped"]
    assert mapped["names"][-2:] == ["TerminalWorldModelEnv", "RepoWorldModelEnv"]
    assert len(mapped["steps"]) == len(mapped["logs"]) == 2
    for step, logged in zip(mapped["steps"], mapped["logs"]):
        assert sorted(step["classes"]) == ["RepoWorldModelEnv"] * 2 + ["TerminalWorldModelEnv"] * 2
        _logged_mean(step, logged, "TerminalWorldModelEnv")
        _logged_mean(step, logged, "RepoWorldModelEnv")
        # The trainer stops each rollout after one tool call: the episode keeps that step and is not over.
        assert step["steps"] == [1, 1, 1, 1] and not any(step["done"])
    # The second batch reused the first's instances (TRL pools them): reset started each episode afresh.
    assert mapped["pool"] == {"terminal": 2, "repo": 2}


def test_an_interrupted_run_keeps_only_answered_steps_and_trains_again(trained):
    cancel = trained["cancel"]
    assert cancel["interrupted"], "Ctrl-C while a step waited on the world model stops trainer.train()"
    assert cancel["cancelled"] >= 1 and cancel["running_after"] == 0, "the model server's request was cancelled"
    # The interrupted step left no half turn: each episode holds exactly the steps it counted.
    assert all(episode["steps"] == episode["turns"] for episode in cancel["episodes"])
    assert cancel["went_on"]["actions"][-1] == "ls" and cancel["went_on"]["steps"] == len(cancel["went_on"]["actions"])
    [step], [logged] = cancel["again"]["steps"], cancel["again"]["logs"]
    _logged_mean(step, logged, step["classes"][0])
    assert step["steps"] == [2, 2, 2, 2]


def test_a_lost_session_is_a_clear_error(trained):
    assert [entry.get("error") for entry in trained["lost"]] == ["no episode: call reset() before the first action"] * 2
