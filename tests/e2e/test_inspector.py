"""A third-party client: the MCP Inspector's CLI (TypeScript SDK) drives the real server over stdio.

.ci/run installs the Inspector into .ci/inspector; without it these tests fail under CI and skip
elsewhere. The Inspector gives each request 60 s, so the calls here stay small.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ..third_party import INSPECTOR, INSPECTOR_INSTALL, TIME_SERVER, installed

QUICK = {"temperature": 0, "max_tokens": 16}


def _inspector() -> Path:
    return installed(INSPECTOR, INSPECTOR_INSTALL)


def _inspect(server_argv, server_env, *request: str, timeout: float = 300) -> tuple[int, dict]:
    """Run one Inspector CLI request against the server; its exit status and the JSON it printed."""
    done = subprocess.run(
        [str(_inspector()), "--cli", *request, "--format", "json", "--", *server_argv],
        env=server_env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
    )
    try:
        printed = json.loads(done.stdout)
    except ValueError:
        raise AssertionError(f"the Inspector printed no JSON (exit {done.returncode}):\n{done.stdout}\n{done.stderr}") from None
    return done.returncode, printed


def _call(server_argv, server_env, tool: str, arguments: dict) -> dict:
    status, printed = _inspect(
        server_argv, server_env, "--method", "tools/call", "--tool-name", tool, "--tool-args-json", json.dumps(arguments)
    )
    assert status == 0, printed
    result = printed["result"]
    assert result["isError"] is False, result
    assert result["content"][0]["type"] == "text" and result["content"][0]["text"]
    return result["structuredContent"]


def test_the_inspector_lists_the_tools_with_their_schemas(server_argv, server_env):
    status, printed = _inspect(server_argv, server_env, "--method", "tools/list", timeout=120)
    assert status == 0, printed
    tools = {tool["name"]: tool for tool in printed["result"]["tools"]}
    assert {"simulate_action", "dry_run_plan", "check_constraints"} <= set(tools)
    for name in ("simulate_action", "dry_run_plan", "check_constraints"):
        assert tools[name]["inputSchema"]["type"] == "object"
        assert tools[name]["outputSchema"]["type"] == "object"
        assert tools[name]["annotations"]["readOnlyHint"] is True
    assert "action" in tools["simulate_action"]["inputSchema"]["required"]
    assert "steps" in tools["dry_run_plan"]["inputSchema"]["required"]


def _outlived_the_budget(result: dict) -> bool:
    """A call that ran past the server's budget (a loaded machine) answers with a job handle instead."""
    if result.get("job_id") is None:
        return False
    assert isinstance(result["job_id"], str) and result["job_id"]
    return True


def test_the_inspector_calls_simulate_action(server_argv, server_env):
    prediction = _call(server_argv, server_env, "simulate_action", {"domain": "terminal", "action": "python3 app.py", **QUICK})
    assert isinstance(prediction["observation"], str)
    if _outlived_the_budget(prediction):
        return
    assert prediction["observation"].strip() or prediction["raw"] is not None
    assert prediction["effects"]["success"] in (True, False, None)
    assert prediction["usage"]["completion_tokens"] > 0
    assert prediction["model"]["architecture"] == "qwen2"


def test_the_inspector_calls_dry_run_plan(server_argv, server_env):
    plan = _call(server_argv, {**server_env, "AGENTWORLD_EFFECTS": "parser"}, "dry_run_plan",
                 {"domain": "terminal", "steps": ["mkdir notes", "ls"], **QUICK})
    assert plan["domain"] == "terminal"
    if _outlived_the_budget(plan):
        assert plan["verdict"]["status"] == "running"
        return
    assert plan["verdict"]["status"] in ("completed", "stopped")
    assert 1 <= len(plan["steps"]) <= 2
    assert [step["step"] for step in plan["steps"]] == list(range(1, len(plan["steps"]) + 1))
    assert "mkdir notes" in plan["steps"][0]["action"]  # as the terminal pack normalizes it (keystrokes)
    assert plan["usage"]["completion_tokens"] == sum(s["prediction"]["usage"]["completion_tokens"] for s in plan["steps"])


def test_a_tool_error_reaches_the_inspector_as_an_error_result(server_argv, server_env):
    status, printed = _inspect(
        server_argv, server_env, "--method", "tools/call", "--tool-name", "simulate_action",
        "--tool-args-json", json.dumps({"domain": "no-such-world", "action": "ls"}), timeout=120,
    )
    assert status == 5  # the Inspector's exit status for a tool that answered isError
    assert printed["result"]["isError"] is True
    message = printed["result"]["content"][0]["text"]
    assert "no-such-world" in message and "terminal" in message  # names the known domains


def _twin_of_the_time_server(mode: str) -> list[str]:
    return [sys.executable, "-m", "agentworld_mcp", "twin", "--mode", mode, "--world", f"inspector-{mode}",
            "--fresh", "--max-tokens", "24", "--effects", "parser", "--", *TIME_SERVER]


def test_the_inspector_sees_the_twin_list_what_the_real_server_lists(server_env):
    _, real = _inspect(TIME_SERVER, server_env, "--method", "tools/list", timeout=120)
    status, twin = _inspect(_twin_of_the_time_server("simulate"), server_env, "--method", "tools/list", timeout=120)
    assert status == 0 and twin["result"]["tools"] == real["result"]["tools"]


def test_the_inspector_gets_refusals_at_once_and_predictions_from_a_simulating_twin(server_env):
    argv = _twin_of_the_time_server("simulate")
    status, refused = _inspect(argv, server_env, "--method", "tools/call", "--tool-name", "get_current_time",
                               "--tool-args-json", json.dumps({"timezone": 7}), timeout=120)
    assert status == 5 and refused["result"]["isError"] is True
    assert "-32602" in refused["result"]["content"][0]["text"]
    # A valid call is predicted: an answer or an error result, either way marked as the twin's.
    status, predicted = _inspect(argv, server_env, "--method", "tools/call", "--tool-name", "get_current_time",
                                 "--tool-args-json", json.dumps({"timezone": "Europe/Lisbon"}))
    assert status in (0, 5), predicted
    assert predicted["result"]["_meta"]["agentworld/twin"]["mode"] == "simulate"
