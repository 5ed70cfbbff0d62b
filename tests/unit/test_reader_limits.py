"""The line reader's own limits (domains/shell/line.py): an error inside it, or a line that expands past what
it reads, makes the guard ask; neither crashes it open nor runs it past a host's hook timeout."""

from __future__ import annotations

import time

import pytest

from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.launchers import dispatch  # noqa: F401 - registers the programs' handlers
from agentworld_mcp.domains.shell.line import MAX_COMMANDS
from agentworld_mcp.domains.shell.reading.registry import HANDLERS

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


def _fivefold(define: str, names: str, last: str) -> str:
    """Each name calls the next five times, through `define`: 5**len(names) commands in all."""
    levels = [define.format(name=name, body=";".join([following] * 5))
              for name, following in zip(names, names[1:])]
    return "; ".join([*levels, define.format(name=names[-1], body=last), names[0]])


ALIASES = _fivefold("alias {name}='{body}'", "abcdefgh", "true") + "; kubectl delete ns prod"
FUNCTIONS = _fivefold("{name}() {{ {body}; }}", "fghijklm", "rm -rf /srv/data")


@pytest.mark.parametrize("line", [ALIASES, FUNCTIONS], ids=["aliases", "functions"])
def test_a_line_that_expands_past_the_budget_is_asked_about_quickly(tmp_path, line):
    semantics = analyze(line, cwd="/home/u/p", home="/home/u")
    assert any("more commands than the guard reads" in part.reason for part in semantics.risky_opaque)
    started = time.perf_counter()
    decided = verdict(git_project(tmp_path / "project", {}), line)
    assert decided["decision"] in ("ask", "deny"), decided
    # 13 s before the budget, about 0.35 s with it: a bound far from both, as a loaded machine runs several-fold slower.
    assert time.perf_counter() - started < 6.0


def test_a_long_script_within_the_budget_is_read_to_its_end():
    script = "\n".join(["cp a.txt b.txt"] * (MAX_COMMANDS // 2) + ["rm -rf /srv/data"])
    semantics = analyze(f"bash <<'EOF'\n{script}\nEOF", cwd="/home/u/p", home="/home/u")
    assert not semantics.risky_opaque, semantics.risky_opaque
    assert any(effect.program == "rm" and effect.path == "/srv/data" for effect in semantics.effects)
