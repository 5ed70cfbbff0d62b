"""`agentworld-mcp env serve` driven by OpenEnv's own clients: the WebSocket session protocol
(GenericEnvClient), OpenEnv's MCP tool convention (MCPToolClient), and the plain HTTP routes."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time

import httpx2
import pytest
import websockets
from openenv.core.generic_client import GenericEnvClient
from openenv.core.mcp_client import MCPToolClient

from ..served import serving

WEATHER = [{"name": "get_weather", "description": "The current weather in a city.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]


@pytest.fixture(scope="module")
def env_server(tmp_path_factory):
    log = tmp_path_factory.mktemp("openenv") / "server.log"
    with serving(["env", "serve", "--max-sessions", "2", "--max-steps", "4", "--temperature", "0", "--max-tokens",
                  "24"], log) as base:
        yield base


def test_a_session_resets_steps_and_reads_its_state(env_server):
    with GenericEnvClient(base_url=env_server).sync() as env:
        first = env.reset(task="look around", seed=3)
        assert "observation" in first.observation and first.done is False and first.reward is None
        for action in ("python3 app.py", "uname -r", "whoami"):  # lines the world cannot compute: the model answers
            result = env.step({"action": action})
            observation = result.observation
            assert isinstance(observation["observation"], str) and isinstance(result.reward, float)
            assert set(observation["effects"]) >= {"success", "error", "changed"}
            assert observation["usage"]["completion_tokens"] > 0 and observation["error"] is None
        state = env.state()
    assert state["step_count"] == 3 and state["task"] == "look around" and state["episode_id"]
    assert [turn["action"] for turn in state["history"]] == ["python3 app.py", "uname -r", "whoami"]


async def test_sessions_keep_separate_worlds_and_the_limit_is_a_clear_error(env_server):
    async def episode(name: str) -> dict:
        async with GenericEnvClient(base_url=env_server) as env:
            await env.reset()
            await env.step({"action": f"mkdir {name}"})
            await asyncio.sleep(0.5)  # both sessions are open at once
            return await env.state()

    alpha, beta = await asyncio.gather(episode("alpha"), episode("beta"))
    assert [turn["action"] for turn in alpha["history"]] == ["mkdir alpha"]
    assert [turn["action"] for turn in beta["history"]] == ["mkdir beta"]
    assert alpha["episode_id"] != beta["episode_id"]

    clients = [GenericEnvClient(base_url=env_server) for _ in range(2)]
    try:
        for client in clients:
            await client.reset()
        async with websockets.connect(env_server.replace("http", "ws") + "/ws") as third:  # over --max-sessions 2
            refusal = json.loads(await third.recv())
        assert refusal["data"]["code"] == "CAPACITY_REACHED" and refusal["data"]["max_sessions"] == 2
    finally:
        for client in clients:
            await client.close()


async def test_a_goal_scores_the_episode_by_the_worlds_own_checks(env_server):
    async with GenericEnvClient(base_url=env_server) as env:
        await env.reset(goal={"present": ["gamma/notes.txt"], "absent": ["scratch"]})
        made = await env.step({"action": "mkdir -p gamma scratch && touch gamma/notes.txt"})
        cleaned = await env.step({"action": "rmdir scratch"})
    assert made.observation["effects"]["source"] == cleaned.observation["effects"]["source"] == "computed"
    assert made.observation["reward_components"] == {"files": 0.5, "commands": 1.0}
    assert cleaned.observation["reward_components"] == {"files": 1.0, "commands": 1.0}


async def test_a_session_cancelled_mid_step_frees_its_place_and_leaves_no_world_behind(env_server):
    ws = env_server.replace("http", "ws") + "/ws"
    async with websockets.connect(ws) as socket:  # the client goes away while the model is predicting
        await socket.send(json.dumps({"type": "reset", "data": {}}))
        await socket.recv()
        await socket.send(json.dumps({"type": "step", "data": {"action": "python3 app.py"}}))
    deadline = time.monotonic() + 120  # the step may finish first; a place held for good would never come back
    while True:
        clients = [GenericEnvClient(base_url=env_server) for _ in range(2)]  # both places of --max-sessions 2
        try:
            states = [await client.state() for client in clients]
            break
        except Exception:
            assert time.monotonic() < deadline, "the cancelled session still holds its place"
            await asyncio.sleep(1)
        finally:
            for client in clients:
                await client.close()
    assert all(state["step_count"] == 0 and not state.get("history") for state in states)


async def test_an_invalid_action_is_answered_with_what_to_fix(env_server):
    """OpenEnv's clients show only the error code of an invalid message; the server sends the details."""
    async with websockets.connect(env_server.replace("http", "ws") + "/ws") as socket:
        for action, expected in (({"action": "   "}, "give the action as text"), ({"command": "ls"}, "command")):
            await socket.send(json.dumps({"type": "step", "data": action}))
            answer = json.loads(await socket.recv())
            assert answer["type"] == "error" and answer["data"]["code"] == "VALIDATION_ERROR"
            assert expected in json.dumps(answer["data"]["errors"])


def test_bad_actions_get_a_clear_error_and_the_session_lives_on(env_server):
    with GenericEnvClient(base_url=env_server).sync() as env:
        env.reset()
        with pytest.raises(RuntimeError, match="VALIDATION_ERROR"):
            env.step({"action": "   "})
        with pytest.raises(RuntimeError, match="no tools"):
            env.step({"type": "call_tool", "tool_name": "get_weather"})
        with pytest.raises(RuntimeError, match="unknown reset option 'colour'"):
            env.reset(colour="red")
        result = env.step({"action": "ls"})
        assert isinstance(result.observation["observation"], str)
        assert env.state()["step_count"] == 1


async def test_in_the_mcp_domain_the_simulated_servers_tools_are_the_agents_tools(env_server):
    async with MCPToolClient(base_url=env_server) as env:
        await env.reset(domain="mcp", tools=WEATHER)
        assert [tool.name for tool in await env.list_tools()] == ["get_weather"]
        answer = await env.call_tool("get_weather", city="Paris")
        assert isinstance(answer, str) and answer
        state = await env.state()
    assert state.step_count == 1


def test_the_plain_http_routes_answer_one_off_calls(env_server, model_info):
    reset = httpx2.post(env_server + "/reset", json={}, timeout=30)
    assert reset.status_code == 200 and reset.json()["done"] is False
    step = httpx2.post(env_server + "/step", json={"action": {"action": "ls"}}, timeout=120)
    assert step.status_code == 200 and isinstance(step.json()["observation"]["observation"], str)
    assert httpx2.post(env_server + "/step", json={"action": {}}, timeout=30).status_code == 422
    schema = httpx2.get(env_server + "/schema", timeout=30).json()
    assert {"type", "action", "tool_name", "arguments"} <= set(schema["action"]["properties"])
    assert model_info.name in httpx2.get(env_server + "/metadata", timeout=30).json()["description"]
    assert httpx2.get(env_server + "/health", headers={"Host": "attacker.example"}, timeout=5).status_code == 400


def test_another_bind_without_a_token_is_refused_before_anything_loads():
    done = subprocess.run([sys.executable, "-m", "agentworld_mcp", "env", "serve", "--host", "0.0.0.0"],
                          check=False, capture_output=True, text=True, timeout=60,
                          env={key: value for key, value in os.environ.items() if key != "AGENTWORLD_AUTH_TOKEN"})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "--auth-token" in done.stderr
