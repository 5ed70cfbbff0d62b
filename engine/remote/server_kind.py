"""Which model server answers at a URL, and the few request fields in which servers differ.

Every server here speaks OpenAI chat completions; they differ in how a client pins a slot, asks
for token counts while streaming, continues a prefilled reply (and renders its reasoning), and names the
repetition penalty. Everything else in a request is the same for all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..thinking import CLOSING, THINK_OPEN

ServerKind = Literal["llama-server", "vllm", "sglang", "ollama", "openai-compatible"]

# What `owned_by` in /v1/models says about the server behind it.
_OWNERS: dict[str, ServerKind] = {"llamacpp": "llama-server", "vllm": "vllm", "sglang": "sglang", "library": "ollama"}


@dataclass(frozen=True)
class ServerInfo:
    kind: ServerKind
    models: tuple[str, ...]
    slots: int | None = None  # parallel requests the server runs at once, where it says
    n_ctx: int | None = None  # context per request, where it says
    extra: dict[str, Any] = field(default_factory=dict)


def identify(models_document: dict, props: dict | None) -> ServerInfo:
    """From /v1/models and, when the server has it, llama-server's /props."""
    entries = [entry for entry in models_document.get("data", []) if isinstance(entry, dict)]
    names = tuple(str(entry.get("id")) for entry in entries if entry.get("id"))
    owners = {str(entry.get("owned_by", "")).lower() for entry in entries}
    kind: ServerKind = next((_OWNERS[owner] for owner in owners if owner in _OWNERS), "openai-compatible")
    if props is not None and "total_slots" in props:
        settings = props.get("default_generation_settings") or {}
        n_ctx = settings.get("n_ctx") if isinstance(settings, dict) else None
        return ServerInfo("llama-server", names, _positive(props.get("total_slots")), _positive(n_ctx),
                          {"build": props.get("build_info", "")})
    context = next((entry.get("max_model_len") for entry in entries if entry.get("max_model_len")), None)
    return ServerInfo(kind, names, None, _positive(context))


def _positive(value: Any) -> int | None:
    return value if isinstance(value, int) and value > 0 else None


def dialect_fields(kind: ServerKind, *, slot: int | None, repeat_penalty: float, top_k: int, min_p: float,
                   template_vars: dict[str, Any]) -> dict[str, Any]:
    """The request fields for this server beyond the OpenAI standard ones."""
    fields: dict[str, Any] = {}
    if kind != "openai-compatible":
        fields["top_k"], fields["min_p"] = top_k, min_p
    if template_vars and kind in ("llama-server", "vllm", "sglang"):
        fields["chat_template_kwargs"] = template_vars
    if kind == "llama-server":
        fields["reasoning_format"] = "none"  # the think block stays inline, exactly as the model wrote it
        fields["cache_prompt"] = True
        fields["timings_per_token"] = True  # token counts in every chunk: exact figures even when we stop early
        if slot is not None:
            fields["id_slot"] = slot
        if repeat_penalty != 1.0:
            fields["repeat_penalty"] = repeat_penalty
        fields["stream_options"] = {"include_usage": True}
    else:
        # vLLM and SGLang report usage in every chunk when asked; the others only at the end.
        fields["stream_options"] = {"include_usage": True, "continuous_usage_stats": True} if kind in (
            "vllm", "sglang") else {"include_usage": True}
        if repeat_penalty != 1.0 and kind in ("vllm", "sglang"):
            fields["repetition_penalty"] = repeat_penalty
    return fields


def continued_reply(kind: ServerKind, template_opens_thinking: bool, closed: str,
                    reasoning: str) -> tuple[dict[str, str], str]:
    """The assistant message that has the server continue a reply whose think block the budget closed (`closed`:
    the reply so far, block closed; `reasoning`: what the block holds), and that reply as the model then sees
    it. llama-server, given a template that opens <think> itself, renders the message's reasoning_content inside
    the block, as the model wrote it; reasoning left in the content would get an empty think block put before it."""
    if kind == "llama-server" and template_opens_thinking:
        message = {"role": "assistant", "content": "\n\n", "reasoning_content": f"\n{reasoning}\n"}
        return message, f"{THINK_OPEN.decode()}\n{reasoning}{CLOSING}"
    return {"role": "assistant", "content": closed}, closed


def continuation_fields(kind: ServerKind) -> dict[str, Any]:
    """Fields that make the server continue the final assistant message instead of answering it.
    llama-server and Ollama continue a trailing assistant message by themselves."""
    if kind in ("vllm", "sglang"):
        return {"continue_final_message": True, "add_generation_prompt": False}
    return {}
