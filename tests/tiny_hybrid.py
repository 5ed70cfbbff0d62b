"""A tiny GGUF of the reference model's own architecture, `qwen35moe`, with random weights, for tests.

Qwen-AgentWorld-35B-A3B is a hybrid: most layers are linear attention (a gated delta net whose state is carried
from token to token, so its cache can only be extended, never cut back), every `full_attention_interval`-th layer
is ordinary attention with a KV cache, and every layer's feed-forward is a mixture of experts beside a shared
expert. A file may also declare multi-token-prediction (MTP, "nextn") layers after the trunk. llama.cpp's loader
for the architecture (src/models/qwen35moe.cpp in the llama.cpp that llama-cpp-python vendors) reads the keys
and tensors written below; a shape that differs, a tensor too many or one missing fails the load.

The vocabulary is the default model's (Qwen2.5's byte-level BPE) cut to its first tokens and the chat special
tokens, with the merges among them, so prompts tokenize as a Qwen model's do, in a file of a few megabytes. The
chat template opens a `<think>` block, as the reference model's does, so a reply starts inside reasoning.
The weights are random: tests assert behaviour and invariants, never text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import gguf
import numpy as np
from gguf import MODEL_TENSOR, TENSOR_NAMES

ARCHITECTURE = "qwen35moe"
_WORD = re.compile("\u0120?[A-Za-z]{2,}")  # a word, with its leading space ("Ġ" in byte-level BPE) or not
KEPT_TOKENS = 4096  # the first ids of the default model's vocabulary: the 256 byte symbols and common merges
SPECIAL = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
# Qwen3.5's chat layout: ChatML turns; a reply opens `<think>`; replies before the last user turn are shown
# without their reasoning, a reply after it (one being continued) with it.
THINKING_TEMPLATE = (
    "{%- set ns = namespace(last_user=-1) -%}"
    "{%- for message in messages %}{% if message.role == 'user' %}{% set ns.last_user = loop.index0 %}{% endif %}"
    "{% endfor -%}"
    "{% for message in messages %}<|im_start|>{{ message.role }}\n"
    "{% if message.role == 'assistant' and loop.index0 < ns.last_user %}"
    "{{ message.content.split('</think>')[-1].lstrip() }}{% else %}{{ message.content }}{% endif %}<|im_end|>\n"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n<think>\n{% endif %}"
)


@dataclass(frozen=True)
class Shape:
    """The hyperparameters, as small as the loader and the first decode accept. The constraints between them:
    key and value heads are one size (`head_dim`); the delta net's inner size is `state_size * value_heads`, and
    its value heads are a multiple of its key heads (`groups`); a state size of 32 and a convolution of 4 are
    ones every backend's kernels take; the rope sections (text, height, width, unused) sum to half the rotated
    dimensions, and the first is not zero."""

    trunk_layers: int = 4
    full_attention_interval: int = 4  # layer 3 (the 4th) is full attention, layers 0-2 linear attention
    mtp_layers: int = 0  # declared MTP layers after the trunk
    mtp_tensors: bool = True  # False: declared but left out, as some community files do
    embedding: int = 64
    heads: int = 4
    kv_heads: int = 2
    head_dim: int = 32
    rotated: int = 8
    rope_sections: tuple[int, int, int, int] = (2, 1, 1, 0)
    experts: int = 4
    experts_used: int = 2
    expert_ff: int = 32
    shared_ff: int = 32
    conv_kernel: int = 4
    state_size: int = 32
    groups: int = 2  # key heads of the delta net
    value_heads: int = 4  # its value heads (`ssm.time_step_rank`)

    def is_linear(self, layer: int) -> bool:
        """llama.cpp's rule when no `attention.recurrent_layers` array is given."""
        return layer < self.trunk_layers and (layer + 1) % self.full_attention_interval != 0


