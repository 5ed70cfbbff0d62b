"""The allowlist's proof by generation: generated scenarios (tests/shell_lines.py) run line by line in the
virtual shell and in a real GNU bash at the same absolute path; every line the virtual shell computes must
print, exit, move and leave files exactly as bash does, and no line may make it raise anything but
NotComputable.

Saved divergences (tests/data/computed_divergences.json, every one ever found) replay first; then new
scenarios run from a seed for a fixed time: AGENTWORLD_DIFF_SEED (default CI_SEED; `random` draws one, and
a failure names it), AGENTWORLD_DIFF_SECONDS (default 60), once with real steps between the computed ones and once
with the model's steps between, as a model that says nonsense predicts them: a prediction is no fact to compute from.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.learning import learn_step, learn_uncomputed
from agentworld_mcp.domains.shell.virtual.gate import NotComputable

from ..real_bash import RealBash, check_files, laid_out, real_cwd
from ..shell_lines import Scenario, scenario

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs a real bash")
CORPUS = Path(__file__).parents[1] / "data" / "computed_divergences.json"
# A run is a prefix of this seed's scenarios (as many as the time allows): the same lines on every machine, so a
# red run is a change's fault, never the draw's. AGENTWORLD_DIFF_SEED=random explores new ones.
CI_SEED = 2026


@dataclass
class Tally:
    lines: int = 0
    computed: int = 0
    divergences: list[str] | None = None


# What a model that says nonsense answers for a line the virtual shell leaves to it.
NONSENSE = ("", "Segmentation fault (core dumped)\n", "done.\nok\n", "cat: a.txt: No such file or directory\n",
            "dev@sandbox:/srv$ ", "total 0\n")


def run_scenario(made: Scenario, root: Path, tally: Tally, predicted: bool = False) -> list[str]:
    """The divergences of one scenario (empty when every computed line matched real bash). `predicted`: a line
    the virtual shell leaves to the model is learned as a prediction of nonsense, never as reality."""
    home, project, shell = laid_out(made, root)
    real = RealBash(project, home)
    found: list[str] = []
    try:
        for line in made.lines:
            tally.lines += 1
            try:
                outcome = shell.compute(line)
            except NotComputable:
                outcome = None
            except Exception as error:  # noqa: BLE001 - any other exception is a failure to report
                found.append(f"{line!r} raised {type(error).__name__}: {error}")
                return found
            stdout, stderr, code = real.run(line)
            if outcome is None and predicted:
                semantics = analyze(line, shell.knowledge.cwd, str(home))
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
            if outcome.cwd != real_cwd(real):
                found.append(f"{line!r}: computed cwd {outcome.cwd}, bash {real_cwd(real)}")
                return found
            try:
                check_files(shell, root, line)
            except AssertionError as error:
                found.append(f"{line!r}: files differ {error}")
                return found
    finally:
        real.close()
    return found


def _report(made: Scenario, found: list[str]) -> str:
    return f"seed {made.seed}, files {sorted(made.files)}, folders {made.folders}, lines {made.lines}: {found[0]}"


def test_saved_divergences_stay_fixed(tmp_path):
    saved = [Scenario.from_json(item) for item in json.loads(CORPUS.read_text())] if CORPUS.exists() else []
    tally, failures = Tally(), []
    for index, made in enumerate(saved):
        if found := run_scenario(made, tmp_path / str(index), tally):
            failures.append(_report(made, found))
    print(f"{len(saved)} saved scenarios, {tally.lines} lines, {tally.computed} computed")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("predicted", [False, True], ids=["real steps between", "nonsense predicted between"])
def test_generated_lines_compute_as_real_bash(tmp_path, predicted):
    chosen = os.environ.get("AGENTWORLD_DIFF_SEED", str(CI_SEED))
    seed = random.SystemRandom().randrange(2**32) if chosen == "random" else int(chosen)
    seconds = float(os.environ.get("AGENTWORLD_DIFF_SECONDS", "60"))
    tally, failures, scenarios = Tally(), [], 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        made = scenario(seed * 1_000_003 + scenarios)
        if found := run_scenario(made, tmp_path / str(scenarios), tally, predicted):
            failures.append(_report(made, found))
        shutil.rmtree(tmp_path / str(scenarios), ignore_errors=True)
        scenarios += 1
    summary = (f"seed {seed}{' (nonsense predicted between)' * predicted}: {scenarios} scenarios, {tally.lines} lines generated, {tally.computed} computed, "
               f"{len(failures)} divergences (AGENTWORLD_DIFF_SEED={seed} replays them)")
    print(summary)
    assert not failures, summary + "\n" + "\n".join(failures[:30])
