"""awk's and join's proof by generation: scenarios of data files (tests/awk_lines.py: fields, numbers, words mawk
reads as numbers, sorted and unsorted join inputs) and awk programs drawn from a grammar with near misses, each
computed line checked against a real GNU bash running this machine's awk (mawk), as in
test_computed_generated.py. AGENTWORLD_DIFF_SEED (`random` draws one) and AGENTWORLD_DIFF_SECONDS (default 20)
as there."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from ..awk_lines import awk_scenario
from ..differential import explore
from ..shell_lines import Scenario

def _mawk() -> bool:
    """Whether this machine's awk is mawk, the awk the virtual shell's subset is proven against (Debian's)."""
    if shutil.which("bash") is None or shutil.which("awk") is None:
        return False
    shown = subprocess.run(["awk", "-W", "version"], capture_output=True, text=True, check=False, timeout=10)
    return "mawk" in shown.stdout + shown.stderr


pytestmark = pytest.mark.skipif(not _mawk(), reason="needs a real bash and mawk as awk (Debian's default)")
CI_SEED = 2028


def test_generated_awk_and_join_lines_compute_as_real_bash(tmp_path):
    explore(lambda seed: awk_scenario(seed, Scenario), tmp_path, "awk and join", CI_SEED, 20)
