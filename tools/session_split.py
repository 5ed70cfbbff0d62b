"""Which side of the train/test split a real session is on: a stable hash of its id, never chance.

Retrieval and training read only `train`; evaluation reads only `test`; so no session is both the
answer key and the example. The same id lands on the same side on every machine and every run.
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
    """An imported world's host and session; a world the guard or a twin recorded is its own session."""
    if origin and origin.get("session"):
        return f"{origin.get('host', '')}:{origin['session']}"
    return world_id
