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


def test_every_package_folder_is_one_the_wheel_ships():
    """pyproject.toml lists the packages by hand (the root is the package): a new folder must be in the list."""
    import tomllib

    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {".".join(("agentworld_mcp", *marker.parent.relative_to(REPO).parts)).rstrip(".")
               for marker in REPO.rglob("__init__.py")
               if not {"tests", ".venv", "build", "node_modules"} & set(marker.relative_to(REPO).parts)}
    assert on_disk == listed, {"missing from pyproject.toml": on_disk - listed, "listed, not on disk": listed - on_disk}
