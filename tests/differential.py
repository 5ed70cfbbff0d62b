"""The differential proof's engine, shared by the generated tests: a scenario run line by line in the virtual
shell and in a real GNU bash at the same absolute path (every line the virtual shell computes must print, exit,
move and leave files exactly as bash does), and a timed exploration of a generator's scenarios from a seed.

A run is a prefix of a seed's scenarios (as many as the time allows): the same lines on every machine, so a
red run is a change's fault, never the draw's. AGENTWORLD_DIFF_SEED (`random` draws one, and a failure names
it) and AGENTWORLD_DIFF_SECONDS choose the seed and the time.
"""

from __future__ import annotations

import os
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.world.learning import learn_step, learn_uncomputed
from agentworld_mcp.domains.shell.virtual.gate import NotComputable

from .real_bash import RealBash, check_files, laid_out, real_cwd
from .shell_lines import Scenario


@dataclass
class Tally:
    lines: int = 0
    computed: int = 0
    divergences: list[str] | None = None


# What a model that says nonsense answers for a line the virtual shell leaves to it.
NONSENSE = ("", "Segmentation fault (core dumped)\n", "done.\nok\n", "cat: a.txt: No such file or directory\n",
            "dev@sandbox:/srv$ ", "total 0\n")


def run_scenario(made: Scenario, root: Path, tally: Tally, predicted: bool = False, bare_home: bool = False,
                 model: frozenset[int] = frozenset(), knowing: bool = False) -> list[str]:
    """The divergences of one scenario (empty when every computed line matched real bash). `predicted`: a line
    the virtual shell leaves to the model is learned as a prediction of nonsense, never as reality. `model`: the
    lines (by index) the model answers, with nonsense, even where the virtual shell would compute them. `knowing`:
    a predicted line is read with the world's record as its state, as a world reads it (the scripts it knows)."""
    home, project, shell = laid_out(made, root, bare_home)
    real = RealBash(project, home)
    found: list[str] = []
    try:
        for index, line in enumerate(made.lines):
            tally.lines += 1
            try:
                outcome = None if index in model else shell.compute(line)
            except NotComputable:
                outcome = None
            except Exception as error:  # noqa: BLE001 - any other exception is a failure to report
                found.append(f"{line!r} raised {type(error).__name__}: {error}")
                return found
            stood = real_cwd(real) if outcome is not None and not outcome.cwd_known else ""
            stdout, stderr, code = real.run(line)
            if outcome is None and (predicted or index in model):
                semantics = analyze(line, shell.knowledge.cwd, str(home), state=shell.knowledge if knowing else None)
                learn_step(shell.knowledge, semantics, random.Random(line).choice(NONSENSE), real=False, exact=True)
                continue
            if outcome is None:
                semantics = analyze(line, shell.knowledge.cwd, str(home))
                learn_uncomputed(shell.knowledge, semantics, shell.knowledge.cwd, real_cwd(real), stdout + stderr,
                                 real=True)
                continue
            tally.computed += 1
            shell.accept(outcome)
            got, want = (outcome.stdout, outcome.stderr, outcome.exit_code), (stdout, stderr, code)
            if got != want:
                found.append(f"{line!r}: computed {got!r}, bash {want!r}")
                return found
            if (outcome.cwd if outcome.cwd_known else stood) != real_cwd(real):  # unknown: it stays where it stood
                found.append(f"{line!r}: computed cwd {outcome.cwd if outcome.cwd_known else stood}, bash "
                             f"{real_cwd(real)}")
                return found
            try:
                check_files(shell, root, line)
            except AssertionError as error:
                found.append(f"{line!r}: files differ {error}")
                return found
    finally:
        real.close()
    return found


def report(made: Scenario, found: list[str]) -> str:
    return f"seed {made.seed}, files {sorted(made.files)}, folders {made.folders}, lines {made.lines}: {found[0]}"


def explore(make: Callable[[int], Scenario | tuple[Scenario, frozenset[int]]], root: Path, label: str, ci_seed: int,
            seconds: float, predicted: bool = False, bare_home: bool = False, first: int | None = None,
            knowing: bool = False) -> None:
    """Run `make`'s scenarios from the chosen seed for the chosen time; fail naming every divergence found. `make`
    may give, beside a scenario, the lines the model answers (`run_scenario`'s `model`); `first`: the first seed of
    a range of its own (a held-out one), in place of the chosen seed's; `knowing` as `run_scenario`'s."""
    chosen = os.environ.get("AGENTWORLD_DIFF_SEED", str(ci_seed))
    seed = random.SystemRandom().randrange(2**32) if chosen == "random" else int(chosen)
    seconds = float(os.environ.get("AGENTWORLD_DIFF_SECONDS", str(seconds)))
    start = seed * 1_000_003 if first is None else first
    tally, failures, scenarios, answered = Tally(), [], 0, 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        made = make(start + scenarios)
        made, model = made if isinstance(made, tuple) else (made, frozenset())
        answered += len(model)
        if found := run_scenario(made, root / str(scenarios), tally, predicted, bare_home, model, knowing):
            failures.append(report(made, found) + (f" (the model's lines: {sorted(model)})" if model else ""))
        shutil.rmtree(root / str(scenarios), ignore_errors=True)
        scenarios += 1
    seeds = f"seed {seed}" if first is None else f"seeds {first}..{first + scenarios - 1}"
    summary = (f"{label}{' (nonsense predicted between)' * predicted}, {seeds}: {scenarios} scenarios, "
               f"{tally.lines} lines generated, {tally.computed} computed"
               + (f", {tally.lines - tally.computed} predicted ({answered} the model's by draw)" if answered else "")
               + f", {len(failures)} divergences" + (f" (AGENTWORLD_DIFF_SEED={seed} replays them)" if first is None
                                                     else ""))
    print(summary)
    assert not failures, summary + "\n" + "\n".join(failures[:30])
