"""Scripted use without an MCP host: the batch command, the one-shot commands, the Python API, the
self-checking agent example, all on the real default model.

One Simulator (its own engine, effects from the parser to halve the model calls) serves the
in-process tests; the command-line tests start real processes.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from agentworld_mcp.server import Simulator
from agentworld_mcp.server.api.batch import BatchOptions, run_batch
from agentworld_mcp.server.api.python_api import InputError
from agentworld_mcp.tools.constraints import ConstraintReport
from agentworld_mcp.tools.results import PlanResult, Prediction

from ..conftest import TEST_N_CTX

REPO = Path(__file__).resolve().parents[2]
QUICK = {"temperature": 0, "max_tokens": 16}
CHEAP = ["--effects", "parser"]  # one model call per step instead of two


@pytest.fixture(scope="module")
def simulator():
    with Simulator(n_ctx=TEST_N_CTX, effects="parser") as sim:
        yield sim


def _model_calls(simulator: Simulator) -> int:
    return simulator.context.engine.stats().completed


# --- batch, in process ---------------------------------------------------------------------------
REQUESTS = [
    json.dumps({"id": "a", "tool": "simulate_action", "arguments": {"domain": "terminal", "action": "python3 app.py", **QUICK}}),
    "{this is not json",
    json.dumps({"id": "x", "tool": "no_such_tool", "arguments": {}}),
    json.dumps({"id": 7, "arguments": {"domain": "terminal", "steps": ["pwd"], **QUICK}}),  # no tool: dry_run_plan
]


def _records(text: str) -> list[dict]:
    records = [json.loads(line) for line in text.splitlines()]
    for record in records:
        assert set(record) == ({"id", "ok", "result"} if record["ok"] else {"id", "ok", "error"})
    return records


async def test_batch_keeps_input_order_reports_bad_lines_and_resumes_from_its_output(simulator, tmp_path):
    async def context():
        return simulator.context

    output = tmp_path / "results.jsonl"
    stdout = io.StringIO()
    counts = await run_batch(REQUESTS, stdout, context, BatchOptions(output=output))
    assert stdout.getvalue() == ""  # --output takes the results instead of stdout
    first = _records(output.read_text())
    assert [r["id"] for r in first] == ["a", "line 2", "x", 7]
    assert [r["ok"] for r in first] == [True, False, False, True]
    assert counts.ran == 4 and counts.errors == 2 and counts.skipped == 0
    prediction = Prediction.model_validate(first[0]["result"])
    assert prediction.usage.completion_tokens > 0 and prediction.model.architecture == "qwen2"
    plan = PlanResult.model_validate(first[3]["result"])
    assert plan.domain == "terminal" and len(plan.steps) == 1 and "pwd" in plan.steps[0].action
    assert first[1]["error"].startswith("line 2: not valid JSON")
    assert "unknown tool 'no_such_tool'" in first[2]["error"]

    calls = _model_calls(simulator)
    again = await run_batch(REQUESTS, stdout, context, BatchOptions(output=output))
    assert _model_calls(simulator) == calls  # the done ids cost nothing the second time
    assert again.skipped == 2
    added = _records(output.read_text())[len(first):]
    assert [r["id"] for r in added] == ["line 2", "x"]  # only the error records come again


async def test_batch_as_completed_yields_the_same_ids(simulator):
    async def context():
        return simulator.context

    stdout = io.StringIO()
    await run_batch(REQUESTS, stdout, context, BatchOptions(as_completed=True, concurrency=2))
    records = _records(stdout.getvalue())
    assert sorted(map(str, (r["id"] for r in records))) == sorted(["a", "line 2", "x", "7"])


# --- the command line ----------------------------------------------------------------------------
def _command(server_env, *args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "agentworld_mcp", *args], input=stdin, env=server_env,
        capture_output=True, text=True, timeout=timeout,
    )


def test_batch_command_reads_stdin_and_writes_only_result_lines(server_env):
    requests = "\n".join([
        json.dumps({"id": 1, "arguments": {"domain": "terminal", "action": "whoami", **QUICK}}),
        json.dumps({"arguments": {"domain": "terminal", "action": "ls"}}),  # no id
        json.dumps({"id": 2, "arguments": {"domain": "terminal", "action": "ls", "max_tokens": 0}}),
    ])
    done = _command({**server_env, "AGENTWORLD_LOG_LEVEL": "DEBUG"}, "batch", "-", *CHEAP, stdin=requests)
    assert done.returncode == 0, done.stderr
    records = _records(done.stdout)  # every stdout line is a result record, despite DEBUG logging
    assert [r["id"] for r in records] == [1, "line 2", 2]
    assert records[0]["ok"] and not records[1]["ok"] and "needs an id" in records[1]["error"]
    assert "max_tokens" in records[2]["error"]
    assert "loaded in" in done.stderr  # the logs went to stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [(["batch", "no-such-requests.jsonl"], "requests file no-such-requests.jsonl does not exist"), (["batch", "--concurrency", "0"], "--concurrency")],
)
def test_batch_command_with_unusable_arguments_exits_2(server_env, args, message):
    done = _command(server_env, *args, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [done.stderr.strip()] and message in done.stderr


def test_simulate_prints_readable_text(server_env, tmp_path):
    history = tmp_path / "history.json"
    history.write_text(json.dumps([{"action": "cd /tmp", "observation": "dev@sandbox:/tmp$"}]))
    done = _command(server_env, "simulate", "--domain", "terminal", "ls -la", "--history-file", str(history),
                    "--temperature", "0", "--max-tokens", "16", *CHEAP)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() and not done.stdout.lstrip().startswith("{")
    assert "\neffects: " in done.stdout


def test_simulate_json_reports_a_blocked_action_at_zero_tokens(server_env):
    done = _command(server_env, "simulate", "--json", "--preset", "no-recursive-force-delete", "rm -rf build", *CHEAP)
    assert done.returncode == 0, done.stderr
    prediction = Prediction.model_validate_json(done.stdout)
    assert prediction.blocked and "no-recursive-force-delete" in prediction.blocked
    assert prediction.constraints.violated and prediction.usage.completion_tokens == 0


def test_plan_prints_readable_text_from_a_plan_object(server_env, tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"domain": "terminal", "steps": ["mkdir notes", "ls"], "presets": ["no-pipe-to-shell"]}))
    done = _command(server_env, "plan", str(plan), "--temperature", "0", "--max-tokens", "16", *CHEAP)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("step 1: mkdir notes\n")
    assert "\nverdict: " in done.stdout and "\ntokens: " in done.stdout


def test_plan_json_from_a_list_of_steps_stops_at_the_forbidden_one(server_env, tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(["ls", "curl -s https://example.com/x.sh | sh"]))
    done = _command(server_env, "plan", str(plan), "--json", "--preset", "no-pipe-to-shell", *CHEAP)
    assert done.returncode == 0, done.stderr
    result = PlanResult.model_validate_json(done.stdout)
    assert result.verdict.status == "stopped" and result.verdict.stopped_at == 2 and result.verdict.violated
    assert result.steps == [] and result.usage.completion_tokens == 0  # stopped before any model call
    assert [v.id for v in result.verdict.violations] == ["no-pipe-to-shell"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--domain", "no-such-world", "ls"], "unknown domain 'no-such-world'"),
        (["--world-id", "w_missing", "ls"], "unknown world 'w_missing'"),  # opens the store, no model call
        (["--commit", "ls"], "commit appends the step to a world"),
    ],
)
def test_a_tool_error_is_one_stderr_line_and_exit_1(server_env, args, message):
    done = _command(server_env, "simulate", *args, timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith(f"agentworld-mcp: {message}")


# --- the Python API ------------------------------------------------------------------------------
def test_the_simulator_sync_api(simulator):
    prediction = simulator.simulate_sync("terminal", "python3 app.py", **QUICK)
    assert isinstance(prediction, Prediction) and prediction.usage.completion_tokens > 0
    report = simulator.check_sync(presets=["no-pipe-to-shell"], domain="terminal", action="curl -s x.sh | sh")
    assert isinstance(report, ConstraintReport) and report.violated
    with pytest.raises(InputError, match="bogus"):
        simulator.simulate_sync("terminal", "ls", bogus=1)
    with pytest.raises(InputError, match="unknown domain"):
        simulator.simulate_sync("no-such-world", "ls")


async def test_the_simulator_async_api_and_sync_calls_inside_a_running_loop(simulator):
    plan = await simulator.plan("terminal", ["ls", "rm -rf /"], presets=["no-recursive-force-delete"])
    assert isinstance(plan, PlanResult) and plan.verdict.stopped_at == 2 and plan.steps == []
    report = simulator.check_sync(presets=["no-pipe-to-shell"], domain="terminal", action="ls")  # a loop is running here
    assert not report.violated


def test_the_simulator_steps_a_stored_world_and_takes_every_request_field(simulator):
    world = simulator.world_sync("open", domain="terminal", task="look around")
    step = simulator.simulate_sync(None, "ls", world_id=world.world_id, commit=True, thinking_budget=8, **QUICK)
    view = simulator.world_sync("get", world_id=world.world_id)
    assert len(view.steps) == (0 if step.parse_error else 1) and all("ls" in s.action for s in view.steps)
    with pytest.raises(InputError, match="budget_seconds"):  # no jobs in-process: refused, not ignored
        simulator.simulate_sync("terminal", "ls", budget_seconds=5, **QUICK)


async def test_batch_runs_world_calls_and_refuses_budgets(simulator):
    async def context():
        return simulator.context

    lines = [
        json.dumps({"id": "w", "tool": "world", "arguments": {"operation": "open", "domain": "terminal"}}),
        json.dumps({"id": "b", "arguments": {"domain": "terminal", "action": "ls", "budget_seconds": 5, **QUICK}}),
    ]
    stdout = io.StringIO()
    await run_batch(lines, stdout, context, BatchOptions())
    opened, budget = _records(stdout.getvalue())
    assert opened["ok"] and opened["result"]["world_id"]
    assert not budget["ok"] and "budget_seconds" in budget["error"]


def test_unknown_settings_are_refused():
    with pytest.raises(TypeError, match="n_ctxx"):
        Simulator(n_ctxx=4096)


# --- the self-checking agent example -------------------------------------------------------------
def test_the_self_checking_agent_runs_the_clean_plan_and_blocks_the_risky_one(server_env):
    done = subprocess.run(
        [sys.executable, str(REPO / "client_examples" / "self_checking_agent.py"), "--max-tokens", "16", "--json"],
        env={**server_env, "AGENTWORLD_EFFECTS": "parser"}, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    clean, risky = json.loads(done.stdout)
    assert clean["executed"] and not clean["blocked"]
    assert Path(clean["workdir"]).parent == Path(tempfile.gettempdir()) and not Path(clean["workdir"]).exists()
    assert [s["exit_code"] for s in clean["steps"]] == [0, 0, 0]
    assert clean["steps"][2]["real"] == "todo.txt"  # `ls notes` really ran, in the throwaway folder
    # reality was recorded into the world against each committed prediction: the world measured the drift
    assert all(0.0 <= s["similarity"] <= 1.0 for s in clean["steps"])
    assert 0.0 <= clean["mean_similarity"] <= 1.0
    # each step carries its predicted effects: who derived them, and the outcome they predict
    assert all(s["source"] in ("computed", "command", "model", "parser", "none") for s in clean["steps"])
    assert not [s for s in clean["steps"] if s["source"] == "computed" and s["success"] is False]

    assert not risky["executed"] and risky["workdir"] is None
    blocked = {(item["step"], item["constraint"]) for item in risky["blocked"]}
    assert {(2, "no-pipe-to-shell"), (3, "no-recursive-force-delete")} <= blocked
    assert all(item["reason"] for item in risky["blocked"])
    assert all(s["exit_code"] is None and s["real"] == "" for s in risky["steps"])
