"""The verifiers 0.4 taskset (client_examples/verifiers/agentworld_world) driven by verifiers itself
against a real `agentworld-mcp serve --transport http`: its eval CLI `vf-eval` runs many rollouts at
once, each one world; its Python API cancels one mid-step. verifiers lives in .ci/verifiers (it pins
mcp==2.0.0, this project needs mcp>=2.3), so it runs as a program, never imported here.

The policy is scripted (an OpenAI-compatible endpoint answering with the next action) where the test
asserts exact results, which the world COMPUTES; the real small model plays it where only invariants
can be asserted.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from agentworld_mcp.server.measure import llama_server
from agentworld_mcp.server.measure.scripted_policy import scripted_policy
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from ..conftest import TEST_N_CTX
from ..doc_examples import blocks
from ..served import serving
from ..third_party import REPO, VERIFIERS, VERIFIERS_INSTALL, installed

pytestmark = pytest.mark.e2e

TOKEN = "verifiers-test-token-0123456789"
EMPTY_SITE = "Working folder: /home/dev/site\n/home/dev/site is empty\nThe screen shows a fresh prompt: dev@sandbox:~/site$"
ACTIONS = ["mkdir notes", "touch notes/todo.txt", "rm -rf notes", "ls notes"]
COMPONENTS = {"success", "violations", "files", "commands"}


@pytest.fixture(scope="module")
def small_model(model_info):
    """The small GGUF on a real llama-server: the world model of every world here, and one test's policy."""
    installed(VERIFIERS, VERIFIERS_INSTALL)
    with llama_server.llama_server(model_info.path, slots=4, n_ctx=4 * TEST_N_CTX, extra=("--jinja",)) as model:
        yield model


@pytest.fixture(scope="module")
def world_server(tmp_path_factory, small_model):
    folder = tmp_path_factory.mktemp("verifiers-server")
    with serving(["serve", "--transport", "http", "--base-url", small_model.base_url], folder / "server.log",
                 {"AGENTWORLD_AUTH_TOKEN": TOKEN, "AGENTWORLD_DATA_DIR": str(folder / "data")}) as base:
        yield base + "/mcp"


async def _call(url: str, tool: str, arguments: dict) -> dict:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
    async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
        result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return result.structured_content


async def _worlds(url: str) -> list[dict]:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
    async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
        listed = await client.read_resource("world://list")
    return json.loads(listed.contents[0].text)


def _tasks(folder: Path, *rows: dict) -> Path:
    path = folder / "tasks.jsonl"
    path.write_text("".join(json.dumps({"state": EMPTY_SITE, **row}) + "\n" for row in rows))
    return path


def _verifiers_env() -> dict[str, str]:
    # The harness's chat program runs through uv, found on PATH beside vf-eval.
    return {**os.environ, "AGENTWORLD_AUTH_TOKEN": TOKEN, "PATH": f"{VERIFIERS.parent}:{os.environ['PATH']}",
            "NO_COLOR": "1"}


