"""The line reader's own limits (domains/shell/line.py): an error inside it, or a line that expands past what
it reads, makes the guard ask; neither crashes it open nor runs it past a host's hook timeout."""

from __future__ import annotations

from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell import launchers  # noqa: F401 - registers the programs' handlers
from agentworld_mcp.domains.shell.registry import HANDLERS

from ..hook_calls import git_project, verdict


def _raises(_call) -> None:
    raise KeyError("a handler's bug")


def test_an_error_inside_the_reader_becomes_a_risky_opaque_part(monkeypatch, capsys):
    monkeypatch.setitem(HANDLERS, "psql", _raises)
    semantics = analyze("rm -rf build; psql -c 'SELECT 1'", cwd="/home/u/p", home="/home/u")
    reasons = [part.reason for part in semantics.risky_opaque]
    assert "the guard could not read this line: KeyError" in reasons, semantics.opaque
    assert any(effect.program == "rm" for effect in semantics.effects)  # what was read before it still counts
    assert capsys.readouterr().out == ""


def test_an_error_inside_the_reader_makes_the_hook_ask(monkeypatch, tmp_path):
    monkeypatch.setitem(HANDLERS, "psql", _raises)
    decided = verdict(git_project(tmp_path / "project", {}), "psql -c 'SELECT 1'")
    assert decided["decision"] in ("ask", "deny"), decided
