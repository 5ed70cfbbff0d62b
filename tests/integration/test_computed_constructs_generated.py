"""The shell's constructs (domains/shell/virtual/constructs.py: if, for, while, case, groups, subshells, !, [ ],
[[ ]], (( )), $?, here documents, cd -) and the expansions the word reader evaluates, proven by generation:
scenarios whose every line is one (tests/shell_lines.py `construct`, with the near misses just outside what is
computed) run in the virtual shell and in a real bash by the shared engine (tests/differential.py).

AGENTWORLD_DIFF_SEED (default CI_SEED; `random` draws one) and AGENTWORLD_DIFF_SECONDS (default 20).
"""

from __future__ import annotations

import shutil

import pytest

from ..differential import explore
from ..shell_lines import construct_scenario

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs a real bash")
CI_SEED = 2026


@pytest.mark.parametrize("predicted", [False, True], ids=["real steps between", "nonsense predicted between"])
def test_generated_constructs_compute_as_real_bash(tmp_path, predicted):
    explore(construct_scenario, tmp_path, "constructs", CI_SEED, 20, predicted)
