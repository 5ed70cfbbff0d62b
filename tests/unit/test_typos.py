"""Mistyped commands (domains/shell/programs/typos.py): a slip of an everyday program that is no program itself."""

from __future__ import annotations

import pytest
from agentworld_mcp.domains.shell.programs.typos import mistyped


@pytest.mark.parametrize(("typed", "meant"), [("gti", "git"), ("sl", "ls"), ("pyhton3", "python3"), ("cta", "cat"),
                                              ("grpe", "grep"), ("mkae", "make"), ("ecoh", "echo"), ("nmp", "npm")])
def test_a_slip_of_an_everyday_program_is_read_as_one(typed, meant):
    assert mistyped(typed) == meant


@pytest.mark.parametrize("name", ["ls", "git", "vi", "go", "rg", "tsc", "cargo", "np", "exit-now", "./gti", "Gti",
                                  "deploy", "x"])
def test_a_real_program_or_a_name_no_slip_away_is_not(name):
    assert mistyped(name) is None
