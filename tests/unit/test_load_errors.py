"""A model file that fails to load: the error says what to do, in each wording llama.cpp has used."""

from __future__ import annotations

import pytest
from agentworld_mcp.engine.llama_backend import missing_mtp_hint


@pytest.mark.parametrize("detail", [
    "llama_model_load: error loading model: check_tensor_dims: tensor 'blk.40.attn_norm.weight' not found",
    "llama_model_load: error loading model: missing tensor 'blk.40.attn_norm.weight'",
])
def test_a_qwen35moe_file_without_its_mtp_block_gets_the_two_overrides_with_its_block_count(detail):
    hint = missing_mtp_hint("qwen35moe", detail)
    assert "qwen35moe.block_count=int:40" in hint and "qwen35moe.nextn_predict_layers=int:0" in hint


def test_other_architectures_and_other_errors_get_no_such_hint():
    assert missing_mtp_hint("qwen2", "check_tensor_dims: tensor 'blk.24.attn_norm.weight' not found") == ""
    assert missing_mtp_hint("qwen35moe", "unknown model architecture: 'qwen99'") == ""
