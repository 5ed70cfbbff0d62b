"""The record of model files that passed the start-up checks: it holds for one file as it is on disk."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from agentworld_mcp.server import checked_models
from agentworld_mcp.server.model_files import GGUFInfo


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTWORLD_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def recorded(tmp_path, cache):
    """A file recorded as checked (the record keys on the file's identity, not its contents)."""
    path = tmp_path / "model.gguf"
    path.write_bytes(b"GGUF" + b"\0" * 60)
    info = GGUFInfo(path=path, architecture="qwen2", name="m", file_type=15, size_bytes=64)
    checked_models.remember(info, {"qwen2.block_count": 24})
    return info


def test_a_recorded_file_is_recalled_with_what_the_checks_found(recorded):
    assert checked_models.recall(recorded.path, {"qwen2.block_count": 24}) == recorded


def test_other_overrides_mean_a_fresh_check(recorded):
    assert checked_models.recall(recorded.path, None) is None


@pytest.mark.parametrize("change", ["truncate", "rewrite", "replace"])
def test_a_changed_file_is_checked_afresh(recorded, change):
    path = recorded.path
    if change == "truncate":
        os.truncate(path, 10)
    elif change == "rewrite":  # same size, later mtime
        stat = path.stat()
        path.write_bytes(b"XXXX" + b"\0" * 60)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    else:  # another file renamed over it, its mtime copied (as `cp -p` then `mv` would)
        other = path.with_name("other.gguf")
        other.write_bytes(path.read_bytes())
        stat = path.stat()
        os.utime(other, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        os.replace(other, path)
    assert checked_models.recall(path, {"qwen2.block_count": 24}) is None


def test_a_missing_file_or_a_broken_record_is_no_answer_and_no_error(recorded, cache):
    (cache / "checked-models.json").write_text("{not json")
    assert checked_models.recall(recorded.path, {"qwen2.block_count": 24}) is None
    recorded.path.unlink()
    assert checked_models.recall(recorded.path, None) is None


def test_the_second_start_with_a_file_takes_the_record_instead_of_checking(model_info, server_env, tmp_path):
    env = {**server_env, "AGENTWORLD_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "agentworld_mcp", "--model", str(model_info.path), "model"]
    first = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["name"] == model_info.name
    record_path = tmp_path / "cache" / "checked-models.json"
    record = json.loads(record_path.read_text())
    assert len(record) == 1
    for entry in record.values():  # mark the entry: only a start that took it prints this name
        entry["name"] = "taken from the record"
    record_path.write_text(json.dumps(record))
    second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["name"] == "taken from the record"
