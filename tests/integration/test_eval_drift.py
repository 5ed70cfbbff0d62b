"""`eval drift`: a real sandboxed shell, the shipped scenarios repeat on this machine, planted
predictions score the right way, and the command reports three modes with the real model."""

from __future__ import annotations

import json
import subprocess

import pytest

from agentworld_mcp.server.evals.drift import Scenario, load_scenarios, predicted_output, real_screens, run_for_real, score_step
from agentworld_mcp.server.evals.make_scenarios import SHIPPED
from agentworld_mcp.server.evals.sandbox import Executed, ShellSandbox, network_isolation_available
from agentworld_mcp.tools.results import Effects, Prediction

MARKERS = ("No such file", "command not found", "Error")


def test_the_sandbox_is_a_real_shell_that_keeps_its_state_and_its_limits():
    with ShellSandbox(step_timeout=3) as shell:
        assert shell.initial_prompt == "dev@sandbox:~/project$ "
        assert shell.run("mkdir logs && cd logs").prompt == "dev@sandbox:~/project/logs$ "
        assert shell.run("pwd") == Executed("/home/dev/project/logs\n", 0, "dev@sandbox:~/project/logs$ ")
        assert shell.run("cat nope") == Executed("cat: nope: No such file or directory\n", 1, "dev@sandbox:~/project/logs$ ")
        assert shell.run("printf 'no newline'").output == "no newline"
        assert shell.run("cat").output == ""  # stdin is /dev/null: nothing waits for input
        if network_isolation_available():
            reach = shell.run("python3 -c 'import socket; socket.create_connection((\"1.1.1.1\", 53), 2)'")
            assert reach.status != 0 and "unreachable" in reach.output.lower()
        stuck = shell.run("sleep 10")
        assert stuck.status == 124 and "no answer within 3 s" in stuck.output


@pytest.mark.parametrize("scenario", load_scenarios(SHIPPED), ids=lambda s: s.id)
def test_the_shipped_scenarios_repeat_for_real_on_this_machine(scenario):
    assert run_for_real(scenario) == scenario


def _prediction(screen: str, success: bool | None = None) -> Prediction:
    """Only what scoring reads: the predicted screen and the effects' verdict."""
    return Prediction.model_construct(observation=screen, effects=Effects(success=success, source="parser"))


def test_a_prediction_that_matches_reality_does_not_diverge_and_a_wrong_one_does():
    scenario = Scenario("s", "", ("cd notes", "cat todo.txt"),
                        (Executed("", 0, "dev@sandbox:~/project/notes$ "),
                         Executed("cat: todo.txt: No such file or directory\n", 1, "dev@sandbox:~/project/notes$ ")),
                        "dev@sandbox:~/project$ ")
    screens = real_screens(scenario)
    assert screens[1] == ("dev@sandbox:~/project$ cd notes\ndev@sandbox:~/project/notes$ cat todo.txt\n"
                          "cat: todo.txt: No such file or directory\ndev@sandbox:~/project/notes$")
    assert predicted_output(screens[1], "cat todo.txt") == "cat: todo.txt: No such file or directory"
    right = score_step(2, _prediction(screens[1]), "cat todo.txt", scenario.real[1], MARKERS, 0.6)
    assert right.similarity == 1.0 and right.outcome_agrees and not right.diverged
    wrong_screen = "dev@sandbox:~/project/notes$ cat todo.txt\nbuy milk\ndev@sandbox:~/project/notes$"
    wrong = score_step(2, _prediction(wrong_screen), "cat todo.txt", scenario.real[1], MARKERS, 0.6)
    assert wrong.similarity < 0.6 and not wrong.outcome_agrees and wrong.diverged
    said_it_failed = score_step(2, _prediction(wrong_screen, success=False), "cat todo.txt", scenario.real[1], MARKERS, 0.6)
    assert said_it_failed.outcome_agrees  # the effects' verdict wins over reading the screen


def test_the_command_compares_three_modes_with_the_real_model(tmp_path, server_argv, server_env):
    done = subprocess.run([*server_argv, "eval", "drift", "--limit", "1", "--max-tokens", "16", "--out", str(tmp_path)],
                          env=server_env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("| mode |")
    report = json.loads((tmp_path / "drift.json").read_text())
    steps = len(load_scenarios(SHIPPED)[0].actions)
    assert set(report["modes"]) == {"teacher_forced", "closed_loop", "anchored"}
    for figures in report["modes"].values():
        assert figures["steps"] == steps and 0 <= figures["similarity"] <= 1
        curve = figures["diverged_by_step"]
        assert len(curve) == steps and curve == sorted(curve)  # once diverged, a scenario stays diverged
        assert figures["first_divergence"][0] in (None, *range(1, steps + 1))
    assert set(report["anchoring"]) == {"similarity_gain", "diverged_steps_reduction"}
    assert report["reality"] == "recorded" and report["anchor_every"] == 2


def test_a_broken_scenarios_file_is_one_line_and_exit_2(tmp_path, server_argv, server_env):
    broken = tmp_path / "s.jsonl"
    broken.write_text('{"id": "x"}\n')
    done = subprocess.run([*server_argv, "eval", "drift", str(broken)], env=server_env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "s.jsonl:1: a scenario needs id and actions" in done.stderr
