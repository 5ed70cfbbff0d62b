"""Worlds and jobs: persistence across a killed server, fork and rewind, anchoring and drift,
consistency warnings, budgets that turn calls into jobs, and cancelling a job."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess

import pytest
from agentworld_mcp.tools.worlds.consistency import EntityLedger
from agentworld_mcp.tools.worlds.store import Store, StoreError
from mcp import Client, StdioServerParameters

from ..tool_calls import call_error, call_ok

QUICK = {"temperature": 0, "max_tokens": 24}


# --- consistency (no model) -------------------------------------------------------------------
def test_a_deleted_entity_shown_again_is_a_warning():
    ledger = EntityLedger.replay([
        (1, {"changed": [{"entity": "notes/todo.txt", "change": "created"}]}),
        (2, {"changed": [{"entity": "notes/todo.txt", "change": "deleted"}]}),
    ])
    listing = "dev@sandbox:~/project$ ls notes\ntodo.txt  ideas.md\ndev@sandbox:~/project$"
    warnings = ledger.warnings({"changed": []}, listing, "ls notes\n", ["No such file"])
    assert warnings == ["'notes/todo.txt' was deleted at step 2 but appears in this observation again"]
    touched = ledger.warnings({"changed": [{"entity": "notes/todo.txt", "change": "modified"}]}, "", "", [])
    assert touched == ["'notes/todo.txt' was deleted at step 2 but this step modified it"]


def test_an_error_naming_a_deleted_entity_or_a_recreation_is_no_contradiction():
    ledger = EntityLedger.replay([(1, {"changed": [{"entity": "todo.txt", "change": "deleted"}]})])
    error = "cat: todo.txt: No such file or directory"
    assert ledger.warnings({"changed": []}, error, "cat todo.txt\n", ["No such file"]) == []
    ledger.apply(2, {"changed": [{"entity": "todo.txt", "change": "created"}]})
    assert ledger.warnings({"changed": []}, "todo.txt", "ls\n", []) == []


# --- the store (no model) ---------------------------------------------------------------------
def test_a_corrupt_database_is_one_line_naming_the_file(tmp_path, server_argv, server_env):
    (tmp_path / "worlds.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="worlds.sqlite3 is not a usable database"):
        Store(tmp_path / "worlds.sqlite3")
    done = subprocess.run(
        [*server_argv, "--data-dir", str(tmp_path)], env=server_env, capture_output=True, text=True, timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(tmp_path / "worlds.sqlite3") in lines[0]


def test_a_data_dir_that_cannot_be_made_is_one_line(tmp_path):
    (tmp_path / "a-file").write_text("in the way")
    with pytest.raises(StoreError, match="a-file/data cannot hold the store .*pass another --data-dir"):
        Store(tmp_path / "a-file" / "data" / "worlds.sqlite3")


def test_a_locked_database_is_one_line_naming_the_file(tmp_path):
    path = tmp_path / "worlds.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="is locked by another process"):
            Store(path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_data_file_from_before_replies_and_details_were_kept_opens_and_keeps_its_steps(tmp_path):
    from agentworld_mcp.tools.worlds.store import StepRow

    path = tmp_path / "worlds.sqlite3"
    Store(path).close()
    old = sqlite3.connect(path, isolation_level=None)  # made as such a file was: no migrations kept, no new columns
    old.execute("DROP TABLE migrations")
    old.execute("ALTER TABLE steps DROP COLUMN reply")
    old.execute("ALTER TABLE steps DROP COLUMN details")
    old.execute("INSERT INTO worlds (id, domain, task, state, created_at) VALUES ('w_old', 'terminal', '', '', 0)")
    old.execute("INSERT INTO steps (world_id, position, action, observation, source, created_at) VALUES ('w_old', 1, 'ls', 'a', 'real', 0)")
    old.close()
    store = Store(path)
    store.append_steps("w_old", [StepRow(2, "pwd", "/", "/", {}, "predicted", None, None, "**Environment Observation:**\n/",
                                         {"usage": {"completion_tokens": 3}})])
    steps = store.steps("w_old")
    assert [(s.action, s.reply) for s in steps] == [("ls", None), ("pwd", "**Environment Observation:**\n/")]
    assert [s.details for s in steps] == [None, {"usage": {"completion_tokens": 3}}]
    store.close()


# --- worlds through MCP (real model) ----------------------------------------------------------
async def test_fork_rewind_and_stepping_a_world(mcp_server):
    async with Client(mcp_server, mode="legacy") as client:
        world = await call_ok(client, "world", {"operation": "open", "domain": "terminal", "task": "tidy up"})
        world_id = world["world_id"]
        assert world["steps"] == [] and world["closed"] is False
        for command in ("mkdir notes", "ls"):
            prediction = await call_ok(client, "simulate_action", {"world_id": world_id, "action": command, "commit": True, **QUICK})
            assert isinstance(prediction["warnings"], list)
        what_if = await call_ok(client, "simulate_action", {"world_id": world_id, "action": "pwd", **QUICK})  # not committed
        assert what_if["observation"] or what_if["parse_error"]
        view = await call_ok(client, "world", {"operation": "get", "world_id": world_id})
        assert [s["step"] for s in view["steps"]] == [1, 2] and {s["source"] for s in view["steps"]} == {"predicted"}
        assert json.loads(view["steps"][0]["action"])[0]["keystrokes"] == "mkdir notes\n"

        fork = await call_ok(client, "world", {"operation": "fork", "world_id": world_id, "step": 1})
        assert fork["parent_id"] == world_id and fork["forked_at"] == 1 and len(fork["steps"]) == 1
        assert fork["steps"][0] == view["steps"][0] and fork["task"] == "tidy up"

        rolled = await call_ok(client, "dry_run_plan", {"world_id": fork["world_id"], "steps": ["ls", "pwd"], **QUICK})
        assert len(rolled["steps"]) >= 1
        unchanged = await call_ok(client, "world", {"operation": "get", "world_id": fork["world_id"]})
        assert len(unchanged["steps"]) == 1  # a rollout without commit leaves the world as it was
        rewound = await call_ok(client, "world", {"operation": "rewind", "world_id": world_id, "step": 0})
        assert rewound["steps"] == []
        listing = json.loads((await client.read_resource("world://list")).contents[0].text)
        assert {world_id, fork["world_id"]} <= {entry["world_id"] for entry in listing}


async def test_recording_reality_anchors_the_world_and_reports_drift(mcp_server):
    async with Client(mcp_server, mode="legacy") as client:
        world_id = (await call_ok(client, "world", {"operation": "open", "domain": "terminal"}))["world_id"]
        predicted = await call_ok(client, "simulate_action", {"world_id": world_id, "action": "whoami", "commit": True, **QUICK})
        real = "dev@sandbox:~/project$ whoami\ndev\ndev@sandbox:~/project$"
        view = await call_ok(client, "world", {"operation": "record", "world_id": world_id, "action": "whoami", "observation": real})
        recorded = view["recorded"]
        assert recorded["anchored"] is True and recorded["step"] == 1 and 0.0 <= recorded["similarity"] <= 1.0
        assert view["steps"][0]["observation"] == real and view["steps"][0]["source"] == "real"
        assert view["steps"][0]["predicted"] == predicted["observation"]
        assert view["drift"]["compared_steps"] == 1 and view["drift"]["mean_similarity"] == recorded["similarity"]
        if predicted["observation"] != real:
            assert recorded["diff"].startswith("--- predicted")
        unpredicted = await call_ok(client, "world", {"operation": "record", "world_id": world_id, "action": "pwd", "observation": "/home/dev/project"})
        assert unpredicted["recorded"] == {"step": 2, "anchored": False, "similarity": None, "diff": None, "dropped_steps": 0}
        resource = json.loads((await client.read_resource(f"world://{world_id}")).contents[0].text)
        assert resource["drift"]["compared_steps"] == 1 and len(resource["steps"]) == 2
        # the stored keystroke encoding, and the command as the agent typed it
        assert json.loads(resource["steps"][1]["action"])[0]["keystrokes"] == "pwd\n"
        assert [step["action_text"] for step in resource["steps"]] == ["whoami", "pwd"]


async def test_bad_world_input_is_a_clear_tool_error(mcp_server):
    async with Client(mcp_server, mode="legacy") as client:
        world_id = (await call_ok(client, "world", {"operation": "open", "domain": "terminal"}))["world_id"]
        assert "unknown world 'w_nope'" in await call_error(client, "simulate_action", {"world_id": "w_nope", "action": "ls"})
        assert "has 0 steps; fork at a step from 0 to 0" in await call_error(client, "world", {"operation": "fork", "world_id": world_id, "step": 3})
        assert "simulates domain 'terminal', not 'web'" in await call_error(
            client, "world", {"operation": "record", "world_id": world_id, "domain": "web", "action": "go_back()", "observation": "x"})
        assert "leave them out" in await call_error(client, "simulate_action", {"world_id": world_id, "action": "ls", "state": "x"})
        assert "pass world_id too" in await call_error(client, "simulate_action", {"domain": "terminal", "action": "ls", "commit": True})
        await call_ok(client, "world", {"operation": "close", "world_id": world_id})
        assert "is closed" in await call_error(client, "simulate_action", {"world_id": world_id, "action": "ls"})
        assert "unknown job" in await call_error(client, "job", {"job_id": "job_nope"})


# --- jobs (real model) ------------------------------------------------------------------------
async def test_a_plan_past_its_budget_becomes_a_job_whose_result_can_be_fetched(mcp_server):
    async with Client(mcp_server, mode="legacy") as client:
        handle = await call_ok(client, "dry_run_plan", {
            "domain": "terminal", "steps": ["ls", "pwd", "whoami"], "budget_seconds": 1, **QUICK})
        assert handle["verdict"]["status"] == "running" and handle["job_id"].startswith("job_")
        status = await call_ok(client, "job", {"job_id": handle["job_id"]})
        assert status["status"] == "running" and status["tool"] == "dry_run_plan"
        for _ in range(60):
            status = await call_ok(client, "job", {"job_id": handle["job_id"], "wait_seconds": 10})
            if status["status"] != "running":
                break
    assert status["status"] == "completed", status
    plan = status["result"]
    assert plan["verdict"]["status"] in ("completed", "stopped") and 1 <= len(plan["steps"]) <= 3
    assert status["progress"]["done"] == len(plan["steps"]) and status["progress"]["total"] == 3


async def test_cancelling_a_job_stops_the_model_work(mcp_server, tool_context):
    async with Client(mcp_server, mode="legacy") as client:
        # A state no earlier request showed: the model must read it (seconds here), so the 1 s budget
        # always runs out, however soon the predicted screen would end.
        state = f"Host {os.urandom(8).hex()}. " + " ".join(f"/var/log/app{n}.log" for n in range(150))
        handle = await call_ok(client, "simulate_action", {
            "domain": "terminal", "action": "find / -name '*.log'", "state": state, "budget_seconds": 1,
            "temperature": 1.0, "max_tokens": 3000})
        assert handle["job_id"] and handle["observation"] == ""
        cancelled_before = tool_context.engine.stats().cancelled
        status = await call_ok(client, "job", {"job_id": handle["job_id"], "cancel": True})
        assert status["status"] == "cancelled"
        for _ in range(100):
            stats = tool_context.engine.stats()
            if not stats.running:
                break
            await asyncio.sleep(0.05)
        assert not stats.running and stats.cancelled > cancelled_before


# --- restarts (real server process) -----------------------------------------------------------
def _params(server_argv, env):
    return StdioServerParameters(command=server_argv[0], args=server_argv[1:], env=env)


async def test_killing_the_server_mid_flight_loses_no_acknowledged_step_and_names_the_stopped_job(
    tmp_path, server_argv, server_env
):
    """kill -9 while committed world steps and a job are in flight: after a restart, every step the
    agent was told is committed is there, nothing half-written is, and the job says it stopped."""
    # Every step is the model's (a computed `touch` commits in a millisecond, faster than its reply is read).
    env = {**server_env, "AGENTWORLD_DATA_DIR": str(tmp_path), "AGENTWORLD_COMPUTED": "off"}
    actions = [f"touch kept-{n}.txt" for n in range(8)]
    acknowledged: dict[str, str] = {}  # action -> the observation the agent was given

    async with Client(_params(server_argv, env), mode="legacy", read_timeout_seconds=300) as client:
        world_id = (await call_ok(client, "world", {"operation": "open", "domain": "terminal", "task": "survive"}))["world_id"]
        job_id = (await call_ok(client, "dry_run_plan", {
            "domain": "terminal", "steps": ["ls"] * 20, "budget_seconds": 1, "temperature": 0, "max_tokens": 64}))["job_id"]
        process_id = json.loads((await client.read_resource("status://server")).contents[0].text)["process_id"]

        async def commit(action: str) -> None:
            step = await call_ok(client, "simulate_action", {"world_id": world_id, "action": action, "commit": True, **QUICK})
            acknowledged[action] = step["observation"]

        async with asyncio.TaskGroup() as calls:
            in_flight = [calls.create_task(commit(action)) for action in actions]  # they commit one by one
            while len(acknowledged) < 2:
                await asyncio.sleep(0.05)
            os.kill(process_id, signal.SIGKILL)
            for task in in_flight:
                task.cancel()  # their replies will never come
    assert 2 <= len(acknowledged) < len(actions)

    async with Client(_params(server_argv, env), mode="legacy", read_timeout_seconds=300) as client:
        after = await call_ok(client, "world", {"operation": "get", "world_id": world_id})
        job = await call_ok(client, "job", {"job_id": job_id})
    # a stored action is in the domain's normal form (keystrokes); each holds exactly one of ours
    stored = {next(a for a in actions if a in step["action"]): step["observation"] for step in after["steps"]}
    assert after["task"] == "survive"
    assert [s["step"] for s in after["steps"]] == list(range(1, len(after["steps"]) + 1))  # no gap, no torn step
    assert all(stored.get(action) == observation for action, observation in acknowledged.items())
    assert len(stored) - len(acknowledged) <= 1  # at most the step being written when it died, on top
    assert job["status"] == "interrupted" and "stopped while this job ran" in job["error"]


async def test_recording_a_committed_plan_step_by_step_anchors_each_step(mcp_server):
    async with Client(mcp_server, mode="legacy") as client:
        world_id = (await call_ok(client, "world", {"operation": "open", "domain": "terminal"}))["world_id"]
        plan = await call_ok(client, "dry_run_plan", {"world_id": world_id, "steps": ["mkdir logs", "ls"], "commit": True, **QUICK})
        committed = len(plan["steps"])
        first = await call_ok(client, "world", {"operation": "record", "world_id": world_id, "action": "mkdir logs", "observation": "$ mkdir logs\n$"})
        assert first["recorded"]["anchored"] is True and first["recorded"]["step"] == 1
        assert [s["source"] for s in first["steps"]] == ["real"] + ["predicted"] * (committed - 1)
        other = await call_ok(client, "world", {"operation": "record", "world_id": world_id, "action": "pwd", "observation": "/home/dev"})
    # the agent ran something else than step 2's prediction: the rest of the prediction is dropped
    assert other["recorded"] == {"step": 2, "anchored": False, "similarity": None, "diff": None, "dropped_steps": committed - 1}
    assert [s["source"] for s in other["steps"]] == ["real", "real"]


async def test_each_committed_world_step_extends_the_tokens_the_model_already_holds(tool_context):
    """Stored steps keep the model's verbatim reply, so a world's next step reads only its new turn."""
    from agentworld_mcp.tools.context import ToolContext
    from agentworld_mcp.tools.requests import SimulateRequest
    from agentworld_mcp.tools.simulation.simulate import simulate_action
    from agentworld_mcp.tools.worlds.worlds import open_world

    one_call_per_step = ToolContext(
        engine=tool_context.engine, domains=tool_context.domains, effects="parser", store=tool_context.store
    )
    world_id = open_world(one_call_per_step, "terminal", "", "", None, []).world_id
    usages = []
    for command in ("uname -a", "uptime"):  # steps the world cannot compute: each is the model's
        request = SimulateRequest(action=command, world_id=world_id, commit=True, temperature=0, max_tokens=24)
        step = await simulate_action(one_call_per_step, request)
        usages.append(step.usage)
    held = usages[0].prompt_tokens + usages[0].completion_tokens
    assert held - 1 <= usages[1].reused_prompt_tokens < usages[1].prompt_tokens
