"""The rooms' import rules hold: the layers and the MCP boundary declared in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_layers_and_the_mcp_boundary_are_kept():
    linter = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(linter), "--config", str(REPO / "pyproject.toml")], capture_output=True, text=True,
                          cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]
    assert "0 broken" in done.stdout
