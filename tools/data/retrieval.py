"""Real steps as demonstrations: the recorded steps most like the action about to be predicted.

The corpus is every real step of the store's `train` sessions (imported transcripts, the guard's
session worlds, twins in record mode), never a `test` one, so an evaluation on the test split is
never shown its own answers. Ranking is lexical and needs no embedding model: the steps of the
domain that share the most words with the action (an inverted index), then rapidfuzz's token-set
ratio over those few; an mcp call's text names its tool. Among steps whose actions are equally like
it, those that followed an action most like the world's last one come first: the state an action
meets decides its outcome (`cat notes.txt` after `rm notes.txt` fails).

Examples go into the action's own turn, and later turns show them again from the stored step, so
each step's prompt still extends the last one exactly (what a model server's cache, and a hybrid
model's above all, needs). They are capped: `k` steps, each observation cut to `max_chars`.
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from .session_split import TEST_FRACTION, session_key, split_of

if TYPE_CHECKING:  # the store is a type here: data imports no world
    from ..worlds.store import Store

K = 2  # examples per prediction
MAX_CHARS = 600  # of each example's observation
MIN_SCORE = 60.0  # token-set ratio below which a step is no example at all
REFRESH_SECONDS = 30.0  # how often the store is asked whether its real steps changed
CANDIDATES = 256  # steps sharing the most words with the action, scored in full
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class RealExample:
    action: str  # as a person reads it
    observation: str
    before: str = ""  # the action its world ran just before it, as read; "" for a world's first step


@dataclass
class _Domain:
    actions: list[str] = field(default_factory=list)
    examples: list[RealExample] = field(default_factory=list)
    postings: dict[str, list[int]] = field(default_factory=dict)  # word: the steps whose action has it

    def add(self, example: RealExample) -> None:
        index = len(self.actions)
        self.actions.append(example.action)
        self.examples.append(example)
        for word in set(_WORD.findall(example.action.lower())):
            self.postings.setdefault(word, []).append(index)

    def candidates(self, action: str) -> list[int]:
        shared: Counter[int] = Counter()
        for word in set(_WORD.findall(action.lower())):
            shared.update(self.postings.get(word, ()))
        return [index for index, _ in shared.most_common(CANDIDATES)]


ActionText = Callable[[str, str], str]  # (domain, action) -> the action as a person reads it


class RealStepIndex:
    """`action_text` compares actions as read, not as stored: a terminal step may be stored as keystroke
    batches (`[{"keystrokes": "ls\\n", ...}]`) or as the command line a transcript held."""

    def __init__(self, store: Store, action_text: ActionText | None = None, test_fraction: float = TEST_FRACTION):
        self._store, self._test_fraction = store, test_fraction
        self._text: ActionText = action_text or (lambda domain, action: action)
        self._lock = threading.Lock()
        self._version: str | None = None
        self._read_at = 0.0
        self._by_domain: dict[str, _Domain] = {}

    def nearest(self, domain: str, action: str, k: int = K, before: str = "") -> list[RealExample]:
        """Up to `k` train steps whose actions are most like `action`, best first, one per distinct action;
        `before`, the action the world ran last, breaks ties between equally like ones."""
        self._refresh()
        action = self._text(domain, action)
        steps = self._by_domain.get(domain)
        candidates = steps.candidates(action) if steps is not None else []
        if steps is None or not candidates:
            return []
        found = process.extract(action, [steps.actions[index] for index in candidates], scorer=fuzz.token_set_ratio,
                                limit=None, score_cutoff=MIN_SCORE)
        if before:
            before = self._text(domain, before)
            found.sort(key=lambda hit: (-round(hit[1]), -fuzz.ratio(before, steps.examples[candidates[hit[2]]].before)))
        chosen: list[RealExample] = []
        for _, _, position in found:
            example = steps.examples[candidates[position]]
            if all(example.action != other.action for other in chosen):
                chosen.append(example)
            if len(chosen) == k:
                break
        return chosen

    def size(self) -> int:
        self._refresh()
        return sum(len(steps.actions) for steps in self._by_domain.values())

    def _refresh(self) -> None:
        now = time.monotonic()
        if self._version is not None and now - self._read_at < REFRESH_SECONDS:
            return
        with self._lock:
            if self._version is not None and now - self._read_at < REFRESH_SECONDS:
                return
            self._read_at = now
            version = self._store.real_steps_version()
            if version == self._version:
                return
            by_domain: dict[str, _Domain] = {}
            last: tuple[str, str] = ("", "")  # the world read last and its last action, as read
            for world_id, domain, origin, action, observation in self._store.real_steps():  # in world, step order
                read = self._text(domain, action)
                before = last[1] if last[0] == world_id else ""
                last = (world_id, read)
                if split_of(session_key(world_id, origin), self._test_fraction) == "train":
                    by_domain.setdefault(domain, _Domain()).add(RealExample(read, observation, before))
            self._by_domain, self._version = by_domain, version


def render(examples: list[RealExample], max_chars: int = MAX_CHARS) -> str:
    """The examples as the action's turn shows them."""
    shown = []
    for example in examples:
        observation = example.observation if len(example.observation) <= max_chars else \
            example.observation[:max_chars] + "\n[... cut]"
        shown.append(f"Action:\n```\n{example.action}\n```\nObservation:\n{observation}")
    return "\n\n".join(shown)
