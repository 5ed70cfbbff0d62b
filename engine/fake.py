"""The engine's test double: a scripted backend for unit tests of the queue, beside the real
backends it imitates (llama_backend.py, remote/). It never stands in for the product."""

from __future__ import annotations

import threading
import time

from .types import Completion, FinishReason, GenerationRequest, ModelDescription


class FakeBackend:
    """Generates `tokens` tokens, `token_seconds` apart, and records what it ran and in which order.

    `gate`, when given, holds every generation until it is set, so a test can fill the queue;
    with `gated` (labels), only those.
    """

    def __init__(self, tokens: int = 5, token_seconds: float = 0.01, fail_load: str | None = None, slots: int = 1):
        self.tokens, self.token_seconds, self.fail_load, self.slots = tokens, token_seconds, fail_load, slots
        self.closed = False
        self.ran: list[str] = []
        self.slot_of: dict[str, int] = {}  # label: the slot it last ran on
        self.started = threading.Event()
        self.gate: threading.Event | None = None
        self.gated: set[str] | None = None
        self.thread_ids: set[int] = set()

    def load(self) -> ModelDescription:
        if self.fail_load:
            raise RuntimeError(self.fail_load)
        return self.describe()

    def describe(self) -> ModelDescription:
        return ModelDescription(name="fake", file="fake.gguf", architecture="fake", quantization="none", n_ctx=1024)

    stale = False

    def refresh(self) -> None:
        pass

    def figures(self) -> dict:
        return {"kind": "fake"}

    def close(self) -> None:
        self.closed = True

    def generate(self, request: GenerationRequest, should_stop, slot: int = 0) -> Completion:
        self.thread_ids.add(threading.get_ident())
        label = request.messages[-1]["content"]
        self.slot_of[label] = slot
        self.started.set()
        if self.gate is not None and (self.gated is None or label in self.gated):
            self.gate.wait(10)
        produced = 0
        started = time.perf_counter()
        for _ in range(self.tokens):
            if should_stop():
                break
            time.sleep(self.token_seconds)
            produced += 1
        finish: FinishReason = "cancelled" if should_stop() else "stop"
        self.ran.append(label)
        return Completion(
            text=f"out:{label}", finish_reason=finish, prompt_tokens=10, reused_tokens=0,
            completion_tokens=produced, generation_seconds=time.perf_counter() - started,
        )


def request(label: str) -> GenerationRequest:
    return GenerationRequest(messages=({"role": "user", "content": label},))
