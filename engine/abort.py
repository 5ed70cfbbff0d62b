"""Stopping llama.cpp in the middle of a decode, the moment a generation is cancelled.

Reading a long prompt is one `llama_decode` per batch of up to n_batch tokens: seconds on a CPU,
and more for a large model. Between-token checks cannot interrupt it, so a cancelled generation would
hold the model until the batch is read. llama.cpp asks an abort callback `bool cb(void *data)`
before each operation of a decode. A Python callback there would take the GIL hundreds of times
per token, so the check is done in C instead: libc's `strlen` on a two-byte buffer returns 0
while the buffer is empty and 1 once the flag byte is set, which is exactly the answer the
callback owes. An aborted decode returns 2 and llama.cpp drops what that batch had written.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import sys
from collections.abc import Iterator
from typing import Any

from .types import StopSignal

log = logging.getLogger(__name__)


def _libc_strlen() -> Any | None:
    try:
        libc = ctypes.cdll.msvcrt if sys.platform == "win32" else ctypes.CDLL(None)
        return libc.strlen
    except (OSError, AttributeError):
        return None


class DecodeAbort:
    """The abort flag of one llama.cpp context; `available` is False where it could not be installed."""

    def __init__(self, context: Any):
        import llama_cpp

        self._flag = ctypes.create_string_buffer(2)
        strlen = _libc_strlen()
        self.available = strlen is not None
        if strlen is not None:
            self._callback = ctypes.cast(strlen, llama_cpp.ggml_abort_callback)  # kept: llama.cpp holds the pointer
            llama_cpp.llama_set_abort_callback(context, self._callback, ctypes.cast(self._flag, ctypes.c_void_p))
        else:
            log.warning("no C strlen found; a cancel waits for the current prompt batch to finish")

    def set(self) -> None:
        self._flag[0] = b"x"

    @contextlib.contextmanager
    def armed(self, signal: StopSignal) -> Iterator[None]:
        """While the block runs, `signal` aborts the decode under way; the flag is clear afterwards."""
        self._flag[0] = b"\0"
        try:
            with signal.watch(self.set):
                yield
        finally:
            self._flag[0] = b"\0"
