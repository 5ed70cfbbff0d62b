"""`bench --section 12`: prompt reading and decoding speed of the in-process model on the CPU kernels
this machine runs, against the portable AVX2 kernels, each measured in its own process.

A process loads one CPU variant for good, so each variant is measured in a child process started
with AGENTWORLD_CPU_VARIANT. `haswell` is the portable build's instruction set (AVX2, FMA, F16C,
BMI2: what `GGML_NATIVE=OFF` compiles), so the ratio is what the runtime choice gains over it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

PORTABLE = "haswell"
PROMPT_TOKENS = 1000
DECODED_TOKENS = 32
ROUNDS = 3  # best of three: the machine is shared


def kernel_speeds(model_path: str, threads: int) -> None:
    print("\n12. CPU kernels: the variant chosen for this CPU against the portable AVX2 one "
          "(best of 2 processes x 3 rounds, taken in turn)")
    chosen = _measure(model_path, threads, "")
    print(f"  chosen: {chosen['variant']} ({' '.join(chosen['features'])})")
    if chosen["variant"] == "built in":
        print(f"  this llama-cpp-python has its kernels built in (no variants to compare): prompt "
              f"{chosen['prompt']:.0f} tokens/s, decode {chosen['decode']:.1f} tokens/s")
        return
    if chosen["variant"] == PORTABLE or chosen["scores"].get(PORTABLE, 0) <= 0:
        print(f"  skipped the comparison: the chosen kernels are {chosen['variant']}, and {PORTABLE} "
              f"{'is them' if chosen['variant'] == PORTABLE else 'does not run on this CPU'}")
        return
    portable = _measure(model_path, threads, PORTABLE)
    for measured, variant in ((chosen, ""), (portable, PORTABLE)):  # a second turn each, so drift hits both
        again = _measure(model_path, threads, variant)
        for what in ("prompt", "decode"):
            measured[what] = max(measured[what], again[what])
    for what in ("prompt", "decode"):
        ratio = chosen[what] / portable[what]
        print(f"  {what + ' tokens/s':<44} {chosen[what]:9.1f}    vs {portable[what]:9.1f}      ratio {ratio:6.3f}  "
              f"(higher is better; {PORTABLE} = the portable build)")


def _measure(model_path: str, threads: int, variant: str) -> dict:
    env = {**os.environ, "AGENTWORLD_CPU_VARIANT": variant}
    done = subprocess.run([sys.executable, "-m", __name__, model_path, str(threads)], env=env, capture_output=True,
                          text=True, timeout=900, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the {variant or 'chosen'} kernels could not be measured: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _child(model_path: str, threads: int) -> None:
    import llama_cpp

    from ...engine.cpu_kernels import ensure_loaded

    kernels = ensure_loaded()
    llm = llama_cpp.Llama(model_path=model_path, n_ctx=PROMPT_TOKENS + DECODED_TOKENS + 64, n_batch=512,
                          n_threads=threads, n_threads_batch=threads, verbose=False)
    text = "A terminal session: ls -la, cd src, cat main.py, git status, make test. " * 200
    prompt = llm.tokenize(text.encode())[:PROMPT_TOKENS]
    best_prompt = best_decode = 0.0
    for _ in range(ROUNDS):
        llm.reset()
        began = time.perf_counter()
        llm.eval(prompt)
        best_prompt = max(best_prompt, len(prompt) / (time.perf_counter() - began))
        began = time.perf_counter()
        for token in prompt[:DECODED_TOKENS]:  # one token at a time, as decoding runs
            llm.eval([token])
        best_decode = max(best_decode, DECODED_TOKENS / (time.perf_counter() - began))
    print(json.dumps({"variant": kernels.variant, "features": list(kernels.features), "scores": kernels.scores,
                      "prompt": best_prompt, "decode": best_decode}))


if __name__ == "__main__":
    _child(sys.argv[1], int(sys.argv[2]))
