"""The text tools' proof by generation, focused: scenarios of plain text files (sorted and not, tabs, fields,
base64) and lines of the text tools and of the widened options only (tests/text_lines.py), each computed line
checked against a real GNU bash as in test_computed_generated.py. AGENTWORLD_DIFF_SEED (`random` draws one)
and AGENTWORLD_DIFF_SECONDS (default 20) as there."""

from __future__ import annotations

import os
import random
import shutil
import time

import pytest

from ..shell_lines import NAMES, Scenario
from ..text_lines import text_scenario
from .test_computed_generated import Tally, _report, run_scenario

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs a real bash")
CI_SEED = 2027


def test_generated_text_tool_lines_compute_as_real_bash(tmp_path):
    chosen = os.environ.get("AGENTWORLD_DIFF_SEED", str(CI_SEED))
    seed = random.SystemRandom().randrange(2**32) if chosen == "random" else int(chosen)
    seconds = float(os.environ.get("AGENTWORLD_DIFF_SECONDS", "20"))
    tally, failures, scenarios = Tally(), [], 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        made = text_scenario(seed * 1_000_003 + scenarios, NAMES, Scenario)
        assert isinstance(made, Scenario)
        if found := run_scenario(made, tmp_path / str(scenarios), tally):
            failures.append(_report(made, found))
        shutil.rmtree(tmp_path / str(scenarios), ignore_errors=True)
        scenarios += 1
    summary = (f"seed {seed}: {scenarios} text scenarios, {tally.lines} lines generated, {tally.computed} computed, "
               f"{len(failures)} divergences (AGENTWORLD_DIFF_SEED={seed} replays them)")
    print(summary)
    assert not failures, summary + "\n" + "\n".join(failures[:30])
