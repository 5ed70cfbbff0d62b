"""How close a predicted observation came to the real one: the one measure that worlds (drift),
the twin, the viewer and the evaluations all report, so they never disagree about a step.

Normalized edit similarity (rapidfuzz's Indel ratio, 0..1) of the two texts with whitespace runs
made one space: a screen re-wrapped or re-indented is the same screen.
"""

from __future__ import annotations

from rapidfuzz import fuzz


def normalized(text: str) -> str:
    """Whitespace runs become one space and blank lines go; line structure and case are kept as content."""
    return "\n".join(" ".join(line.split()) for line in text.strip().splitlines() if line.strip())


def similarity(predicted: str, real: str) -> float:
    """0..1, four decimals; 1.0 exactly when the normalized texts are equal."""
    a, b = normalized(predicted), normalized(real)
    return 1.0 if a == b else round(fuzz.ratio(a, b) / 100, 4)
