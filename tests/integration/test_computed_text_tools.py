"""The text tools' proof by generation, focused: scenarios of plain text files (sorted and not, tabs, fields,
base64) and lines of the text tools and of the widened options only (tests/text_lines.py), each computed line
checked against a real GNU bash as in test_computed_generated.py. AGENTWORLD_DIFF_SEED (`random` draws one)
and AGENTWORLD_DIFF_SECONDS (default 20) as there."""

from __future__ import annotations

import shutil

import pytest

from ..differential import explore
from ..shell_lines import text_scenario

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs a real bash")
CI_SEED = 2027


def test_generated_text_tool_lines_compute_as_real_bash(tmp_path):
    explore(text_scenario, tmp_path, "text tools", CI_SEED, 20)