def write_tiny_hybrid(path: Path, vocabulary_source: Path, shape: Shape = Shape(), seed: int = 0) -> Path:
    """Write the model to `path` (about 3 MB, in well under a second) and return it."""
    tokens, types, merges, specials = _small_vocabulary(vocabulary_source)
    writer = gguf.GGUFWriter(str(path), ARCHITECTURE)
    _write_keys(writer, shape, tokens, types, merges, specials)
    # Only words come out at temperature 0: a model server parses replies in the model's output format, and
    # random bytes, tabs or markup can fail its parser. The output rows of every other token are zero, so their
    # logits are 0 while some word's is above it; which word still depends on all the state before it.
    words = np.array([_WORD.fullmatch(token) is not None for token in tokens])
    _write_tensors(writer, shape, words, np.random.default_rng(seed))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def _write_keys(writer: gguf.GGUFWriter, shape: Shape, tokens: list[str], types: list[int], merges: list[str],
                specials: dict[str, int]) -> None:
    writer.add_name("tiny-qwen35moe (random weights)")
    writer.add_context_length(4096)
    writer.add_embedding_length(shape.embedding)
    writer.add_block_count(shape.trunk_layers + shape.mtp_layers)  # trunk and MTP layers together
    if shape.mtp_layers:
        writer.add_nextn_predict_layers(shape.mtp_layers)
    writer.add_full_attention_interval(shape.full_attention_interval)
    writer.add_head_count(shape.heads)
    writer.add_head_count_kv(shape.kv_heads)
    writer.add_key_length(shape.head_dim)
    writer.add_value_length(shape.head_dim)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_rope_dimension_count(shape.rotated)
    writer.add_rope_dimension_sections(list(shape.rope_sections))
    writer.add_rope_freq_base(1e7)
    writer.add_expert_count(shape.experts)
    writer.add_expert_used_count(shape.experts_used)
    writer.add_expert_feed_forward_length(shape.expert_ff)
    writer.add_expert_shared_feed_forward_length(shape.shared_ff)
    writer.add_ssm_conv_kernel(shape.conv_kernel)
    writer.add_ssm_state_size(shape.state_size)
    writer.add_ssm_group_count(shape.groups)
    writer.add_ssm_time_step_rank(shape.value_heads)
    writer.add_ssm_inner_size(shape.state_size * shape.value_heads)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("qwen35")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(merges)
    writer.add_bos_token_id(specials["<|endoftext|>"])
    writer.add_eos_token_id(specials["<|im_end|>"])
    writer.add_pad_token_id(specials["<|endoftext|>"])
    writer.add_add_bos_token(False)
    writer.add_chat_template(THINKING_TEMPLATE)


