"""A scripted policy behind an OpenAI-compatible endpoint, for driving an RL framework's own runner (in the
tests and the bench) with actions known in advance: each chat completion calls the offered tool `tool` with the next action of
the script (the conversation's tool calls so far say which), then answers in words once it is done.

It answers `stream: true` requests as server-sent events, the way the OpenAI SDK reads them, and
plain JSON otherwise. A request that does not offer the tool gets a 400 naming it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class ScriptedPolicy:
    # One script for every conversation, or each conversation's own by its number (0, 1, ... as they start).
    actions: Sequence[str] | Callable[[int], Sequence[str]]
    tool: str = "act"
    argument: str = "action"
    requests: list[dict[str, Any]] = field(default_factory=list)  # every request body, in arrival order
    # Called with the number of actions this conversation has taken, before the policy answers it.
    before_reply: Callable[[int], None] | None = None
    conversations: int = 0

    def reply(self, body: dict[str, Any]) -> dict[str, Any] | None:
        """The assistant message for this conversation; None when the request does not offer the tool."""
        offered = {tool.get("function", {}).get("name") for tool in body.get("tools") or []}
        if self.tool not in offered:
            return None
        calls = [call for message in body.get("messages", []) if message.get("role") == "assistant"
                 for call in message.get("tool_calls") or []]
        if calls:  # the conversation's number rides in its tool calls' ids
            conversation = int(calls[0]["id"].split("_")[1])
        else:
            conversation, self.conversations = self.conversations, self.conversations + 1
        done = len(calls)
        if self.before_reply is not None:
            self.before_reply(done)
        actions = self.actions(conversation) if callable(self.actions) else self.actions
        if done >= len(actions):
            return {"role": "assistant", "content": "done"}
        call = {"id": f"call_{conversation}_{done}", "type": "function",
                "function": {"name": self.tool, "arguments": json.dumps({self.argument: actions[done]})}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}


def _completion(model: str, message: dict[str, Any]) -> dict[str, Any]:
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return {"id": "chatcmpl-scripted", "object": "chat.completion", "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def _chunks(model: str, message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    base = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": int(time.time()), "model": model}
    delta: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
    if message.get("tool_calls"):
        delta["tool_calls"] = [{"index": i, **call} for i, call in enumerate(message["tool_calls"])]
    yield {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    yield {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}
    yield {**base, "choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def _handler(policy: ScriptedPolicy, lock: threading.Lock) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep the test's output clean
            pass

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._send(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            with lock:  # one reply at a time: conversations are numbered as they start
                policy.requests.append(body)
                message = policy.reply(body)
            if message is None:
                self._send(400, {"error": {"message": f"the request offers no tool {policy.tool!r}"}})
                return
            model = body.get("model", "scripted")
            if not body.get("stream"):
                self._send(200, _completion(model, message))
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for chunk in _chunks(model, message):
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.write(b"data: [DONE]\n\n")

    return Handler


@contextmanager
def scripted_policy(actions: Sequence[str] | Callable[[int], Sequence[str]], tool: str = "act", argument: str = "action",
                    before_reply: Callable[[int], None] | None = None) -> Iterator[tuple[str, ScriptedPolicy]]:
    """Serve the script on a free local port: its /v1 base URL, and the policy (with the requests it saw)."""
    policy = ScriptedPolicy(actions, tool, argument, before_reply=before_reply)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(policy, threading.Lock()))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", policy
    finally:
        server.shutdown()
        server.server_close()
