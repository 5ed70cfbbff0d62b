"""Answers to repeated greedy requests, from memory.

At temperature 0 the model's answer to the same rendered request is (all but) fixed, so an
identical request — same messages, sampling and schema; one engine serves one model file — is
answered without the model. Sampled requests are never cached: their variety is the point.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from collections import OrderedDict

from .types import Completion, GenerationRequest


class ResultCache:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self.hits = 0
        self._entries: OrderedDict[str, Completion] = OrderedDict()
        self._lock = threading.Lock()  # filled from the worker thread, read from the event loop

    @staticmethod
    def key(request: GenerationRequest) -> str | None:
        if request.sampling.temperature != 0:
            return None
        payload = json.dumps(
            [request.messages, dataclasses.asdict(request.sampling), request.json_schema, request.thinking_budget, repr(request.end_rule)],
            sort_keys=True,
        )
        return hashlib.sha256(payload.encode()).hexdigest()

    def get(self, key: str) -> Completion | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            self.hits += 1
        return dataclasses.replace(found, queue_seconds=0.0, generation_seconds=0.0, reused_tokens=found.prompt_tokens, cached=True)

    def put(self, key: str, completion: Completion) -> None:
        if completion.finish_reason == "cancelled" or self.capacity <= 0:
            return
        with self._lock:
            self._entries[key] = completion
            self._entries.move_to_end(key)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)
