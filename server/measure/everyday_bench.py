"""Section 16 of `agentworld-mcp bench`: computed steps on generated agent sessions, everyday and coding.

    agentworld-mcp --n-ctx 4096 bench --section 16
    python -m agentworld_mcp.server.measure.everyday_bench [SESSIONS [MODEL_STEPS]]

First, no model: the closed loop of server/evals/closed_loop.py over SESSIONS generated sessions (seed 0
on) of each generator, and the coding generator's held-out seeds apart: the share of steps computed, the
wrong ones (the goal is none), the largest families of refused steps (none for the held-out seeds) and a
computed step's time in process. Then through the real server over stdio, from a real MCP client, as an
agent uses it: each everyday session's folder is opened as a world (`from_dir`) and its lines are committed
one by one with simulate_action; the p50 of a computed step's call beside the p50 of a model step's call
(greedy, effects from the parser), until MODEL_STEPS model steps were timed.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mcp import Client, StdioServerParameters

from ...domains import DomainPack
from ..evals import coding
from ..evals.closed_loop import Tally, lay_out, replay, world_of
from ..evals.everyday import Session, session
from ..runtime import load_domain_packs, resolve_model
from ..settings import load_settings

SESSIONS = 200
MODEL_STEPS = 12
COMPUTED_STEPS = 100
_MAX_TOKENS = 64


def closed_loop_share(sessions: int = SESSIONS) -> Tally:
    """The share computed on both generators, the coding one's held-out seeds apart: three tallies printed."""
    print("16. generated agent sessions, closed loop against real bash, every uncomputed step answered with nonsense:")
    pack = load_domain_packs(load_settings({}))["terminal"]
    tally = _tally(pack, "everyday agent sessions (server/evals/everyday.py)", session, range(sessions))
    _tally(pack, "coding-agent sessions (server/evals/coding.py)", coding.session, range(sessions))
    # Held out: the share and the wrong steps only, no refused line shown (they are not read while developing).
    _tally(pack, "coding-agent sessions, held out", coding.session, coding.HELD_OUT, families=0)
    return tally


def _tally(pack: DomainPack, name: str, generator: Callable[[int], Session], seeds: range, families: int = 10
           ) -> Tally:
    tally = Tally()
    with tempfile.TemporaryDirectory() as folder:
        for seed in seeds:
            replay(generator(seed), pack, Path(folder) / str(seed), tally=tally)
    print(f"  {name}, seeds {seeds.start}-{seeds.stop - 1}:")
    print("    " + tally.summary(families).replace("\n", "\n    "))
    if tally.compute_seconds:
        print(f"    computing a step in process: p50 {statistics.median(tally.compute_seconds) * 1000:.2f} ms over "
              f"{len(tally.compute_seconds)} computed steps", flush=True)
    return tally


async def over_mcp(model: Path, model_steps: int = MODEL_STEPS, computed_steps: int = COMPUTED_STEPS,
                   n_ctx: int | None = None) -> tuple[list[float], list[float]]:
    """Seconds per simulate_action call over stdio: (computed steps, model steps). Once `model_steps` model steps
    are timed, a line a local copy of the world would not compute is left out (as if the agent never typed it)."""
    pack = load_domain_packs(load_settings({}))["terminal"]
    computed: list[float] = []
    predicted: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        home = root / "home" / "dev"
        # The server's snapshot takes its HOME for the world's: the session's home, as in the closed loop.
        env = {**os.environ, "HOME": str(home), "AGENTWORLD_DATA_DIR": str(root / "data"),
               "AGENTWORLD_ALLOW_DIRS": str(root), "AGENTWORLD_EFFECTS": "parser", "AGENTWORLD_RESULT_CACHE": "0",
               "AGENTWORLD_COMPUTED": "on",
               **({"AGENTWORLD_N_CTX": str(n_ctx)} if n_ctx else {})}
        params = StdioServerParameters(command=sys.executable, args=["-m", "agentworld_mcp", "--model", str(model)],
                                       env=env)
        async with Client(params, mode="legacy", read_timeout_seconds=600) as client:
            for index in range(50):
                if len(predicted) >= model_steps and len(computed) >= computed_steps:
                    break
                shutil.rmtree(home, ignore_errors=True)
                _, project = lay_out(session(index), root)
                opened = await client.call_tool("world", {"operation": "open", "domain": "terminal",
                                                          "from_dir": str(project)})
                world_id = opened.structured_content["world_id"]
                local = world_of(pack, project, home)
                for line in session(index).lines:
                    action = pack.normalize_action(line)
                    outcome = local.compute(action)
                    if len(predicted) >= model_steps and outcome is None:
                        continue  # enough model steps timed: the rest of the run times computed ones
                    local.advance(action, "", real=False, outcome=outcome)
                    began = time.perf_counter()
                    result = await client.call_tool("simulate_action", {
                        "world_id": world_id, "action": line, "commit": True, "temperature": 0,
                        "max_tokens": _MAX_TOKENS})
                    spent = time.perf_counter() - began
                    if not result.is_error:
                        source = result.structured_content["effects"]["source"]
                        (computed if source == "computed" else predicted).append(spent)
    return computed, predicted


def print_mcp_figures(computed: list[float], predicted: list[float]) -> None:
    if not computed or not predicted:
        print(f"  over MCP: {len(computed)} computed and {len(predicted)} model steps timed: too few to compare")
        return
    ours, theirs = statistics.median(computed), statistics.median(predicted)
    print(f"  over MCP (stdio, simulate_action with commit): a computed step p50 {ours * 1000:.1f} ms "
          f"({len(computed)} steps) vs a model step p50 {theirs * 1000:.1f} ms ({len(predicted)} steps, greedy, "
          f"max_tokens {_MAX_TOKENS}); ratio {ours / theirs:.4f}", flush=True)


async def everyday_figures(model: Path, sessions: int = SESSIONS, model_steps: int = MODEL_STEPS,
                           n_ctx: int | None = None) -> None:
    closed_loop_share(sessions)
    print_mcp_figures(*await over_mcp(model, model_steps, n_ctx=n_ctx))


def main(argv: list[str]) -> int:
    sessions = int(argv[0]) if argv else SESSIONS
    steps = int(argv[1]) if len(argv) > 1 else MODEL_STEPS
    settings = load_settings({})
    asyncio.run(everyday_figures(resolve_model(settings).path, sessions, steps))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
