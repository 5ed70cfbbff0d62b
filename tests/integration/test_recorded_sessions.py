"""Real bash sessions recorded in the sandbox become worlds of real steps, and an exported test split
of them is a benchmark whose samples know their actions."""

from __future__ import annotations

from agentworld_mcp.domains import load_domains
from agentworld_mcp.server.evals.make_sessions import record
from agentworld_mcp.server.evals.samples import load_samples
from agentworld_mcp.server.sessions.export import export
from agentworld_mcp.tools.data.session_split import split_of
from agentworld_mcp.tools.worlds.store import Store


def test_recorded_sessions_export_as_a_benchmark(tmp_path):
    assert record(tmp_path, sessions=10) > 50
    store = Store(tmp_path / "worlds.sqlite3")
    try:
        worlds = store.worlds(limit=None)
        assert len(worlds) == 10 and all(row.origin["host"] == "sandbox" for row, _ in worlds)
        first = store.steps(worlds[-1][0].id)
        assert all(step.source == "real" for step in first)
        assert first[0].action in first[0].observation  # the screen shows the command it ran
        summary = export(store, load_domains(), "agentworldbench", "test", tmp_path / "bench", None)
    finally:
        store.close()
    test_sessions = {row.origin["session"] for row, _ in worlds if split_of(row.origin["session"]) == "test"}
    assert test_sessions  # the fixed seed puts some sessions on the test side
    samples = load_samples([tmp_path / "bench"], load_domains())
    assert {sample.id.split("/")[1].rsplit("-terminal", 1)[0] for sample in samples} == test_sessions
    assert all(sample.action and sample.action in sample.message for sample in samples)
