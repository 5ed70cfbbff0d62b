"""The virtual git's proof by generation: generated git sessions (tests/git_lines.py) run line by line in the
virtual shell and in a real bash with the real git (its home bare, no system configuration: GIT_CONFIG_NOSYSTEM=1,
the virtual git's assumption); every line computed must print, exit, move and leave files exactly as there,
with real steps between the computed ones and with a model's nonsense predicted between.
Saved divergences (tests/data/git_divergences.json) replay first; AGENTWORLD_DIFF_SEED and
AGENTWORLD_DIFF_SECONDS (default 40) as in test_computed_generated.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ..differential import Tally, explore, report, run_scenario
from ..git_lines import scenario
from ..shell_lines import Scenario

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None,
                                reason="needs a real bash and git")
CI_SEED = 2026
CORPUS = Path(__file__).parents[1] / "data" / "git_divergences.json"  # every divergence found, replayed first


def test_saved_git_divergences_stay_fixed(tmp_path):
    saved = [Scenario.from_json(item) for item in json.loads(CORPUS.read_text())]
    tally, failures = Tally(), []
    for index, made in enumerate(saved):
        for predicted in (False, True):
            if found := run_scenario(made, tmp_path / f"{index}-{predicted}", tally, predicted, bare_home=True):
                failures.append(report(made, found))
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("predicted", [False, True], ids=["real steps between", "nonsense predicted between"])
def test_generated_git_sessions_compute_as_real_git(tmp_path, predicted):
    explore(scenario, tmp_path, "git sessions", CI_SEED, 40, predicted, bare_home=True)
