"""`agentworld-mcp env serve --api nemo-gym` driven by NeMo Gym 0.7's own package (tests/e2e/nemo_gym_driver.py,
run by the .ci/nemo-gym venv): its Environment Server runs episodes at once through a scripted agent, its
session-contract check, a lost session and a cancelled episode; then the routes' answers to bad input."""

from __future__ import annotations

import json
import subprocess
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2
import pytest

from ..served import serving
from ..third_party import REPO, installed

NEMO_GYM_PYTHON = REPO / ".ci" / "nemo-gym" / "bin" / "python"
# NeMo Gym 0.7 declares Python >= 3.13.14 and mcp < 2; its modules run on 3.11 and the resources-server
# side needs no mcp, so .ci/run installs it without its declared requirements (see there).
NEMO_GYM_INSTALL = "the nemo-gym lines of .ci/run (a venv, nemo-gym without its declared requirements, its imports)"
DRIVER = Path(__file__).with_name("nemo_gym_driver.py")
EPISODES = 6
WEATHER = [{"name": "get_weather", "description": "The current weather in a city.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]


@pytest.fixture(scope="module")
def resources_server(tmp_path_factory):
    log = tmp_path_factory.mktemp("nemo-gym") / "server.log"
    with serving(["env", "serve", "--api", "nemo-gym", "--max-sessions", "16", "--max-steps", "6", "--temperature",
                  "0", "--max-tokens", "48"], log) as base:
        yield base, log


def test_nemo_gym_runs_episodes_at_once_and_survives_a_lost_session_and_a_cancel(resources_server):
    python = installed(NEMO_GYM_PYTHON, NEMO_GYM_INSTALL)
    base, log = resources_server
    run = subprocess.run([str(python), str(DRIVER), base, str(EPISODES)], capture_output=True, text=True, timeout=240,
                         cwd=DRIVER.parent)
    assert run.returncode == 0, f"{run.stderr[-4000:]}\nserver log:\n{log.read_text()[-2000:]}"
    report = json.loads(run.stdout.strip().splitlines()[-1])

    episodes = report["episodes"]
    assert len(episodes) == EPISODES
    for index, episode in enumerate(episodes):
        # Every step is one the world computes (mkdir, cd, touch, ls in a known folder): all succeeded, and the
        # record confirms the goal's notes file and that the next episode's folder is absent from this world.
        # Episode 0 never wrote its notes file: the record shows it missing, half the goal.
        assert episode["steps"] == episode["calls"] == 4
        assert episode["components"]["commands"] == 1.0
        assert episode["components"]["files"] == (0.5 if index == 0 else 1.0)
        assert episode["reward"] == pytest.approx(sum(episode["components"].values()))
    assert report["metrics"]["groups"] == EPISODES
    key = report["metrics"]["key"]  # episode 0 met half its goal, the others all of it
    assert key["mean/files"] == pytest.approx((0.5 + EPISODES - 1) / EPISODES) and key["mean/commands"] == 1.0
    assert key["mean/reward"] == pytest.approx(sum(episode["reward"] for episode in episodes) / EPISODES)
    assert report["contract"] == "passed"
    assert report["lost"]["before"] == 200
    assert report["lost"]["act"] == report["lost"]["verify"] == report["lost"]["forged"] == 404
    assert "no such session" in report["lost"]["detail"]
    assert report["cancel"] == "cancelled" and report["generations_cancelled"] >= 1
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


def _seeded(client: httpx2.Client, name: str, task_data: dict | None = None) -> dict:
    seed = {"resources_session_id": name, "episode_id": {"rollout_id": name},
            "task_id": {"taskset": "t", "task_id": name}, "task_data": task_data or {}}
    assert client.post("/seed_session", json=seed).status_code == 200
    return {key: seed[key] for key in ("resources_session_id", "episode_id")}


def test_a_close_mid_step_cancels_the_step_and_a_disconnect_leaves_the_session_usable(resources_server):
    base, _ = resources_server
    slow = f"python3 train_{uuid.uuid4().hex[:6]}.py --epochs 50"  # predicted, and never asked before: not cached
    cancelled = httpx2.get(base + "/health").json()["generations"]["cancelled"]
    with httpx2.Client(base_url=base, timeout=120) as client, ThreadPoolExecutor(1) as pool:
        close = _seeded(client, "closed-mid-step")
        stepping = pool.submit(client.post, "/act", json={"action": slow})
        time.sleep(0.5)
        assert httpx2.post(base + "/close_session", json=close, timeout=30).status_code == 200
        answer = stepping.result(timeout=30)
        assert answer.status_code == 404 and "closed during this step" in answer.text

    with httpx2.Client(base_url=base, timeout=0.5) as client:
        _seeded(client, "disconnected")
        with pytest.raises(httpx2.TimeoutException):
            client.post("/act", json={"action": slow + " --resume"})
        client.timeout = httpx2.Timeout(60)
        began = time.monotonic()
        after = client.post("/act", json={"action": "pwd"})  # computed: answers at once unless a lock were stuck
        assert after.status_code == 200 and time.monotonic() - began < 10
        assert client.post("/observe").json()["step"] == 1  # the cancelled step never counted
    for _ in range(100):  # both cancels reach the model: its generations stop, none runs on unread
        generations = httpx2.get(base + "/health").json()["generations"]
        if generations["cancelled"] >= cancelled + 2 and generations["running"] == 0:
            break
        time.sleep(0.1)
    assert generations["cancelled"] >= cancelled + 2 and generations["running"] == 0, generations


def test_mcp_tools_are_routes_and_a_legacy_seed_ends_at_its_verify(resources_server):
    base, _ = resources_server
    with httpx2.Client(base_url=base, timeout=120) as client:
        _seeded(client, "weather", {"domain": "mcp", "tools": WEATHER, "task": "check the weather"})
        # Arguments that break the tool's schema: the mcp domain refuses them before any model call, which shows
        # the route handed the episode this tool and these arguments (a good call takes the same path to the model).
        called = client.post("/get_weather", json={"city": 5})
        assert called.status_code == 200 and called.json()["step"] == 1 and called.json()["reward"] == -1.0
        assert "get_weather" in called.json()["error"] and "input schema" in called.json()["error"]
        missing = client.post("/get_forecast", json={"city": "Paris"})
        assert missing.status_code == 404 and "no tool 'get_forecast'" in missing.text

    with httpx2.Client(base_url=base, timeout=120) as client:  # an agent's /run seeds with its dataset row
        row = {"responses_create_params": {"input": "tidy up"}, "task": "tidy up", "expected_answer": "kept as is"}
        seeded = client.post("/seed_session", json=row)
        assert seeded.status_code == 200 and seeded.json()["observation"] and client.cookies
        assert client.post("/act", json={"action": "mkdir done"}).json()["effects"]["success"] is True
        verdict = client.post("/verify", json={**row, "response": {"output": []}}).json()
        assert verdict["steps"] == 1 and verdict["expected_answer"] == "kept as is"
        assert verdict["reward"] == pytest.approx(sum(verdict["reward_components"].values()))
        assert client.post("/act", json={"action": "ls"}).status_code == 404