def _vf_eval(folder: Path, server: str, policy: str, tasks: Path, *flags: str, timeout: float = 150) -> list[dict]:
    """Run verifiers' own eval CLI; the episodes it wrote (traces.jsonl)."""
    out = folder / "out"
    command = [str(VERIFIERS), "agentworld_world", "-m", "policy", "--client.base-url", policy,
               "--client.api-key-var", "AGENTWORLD_POLICY_KEY", "--env.agent.runtime.type", "subprocess",
               "--env.taskset.tasks", str(tasks), "--env.taskset.task.server-url", server,
               "--no-rich", "--no-push", "-o", str(out), *flags]
    done = subprocess.run(command, check=False, cwd=folder, env=_verifiers_env(), capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (traces,) = out.glob("*/traces.jsonl")
    return [json.loads(line) for line in traces.read_text().splitlines()]


def _rewards(trace: dict) -> dict[str, float]:
    return {name: reward["score"] for name, reward in trace["rewards"].items()}


async def test_vf_eval_runs_rollouts_at_once_each_scored_by_its_own_world(world_server, tmp_path):
    # A start world of one step (a folder `notes`): its task's rollouts each fork it.
    start = (await _call(world_server, "world", {"operation": "open", "domain": "terminal", "state": EMPTY_SITE}))
    await _call(world_server, "simulate_action", {"world_id": start["world_id"], "action": "mkdir notes", "commit": True})
    tasks = _tasks(tmp_path,
                   {"id": "forked", "prompt": "Go on from the start world.", "start_world": start["world_id"],
                    "start_step": 1, "goal": {"absent": ["/home/dev/site/notes"]}},
                   {"id": "guarded", "prompt": "Keep notes in notes/todo.txt.", "max_steps": 6,
                    "goal": {"present": ["notes/todo.txt"], "absent": ["draft.txt"]},
                    "presets": ["no-recursive-force-delete"],
                    "success": [{"id": "listed", "kind": "rule", "expr": "action.startsWith('ls')"}]},
                   {"id": "open", "prompt": "Write report.txt.", "max_steps": 6, "goal": {"present": ["report.txt"]}})
    with scripted_policy(ACTIONS) as (policy_url, policy):
        episodes = _vf_eval(tmp_path, world_server, policy_url, tasks, "-r", "2", "-c", "6")
    assert len(episodes) == 6 and all(episode["ok"] for episode in episodes), [e["errors"] for e in episodes]
    assert all({tool["function"]["name"] for tool in body["tools"]} == {"act"} for body in policy.requests)
    traces = {task: [episode["traces"][0] for episode in episodes if episode["task"]["data"]["id"] == task]
              for task in ("guarded", "open", "forked")}
    for trace in traces["guarded"]:
        # The preset blocks `rm -rf notes` (never committed); ls is the success rule's action; both goal paths
        # are as wanted, as the world computed them.
        assert _rewards(trace) == {"success": 1.0, "violations": -1.0, "files": 1.0, "commands": 0.75}
        world = trace["info"]["world"]
        assert [step["source"] for step in world["steps"]] == ["computed", "computed", "none", "computed"]
        assert world["start_dir"] == "/home/dev/site" and world["lost"] is None
    for trace in traces["open"]:
        # No rules: rm -rf runs, so `ls notes` fails; report.txt was never written.
        assert _rewards(trace) == {"files": 0.0, "commands": 0.75}  # no rules: no violations component
        assert [step["success"] for step in trace["info"]["world"]["steps"]] == [True, True, True, False]
    for trace in traces["forked"]:
        # `notes` is there from the start world: mkdir fails, rm -rf removes it, ls then fails.
        assert _rewards(trace) == {"files": 1.0, "commands": 0.5}
        fork = await _call(world_server, "world", {"operation": "get", "world_id": trace["info"]["world"]["world_id"]})
        assert fork["parent_id"] == start["world_id"] and fork["forked_at"] == 1 and fork["closed"]
    world_ids = [trace["info"]["world"]["world_id"] for group in traces.values() for trace in group]
    assert len(set(world_ids)) == 6  # one world per rollout
    seen = await _call(world_server, "world", {"operation": "get", "world_id": world_ids[0]})
    assert seen["closed"] and [step["action_text"] for step in seen["steps"]] == ["mkdir notes", "touch notes/todo.txt",
                                                                                  "ls notes"]
    listed = {world["world_id"]: world for world in await _worlds(world_server)}
    assert all(listed[world_id]["closed"] for world_id in world_ids)


async def test_a_lost_world_ends_its_rollout_and_an_unknown_start_world_is_a_clear_error(world_server, tmp_path):
    prompt = "Make notes; the world will be closed under you."

    def close_the_world(done: int) -> None:
        if done == 1:  # after the first step: close the world behind the rollout's back
            for world in asyncio.run(_worlds(world_server)):
                if world["task"] == prompt and not world["closed"]:
                    asyncio.run(_call(world_server, "world", {"operation": "close", "world_id": world["world_id"]}))

    tasks = _tasks(tmp_path, {"id": "lost", "prompt": prompt, "goal": {"present": ["notes"]}},
                   {"id": "unknown", "prompt": "Fork a world that is not there.", "start_world": "w_000000000000"})
    with scripted_policy(ACTIONS, before_reply=close_the_world) as (policy_url, _):
        episodes = {episode["task"]["data"]["id"]: episode
                    for episode in _vf_eval(tmp_path, world_server, policy_url, tasks, "-c", "2")}
    lost = episodes["lost"]["traces"][0]
    assert lost["info"]["world"]["lost"].endswith("is closed; fork it to continue from its history")
    assert len(lost["info"]["world"]["steps"]) == 1 and lost["stop_condition"] == "world_over"
    assert _rewards(lost) == {"files": 0.0, "commands": 1.0}  # a world that is gone confirms no path
    unknown = episodes["unknown"]
    assert not unknown["ok"]
    assert "unknown world 'w_000000000000'" in json.dumps(unknown["traces"][0]["errors"])


def test_a_rollout_cancelled_mid_step_closes_its_world(world_server, tmp_path):
    # `python3 app.py` is a step the world cannot compute: the world model predicts it, which takes a while.
    with scripted_policy(["mkdir notes", "python3 app.py", "ls"]) as (policy_url, _):
        done = subprocess.run(
            [str(VERIFIERS.parent / "python"), str(REPO / "scripts" / "verifiers_episodes.py"), "cancel",
             "--server", world_server, "--policy", policy_url, "--after", "2", "--delay", "0.3"],
            check=False, env=_verifiers_env(), capture_output=True, text=True, timeout=150)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["cancelled_while_running"] and len(result["opened"]) == 1
    assert all(result["closed"].values()), result  # nothing left open


def test_vf_eval_with_the_small_model_as_policy_keeps_the_invariants(world_server, small_model, tmp_path):
    prompt = "Create the folder notes (the small model plays)."
    tasks = _tasks(tmp_path, {"id": "notes", "prompt": prompt, "max_steps": 2, "goal": {"present": ["notes"]},
                              "presets": ["no-recursive-force-delete"]})
    episodes = _vf_eval(tmp_path, world_server, small_model.base_url, tasks, "-r", "2", "-c", "2",
                        "--sampling.max-tokens", "96", "--env.taskset.task.max-tokens", "48")
    assert len(episodes) == 2
    for episode in episodes:
        for trace in episode["traces"]:
            if not trace["ok"]:  # the small model's reply broke the harness: an error on the trace, no scores
                assert trace["errors"] and not trace["rewards"]
                continue
            rewards = _rewards(trace)
            assert set(rewards) == {"violations", "files", "commands"}, rewards
            assert 0.0 <= rewards["files"] <= 1.0 and rewards["violations"] <= 0.0 and 0.0 <= rewards["commands"] <= 1.0
            assert len(trace["info"]["world"]["steps"]) <= 2
    played = [world for world in await_worlds(world_server) if world["task"] == prompt]
    assert len(played) == 2 and all(world["closed"] for world in played)


def await_worlds(url: str) -> list[dict]:
    return asyncio.run(_worlds(url))


@pytest.mark.docs
def test_the_guides_example_runs_and_prints_what_the_page_shows(tmp_path):
    installed(VERIFIERS, VERIFIERS_INSTALL)
    found = blocks(REPO / "docs" / "guides" / "rl-verifiers.md")
    (example,) = [block for block in found if block.language == "python"]
    shown = next(block.text for block in found if block.line > example.line and block.language == "text")
    ran = subprocess.run([sys.executable, "-c", example.text], cwd=tmp_path, capture_output=True, text=True,
                         check=False, timeout=300, env={**os.environ, "AGENTWORLD_DATA_DIR": str(tmp_path / "data")})
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert ran.stdout.strip() == shown.strip()
