"""The thinking budget on the real model: a template that opens <think> in the generation prompt,
as thinking templates do, makes the demo model reason; the budget must close the block in time."""

from __future__ import annotations

import pytest
from agentworld_mcp.server.runtime import build_context
from agentworld_mcp.tools.requests import SimulateRequest
from agentworld_mcp.tools.simulation.simulate import simulate_action

THINKING_CHATML = (
    "{% for message in messages %}<|im_start|>{{ message.role }}\n{{ message.content }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n<think>\n{% endif %}"
)


@pytest.fixture(scope="module")
async def thinking_context(tmp_path_factory, settings, model_info):
    template = tmp_path_factory.mktemp("template") / "thinking.jinja"
    template.write_text(THINKING_CHATML)
    ctx = build_context(settings.model_copy(update={"chat_template": template, "effects": "parser"}), model_info)
    ctx.engine.start()
    await ctx.engine.wait_ready()
    yield ctx
    ctx.engine.close()


async def test_the_budget_closes_thinking_and_the_observation_still_comes(thinking_context):
    prediction = await simulate_action(thinking_context, SimulateRequest(
        domain="terminal", action="cat /etc/os-release", temperature=0, max_tokens=96, thinking_budget=24,
        include_reasoning=True,
    ))
    usage = prediction.usage
    assert 0 < usage.reasoning_tokens <= 24
    assert usage.completion_tokens <= 96 + 8  # the closing tag the server adds is a few tokens
    assert prediction.reasoning  # the think block was recognised and kept apart
    if usage.thinking_cut:
        assert usage.reasoning_tokens == 24 and usage.completion_tokens > usage.reasoning_tokens
    assert prediction.observation.strip() or prediction.parse_error


async def test_by_default_thinking_leaves_a_quarter_of_max_tokens(thinking_context):
    prediction = await simulate_action(
        thinking_context, SimulateRequest(domain="terminal", action="uname -r", temperature=0, max_tokens=40)
    )
    assert prediction.usage.reasoning_tokens <= 30 and prediction.reasoning is None  # reasoning only when asked


async def test_a_reply_under_a_schema_is_written_after_the_open_think_block_is_closed(thinking_context):
    from agentworld_mcp.tools.tool_definitions import parse_tool_definitions, reply_problem

    tools = [{"name": "count_rows", "inputSchema": {"type": "object"}, "outputSchema": {
        "type": "object", "properties": {"rows": {"type": "integer"}}, "required": ["rows"], "additionalProperties": False}}]
    prediction = await simulate_action(thinking_context, SimulateRequest(
        domain="mcp", tools=tools, action="count_rows {}", temperature=0, max_tokens=64, include_reasoning=True))
    assert prediction.parse_error is None and not prediction.reasoning  # the JSON is the reply, not the thinking
    assert reply_problem(parse_tool_definitions(tools, 10_000).reply_schema("count_rows"), prediction.observation) is None
