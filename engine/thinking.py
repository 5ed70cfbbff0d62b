"""A thinking budget: reasoning models may think for at most N tokens of a reply.

A trained world model thinks for thousands of tokens before it writes an observation; with a
small `max_tokens` the thinking eats the budget and the observation comes back empty. The
watcher below stops generation once an open `<think>` block reaches its budget; the backend then
closes the block itself and lets the model write the observation with the tokens that are left.
"""

from __future__ import annotations

from collections.abc import Callable

THINK_OPEN, THINK_CLOSE = b"<think>", b"</think>"
CLOSING = "\n</think>\n\n"


class ThinkingWatcher:
    """A llama-cpp-python stopping criterion that follows the reply's think block.

    `opened`: the rendered prompt already ends inside `<think>` (templates with thinking on put
    it in the generation prompt). Otherwise the reply opens the block itself or never does.
    """

    def __init__(self, detokenize: Callable[[list[int]], bytes], prompt_length: int, budget: int, opened: bool):
        self._detokenize = detokenize
        self._seen = prompt_length
        self._budget = budget
        self._text = b""
        self._generated = 0
        self.thinking: bool | None = True if opened else None  # None: not known yet
        self.closed = False
        self.cut = False
        self.reasoning_tokens = 0

    def __call__(self, ids, _logits) -> bool:
        # llama-cpp-python asks once per sampled token, before emitting it (True drops that token),
        # and once more when the completion ends.
        if self.cut:
            return True
        self._generated += 1
        if len(ids) > self._seen:
            self._text += self._detokenize(list(ids[self._seen :]))
            self._seen = len(ids)
        if self.thinking is None and len(self._text.lstrip()) >= len(THINK_OPEN):
            self.thinking = self._text.lstrip().startswith(THINK_OPEN)
        if not self.thinking or self.closed:
            return False
        if THINK_CLOSE in self._text:
            self.closed, self.reasoning_tokens = True, self._generated
            return False
        if self._generated > self._budget:  # `budget` tokens were emitted; this one would exceed it
            self.cut, self.reasoning_tokens = True, self._budget
            return True
        return False


def prompt_opens_thinking(prompt_tail: str) -> bool:
    return prompt_tail.rstrip().endswith(THINK_OPEN.decode())
