"""The values that cross the engine boundary: what a backend is asked and what it answers."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Literal, Protocol

from .errors import EngineError


class Priority(IntEnum):
    """Lower runs first. A lone interactive simulation overtakes queued plan steps."""

    INTERACTIVE = 0
    PLAN = 1


@dataclass(frozen=True)
class Sampling:
    temperature: float = 0.7
    top_p: float = 0.95
    top_k: int = 40
    min_p: float = 0.0
    max_tokens: int = 512
    seed: int | None = None
    repeat_penalty: float = 1.0


class ReplyEnd(Protocol):
    """Where a reply ended before the model ended it: index `at` in the reply, and the rule's name."""

    @property
    def at(self) -> int: ...
    @property
    def reason(self) -> str: ...
    @property
    def detail(self) -> str: ...


class ReplyScanner(Protocol):
    def feed(self, reply: str) -> ReplyEnd | None:
        """Given the whole reply so far, where it must end, once it must."""


class EndRule(Protocol):
    """Where a reply must end (a domain's observation boundary); backends stop generating there."""

    def scanner(self, thinking_open: bool = False) -> ReplyScanner:
        """A reader for one reply; `thinking_open`: the prompt already opened a <think> block."""


@dataclass(frozen=True)
class GenerationRequest:
    """Chat messages to continue. `json_schema` constrains the whole reply to that schema."""

    messages: tuple[dict[str, str], ...]
    sampling: Sampling = Sampling()
    json_schema: dict[str, Any] | None = None
    thinking_budget: int | None = None  # most tokens an open <think> block may take; None: no bound
    # A side question: the conversation goes on from this request's prompt, not from its reply.
    detour: bool = False
    end_rule: EndRule | None = None  # generation stops where this says the reply ends


FinishReason = Literal["stop", "length", "cancelled"]


@dataclass
class Completion:
    text: str
    finish_reason: FinishReason
    prompt_tokens: int
    reused_tokens: int
    completion_tokens: int
    generation_seconds: float
    queue_seconds: float = 0.0
    cached: bool = False  # answered from the result cache, without the model
    reasoning_tokens: int = 0  # completion tokens spent inside a <think> block
    thinking_cut: bool = False  # the thinking budget closed the block
    end: ReplyEnd | None = None  # the request's end rule stopped the reply; `text` is all that was generated


@dataclass(frozen=True)
class ModelDescription:
    name: str
    file: str
    architecture: str
    quantization: str
    n_ctx: int


class EngineBusy(EngineError):
    def __init__(self, waiting: int, limit: int):
        super().__init__(
            f"the world model is busy: {waiting} requests are waiting (limit {limit}); retry in a few seconds"
        )
        self.waiting = waiting


class DeadlineExpired(EngineError):
    def __init__(self, waited: float):
        super().__init__(f"the request waited {waited:.1f} s in the queue past its deadline and was dropped unrun")


class ModelUnavailable(EngineError):
    """The model failed to load (the message says why and how to fix it) or the engine stopped."""


class ContextOverflow(EngineError):
    def __init__(self, prompt_tokens: int, n_ctx: int, fix: str = "start the server with a larger --n-ctx"):
        super().__init__(
            f"the prompt needs {prompt_tokens} tokens but the model context holds {n_ctx}; "
            f"send fewer history turns or a shorter state, or {fix}"
        )
        self.prompt_tokens, self.n_ctx = prompt_tokens, n_ctx


class Backend(Protocol):
    """What runs the model: in this process (one call at a time) or a model server (`slots` at once).

    The engine calls `load` once, then `generate` from `slots` worker threads (read after `load`),
    each with its own slot number (0 to slots - 1), `describe` and `figures` for results and the
    status resource, and `close` when it stops.
    """

    slots: int

    @property
    def stale(self) -> bool:
        """`describe` may be out of date until `refresh` (a model server not reached yet)."""

    def load(self) -> ModelDescription: ...

    def describe(self) -> ModelDescription: ...

    def refresh(self) -> None:
        """Bring `describe` up to date; raise the EngineError that prevents it."""

    def generate(self, request: GenerationRequest, should_stop: StopSignal, slot: int = 0) -> Completion: ...

    def figures(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


class StopCheck(Protocol):
    def __call__(self) -> bool: ...


class StopSignal:
    """A generation's cancellation: backends poll it between tokens (call it), and may `watch` it to be
    told at once (the llama.cpp backend aborts a decode under way)."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._watchers: list[Callable[[], object]] = []

    def __call__(self) -> bool:
        return self._event.is_set()

    def set(self) -> None:
        with self._lock:
            self._event.set()
            watchers = list(self._watchers)
        for watcher in watchers:
            watcher()

    @contextlib.contextmanager
    def watch(self, on_set: Callable[[], object]) -> Iterator[None]:
        """Call `on_set` when the signal is set while the block runs (at once if it already is)."""
        with self._lock:
            self._watchers.append(on_set)
            already = self._event.is_set()
        if already:
            on_set()
        try:
            yield
        finally:
            with self._lock:
                self._watchers.remove(on_set)
