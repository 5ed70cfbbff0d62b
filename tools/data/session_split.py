"""Which side of the train/test split a real session is on: a stable hash of its id, never chance.

Retrieval shows only `train` steps, and an evaluation of a model on this environment belongs on
`test` ones, so no session is both the answer key and the example. The same id lands on the same side on every machine and every run.
"""

from __future__ import annotations

import hashlib
from typing import Literal

Split = Literal["train", "test"]
TEST_FRACTION = 0.2


def split_of(session_key: str, test_fraction: float = TEST_FRACTION) -> Split:
    if not 0.0 <= test_fraction <= 1.0:
        raise ValueError(f"the test fraction must be between 0 and 1, got {test_fraction}")
    draw = int.from_bytes(hashlib.sha256(session_key.encode()).digest()[:8], "big") / 2**64
    return "test" if draw < test_fraction else "train"


def session_key(world_id: str, origin: dict | None) -> str:
    """The session a world's steps came from: its origin's session id (not the host: the guard's recording
    of a Claude Code session and that session's import are one session, on one side), else the world."""
    if origin and origin.get("session"):
        return str(origin["session"])
    return world_id
