"""A third-party bypass suite against the default guard: paveo sends its dated list of spellings of
five dangerous actions (force push, recursive delete, hard reset, git clean, reading .env) to the
PreToolUse hooks of a project's Claude Code settings, the way Claude Code runs them, and exits 0
only when every spelling of every expected action was stopped and no ordinary call was."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PAVEO = shutil.which("paveo", path=str(Path(sys.executable).parent))


@pytest.mark.skipif(PAVEO is None, reason="paveo is in the test extra: pip install -e '.[test]'")
def test_the_default_policy_stops_every_spelling_of_the_bypass_suite(tmp_path):
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".claude").mkdir(parents=True)
    home.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    hook = f"{sys.executable} -m agentworld_mcp hook --event pre"
    settings = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": hook}]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    expected = ("delete", "force-push", "hard-reset", "clean", "secrets")
    done = subprocess.run([PAVEO, "test", *(f"--expect={action}" for action in expected)], cwd=project,
                          capture_output=True, text=True, timeout=600, env={**os.environ, "HOME": str(home)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "nothing expected got past the hooks" in done.stdout
