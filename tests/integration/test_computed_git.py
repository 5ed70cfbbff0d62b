"""The virtual git's proof by generation: generated git sessions (tests/git_lines.py) run line by line in the
virtual shell and in a real bash with the real git (its home bare, no system configuration: GIT_CONFIG_NOSYSTEM=1,
the virtual git's assumption); every line computed must print, exit, move and leave files exactly as there,
with real steps between the computed ones and with a model's nonsense predicted between.
AGENTWORLD_DIFF_SEED and AGENTWORLD_DIFF_SECONDS (default 40) as in test_computed_generated.py.
"""

from __future__ import annotations

import shutil

import pytest

from ..differential import explore
from ..git_lines import scenario

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None,
                                reason="needs a real bash and git")
CI_SEED = 2026


@pytest.mark.parametrize("predicted", [False, True], ids=["real steps between", "nonsense predicted between"])
def test_generated_git_sessions_compute_as_real_git(tmp_path, predicted):
    explore(scenario, tmp_path, "git sessions", CI_SEED, 40, predicted, bare_home=True)
