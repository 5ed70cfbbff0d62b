"""Keeping a conversation on one slot of a model server, so the slot's cache still holds its prefix.

A llama-server slot keeps the tokens of the last request it ran; the next step of the same world
reads only what it adds when it lands on that slot again. The picker never makes a request wait
for a busy slot: pinning only chooses among free ones, so it costs no parallelism.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence

REMEMBERED = 1024  # conversations whose slot is remembered, most recent first


def conversation_key(messages: Sequence[dict]) -> str:
    """The system prompt and the first turn: the same for every step of one world or plan."""
    return hashlib.blake2b(json.dumps(list(messages[:2]), sort_keys=True).encode(), digest_size=12).hexdigest()


class SlotPicker:
    def __init__(self, slots: int):
        self._lock = threading.Lock()
        self._free: list[int] = list(range(slots))  # least recently used first
        self._slot_of: OrderedDict[str, int] = OrderedDict()

    def acquire(self, key: str) -> int | None:
        """A free slot for this conversation, its own if free; None when every slot is busy."""
        with self._lock:
            if not self._free:
                return None
            remembered = self._slot_of.pop(key, None)
            slot = remembered if remembered in self._free else self._free[0]
            self._free.remove(slot)
            self._slot_of[key] = slot
            while len(self._slot_of) > REMEMBERED:
                self._slot_of.popitem(last=False)
            return slot

    def release(self, slot: int | None) -> None:
        if slot is None:
            return
        with self._lock:
            self._free.append(slot)
