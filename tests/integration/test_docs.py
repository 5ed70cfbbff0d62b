"""The documentation as a reader meets it: the site builds with no broken link or missing page, every Python
example runs as written on the real default model, and `--help` leads to the documentation."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ..doc_examples import ROOT, python_examples

pytestmark = pytest.mark.docs


def _env(tmp_path) -> dict[str, str]:
    # A store of the example's own, and no banner about MkDocs' future in the build's output.
    return {**os.environ, "AGENTWORLD_DATA_DIR": str(tmp_path / "data"), "NO_MKDOCS_2_WARNING": "1"}


def test_the_site_builds_strictly(tmp_path):
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                           cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-3000:]
    cli = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text()
    assert "agentworld-mcp eval samples" in cli and "--max-tokens" in cli  # generated at build time
    assert "simulate_sync" in (tmp_path / "site" / "reference" / "python" / "index.html").read_text()


@pytest.mark.parametrize("example", python_examples(), ids=lambda block: block.where)
def test_every_python_example_runs(example, tmp_path):
    ran = subprocess.run([sys.executable, "-c", example.text], cwd=tmp_path, env=_env(tmp_path),
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, f"{example.where}:\n{ran.stdout[-2000:]}\n{ran.stderr[-3000:]}"


def test_help_leads_to_the_documentation():
    shown = subprocess.run([sys.executable, "-m", "agentworld_mcp", "--help"],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "docs/reference/cli.md" in shown.stdout and "mkdocs serve" in shown.stdout
