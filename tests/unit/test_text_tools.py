"""What the virtual shell refuses of the text tools, in a world that knows every file: the forms where the
differential tests found it unlike GNU (tests/integration/test_computed_families_generated.py proves the rest)."""

from __future__ import annotations

import pytest
from agentworld_mcp.domains.shell.virtual.gate import NotComputable
from agentworld_mcp.domains.shell.virtual.shell import VirtualShell

PROJECT, HOME = "/home/dev/project", "/home/dev"
FILES = {"sorted": b"a\nb\nc\n", "unsorted": b"b\na\n", "csv": b"a,1\nb,2\n", "b64": b"aGk=\n", "bad64": b"aGk\n",
         "nonl": b"no newline", "unknown": None}


def _world() -> VirtualShell:
    return VirtualShell.starting(PROJECT, HOME, {f"{PROJECT}/{name}": content for name, content in FILES.items()},
                                 {f"{PROJECT}/dir": True}, complete=True)


@pytest.mark.parametrize("line", [
    "cut -f0 csv", "cut -c 3-1 csv", "cut -f ,2 csv", "cut -d ab -f1 csv", "cut -f1 -f2 csv", "cut -c1 -d, csv",
    "cut -s -c1 csv", "cut csv", "paste -d 'x\\' csv sorted", "tr a '[x*]' < csv", "tr a-z '[:upper:]' < csv",
    "tr -c '[:lower:]' '[:upper:]' < csv", "tr -d a b < csv", "tr a b c < csv", "comm unsorted sorted",
    "comm sorted unknown", "comm - sorted < csv", "cat sorted | comm sorted -", "base64 -d bad64", "base64 -d unknown",
    "cat b64 | base64 -d", "test -s dir", "grep -s a dir csv", "grep -cs a * ", "grep -lL a csv", "grep -cl a csv",
    "grep -EF a csv", "rev nonl csv", "sort -k0 csv", "sort -k2.0 csv", "sort -t ab csv", "md5sum -b csv",
    "md5sum -c csv", "fold -w 0 csv", "expand -t 4,2 csv", "nl -b x csv", "wc -L csv", "sed 's|a\\|b|X|' csv",
    "comm sorted sorted; cp csv sorted", "sort -V csv", "sort -h csv"])
def test_a_form_unlike_gnu_goes_to_the_model(line):
    with pytest.raises(NotComputable):
        _world().compute(line)


@pytest.mark.parametrize(("line", "stdout"), [
    ("comm -12 sorted sorted", "a\nb\nc\n"), ("base64 -d b64", "hi"), ("test -s csv && echo full", "full\n"),
    ("cut -d, -f2 csv", "1\n2\n"), ("sed 's|a|b|' csv", "b,1\nb,2\n"),
    ("tr '[:lower:]' '[:upper:]' < csv", "A,1\nB,2\n"),
    ("grep -s a csv missing", "csv:a,1\n")])
def test_the_proven_forms_compute(line, stdout):
    assert _world().compute(line).stdout == stdout
