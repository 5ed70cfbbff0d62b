"""The shell's constructs (domains/shell/virtual/constructs.py: if, for, case, groups, subshells, !, [ ], [[ ]],
(( )), $?, here documents, cd -) and the expansions the word reader evaluates, proven by generation: scenarios
whose every line is one (tests/shell_lines.py `construct`, with the near misses just outside what is
computed) run in the virtual shell and in a real bash, as test_computed_generated.py runs everyday lines.

AGENTWORLD_DIFF_SEED (default CI_SEED; `random` draws one) and AGENTWORLD_CONSTRUCT_SECONDS (default 20).
"""

from __future__ import annotations

import os
import random
import shutil
import time

import pytest

from ..shell_lines import construct_scenario
from .test_computed_generated import CI_SEED, Tally, _report, run_scenario

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs a real bash")


def test_generated_constructs_compute_as_real_bash(tmp_path):
    chosen = os.environ.get("AGENTWORLD_DIFF_SEED", str(CI_SEED))
    seed = random.SystemRandom().randrange(2**32) if chosen == "random" else int(chosen)
    deadline = time.monotonic() + float(os.environ.get("AGENTWORLD_CONSTRUCT_SECONDS", "20"))
    tally, failures, scenarios = Tally(), [], 0
    while time.monotonic() < deadline:
        made = construct_scenario(seed * 1_000_003 + scenarios)
        if found := run_scenario(made, tmp_path / str(scenarios), tally):
            failures.append(_report(made, found))
        shutil.rmtree(tmp_path / str(scenarios), ignore_errors=True)
        scenarios += 1
    summary = (f"seed {seed}: {scenarios} scenarios, {tally.lines} construct lines, {tally.computed} computed, "
               f"{len(failures)} divergences (AGENTWORLD_DIFF_SEED={seed} replays them)")
    print(summary)
    assert tally.computed, "no construct line was computed: the proof proves nothing"
    assert not failures, summary + "\n" + "\n".join(failures[:30])
