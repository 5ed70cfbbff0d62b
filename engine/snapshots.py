"""The model's context between requests: what it can reuse, and snapshots of what it held before.

`Llama` holds one token sequence. A new prompt reuses the longest prefix it shares with that
sequence, except on models with recurrent layers (hybrid models such as qwen35moe), which can
only *extend* it: any divergence re-reads the whole prompt.

When a request for another world arrives, what the model held for the previous one is about to
be overwritten; if that is a lot of tokens, its state is saved first. A later request that reuses
more of a saved sequence than of the current one restores it instead of re-reading those tokens.
On an extend-only model two more states are kept. The end of the conversation before the
generation prompt (the *turn boundary*): the conversation's next prompt extends it even when the
chat template shows this reply differently in history (thinking templates drop its reasoning).
And the start of a *detour*, a side question whose reply the conversation will not continue from
(the effects question), when the detour extends the reply verbatim. On such a model a snapshot
also stays in the cache after a restore, since the live context cannot be cut back to it.

Snapshots are bounded by their real size in bytes. They hold the llama.cpp state and the token
ids, not llama-cpp-python's score buffer (n_batch x n_vocab floats, hundreds of MB): since 0.3
sampling runs inside llama.cpp and that buffer is only written when every token's logits are kept,
which this backend never asks for.
"""

from __future__ import annotations

import ctypes
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used: numpy costs the server's start-up 0.06 s, and only the worker needs it
    import numpy as np

log = logging.getLogger(__name__)

SAVE_WHEN_DISCARDING = 256  # tokens: below this, re-reading is cheaper than a snapshot's copying
RESTORE_WHEN_GAINING = 64  # tokens a snapshot must save over the current sequence to be worth loading


@dataclass
class Snapshot:
    """What `Llama.save_state()` keeps, minus the score buffer: llama.cpp's state and the token ids."""

    tokens: np.ndarray  # the sequence the context held
    input_ids: np.ndarray  # llama-cpp-python's whole id buffer, written into again after a load
    state: ctypes.Array  # llama.cpp's serialized context
    state_bytes: int
    seed: int

    @property
    def size(self) -> int:
        return len(self.state) + self.input_ids.nbytes + self.tokens.nbytes  # the whole buffer stays allocated

    @classmethod
    def of(cls, llm: Any, tokens: np.ndarray) -> Snapshot | None:
        """The live context of `llm`, which holds `tokens`."""
        import llama_cpp

        context = llm._ctx.ctx
        capacity = llama_cpp.llama_state_get_size(context)
        buffer = (ctypes.c_uint8 * capacity)()
        written = llama_cpp.llama_state_get_data(context, buffer, capacity)
        if not 0 < written <= capacity:
            log.warning("llama.cpp could not save the context (%d of %d bytes); no snapshot taken", written, capacity)
            return None
        return cls(tokens.copy(), llm.input_ids.copy(), buffer, written, llm._seed)

    def load_into(self, llm: Any) -> None:
        """`Llama.load_state()` without rewriting the score buffer (hundreds of MB it never reads here)."""
        import llama_cpp

        if llama_cpp.llama_state_set_data(llm._ctx.ctx, self.state, self.state_bytes) != self.state_bytes:
            raise RuntimeError("llama.cpp could not restore a saved context")
        llm.input_ids = self.input_ids.copy()
        llm.n_tokens = len(self.tokens)
        llm._requires_eval = True  # restored logits must be decoded again before sampling
        llm._seed = self.seed


def common_prefix(left: np.ndarray, right: np.ndarray) -> int:
    import numpy as np

    length = min(len(left), len(right))
    if length == 0:
        return 0
    differ = np.nonzero(left[:length] != right[:length])[0]
    return int(differ[0]) if len(differ) else length


class SnapshotCache:
    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.extend_only = False  # set by the backend once it knows the model
        self.saved = self.restored = 0
        self._snapshots: OrderedDict[int, Snapshot] = OrderedDict()
        self._bytes = 0
        self._next_key = 0
        self._holding_detour = False

    def reusable(self, held: np.ndarray, wanted: np.ndarray) -> int:
        """How many tokens of `wanted` a context holding `held` can skip."""
        shared = common_prefix(held, wanted)
        if not self.extend_only:
            return shared
        return shared if shared == len(held) < len(wanted) else 0

    def prepare(self, llm: Any, prompt: list[int], detour: bool = False) -> int:
        """Before `prompt` runs: save what it would discard, restore what serves it best.

        Returns how many prompt tokens the live context can skip; on an extend-only model that
        cannot skip any, the context is cleared so that nothing tries to cut it short.
        """
        import numpy as np

        wanted = np.asarray(prompt, dtype=np.intc)
        held = np.asarray(llm._input_ids[: llm.n_tokens], dtype=np.intc)
        skippable = self.reusable(held, wanted)
        if self.max_bytes > 0:
            discarding = len(held) - skippable >= SAVE_WHEN_DISCARDING
            # On an extend-only model a detour's own tokens are never continued: the context it
            # started from was saved instead. Other models cut a detour back to where it began.
            resumable = detour and self.extend_only and skippable == len(held)
            if (discarding and not self._holding_detour) or resumable:
                self.keep(llm)
            skippable = self._restore_best(llm, wanted, skippable)
        self._holding_detour = detour and self.extend_only
        if skippable == 0 and self.extend_only and llm.n_tokens:
            llm.reset()
        return skippable

    def _restore_best(self, llm: Any, wanted: np.ndarray, skippable: int) -> int:
        best_key, best = None, skippable
        for key, snapshot in self._snapshots.items():
            usable = self.reusable(snapshot.tokens, wanted)
            if usable > best:
                best_key, best = key, usable
        if best_key is None or best - skippable < RESTORE_WHEN_GAINING:
            return skippable
        if self.extend_only:
            snapshot = self._snapshots[best_key]
            self._snapshots.move_to_end(best_key)
        else:  # the live context holds it now, and can be cut back to it
            snapshot = self._snapshots.pop(best_key)
            self._bytes -= snapshot.size
        snapshot.load_into(llm)
        self.restored += 1
        log.debug("restored a snapshot of %d tokens (%d reusable by the prompt)", len(snapshot.tokens), best)
        return best

    def keep(self, llm: Any) -> None:
        """Save the live context, unless it is short or already saved."""
        import numpy as np

        tokens = np.asarray(llm._input_ids[: llm.n_tokens], dtype=np.intc)
        if self.max_bytes <= 0 or len(tokens) < SAVE_WHEN_DISCARDING or any(self._covers(s.tokens, tokens) for s in self._snapshots.values()):
            return
        snapshot = Snapshot.of(llm, tokens)
        if snapshot is None or snapshot.size > self.max_bytes:
            return
        self._snapshots[self._next_key] = snapshot
        self._next_key += 1
        self._bytes += snapshot.size
        self.saved += 1
        while self._bytes > self.max_bytes:  # least recently saved (or restored) first
            _, evicted = self._snapshots.popitem(last=False)
            self._bytes -= evicted.size

    def _covers(self, saved: np.ndarray, tokens: np.ndarray) -> bool:
        """A longer saved sequence serves every prompt this one would, unless the model can only extend."""
        if self.extend_only:
            return len(saved) == len(tokens) and common_prefix(saved, tokens) == len(tokens)
        return len(saved) >= len(tokens) and common_prefix(saved, tokens) == len(tokens)

    @property
    def bytes_held(self) -> int:
        return self._bytes
