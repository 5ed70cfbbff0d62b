"""Computed steps against model-only predictions, on recorded real sessions (make_sessions' held-out side).

    python -m agentworld_mcp.server.measure.computed_bench DATA_DIR [MAX_TOKENS [SESSIONS] | latency]

DATA_DIR holds a store that `python -m agentworld_mcp.server.evals.make_sessions DATA_DIR 120` wrote.
First, no model: the time to compute each step the virtual shell computes on the held-out sessions
(teacher-forced), against a real `bash -c` of the same line (a fork and exec). Then every turn of
every test-side session runs through `simulate_action`, once with every step the model's
(`--computed off`) and once with the virtual shell on, in one process on the same model:

- teacher-forced: each turn sees the real turns before it as history, and is scored against the
  real screen (similarity, exact match, success agreement), with its completion tokens and time;
  a computed step whose new lines differ from the real ones is counted (the goal is none);
- closed loop: each prediction becomes the next turn's history, as a plan rolls forward; its
  divergence is the mean similarity to the real screens, and a contradiction is a step the state
  check had to correct or warn about (the goal is none).

Turns are split by kind: file work (no python3) and the rest. Retrieval is off: the figures are the
model's and the shell's own. One run prints everything, so the ratios come from one machine state.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ...tools.data.session_split import session_key, split_of
from ...tools.requests import SimulateRequest
from ...tools.simulation.simulate import simulate_action
from ...tools.worlds.state_check import new_part
from ...tools.worlds.store import StepRow, Store
from ...tools.worlds.tracking import Tracker
from ..evals.metrics import score
from ..runtime import build_context, load_domain_packs, resolve_model
from ..settings import load_settings


@dataclass
class Tally:
    similarity: list[float] = field(default_factory=list)
    exact: int = 0
    agrees: int = 0
    computed: int = 0
    wrong_computed: int = 0
    contradictions: int = 0
    tokens: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    def line(self, label: str) -> str:
        turns = len(self.similarity)
        if not turns:
            return f"  {label:<34} (no turns)"
        return (f"  {label:<34} {turns:>4} turns  computed {self.computed / turns:5.1%}  "
                f"similarity {statistics.fmean(self.similarity):.3f}  exact {self.exact:>3}  "
                f"success agreement {self.agrees / turns:.3f}  tokens/step {statistics.fmean(self.tokens):6.1f}  "
                f"p50 {statistics.median(self.seconds) * 1000:8.1f} ms"
                + (f"  computed != real {self.wrong_computed}" if self.computed else "")
                + f"  contradictions {self.contradictions}")


def _kind(action: str) -> str:
    return "other (python3)" if "python3" in action else "file work"


def held_out(store: Store) -> list[tuple[str, str, list[StepRow]]]:
    sessions = []
    for row, _ in store.worlds(limit=100_000):
        if row.domain == "terminal" and split_of(session_key(row.id, row.origin)) == "test":
            sessions.append((row.id, row.state, store.steps(row.id)))
    return sorted(sessions)


def latency(sessions: list[tuple[str, str, list[StepRow]]]) -> None:
    """p50 and p99 of computing a step in process, against a real bash running the same line."""
    pack = load_domain_packs(load_settings({}))["terminal"]
    ours, theirs, turns, file_work, file_computed, wrong = [], [], 0, 0, 0, 0
    with tempfile.TemporaryDirectory() as folder:
        for _, state, steps in sessions:
            tracker = Tracker.replay(pack, state, [], computed=True)
            for step in steps:
                action = pack.normalize_action(step.action)
                turns += 1
                file_work += _kind(step.action) == "file work"
                began = time.perf_counter()
                outcome = tracker.compute(action)
                spent = time.perf_counter() - began
                if outcome is not None:
                    file_computed += _kind(step.action) == "file work"
                    # The recorder's bash is non-interactive: its own errors name a line, a terminal's do not.
                    shown = re.sub(r"^bash: line \d+: ", "bash: ", new_part(step.observation, tracker.last_observation),
                                   flags=re.MULTILINE)
                    wrong += (outcome.stdout + outcome.stderr).strip() not in shown
                    ours.append(spent)
                    began = time.perf_counter()
                    subprocess.run(["bash", "--noprofile", "--norc", "-c", step.action], cwd=folder,
                                   capture_output=True, check=False)
                    theirs.append(time.perf_counter() - began)
                tracker.advance(action, step.observation, real=True)
    if not ours:
        print("no step computed")
        return
    p50, p99 = statistics.median(ours), statistics.quantiles(ours, n=100)[98] if len(ours) > 1 else ours[0]
    bash50 = statistics.median(theirs)
    print(f"teacher-forced on {turns} held-out turns: {len(ours)} computed ({len(ours) / turns:.1%}); file work "
          f"{file_computed} of {file_work} ({file_computed / max(file_work, 1):.1%}); computed output the real "
          f"screen does not show: {wrong} (goal: 0)")
    print(f"computing a step, {len(ours)} computed steps: p50 {p50 * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms; "
          f"a real bash -c of the same line: p50 {bash50 * 1000:.2f} ms (ratio {p50 / bash50:.2f}; "
          "goal: p50 under 5 ms)",
          flush=True)


async def run(data_dir: Path, max_tokens: int, most: int | None = None) -> None:
    store = Store(data_dir / "worlds.sqlite3")
    sessions = held_out(store)[:most]
    store.close()
    latency(sessions)
    # No result cache: the second pass would be answered from the first one's identical greedy requests.
    settings = load_settings({"n_ctx": 4096, "retrieval": "off", "result_cache": 0})
    ctx = build_context(settings, resolve_model(settings))
    ctx.engine.start()
    await ctx.engine.wait_ready()
    pack = ctx.domain("terminal")
    turns = sum(len(steps) for _, _, steps in sessions)
    print(f"{len(sessions)} held-out sessions, {turns} turns; greedy, max_tokens {max_tokens}", flush=True)
    try:
        for loop, computed in (("teacher-forced", False), ("teacher-forced", True), ("closed loop", True),
                               ("closed loop", False)):
            ctx.computed = computed
            tallies: dict[str, Tally] = {}
            for _, state, steps in sessions:
                history: list[dict[str, str]] = []
                for step in steps:
                    request = SimulateRequest(domain="terminal", state=state, history=list(history),
                                              action=step.action, temperature=0, max_tokens=max_tokens)
                    began = time.perf_counter()
                    prediction = await simulate_action(ctx, request)
                    elapsed = time.perf_counter() - began
                    scores = score(prediction.observation, step.observation, pack)
                    previous = history[-1]["observation"] if history else ""
                    for tally in (tallies.setdefault(_kind(step.action), Tally()), tallies.setdefault("all", Tally())):
                        tally.similarity.append(scores.similarity)
                        tally.exact += scores.exact
                        tally.agrees += bool(scores.outcome_agrees)
                        tally.tokens.append(prediction.usage.completion_tokens)
                        tally.seconds.append(elapsed)
                        tally.contradictions += any("the world" in w or "was deleted" in w
                                                    for w in prediction.warnings)
                        if prediction.effects.source == "computed":
                            tally.computed += 1
                            if loop == "teacher-forced" and new_part(prediction.observation, previous) != \
                                    new_part(step.observation, previous):
                                tally.wrong_computed += 1
                    shown = step.observation if loop == "teacher-forced" else prediction.observation
                    history.append({"action": step.action, "observation": shown})
            print(f"{loop}, {'computed on' if computed else 'model only'}:")
            for kind in ("file work", "other (python3)", "all"):
                print(tallies.get(kind, Tally()).line(kind), flush=True)
    finally:
        ctx.engine.close()


def main(argv: list[str]) -> int:
    if not argv or (len(argv) > 1 and not argv[1].isdigit() and argv[1] != "latency"):
        print("usage: python -m agentworld_mcp.server.measure.computed_bench DATA_DIR "
              "[MAX_TOKENS [SESSIONS] | latency]", file=sys.stderr)
        return 2
    if len(argv) > 1 and argv[1] == "latency":
        store = Store(Path(argv[0]) / "worlds.sqlite3")
        latency(held_out(store))
        store.close()
        return 0
    asyncio.run(run(Path(argv[0]), int(argv[1]) if len(argv) > 1 else 160, int(argv[2]) if len(argv) > 2 else None))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
