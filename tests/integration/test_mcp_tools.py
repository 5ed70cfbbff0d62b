"""The tools through a real MCP client in memory, in both protocol eras, on the real default model."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from agentworld_mcp.engine import Engine
from agentworld_mcp.engine.fake import FakeBackend
from agentworld_mcp.server.surface.app import create_server
from agentworld_mcp.tools.context import ToolContext
from mcp import Client

ERAS = ["legacy", "auto"]  # the initialize handshake, and the stateless 2026-07-28 protocol
QUICK = {"temperature": 0, "max_tokens": 48}


@pytest.fixture(params=ERAS)
def era(request) -> str:
    # A Client is entered inside each test: an async fixture would leave its task scope in another task.
    return request.param


def _assert_prediction_shape(prediction: dict) -> None:
    assert set(prediction) >= {"observation", "effects", "parse_error", "usage", "model", "truncated"}
    if prediction["parse_error"] is None:
        assert prediction["observation"].strip()
    else:
        assert prediction["raw"] is not None
    effects = prediction["effects"]
    assert effects["success"] in (True, False, None)
    assert effects["source"] in ("computed", "command", "model", "parser", "none")
    for change in effects["changed"]:
        assert change["change"] in ("created", "modified", "deleted") and isinstance(change["entity"], str)
    usage = prediction["usage"]
    if effects["source"] == "computed":  # the world's virtual shell ran it: no model, no tokens
        assert isinstance(effects["exit_code"], int) and effects["success"] is (effects["exit_code"] == 0)
        assert usage["prompt_tokens"] == usage["completion_tokens"] == 0 and prediction["model"] is None
        return
    assert usage["prompt_tokens"] > 0 and 0 < usage["completion_tokens"]
    assert 0 <= usage["reused_prompt_tokens"] <= usage["prompt_tokens"]
    assert prediction["model"]["architecture"] == "qwen2" and prediction["model"]["quantization"] == "Q4_K_M"


async def test_tools_are_listed_with_schemas_and_all_four_annotations(mcp_server, tool_context, era):
    async with Client(mcp_server, mode=era) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert {"simulate_action", "dry_run_plan"} <= set(tools)
    for name in ("simulate_action", "dry_run_plan"):
        tool = tools[name]
        annotations = tool.annotations
        assert annotations.read_only_hint is True and annotations.destructive_hint is False
        assert annotations.idempotent_hint is not None and annotations.open_world_hint is False
        assert tool.output_schema is not None and "properties" in tool.output_schema
        schema_text = json.dumps(tool.input_schema)
        assert "$ref" not in schema_text and "$defs" not in schema_text  # hosts mishandle references
        assert tool.input_schema["properties"]["domain"]["enum"] == sorted(tool_context.domains)


async def test_simulate_action_predicts_an_observation_with_effects(mcp_server, era):
    async with Client(mcp_server, mode=era) as client:
        result = await client.call_tool("simulate_action", {"domain": "terminal", "action": "ls -la", **QUICK})
    assert not result.is_error, result.content
    _assert_prediction_shape(result.structured_content)
    text = result.content[0].text  # the observation, then what the structured effects say
    assert "\neffects: predicted to" in text or "\neffects: outcome unclear" in text


async def test_dry_run_plan_feeds_each_prediction_forward_with_progress(mcp_server):
    progress: list[tuple[float, float | None]] = []

    async def on_progress(done, total, message):
        progress.append((done, total))

    async with Client(mcp_server, mode="legacy") as client:
        steps = ["ls -la", "uname -a", "whoami"]  # lines the world cannot compute: each is the model's
        result = await client.call_tool(
            "dry_run_plan", {"domain": "terminal", "steps": steps, **QUICK}, progress_callback=on_progress
        )
    assert not result.is_error, result.content
    plan = result.structured_content
    assert plan["domain"] == "terminal" and plan["verdict"]["status"] in ("completed", "stopped")
    ran = len(plan["steps"])
    assert 1 <= ran <= 3 and [s["step"] for s in plan["steps"]] == list(range(1, ran + 1))
    if plan["verdict"]["status"] == "completed":
        assert ran == 3
    for step in plan["steps"]:
        _assert_prediction_shape(step["prediction"])
        assert json.loads(step["action"])[0]["keystrokes"].endswith("\n")
    assert progress == [(n, 3) for n in range(1, ran + 1)]
    if ran > 1:  # step 2 re-reads nothing that step 1 already put in the model's context
        assert plan["steps"][1]["prediction"]["usage"]["reused_prompt_tokens"] > 0
    assert plan["usage"]["prompt_tokens"] == sum(s["prediction"]["usage"]["prompt_tokens"] for s in plan["steps"])


@pytest.mark.parametrize(
    "tool, arguments, message",
    [
        ("simulate_action", {"domain": "bakery", "action": "ls"}, "known domains: "),
        ("simulate_action", {"domain": "terminal", "action": "   "}, "empty terminal action"),
        ("simulate_action", {"domain": "terminal", "action": "x" * 20_000}, "the limit is 16000"),
        ("simulate_action", {"domain": "terminal", "action": "[{\"keys\": 1}]"}, "expected a command line"),
        ("simulate_action", {"domain": "terminal", "action": "ls", "history": [{"action": "ls"}]}, "history[0]"),
        ("simulate_action", {"domain": "terminal", "action": "ls", "history": [{"action": "ls", "observation": "x"}] * 101}, "the limit is 100"),
        ("simulate_action", {"domain": "terminal", "action": "ls", "max_tokens": 10**6}, "above the server's limit"),
        ("dry_run_plan", {"domain": "terminal", "steps": []}, "steps is empty"),
        ("dry_run_plan", {"domain": "terminal", "steps": ["ls"] * 51}, "the limit is 50"),
        ("dry_run_plan", {"domain": "terminal", "steps": ["ls", "[]"]}, "steps[1]"),
    ],
)
async def test_bad_input_is_a_readable_tool_error_and_costs_no_tokens(mcp_server, era, tool_context, tool, arguments, message):
    before = tool_context.engine.stats()
    async with Client(mcp_server, mode=era) as client:
        result = await client.call_tool(tool, arguments)
    assert result.is_error
    assert message in result.content[0].text
    after = tool_context.engine.stats()
    assert (after.completed, after.prompt_tokens) == (before.completed, before.prompt_tokens)


async def test_history_longer_than_the_context_is_a_clear_error(mcp_server, era):
    turn = {"action": "cat big.txt", "observation": "lorem ipsum dolor sit amet " * 120}
    async with Client(mcp_server, mode=era) as client:
        result = await client.call_tool(
            "simulate_action", {"domain": "terminal", "action": "ls", "history": [turn] * 12, **QUICK}
        )
    assert result.is_error
    assert "the model context holds 4096" in result.content[0].text and "--n-ctx" in result.content[0].text


async def test_status_resource_reports_the_model_and_the_queue(mcp_server, era):
    async with Client(mcp_server, mode=era) as client:
        contents = (await client.read_resource("status://server")).contents
    status = json.loads(contents[0].text)
    assert status["state"] == "ready" and status["model"]["architecture"] == "qwen2"
    assert {"queue_depth", "queue_limit", "completed", "cancelled", "expired", "rejected", "tokens_per_second"} <= set(status)


async def test_a_full_queue_answers_busy_through_mcp_at_once():
    """The queue's overload path as a calling agent sees it (scripted backend: this is about the queue)."""
    backend = FakeBackend()
    backend.gate = threading.Event()
    engine = Engine(backend, max_waiting=1)
    from agentworld_mcp.domains import builtin_domains

    ctx = ToolContext(engine=engine, domains=builtin_domains(), effects="parser")
    engine.start()
    try:
        async with Client(create_server(ctx), mode="legacy") as client:
            call = {"domain": "terminal", "action": "python3 app.py"}  # the model's: a computed step takes no slot
            first = asyncio.create_task(client.call_tool("simulate_action", call))  # runs, held by the gate
            while not backend.started.is_set():
                await asyncio.sleep(0.01)
            second = asyncio.create_task(client.call_tool("simulate_action", call))  # waits
            while engine.stats().queue_depth < 1:
                await asyncio.sleep(0.01)
            third = await asyncio.wait_for(client.call_tool("simulate_action", call), timeout=5)
            assert third.is_error and "busy: 1 requests are waiting" in third.content[0].text
            backend.gate.set()
            assert not (await first).is_error and not (await second).is_error
    finally:
        backend.gate.set()
        engine.close()


