"""Snapshots of the model's context, so interleaved conversations do not thrash its one cache.

`Llama` holds one token sequence. When a request for another world arrives, what the model held
for the previous one is about to be overwritten; if that is a lot of tokens, its state is saved
first. A later request that extends a saved sequence further than the current one restores it
instead of re-reading those tokens. Snapshots are bounded by their real size in bytes, including
llama-cpp-python's copy of the score buffer (n_batch x n_vocab floats, often the larger part).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

SAVE_WHEN_DISCARDING = 256  # tokens: below this, re-reading is cheaper than a snapshot's copying
RESTORE_WHEN_GAINING = 64  # tokens a snapshot must save over the current sequence to be worth loading


@dataclass
class Snapshot:
    tokens: np.ndarray
    state: Any  # llama_cpp.LlamaState
    size: int


def common_prefix(left: np.ndarray, right: np.ndarray) -> int:
    length = min(len(left), len(right))
    if length == 0:
        return 0
    differ = np.nonzero(left[:length] != right[:length])[0]
    return int(differ[0]) if len(differ) else length


class SnapshotCache:
    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.saved = self.restored = 0
        self._snapshots: OrderedDict[int, Snapshot] = OrderedDict()
        self._bytes = 0
        self._next_key = 0

    def prepare(self, llm: Any, prompt: list[int]) -> None:
        """Before `prompt` runs: save what it would discard, restore what serves it best."""
        if self.max_bytes <= 0:
            return
        wanted = np.asarray(prompt, dtype=np.intc)
        held_tokens = np.asarray(llm._input_ids[: llm.n_tokens], dtype=np.intc)
        held = common_prefix(held_tokens, wanted)
        if len(held_tokens) - held >= SAVE_WHEN_DISCARDING:
            self._save(llm, held_tokens)
        best_key, best = None, held
        for key, snapshot in self._snapshots.items():
            shared = common_prefix(snapshot.tokens, wanted)
            if shared > best:
                best_key, best = key, shared
        if best_key is not None and best - held >= RESTORE_WHEN_GAINING:
            snapshot = self._snapshots.pop(best_key)  # the live context now holds it
            self._bytes -= snapshot.size
            llm.load_state(snapshot.state)
            self.restored += 1
            log.debug("restored a snapshot of %d tokens (%d shared with the prompt)", len(snapshot.tokens), best)

    def _save(self, llm: Any, tokens: np.ndarray) -> None:
        if any(len(s.tokens) >= len(tokens) and common_prefix(s.tokens, tokens) == len(tokens) for s in self._snapshots.values()):
            return  # already saved (a longer or equal sequence covers it)
        state = llm.save_state()
        size = len(state.llama_state) + state.scores.nbytes + state.input_ids.nbytes
        if size > self.max_bytes:
            return
        self._snapshots[self._next_key] = Snapshot(tokens.copy(), state, size)
        self._next_key += 1
        self._bytes += size
        self.saved += 1
        while self._bytes > self.max_bytes:  # least recently saved first
            _, evicted = self._snapshots.popitem(last=False)
            self._bytes -= evicted.size

    @property
    def bytes_held(self) -> int:
        return self._bytes
