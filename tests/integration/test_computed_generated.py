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
import shutil
from pathlib import Path

import pytest

from ..differential import Tally, explore, report, run_scenario
from ..shell_lines import Scenario, scenario

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs a real bash")
CORPUS = Path(__file__).parents[1] / "data" / "computed_divergences.json"
CI_SEED = 2026


def test_saved_divergences_stay_fixed(tmp_path):
    saved = [Scenario.from_json(item) for item in json.loads(CORPUS.read_text())] if CORPUS.exists() else []
    tally, failures = Tally(), []
    for index, made in enumerate(saved):
        for predicted in (False, True):  # with real steps between, and with nonsense predicted between
            if found := run_scenario(made, tmp_path / f"{index}-{predicted}", tally, predicted):
                failures.append(report(made, found))
    print(f"{len(saved)} saved scenarios, {tally.lines} lines, {tally.computed} computed")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("predicted", [False, True], ids=["real steps between", "nonsense predicted between"])
def test_generated_lines_compute_as_real_bash(tmp_path, predicted):
    explore(scenario, tmp_path, "everyday lines", CI_SEED, 60, predicted)
