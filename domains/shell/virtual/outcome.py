"""What computing a line gives: what bash prints and does, and the exact facts it leaves (shell.py makes it,
anywhere.py and the world's tracker read it)."""

from __future__ import annotations

from dataclasses import dataclass

from ..world.knowledge import Knowledge


@dataclass(frozen=True)
class Change:
    path: str
    change: str  # created | modified | deleted
    kind: str  # file | folder


@dataclass(frozen=True)
class Outcome:
    """A computed step: exactly what bash prints and does here, and the exact facts it leaves."""

    line: str
    stdout: str
    stderr: str
    exit_code: int
    cwd: str  # where the shell stands after it
    changes: tuple[Change, ...]
    after: Knowledge  # its exact facts only: the world's record takes them (`Knowledge.take_exact`)
    forms: frozenset[str] = frozenset()  # the allowlist entries it used
    observation: str | None = None  # a file tool's step: the domain's own observation, rendered already
    # False: the shell stays where it stood, a folder the world does not know exactly (`cwd` is the implied one):
    # the output and effects are exact, the screen's prompt is the model's (anywhere.py).
    cwd_known: bool = True
