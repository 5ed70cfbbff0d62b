"""The remote backend's pure parts, on the shapes servers send: no server needed. The backend as a
whole is tested against a real llama-server in test_remote_backend.py."""

from __future__ import annotations

import json

from agentworld_mcp.engine import ContextOverflow
from agentworld_mcp.engine.remote import api_root
from agentworld_mcp.engine.remote.errors import ModelServerError, status_error
from agentworld_mcp.engine.remote.server_kind import continued_reply, identify
from agentworld_mcp.engine.remote.stream import StreamedReply


def _delta(**delta) -> dict:
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}


def test_the_api_root_is_the_v1_path_unless_a_path_was_given():
    assert api_root("http://h:8080") == "http://h:8080/v1"
    assert api_root("http://h:8080/v1/") == "http://h:8080/v1"
    assert api_root("https://proxy/openai/v1/chat/completions") == "https://proxy/openai/v1"


def test_servers_are_told_apart_by_what_they_list():
    llama = identify({"data": [{"id": "m", "owned_by": "llamacpp"}]}, {"total_slots": 4, "default_generation_settings": {"n_ctx": 2048}})
    assert (llama.kind, llama.slots, llama.n_ctx, llama.models) == ("llama-server", 4, 2048, ("m",))
    vllm = identify({"data": [{"id": "qwen", "owned_by": "vllm", "max_model_len": 262144}]}, None)
    assert (vllm.kind, vllm.slots, vllm.n_ctx) == ("vllm", None, 262144)
    assert identify({"data": [{"id": "x", "owned_by": "someone"}]}, None).kind == "openai-compatible"


def test_split_reasoning_goes_back_into_its_think_block():
    reply = StreamedReply()
    for chunk in (_delta(reasoning_content="The user"), _delta(reasoning_content=" lists files."), _delta(content="a.txt\n")):
        reply.add(chunk)
    assert reply.text() == "<think>\nThe user lists files.\n</think>\n\na.txt\n"
    assert reply.thinking_chunks == 2 and reply.chunks == 3 and not reply.thinking


def test_inline_thinking_is_counted_until_the_block_closes():
    reply = StreamedReply(thinking_open=True)  # the generation prompt opened <think>
    for text in ("hmm", " ok", "\n</think>\n\n", "done"):
        reply.add(_delta(content=text))
    assert reply.thinking_chunks == 2 and reply.text() == "hmm ok\n</think>\n\ndone"
    assert StreamedReply(content="partial", thinking_open=True).with_thinking_closed() == "partial\n</think>\n\n"


def test_a_continued_reply_drops_the_prefill_the_server_echoes():
    reply = StreamedReply(prefill="thought\n</think>\n\n")
    reply.add(_delta(content="thought\n</think>\n\nThe"))
    reply.add(_delta(content=" end"))
    assert reply.text() == "The end"


def test_an_echoed_think_block_is_dropped_however_the_server_spaced_it():
    prefill = "<think>\nthe reasoning\n</think>\n\n"
    for echo in (prefill, "<think>\n\nthe reasoning\n\n</think>\n\n\n\n", "<think>the reasoning</think>\n\n"):
        reply = StreamedReply(prefill=prefill)
        for piece in (echo[:5], echo[5:], "total 0", "\n$ "):  # the echo arrives in pieces, then the observation
            reply.add(_delta(content=piece))
        assert reply.text() == "total 0\n$ ", echo
    unechoed = StreamedReply(prefill=prefill)  # a server that continues without streaming the prefill back
    unechoed.add(_delta(content="total 0"))
    assert unechoed.text() == "total 0"


def test_llama_server_continues_a_think_block_from_the_reasoning_content_and_others_from_the_text():
    closed = "<think>\nthe reasoning\n</think>\n\n"
    message, seen = continued_reply("llama-server", True, closed, "the reasoning")
    assert message["reasoning_content"].strip() == "the reasoning" and "<think>" not in message["content"]
    assert seen == closed
    for kind, opens in (("llama-server", False), ("vllm", True)):
        assert continued_reply(kind, opens, closed, "the reasoning") == ({"role": "assistant", "content": closed}, closed)


def test_counts_come_from_the_server_and_reuse_is_never_invented():
    timed = StreamedReply(timings={"prompt_n": 10, "cache_n": 90, "predicted_n": 7, "prompt_ms": 5, "predicted_ms": 20})
    assert (timed.prompt_tokens(), timed.reused_tokens(), timed.completion_tokens()) == (100, 90, 7)
    assert timed.server_seconds() == 0.025
    usage = StreamedReply(usage={"prompt_tokens": 50, "completion_tokens": 3, "prompt_tokens_details": {"cached_tokens": 40}})
    assert (usage.prompt_tokens(), usage.reused_tokens(), usage.completion_tokens()) == (50, 40, 3)
    silent = StreamedReply(chunks=5)
    assert (silent.prompt_tokens(), silent.reused_tokens(), silent.completion_tokens()) == (0, 0, 5)


def test_each_error_status_says_what_to_fix():
    body = lambda message, **extra: json.dumps({"error": {"message": message, **extra}}).encode()  # noqa: E731
    assert "--api-key" in str(status_error("U", 401, body("Invalid API Key"), "m"))
    overflow = status_error("U", 400, body("the request exceeds the available context size", n_prompt_tokens=5000, n_ctx=4096), "m")
    assert isinstance(overflow, ContextOverflow) and "5000" in str(overflow) and "-c" in str(overflow)
    vague = status_error("U", 400, body("This model's maximum context length is 4096 tokens"), "m")
    assert "context" in str(vague) and not isinstance(vague, ContextOverflow)
    assert "--served-model" in str(status_error("U", 404, body("The model `x` does not exist."), "x"))
    assert "/v1 root" in str(status_error("U", 404, b"Not Found", "m"))
    busy = status_error("U", 503, body("Loading model"), "m")
    assert isinstance(busy, ModelServerError) and busy.retry
    assert not status_error("U", 400, body("bad request"), "m").retry
