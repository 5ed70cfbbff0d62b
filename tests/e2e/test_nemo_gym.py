"""`agentworld-mcp env serve --api nemo-gym` driven by NeMo Gym 0.7's own package (tests/e2e/nemo_gym_driver.py,
run by the .ci/nemo-gym venv): its Environment Server runs episodes at once through a scripted agent, its
session-contract check, a lost session and a cancelled episode; then the routes' answers to bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from agentworld_mcp.server.measure.llama_server import free_port

from ..conftest import TEST_N_CTX
from ..third_party import REPO, installed

NEMO_GYM_PYTHON = REPO / ".ci" / "nemo-gym" / "bin" / "python"
# NeMo Gym 0.7 declares Python >= 3.13.14 and mcp < 2; its modules run on 3.11 and the resources-server
# side needs no mcp, so .ci/run installs it without its declared requirements (see there).
NEMO_GYM_INSTALL = "the nemo-gym lines of .ci/run (a venv, nemo-gym without its declared requirements, its imports)"
DRIVER = Path(__file__).with_name("nemo_gym_driver.py")
EPISODES = 6


@pytest.fixture(scope="module")
def resources_server(tmp_path_factory):
    port = free_port()
    log = tmp_path_factory.mktemp("nemo-gym") / "server.log"
    command = [sys.executable, "-m", "agentworld_mcp", "env", "serve", "--api", "nemo-gym", "--port", str(port),
               "--max-sessions", "16", "--max-steps", "6", "--temperature", "0", "--max-tokens", "48"]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, env={**os.environ, "AGENTWORLD_N_CTX": str(TEST_N_CTX)}, stdout=sink,
                                   stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx2.get(base + "/health", timeout=2).status_code == 200:
                    break
            except httpx2.HTTPError:
                time.sleep(0.1)
        else:
            pytest.fail(f"env serve --api nemo-gym did not come up:\n{log.read_text()}")
        yield base, log
    finally:
        process.terminate()
        process.wait(20)


def test_nemo_gym_runs_episodes_at_once_and_survives_a_lost_session_and_a_cancel(resources_server):
    python = installed(NEMO_GYM_PYTHON, NEMO_GYM_INSTALL)
    base, log = resources_server
    run = subprocess.run([str(python), str(DRIVER), base, str(EPISODES)], capture_output=True, text=True, timeout=240,
                         cwd=DRIVER.parent)
    assert run.returncode == 0, f"{run.stderr[-4000:]}\nserver log:\n{log.read_text()[-2000:]}"
    report = json.loads(run.stdout.strip().splitlines()[-1])

    episodes = report["episodes"]
    assert len(episodes) == EPISODES
    for episode in episodes:
        # Every step is one the world computes (mkdir, cd, touch, ls in a known folder): all succeeded, and the
        # record confirms the goal's notes file and that the next episode's folder is absent from this world.
        assert episode["steps"] == episode["calls"] == 4
        assert episode["components"]["commands"] == 1.0 and episode["components"]["files"] == 1.0
        assert episode["reward"] == pytest.approx(sum(episode["components"].values()))
    assert report["contract"] == "passed"
    assert report["lost"]["before"] == 200
    assert report["lost"]["act"] == report["lost"]["verify"] == report["lost"]["forged"] == 404
    assert "no such session" in report["lost"]["detail"]
    assert report["cancel"] == "cancelled"
    assert report["after_cancel"]["files"] == 1.0
    assert report["open_after_episodes"] == report["open_after_cancel"] == report["open_at_end"] == 0


@pytest.mark.parametrize(("path", "body", "status", "says"), [
    ("/seed_session", "not json", 400, "not JSON"),
    ("/seed_session", [1, 2], 422, "JSON object"),
    ("/seed_session", {"resources_session_id": "x", "episode_id": {"rollout_id": "r"}}, 422, "task_id"),
    ("/seed_session", {"resources_session_id": "y", "episode_id": {"rollout_id": "r"},
                       "task_id": {"taskset": "t", "task_id": "1"}, "task_data": {"domain": "nowhere"}}, 422,
     "unknown domain"),
    ("/act", {"action": "ls"}, 404, "no such session"),
    ("/verify", {}, 404, "no such session"),
    ("/close_session", {"resources_session_id": "never", "episode_id": {"rollout_id": "r"}}, 200,
     "never"),
])
def test_bad_input_gets_a_clear_answer(resources_server, path, body, status, says):
    base, _ = resources_server
    content = body if isinstance(body, str) else json.dumps(body)
    answer = httpx2.post(base + path, content=content, headers={"content-type": "application/json"}, timeout=30)
    assert answer.status_code == status and says in answer.text


def test_a_seed_reused_for_another_episode_and_an_action_missing_are_refused(resources_server):
    base, _ = resources_server
    seed = {"resources_session_id": "reused", "episode_id": {"rollout_id": "first"},
            "task_id": {"taskset": "t", "task_id": "1"}, "task_data": {}}
    with httpx2.Client(base_url=base, timeout=30) as client:
        assert client.post("/seed_session", json=seed).status_code == 200
        assert client.post("/act", json={}).status_code == 422
        other = client.post("/seed_session", json={**seed, "episode_id": {"rollout_id": "second"}})
        assert other.status_code == 409 and "another episode" in other.text
        wrong = client.post("/close_session", json={"resources_session_id": "reused",
                                                    "episode_id": {"rollout_id": "second"}})
        assert wrong.status_code == 409
        assert client.post("/close_session", json={"resources_session_id": "reused",
                                                   "episode_id": {"rollout_id": "first"}}).status_code == 200
