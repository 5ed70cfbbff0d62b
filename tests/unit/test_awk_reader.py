"""The awk reader (domains/shell/virtual/awk.py) and the content checks of awk and join: the programs agents
type every day pass; each difference from this machine's mawk that the differential tests found is refused
for its own reason; inputs whose numbers, fields or order would show a difference are refused by content."""

from __future__ import annotations

import shlex

import pytest
from agentworld_mcp.domains.shell.virtual import awk
from agentworld_mcp.domains.shell.virtual.text_tools import content_problem, needs_known_content

EVERYDAY = ["'{print $1}' f", "-F, '{print $2}' data.csv", "'NR>1 {s+=$3} END {print s}' f",
            "'/ERROR/ {n++} END {print n+0}' log", "'{printf \"%s=%d\\n\", $1, $2}' f", "'NF' f",
            "'{print NR\": \"$0}' f", "-F: '$3 >= 1000 {print $1}' passwd",
            "'{c[$1]++} END {for (k in c) print k, c[k]}' f", "'{ if ($2 > 5) print $1; else print \"small\" }' f",
            "-v n=2 'NR == n' f", "'{print toupper(substr($0, 1, 3))}' f", "'{s += $2} END {print s / NR}' f",
            "'{total += $2 * $3} END {printf \"%.2f\\n\", total}' f"]

REFUSED = {
    "'{s += $2} END {print s * s}' f": "product of a variable",  # it outgrows what the input bounds
    "'{print $2 / $3}' f": "quotient",  # a divisor below 1 would too
    "'{print $2 ^ 2}' f": "'\\^'",
    "'BEGIN {print 010}'": "small decimal integers",  # octal to gawk
    "'/o{2}/' f": "regular expression",
    "'/[[:alpha:]]/' f": "regular expression",
    "'/a|/' f": "regular expression",  # mawk refuses an empty alternative
    "'{print substr($1, 0, 2)}' f": "substr",  # mawk counts on from a start below 1
    "'{print \"a\\qb\"}' f": "escape",  # mawk keeps the backslash
    "'BEGIN {printf \"%d %d\\n\", 1}'": "one argument per conversion",
    "'{print $1 > \"out\"}' f": "into a file",
    "'{getline; print}' f": "getline",
    "'{x = $2; s += x} END {print s}' f": "reads a variable",
    "'{c[$1]++} END {for (k in c) { n++; print n, k }}' f": "for-in",
    "'{c[$1]++} END {for (k in c) if (k > 5) print k}' f": "compared as a number",
    "'END {if ($2 > 1) print}' f": "BEGIN or END",
    "-F ab '{print $1}' f": "field separator",
    "-v n=0x10 '{print n + 1}' f": "-v",
    "'{print}' f x=1": "NAME=value",
}


def _read(text: str) -> awk.Reading:
    return awk.read(shlex.split(text))


@pytest.mark.parametrize("text", EVERYDAY)
def test_the_programs_agents_type_every_day_are_read(text):
    _read(text)


@pytest.mark.parametrize(("text", "reason"), REFUSED.items())
def test_each_difference_from_mawk_is_refused_for_its_reason(text, reason):
    with pytest.raises(awk.AwkRefusal, match=reason):
        _read(text)


def test_a_program_that_reads_numbers_asks_the_world_for_its_inputs_and_refuses_what_mawk_reads_otherwise():
    words = shlex.split("'$2 >= 5 {s += $2} END {print s}' f")
    ((path, check),) = needs_known_content("awk", words)
    assert path == "f"
    assert content_problem(check, b"a 3\nb 10\n") is None
    assert "hex, inf or nan" in (content_problem(check, b"a 0x10\n") or "")
    assert "2**31" in (content_problem(check, b"a 2147483647\n") or "")
    assert "without the field" in (content_problem(check, b"a 3\n\n") or "")  # $2 beyond NF: compared as text
    assert needs_known_content("awk", shlex.split("'{print $2}' f")) == []  # text only: a pipe may feed it
    # numbers from a pipe: the world cannot check them, the gate refuses "-"
    assert [path for path, _ in needs_known_content("awk", shlex.split("'{s += $2} END {print s}'"))] == ["-"]


def test_join_needs_both_inputs_sorted_by_the_join_field_as_gnu_checks_them():
    checks = dict(needs_known_content("join", ["-t,", "-2", "2", "a", "b"]))
    assert content_problem(checks["a"], b"a,1\nb,0\n") is None
    assert content_problem(checks["b"], b"x,a\ny,b\n") is None
    assert content_problem(checks["b"], b"x,b\ny,a\n") is not None
    folded = dict(needs_known_content("join", ["-i", "a", "b"]))
    assert content_problem(folded["a"], b"A 1\nb 2\n") is None
    assert content_problem(folded["a"], b"a 1\n_ 2\n") is not None  # `_` sorts between the cases
