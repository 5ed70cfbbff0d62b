"""Choosing llama.cpp's CPU kernels: the best-scoring variant, never AMX unless named, and a clear
error for a name that does not exist or does not run here."""

from __future__ import annotations

import pytest
from agentworld_mcp.engine.cpu_kernels import _on_flags, choose
from agentworld_mcp.engine.errors import ConfigurationError

# Scores as ggml's variants gave them on an AVX-512 machine, plus an AMX one that claims the top.
SCORES = {"x64": 1, "haswell": 64, "skylakex": 192, "icelake": 1472, "zen4": 1984, "sapphirerapids": 4000,
          "alderlake": 0}


def test_the_best_scoring_variant_wins_but_amx_is_left_out():
    assert choose(SCORES) == "zen4"
    assert choose({"x64": 1, "haswell": 64}) == "haswell"  # an AVX2-only machine


def test_a_named_variant_is_taken_even_amx_when_it_runs_here():
    assert choose(SCORES, "haswell") == "haswell"
    assert choose(SCORES, "sapphirerapids") == "sapphirerapids"


@pytest.mark.parametrize(("wanted", "message"), [("nehalem", "not a CPU variant"), ("alderlake", "lacks")])
def test_a_named_variant_that_cannot_run_is_a_configuration_error(wanted, message):
    with pytest.raises(ConfigurationError, match=message):
        choose(SCORES, wanted)


def test_no_usable_variant_says_how_to_build_a_portable_one():
    with pytest.raises(ConfigurationError, match="GGML_NATIVE=OFF"):
        choose({"zen4": 0, "sapphirerapids": 9})


def test_the_features_are_read_from_llama_cpps_system_line():
    line = "CPU : SSE3 = 1 | AVX = 1 | AVX512 = 0 | AVX2 = 1 | LLAMAFILE = 1 | "
    assert _on_flags(line.split("|")) == ["SSE3", "AVX", "AVX2", "LLAMAFILE"]
