"""jq's proof by generation, focused: folders of generated JSON documents and lines of jq (tests/jq_lines.py),
each computed line checked against the real jq 1.6 in a real GNU bash as in test_computed_generated.py.
AGENTWORLD_DIFF_SEED (`random` draws one) and AGENTWORLD_DIFF_SECONDS (default 20) as there."""

from __future__ import annotations

import shutil

import pytest

from ..differential import explore
from ..jq_lines import jq_scenario

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or shutil.which("jq") is None,
                                reason="needs a real bash and jq")
CI_SEED = 2031


@pytest.mark.parametrize("predicted", [False, True], ids=["real steps between", "nonsense predicted between"])
def test_generated_jq_lines_compute_as_real_jq(tmp_path, predicted):
    explore(jq_scenario, tmp_path, "jq", CI_SEED, 20, predicted)