def _write_tensors(writer: gguf.GGUFWriter, shape: Shape, words: np.ndarray, rng: np.random.Generator) -> None:
    """Every tensor the loader expects, as numpy arrays (whose shape is ggml's dimensions reversed). Norms and
    the delta net's small tensors stay float32, as llama.cpp wants them; matrices are float16. `words`: the
    tokens the output layer may pick."""
    E, vocabulary = shape.embedding, len(words)

    def add(tensor: MODEL_TENSOR, dims: tuple[int, ...], layer: int | None = None, suffix: str = ".weight",
            kind: str = "matrix") -> None:
        name = (TENSOR_NAMES[tensor].format(bid=layer) if layer is not None else TENSOR_NAMES[tensor]) + suffix
        if kind == "norm":
            values = 1.0 + 0.01 * rng.standard_normal(dims)
        elif kind == "decay":
            values = -rng.uniform(0.5, 1.5, dims)  # the delta net's A, stored as -exp(A_log): negative
        else:
            values = 0.02 * rng.standard_normal(dims)
        writer.add_tensor(name, values.astype(np.float16 if kind == "matrix" and len(dims) > 1 else np.float32))

    add(MODEL_TENSOR.TOKEN_EMBD, (vocabulary, E))
    add(MODEL_TENSOR.OUTPUT_NORM, (E,), kind="norm")
    output = 0.02 * rng.standard_normal((vocabulary, E)) * words[:, None]
    writer.add_tensor(TENSOR_NAMES[MODEL_TENSOR.OUTPUT] + ".weight", output.astype(np.float16))
    key_dim, value_dim = shape.state_size * shape.groups, shape.state_size * shape.value_heads
    mixed = 2 * key_dim + value_dim  # the delta net's fused q, k and v

    def attention(layer: int) -> None:
        add(MODEL_TENSOR.ATTN_Q, (2 * shape.heads * shape.head_dim, E), layer)  # queries and their output gate
        add(MODEL_TENSOR.ATTN_K, (shape.kv_heads * shape.head_dim, E), layer)
        add(MODEL_TENSOR.ATTN_V, (shape.kv_heads * shape.head_dim, E), layer)
        add(MODEL_TENSOR.ATTN_OUT, (E, shape.heads * shape.head_dim), layer)
        add(MODEL_TENSOR.ATTN_Q_NORM, (shape.head_dim,), layer, kind="norm")
        add(MODEL_TENSOR.ATTN_K_NORM, (shape.head_dim,), layer, kind="norm")

    def linear_attention(layer: int) -> None:
        add(MODEL_TENSOR.ATTN_QKV, (mixed, E), layer)
        add(MODEL_TENSOR.ATTN_GATE, (value_dim, E), layer)
        add(MODEL_TENSOR.SSM_CONV1D, (mixed, shape.conv_kernel), layer, kind="small")
        add(MODEL_TENSOR.SSM_DT, (shape.value_heads,), layer, suffix=".bias", kind="small")
        add(MODEL_TENSOR.SSM_A, (shape.value_heads,), layer, suffix="", kind="decay")
        add(MODEL_TENSOR.SSM_BETA, (shape.value_heads, E), layer)
        add(MODEL_TENSOR.SSM_ALPHA, (shape.value_heads, E), layer)
        add(MODEL_TENSOR.SSM_NORM, (shape.state_size,), layer, kind="norm")
        add(MODEL_TENSOR.SSM_OUT, (E, value_dim), layer)

    def experts(layer: int) -> None:
        add(MODEL_TENSOR.FFN_GATE_INP, (shape.experts, E), layer)  # the router
        add(MODEL_TENSOR.FFN_GATE_EXP, (shape.experts, shape.expert_ff, E), layer)
        add(MODEL_TENSOR.FFN_UP_EXP, (shape.experts, shape.expert_ff, E), layer)
        add(MODEL_TENSOR.FFN_DOWN_EXP, (shape.experts, E, shape.expert_ff), layer)
        add(MODEL_TENSOR.FFN_GATE_INP_SHEXP, (E,), layer, kind="small")  # the shared expert's gate: one vector
        add(MODEL_TENSOR.FFN_GATE_SHEXP, (shape.shared_ff, E), layer)
        add(MODEL_TENSOR.FFN_UP_SHEXP, (shape.shared_ff, E), layer)
        add(MODEL_TENSOR.FFN_DOWN_SHEXP, (E, shape.shared_ff), layer)

    for layer in range(shape.trunk_layers):
        add(MODEL_TENSOR.ATTN_NORM, (E,), layer, kind="norm")
        add(MODEL_TENSOR.ATTN_POST_NORM, (E,), layer, kind="norm")
        (linear_attention if shape.is_linear(layer) else attention)(layer)
        experts(layer)
    for layer in range(shape.trunk_layers, shape.trunk_layers + shape.mtp_layers * shape.mtp_tensors):
        # An MTP layer: a full-attention layer that also mixes the next token's embedding into the hidden state.
        add(MODEL_TENSOR.ATTN_NORM, (E,), layer, kind="norm")
        add(MODEL_TENSOR.ATTN_POST_NORM, (E,), layer, kind="norm")
        attention(layer)
        experts(layer)
        add(MODEL_TENSOR.NEXTN_EH_PROJ, (E, 2 * E), layer)
        add(MODEL_TENSOR.NEXTN_ENORM, (E,), layer, kind="norm")
        add(MODEL_TENSOR.NEXTN_HNORM, (E,), layer, kind="norm")
        add(MODEL_TENSOR.NEXTN_SHARED_HEAD_NORM, (E,), layer, kind="norm")


def _small_vocabulary(source: Path) -> tuple[list[str], list[int], list[str], dict[str, int]]:
    """The source GGUF's first KEPT_TOKENS tokens and its chat special tokens (renumbered after them), and the
    merges whose two parts and result are all kept, in their order (a merge's rank is its place)."""
    fields = gguf.GGUFReader(str(source)).fields

    def strings(key: str) -> list[str]:
        field = fields[key]
        return [bytes(field.parts[index]).decode("utf-8") for index in field.data]

    every, kinds = strings("tokenizer.ggml.tokens"), fields["tokenizer.ggml.token_type"]
    every_type = [int(kinds.parts[index][0]) for index in kinds.data]
    kept = list(range(KEPT_TOKENS)) + [every.index(special) for special in SPECIAL]
    tokens = [every[index] for index in kept]
    known = set(tokens)
    merges = [merge for merge in strings("tokenizer.ggml.merges")
              if (parts := merge.split(" ")) and len(parts) == 2 and parts[0] in known and parts[1] in known
              and parts[0] + parts[1] in known]
    return tokens, [every_type[index] for index in kept], merges, {name: tokens.index(name) for name in SPECIAL}
