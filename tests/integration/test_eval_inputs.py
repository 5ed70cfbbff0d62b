"""The three evaluations on unusable input: one line that names the problem, exit 2, no traceback,
and no model loaded to say so."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

HUGE = '{"id": "x", "actions": ["' + "a" * 2_000_000 + '"]'  # a line past any sense, and broken
BROKEN = {
    "empty": "",
    "blank lines": "\n\n  \n",
    "not json": "id, actions\nx, ls\n",
    "a list": "[1, 2, 3]\n",
    "wrong shapes": '{"id": ["x"], "actions": "ls", "labels": 3, "real": 5}\n',
    "missing fields": '{"task": "only a task"}\n',
    "huge": HUGE + "\n",
    "binary": "\x00\x01\xff\xfe",
}


def _eval(kind: str, path) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "agentworld_mcp", "eval", kind, str(path), "--out", str(path.parent / "out")]
    env = {**os.environ, "AGENTWORLD_MODEL": "/nonexistent/model.gguf"}  # reaching the model would fail loudly
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("kind", ["bench", "gate", "drift"])
@pytest.mark.parametrize("name", sorted(BROKEN))
def test_an_unusable_input_file_is_one_clear_line(tmp_path, kind, name):
    folder = tmp_path / "in"
    folder.mkdir()
    path = folder / ("terminal_test.jsonl" if kind == "bench" else "cases.jsonl")
    path.write_bytes(BROKEN[name].encode("utf-8", errors="surrogateescape"))
    done = _eval(kind, path)
    assert done.returncode == 2, (kind, name, done.stdout[-500:], done.stderr[-500:])
    assert "Traceback" not in done.stderr and done.stdout == ""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and len(lines[0]) < 600, lines[:3]


def test_a_scenario_without_recorded_reality_runs_live_and_reports_reality(tmp_path, server_env):
    scenarios = tmp_path / "mine.jsonl"
    scenarios.write_text(json.dumps({"id": "mine", "task": "look around", "actions": ["echo hello", "ls missing"]}) + "\n")
    done = subprocess.run([sys.executable, "-m", "agentworld_mcp", "eval", "drift", str(scenarios), "--max-tokens", "24",
                           "--out", str(tmp_path / "out")], env=server_env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    report = json.loads((tmp_path / "out" / "drift.json").read_text())
    steps = report["scenarios"]["mine"]["teacher_forced"]
    assert [(s["real_output"].strip(), s["real_status"]) for s in steps] == [
        ("hello", 0), ("ls: cannot access 'missing': No such file or directory", 2)]
    assert all("predicted_output" in s and 0.0 <= s["similarity"] <= 1.0 for s in steps)
    assert report["reality"] == "live sandbox"
