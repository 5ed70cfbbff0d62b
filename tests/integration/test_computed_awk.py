"""awk's and join's proof by generation: scenarios of data files (tests/awk_lines.py: fields, numbers, words mawk
reads as numbers, sorted and unsorted join inputs) and awk programs drawn from a grammar with near misses, each
computed line checked against a real GNU bash running this machine's awk (mawk), as in
test_computed_generated.py. AGENTWORLD_DIFF_SEED (`random` draws one) and AGENTWORLD_DIFF_SECONDS (default 20)
as there."""

from __future__ import annotations

import shutil

import pytest

from ..awk_lines import awk_scenario
from ..differential import explore
from ..shell_lines import Scenario

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or shutil.which("awk") is None,
                                reason="needs a real bash and awk")
CI_SEED = 2028


def test_generated_awk_and_join_lines_compute_as_real_bash(tmp_path):
    explore(lambda seed: awk_scenario(seed, Scenario), tmp_path, "awk and join", CI_SEED, 20)
