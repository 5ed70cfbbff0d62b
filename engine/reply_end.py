"""Stopping a reply where its request's end rule says the observation is over.

A llama-cpp-python stopping criterion asked once per sampled token, before that token is
emitted: it sees the text of the tokens accepted so far. Once the rule says the reply has ended,
the criterion stops generation, and the token just sampled is never evaluated, so the model's
cached sequence ends at (or a few characters past) the boundary instead of running on.
"""

from __future__ import annotations

from collections.abc import Callable

from .types import EndRule, ReplyEnd


class EndWatcher:
    def __init__(
        self, rule: EndRule, detokenize: Callable[[list[int]], bytes], prompt_length: int, thinking_open: bool, prefix: str = ""
    ):
        """`prefix`: reply text that came before this generation (the thinking a budget cut short)."""
        self._scanner = rule.scanner(thinking_open)
        self._detokenize = detokenize
        self._seen = prompt_length
        self._prefix = prefix
        self._bytes = b""
        self.end: ReplyEnd | None = None

    def __call__(self, ids, _logits) -> bool:
        if self.end is not None:
            return True
        if len(ids) > self._seen:
            self._bytes += self._detokenize(list(ids[self._seen :]))
            self._seen = len(ids)
            # A multi-byte character split across tokens decodes once its last byte arrives.
            self.end = self._scanner.feed(self._prefix + self._bytes.decode("utf-8", errors="ignore"))
        return self.end is not None
