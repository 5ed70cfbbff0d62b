"""The package type-checks at the level pyproject.toml's [tool.mypy] states."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_mypy_finds_no_type_errors(tmp_path):
    # The repository root is the package: mypy reads it through a link named agentworld_mcp.
    (tmp_path / "agentworld_mcp").symlink_to(REPO, target_is_directory=True)
    mypy = Path(sys.executable).parent / "mypy"
    done = subprocess.run([str(mypy), "-p", "agentworld_mcp", "--cache-dir", str(tmp_path / "cache")],
                          capture_output=True, text=True, cwd=REPO, timeout=600,
                          env={**os.environ, "MYPYPATH": str(tmp_path)})
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-1000:]
