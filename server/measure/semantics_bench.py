"""`agentworld-mcp bench --section 9|10`: what knowing a command's effects costs, and what the re-ask buys.

9. Parse plus effects per command line, model-free: p50 and p99 over a fixed set of lines (every
   shipped gate case's command and a few long ones), each read many times.
10. A prediction the world's known files contradict (`cat` of a file a real step deleted): how often
   the model already agrees, how often the re-ask with the state as a hint fixes it, and what each
   way costs against correcting at once (no second model call).
"""

from __future__ import annotations

import dataclasses
import statistics
import tempfile
import time
from pathlib import Path

from ...domains.shell import analyze
from ...tools.requests import SimulateRequest
from ...tools.simulation.simulate import simulate_action
from ...tools.worlds.store import Store
from ...tools.worlds.worlds import open_world
from ..evals.gate import load_cases
from ..evals.make_gate_cases import SHIPPED

_LONG = [
    "cd /srv/app && git -C . --no-pager stash && git pull --rebase origin main && make -j4 build 2>&1 | tee build.log",
    "find . -type f -name '*.pyc' -exec rm -f {} + ; rm -rf build dist *.egg-info && python -m build",
    'for f in src/*.py; do sed -i.bak "s/old_name/new_name/g" "$f"; done && git diff --stat',
    "curl -fsSL https://example.org/install.sh -o /tmp/i.sh && sudo bash /tmp/i.sh --prefix=$HOME/.local",
]
# (what reality did, then the step the model predicts): each step needs what reality removed.
_CONTRADICTED = [
    ("rm notes.txt", "cat notes.txt"),
    ("rm -r build", "ls build"),
    ("rm a.txt", "rm a.txt"),
    ("rm -r old", "cd old"),
    ("mv draft.md final.md", "mv draft.md posted.md"),
    ("rm log.txt", "wc -l log.txt"),
]


def semantics_costs(rounds: int = 200) -> None:
    lines = [case.action for case in load_cases(SHIPPED)] + _LONG
    print(f"9. shell semantics: parse plus effects of one command line ({len(lines)} lines x {rounds}), no model")
    analyze("echo warm", "/home/dev/project")
    times = []
    for _ in range(rounds):
        for line in lines:
            started = time.perf_counter()
            analyze(line, "/home/dev/project", "/home/dev")
            times.append(time.perf_counter() - started)
    times.sort()
    p50, p99 = statistics.median(times) * 1000, times[int(len(times) * 0.99)] * 1000
    print(f"  p50 {p50:.3f} ms, p99 {p99:.3f} ms, longest line {max(len(line) for line in lines)} chars   goal: p50 under 1 ms")


async def state_check_costs(ctx, max_tokens: int = 64) -> None:
    print(f"10. a prediction the world's files contradict ({len(_CONTRADICTED)} worlds): re-ask once, then correct, "
          "vs correct at once")
    with tempfile.TemporaryDirectory(prefix="agentworld-bench-state-") as folder:
        store = Store(Path(folder) / "worlds.sqlite3")
        try:
            figures = {}
            for reask in (True, False):
                run = dataclasses.replace(ctx, store=store, world_locks={}, jobs=None, state_check="correct",
                                          state_reask=reask)
                figures[reask] = await _contradicted(run, max_tokens)
        finally:
            store.close()
    with_reask, at_once = figures[True], figures[False]
    print(f"  model agreed at first {at_once['agreed']}/{len(_CONTRADICTED)}; with the re-ask, agreed after it "
          f"{with_reask['fixed']}, corrected {with_reask['corrected']}")
    print(f"  tokens: re-ask {with_reask['tokens']} vs at once {at_once['tokens']} "
          f"(ratio {with_reask['tokens'] / max(at_once['tokens'], 1):.2f}); seconds {with_reask['seconds']:.1f} "
          f"vs {at_once['seconds']:.1f} (ratio {with_reask['seconds'] / max(at_once['seconds'], 1e-9):.2f})")


async def _contradicted(ctx, max_tokens: int) -> dict:
    agreed = fixed = corrected = tokens = 0
    started = time.perf_counter()
    for done, step in _CONTRADICTED:
        setup = [{"action": "ls", "observation": "dev@sandbox:~/project$ ls\na.txt  build  draft.md  log.txt  notes.txt  old\n"
                  "dev@sandbox:~/project$"},
                 {"action": done, "observation": f"dev@sandbox:~/project$ {done}\ndev@sandbox:~/project$"}]
        world = open_world(ctx, "terminal", "", "Working folder: /home/dev/project", None, setup)
        prediction = await simulate_action(ctx, SimulateRequest(world_id=world.world_id, action=step, temperature=0,
                                                                seed=0, max_tokens=max_tokens))
        usage = prediction.usage
        tokens += usage.prompt_tokens - usage.reused_prompt_tokens + usage.completion_tokens
        if any("was corrected" in warning for warning in prediction.warnings):
            corrected += 1
        elif usage.reasked:
            fixed += 1
        else:
            agreed += 1
    return {"agreed": agreed, "fixed": fixed, "corrected": corrected, "tokens": tokens,
            "seconds": time.perf_counter() - started}
