"""`bench --section 14`: what retrieval costs, over 10,000 stored real steps.

A store of synthetic terminal sessions (programs and arguments drawn from a fixed vocabulary, so
many steps look alike, as real ones do), then queries like the stored actions: the latency of
finding the examples (the inverted index, against rapidfuzz over every step of the domain), and the
prompt tokens the rendered examples add, counted by the model's own tokenizer.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from rapidfuzz import fuzz, process

from ...tools.data.retrieval import MIN_SCORE, RealStepIndex, render
from ...tools.data.session_split import session_key, split_of
from ...tools.worlds.store import StepRow, Store

STEPS = 10_000
STEPS_PER_SESSION = 25
QUERIES = 500
_PROGRAMS = ["ls", "cat", "grep -rn", "git", "python", "pytest", "npm", "docker", "make", "curl", "find", "sed -i",
             "pip install", "cargo", "kubectl get", "tail -n 50", "head", "wc -l", "du -sh", "chmod +x"]
_WORDS = ["src", "main.py", "tests", "README.md", "-la", "status", "log", "--oneline", "build", "run", "config.yaml",
          "app", "lib", "utils.py", "pods", "Dockerfile", "package.json", "-v", "origin", "main", "*.log", "diff",
          "requirements.txt", "node_modules", "dist", "--help", "api", "handlers", "models.py", "settings.py"]


def retrieval_costs(model_path: Path) -> None:
    print(f"\n14. retrieval over {STEPS:,} stored real steps: finding 2 examples, and the prompt tokens they add")
    draw = random.Random(14)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "worlds.sqlite3")
        for session in range(STEPS // STEPS_PER_SESSION):
            world_id = store.create_world("terminal", "", "", None, world_id=f"bench-{session}-terminal",
                                          origin={"host": "bench", "session": str(session)})
            store.append_steps(world_id, [StepRow(position, _command(draw), _screen(draw), None, None, "real", None, None)
                                          for position in range(1, STEPS_PER_SESSION + 1)])
        began = time.perf_counter()
        index = RealStepIndex(store)
        stored = index.size()
        built = time.perf_counter() - began
        queries = [_command(draw) for _ in range(QUERIES)]
        befores = {query: _command(draw) for query in queries}  # a world's last action: it orders equal matches
        indexed, rendered = _timed(lambda query: index.nearest("terminal", query, before=befores[query]), queries)
        everything = [action for world_id, _, origin, action, _ in store.real_steps()
                      if split_of(session_key(world_id, origin)) == "train"]
        scanned, _ = _timed(lambda query: process.extract(query, everything, scorer=fuzz.token_set_ratio, limit=8,
                                                          score_cutoff=MIN_SCORE), queries)
        store.close()
    print(f"  {stored:,} train steps indexed in {built * 1000:.0f} ms (the test sessions' are never examples)")
    print(f"  finding the examples: p50 {_p(indexed, 50):.2f} ms, p99 {_p(indexed, 99):.2f} ms   (goal: p50 under 5 ms); "
          f"rapidfuzz over every step: p50 {_p(scanned, 50):.2f} ms ({_p(scanned, 50) / _p(indexed, 50):.1f}x slower)")
    tokens = _tokens(model_path, [render(found) for found in rendered if found])
    if tokens:
        print(f"  tokens the examples add to a prompt: mean {statistics.mean(tokens):.0f}, max {max(tokens)} "
              f"({len(tokens)} of {QUERIES} queries found examples; 2 examples, each observation cut at 600 characters)")


def _command(draw: random.Random) -> str:
    return f"{draw.choice(_PROGRAMS)} {' '.join(draw.sample(_WORDS, draw.randint(1, 3)))}"


def _screen(draw: random.Random) -> str:
    return "\n".join(" ".join(draw.sample(_WORDS, 4)) for _ in range(draw.randint(2, 30)))


def _timed(find, queries: list[str]) -> tuple[list[float], list]:
    seconds, found = [], []
    for query in queries:
        began = time.perf_counter()
        found.append(find(query))
        seconds.append((time.perf_counter() - began) * 1000)
    return seconds, found


def _p(values: list[float], percent: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, len(ordered) * percent // 100)]


def _tokens(model_path: Path, texts: list[str]) -> list[int]:
    from llama_cpp import Llama

    vocabulary = Llama(str(model_path), vocab_only=True, verbose=False)
    return [len(vocabulary.tokenize(text.encode(), add_bos=False)) for text in texts]
