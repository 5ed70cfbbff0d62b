"""Lines computed where a predicted step may have moved the shell (domains/shell/virtual/anywhere.py), proven by
generation: scenarios that move the shell by a line the virtual shell leaves to the model (tests/anywhere_lines.py),
then lines that name paths whole, read the folder's name or name paths relative to it, or find the shell again, run
in the virtual shell and in a real bash by the shared engine (tests/differential.py). With nonsense predicted between,
where the shell stands is unknown to the world after each move; with real steps between, the real prompt says.

AGENTWORLD_DIFF_SEED (default CI_SEED; `random` draws one) and AGENTWORLD_DIFF_SECONDS (default 20).
"""

from __future__ import annotations

import shutil

import pytest

from ..anywhere_lines import anywhere_scenario
from ..differential import explore

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs a real bash")
CI_SEED = 2026


@pytest.mark.parametrize("predicted", [False, True], ids=["real steps between", "nonsense predicted between"])
def test_lines_where_the_shell_stands_unknown_compute_as_real_bash(tmp_path, predicted):
    explore(anywhere_scenario, tmp_path, "lines after a move the world cannot follow", CI_SEED, 20, predicted)
