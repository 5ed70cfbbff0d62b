"""Interleaved conversations on the real model: a snapshot brings back what another one evicted."""

from __future__ import annotations

import pytest
from agentworld_mcp.server.runtime import build_context
from agentworld_mcp.tools.requests import SimulateRequest
from agentworld_mcp.tools.simulation.simulate import simulate_action


def _quick(action: str, history: list[dict]) -> SimulateRequest:
    return SimulateRequest(domain="terminal", action=action, history=history, temperature=0, max_tokens=16)


def _history(topic: str) -> list[dict]:
    screen = "\n".join(f"{topic}-{index:03d}.log  {index * 37 % 1000:>4} KB" for index in range(90))
    return [{"action": f"ls /var/log/{topic}", "observation": screen}]


@pytest.fixture(params=[2048, 0], ids=["snapshots", "no-snapshots"], scope="module")
async def context(request, settings, model_info):
    ctx = build_context(settings.model_copy(update={"snapshot_mb": request.param, "effects": "parser", "result_cache": 0}), model_info)
    ctx.engine.start()
    await ctx.engine.wait_ready()
    yield request.param, ctx
    ctx.engine.close()


async def test_switching_back_to_a_conversation_restores_what_it_held(context):
    snapshot_mb, ctx = context
    alpha, beta = _history("alpha"), _history("beta")
    first = await simulate_action(ctx, _quick("du -sh /var/log/alpha", alpha))
    await simulate_action(ctx, _quick("du -sh /var/log/beta", beta))  # evicts alpha
    again = await simulate_action(ctx, _quick("wc -l /var/log/alpha/*", alpha))
    figures = ctx.engine.stats().backend
    alpha_only = first.usage.prompt_tokens - 40  # all of alpha's prompt but its last turn
    if snapshot_mb:
        assert figures["snapshots_restored"] >= 1 and figures["snapshot_bytes"] <= snapshot_mb << 20
        assert again.usage.reused_prompt_tokens >= alpha_only
    else:
        assert figures["snapshots_saved"] == 0
        assert again.usage.reused_prompt_tokens < alpha_only  # only the shared system prompt survived


async def test_a_world_whose_effects_detour_was_evicted_comes_back_from_its_snapshot(context):
    from agentworld_mcp.domains import Turn
    from agentworld_mcp.domains.protocol import render_messages
    from agentworld_mcp.engine import GenerationRequest, Sampling

    snapshot_mb, ctx = context
    pack, greedy = ctx.domains["terminal"], Sampling(temperature=0, max_tokens=12)

    def step(topic: str, action: str) -> tuple[dict, ...]:
        history = [Turn(turn["action"], turn["observation"]) for turn in _history(topic)]
        return tuple(render_messages(pack, history, action, "", pack.initial_state, True))

    alpha = step("alpha", "ls -S /var/log/alpha")
    first = await ctx.engine.generate(GenerationRequest(alpha, greedy))
    exchange = (*alpha, {"role": "assistant", "content": first.text})
    await ctx.engine.generate(GenerationRequest((*exchange, {"role": "user", "content": "Did it work?"}), greedy, detour=True))
    await ctx.engine.generate(GenerationRequest(step("beta", "ls -S /var/log/beta"), greedy))  # evicts alpha
    following = await ctx.engine.generate(GenerationRequest((*exchange, {"role": "user", "content": "Next: pwd"}), greedy))
    if snapshot_mb:
        assert following.reused_tokens >= first.prompt_tokens + first.completion_tokens - 1
    else:
        assert following.reused_tokens < first.prompt_tokens - 500  # only the shared system prompt survived


@pytest.fixture(scope="module")
async def extend_only(settings, model_info):
    """The test model run as if it were hybrid (qwen35moe): a prompt reuses the cache only if it extends it."""
    ctx = build_context(settings.model_copy(update={"result_cache": 0}), model_info)
    ctx.engine._backend.settings.extend_only = True
    ctx.engine.start()
    await ctx.engine.wait_ready()
    yield ctx
    ctx.engine.close()


@pytest.mark.parametrize("detour", [True, False], ids=["marked-detour", "unmarked"])
async def test_a_detour_keeps_the_conversation_resumable_on_an_extend_only_model(extend_only, detour):
    from agentworld_mcp.domains.protocol import render_messages
    from agentworld_mcp.engine import GenerationRequest, Sampling

    engine, pack = extend_only.engine, extend_only.domains["terminal"]
    assert engine.stats().backend["extend_only"] is True
    greedy = Sampling(temperature=0, max_tokens=12)
    step = tuple(render_messages(pack, [], f"ls /srv/{detour}", "", pack.initial_state, True))
    first = await engine.generate(GenerationRequest(step, greedy))
    exchange = (*step, {"role": "assistant", "content": first.text})
    await engine.generate(GenerationRequest((*exchange, {"role": "user", "content": "Was it a success?"}), greedy, detour=detour))
    following = await engine.generate(GenerationRequest((*exchange, {"role": "user", "content": "Next: pwd"}), greedy))
    replied = first.prompt_tokens + first.completion_tokens - 1  # the last sampled token is never evaluated
    if detour:  # restored from the snapshot taken before the detour: only the new turn is read
        assert following.reused_tokens >= replied
    else:  # an extend-only model cannot cut the detour off: back to the turn boundary, the reply is read again
        assert first.prompt_tokens - 8 <= following.reused_tokens < replied


# Thinking templates in the Qwen3 style show earlier replies without their reasoning.
HISTORY_WITHOUT_REASONING = (
    "{% for message in messages %}<|im_start|>{{ message.role }}\n"
    "{% if message.role == 'assistant' %}{{ message.content.split('</think>')[-1].lstrip() }}{% else %}{{ message.content }}{% endif %}"
    "<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n<think>\n{% endif %}"
)


async def test_an_extend_only_model_resumes_at_the_turn_boundary_when_history_drops_the_reasoning(
    tmp_path, settings, model_info
):
    from agentworld_mcp.domains.protocol import render_messages
    from agentworld_mcp.engine import GenerationRequest, Sampling

    template = tmp_path / "history-without-reasoning.jinja"
    template.write_text(HISTORY_WITHOUT_REASONING)
    ctx = build_context(settings.model_copy(update={"result_cache": 0, "chat_template": template}), model_info)
    ctx.engine._backend.settings.extend_only = True
    ctx.engine.start()
    try:
        await ctx.engine.wait_ready()
        pack = ctx.domains["terminal"]
        step = tuple(render_messages(pack, [], "cat /etc/hostname", "", pack.initial_state, True))
        first = await ctx.engine.generate(GenerationRequest(step, Sampling(temperature=0, max_tokens=24), thinking_budget=8))
        assert first.reasoning_tokens > 0
        following = await ctx.engine.generate(GenerationRequest(
            (*step, {"role": "assistant", "content": first.text}, {"role": "user", "content": "Next: pwd"}),
            Sampling(temperature=0, max_tokens=4),
        ))
        # everything but the generation prompt (`<|im_start|>assistant\n<think>\n`) was kept
        assert following.reused_tokens >= first.prompt_tokens - 8
        assert ctx.engine.stats().backend["snapshots_restored"] >= 1
    finally:
        ctx.engine.close()