async def test_a_repeated_greedy_simulation_is_answered_from_the_cache(mcp_server, tool_context):
    call = {"domain": "terminal", "action": "uname -a", **QUICK}  # the model's, not computed
    async with Client(mcp_server, mode="legacy") as client:
        first = (await client.call_tool("simulate_action", call)).structured_content
        completed = tool_context.engine.stats().completed
        second = (await client.call_tool("simulate_action", call)).structured_content
    assert second["usage"]["cached"] is True and first["usage"]["cached"] is False
    assert second["observation"] == first["observation"] and second["effects"] == first["effects"]
    assert tool_context.engine.stats().completed == completed  # the model did not run again


async def test_each_plan_step_extends_the_tokens_the_model_already_holds(tool_context):
    """Step k+1's prompt is step k's prompt and reply plus the new turn: nothing held is re-read."""
    from agentworld_mcp.tools.requests import PlanRequest
    from agentworld_mcp.tools.simulation.plan import dry_run_plan

    one_call_per_step = ToolContext(engine=tool_context.engine, domains=tool_context.domains, effects="parser",
                                    computed=False)  # every step the model's
    request = PlanRequest(domain="terminal", steps=["mkdir extend", "cd extend", "ls -a"], temperature=0, max_tokens=24)
    plan = await dry_run_plan(one_call_per_step, request)
    usages = [step.prediction.usage for step in plan.steps]
    for previous, current in zip(usages, usages[1:]):
        held = previous.prompt_tokens + previous.completion_tokens
        assert held - 1 <= current.reused_prompt_tokens < current.prompt_tokens  # the last sampled token is never evaluated
