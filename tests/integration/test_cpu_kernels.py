"""The CPU kernels llama.cpp really loads: the best variant for this CPU by default, any runnable one
by name, and the choice shown by `agentworld-mcp model` and the status resource. Each case runs in
its own process: a process loads one variant for good."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from agentworld_mcp.engine.cpu_kernels import ensure_loaded

GENERATE = """
import json, llama_cpp
from agentworld_mcp.engine.cpu_kernels import ensure_loaded
from agentworld_mcp.server.runtime import resolve_model
from agentworld_mcp.server.settings import load_settings
kernels = ensure_loaded()
llm = llama_cpp.Llama(model_path=str(resolve_model(load_settings({})).path), n_ctx=256, verbose=False)
text = llm.create_completion("ls -la", max_tokens=8, temperature=0)["choices"][0]["text"]
print(json.dumps({"variant": kernels.variant, "features": kernels.features, "generated": bool(text)}))
"""


@pytest.fixture(scope="module")
def variants():
    loaded = ensure_loaded()
    if loaded.variant == "built in":
        pytest.skip("this llama-cpp-python has its kernels built in (no GGML_BACKEND_DL): nothing to choose")
    return loaded.scores


def _run(code: str, env: dict, variant: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], env={**env, "AGENTWORLD_CPU_VARIANT": variant},
                          capture_output=True, text=True, timeout=300)


def test_the_model_command_names_the_variant_chosen_for_this_cpu(variants, server_argv, server_env):
    done = subprocess.run([*server_argv, "model"], env=server_env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    cpu = json.loads(done.stdout)["cpu"]
    runnable = {name: score for name, score in variants.items() if score > 0 and name != "sapphirerapids"}
    assert cpu["variant"] == max(runnable, key=runnable.get) and "AVX2" in cpu["features"]


def test_a_named_portable_variant_runs_the_model_with_its_own_features(variants, server_env):
    done = _run(GENERATE, server_env, "haswell")
    assert done.returncode == 0, done.stderr
    ran = json.loads(done.stdout.strip().splitlines()[-1])
    assert ran["variant"] == "haswell" and ran["generated"]
    assert "AVX2" in ran["features"] and "AVX512" not in ran["features"]


def test_an_unknown_variant_is_one_line_and_exit_2(variants, server_argv, server_env):
    done = subprocess.run([*server_argv, "model"], env={**server_env, "AGENTWORLD_CPU_VARIANT": "nehalem"},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().count("\n") == 0 and "not a CPU variant" in done.stderr


async def test_the_status_resource_shows_the_kernels(tool_context):
    cpu = tool_context.engine.stats().backend["cpu"]
    assert cpu["variant"] and "AVX2" in cpu["features"]
