"""The virtual git in a home with git settings, proven by generation: sessions of tests/git_settings_lines.py
write the user's settings (~/.gitconfig, ~/.config/git/config, their ignore file) and run git lines, in the virtual
shell and in a real bash with the real git reading that home (no system settings: GIT_CONFIG_NOSYSTEM=1, which the
world's own start assumes); every computed line must print, exit and leave files as there, with real steps between
and with a model's nonsense predicted between. A held-out seed range runs apart and is reported apart.
AGENTWORLD_DIFF_SEED and AGENTWORLD_DIFF_SECONDS as in test_computed_generated.py.
"""

from __future__ import annotations

import shutil

import pytest

from ..differential import explore
from ..git_settings_lines import scenario

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None,
                                reason="needs a real bash and git")
CI_SEED = 2066
HELD_OUT = 9_000_000  # seeds never looked at while the honoured settings were chosen


@pytest.mark.parametrize("predicted", [False, True], ids=["real steps between", "nonsense predicted between"])
def test_git_in_a_home_with_settings_computes_as_real_git(tmp_path, predicted):
    explore(scenario, tmp_path, "git sessions with settings", CI_SEED, 15, predicted, bare_home=True)


def test_held_out_git_sessions_with_settings(tmp_path):
    explore(scenario, tmp_path, "git sessions with settings, held out", CI_SEED, 10, bare_home=True, first=HELD_OUT)
