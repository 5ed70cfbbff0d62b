"""Reading one streamed chat completion: the reply's text, its reasoning, and the server's counts.

The reader may stop early (the observation ended, the thinking budget ran out, the job was
cancelled); leaving the response closes its connection, which is how every server we know
learns to stop generating.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx2

from ..thinking import CLOSING, THINK_CLOSE, THINK_OPEN
from .errors import ModelServerError, ModelServerUnreachable, status_error

_OPEN, _CLOSE = THINK_OPEN.decode(), THINK_CLOSE.decode()


@dataclass
class StreamedReply:
    content: str = ""  # as streamed: with the think block inline where the server leaves it there
    reasoning: str = ""  # what the server's reasoning parser split off
    thinking_open: bool = False  # the prompt opened a think block the content continues
    chunks: int = 0
    thinking_chunks: int = 0
    usage: dict | None = None
    timings: dict | None = None  # llama-server's own figures
    finish_reason: str | None = None
    server_error: str | None = None
    seconds: float = 0.0
    complete: bool = False  # read to the server's end of stream
    prefill: str = ""  # the assistant text this reply continues; llama-server streams it back first

    def text(self) -> str:
        """The reply as the in-process backend would see it: the reasoning back in its think block."""
        if self.reasoning:
            return f"{_OPEN}\n{self.reasoning.strip()}\n{_CLOSE}\n\n{self.content.lstrip()}"
        return self.content

    def _drop_echo(self) -> None:
        """A continued reply starts with the prefill it continues, on servers that stream it back. A think block
        is dropped through its closing tag, however the server rendered it (its own spacing, its own tags);
        other text once it is all there."""
        if not self.prefill:
            return
        if self.prefill.lstrip().startswith(_OPEN) and self.content.lstrip().startswith(_OPEN):
            _, closed, rest = self.content.partition(_CLOSE)
            if closed:
                self.content, self.prefill = rest.lstrip("\n"), ""
        elif len(self.content) >= len(self.prefill) or not self.prefill.startswith(self.content):
            self.content, self.prefill = self.content.removeprefix(self.prefill), ""

    def with_thinking_closed(self) -> str:
        """The reply so far with its open think block closed, as a prefill to continue from."""
        if self.reasoning:
            return self.text()
        return self.content + CLOSING

    def reasoning_so_far(self) -> str:
        """What the open think block holds, without its tags."""
        if self.reasoning:
            return self.reasoning.strip("\n")
        return self.content.lstrip().removeprefix(_OPEN).strip("\n")

    @property
    def thinking(self) -> bool:
        """The reply is inside a think block now."""
        if self.reasoning and not self.content:
            return True
        if _CLOSE in self.content:
            return False
        return self.thinking_open or self.content.lstrip().startswith(_OPEN)

    def add(self, chunk: dict) -> None:
        if chunk.get("usage"):
            self.usage = chunk["usage"]
        if chunk.get("timings"):
            self.timings = chunk["timings"]
        for choice in chunk.get("choices") or ():
            delta = choice.get("delta") or {}
            reasoning = delta.get("reasoning_content") or delta.get("reasoning") or ""
            content = delta.get("content") or ""
            if reasoning or content:
                self.reasoning += reasoning
                self.content += content
                self._drop_echo()
                self.chunks += 1
                self.thinking_chunks += bool(reasoning) or self.thinking
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]

    # --- the server's counts, where it gave them ---------------------------------------------
    def completion_tokens(self) -> int:
        if self.timings and isinstance(self.timings.get("predicted_n"), int):
            return self.timings["predicted_n"]
        if self.usage and isinstance(self.usage.get("completion_tokens"), int):
            return self.usage["completion_tokens"]
        return self.chunks  # one chunk per token on every server we know; the server did not count

    def prompt_tokens(self) -> int:
        if self.timings and isinstance(self.timings.get("prompt_n"), int):
            return self.timings["prompt_n"] + int(self.timings.get("cache_n") or 0)
        return int((self.usage or {}).get("prompt_tokens") or 0)

    def reused_tokens(self) -> int:
        """Prompt tokens the server's cache held, as it reports them; 0 when it does not say."""
        if self.timings and isinstance(self.timings.get("cache_n"), int):
            return self.timings["cache_n"]
        details = (self.usage or {}).get("prompt_tokens_details") or {}
        return int(details.get("cached_tokens") or 0)

    def server_seconds(self) -> float | None:
        """Time the server says it spent on the model (llama-server's timings)."""
        if not self.timings:
            return None
        return (float(self.timings.get("prompt_ms") or 0) + float(self.timings.get("predicted_ms") or 0)) / 1000


async def stream_chat(
    client: httpx2.AsyncClient,
    url: str,
    body: dict,
    served_model: str,
    stop_when: Callable[[StreamedReply], bool],
    reply: StreamedReply,
) -> StreamedReply:
    """POST `body` to `url` and read the stream into `reply` until it ends or `stop_when(reply)`."""
    started = time.perf_counter()
    try:
        async with client.stream("POST", url, json=body) as response:
            if response.status_code >= 400:
                raise status_error(url, response.status_code, await response.aread(), served_model)
            async for event in httpx2.EventSource(response):
                if event.data.strip() == "[DONE]":
                    reply.complete = True
                    break
                try:
                    chunk = json.loads(event.data)
                except ValueError:
                    raise ModelServerError(f"the model server at {url} streamed something other than JSON: {event.data[:120]!r}") from None
                if "error" in chunk:  # an error after the stream began (llama-server sends one this way)
                    error = chunk["error"]
                    raise status_error(url, int(error.get("code") or 500), json.dumps(chunk).encode(), served_model)
                reply.add(chunk)
                if stop_when(reply):
                    break
            else:
                reply.complete = True
    except (httpx2.ConnectError, httpx2.ConnectTimeout) as exc:
        raise ModelServerUnreachable(
            f"cannot reach the model server at {url} ({exc or type(exc).__name__}); start it, or fix --base-url"
        ) from None
    except (httpx2.ReadError, httpx2.RemoteProtocolError, httpx2.ReadTimeout, httpx2.WriteError) as exc:
        raise ModelServerError(
            f"the model server at {url} broke off the reply after {reply.chunks} tokens "
            f"({type(exc).__name__}); it may have stopped or restarted: check it and call again",
            retry=reply.chunks == 0,  # nothing of this reply arrived: asking again loses nothing
        ) from None
    except httpx2.HTTPError as exc:  # anything else the transport can raise (pool or write timeouts, ...)
        raise ModelServerError(f"the model server at {url} could not be asked ({type(exc).__name__}: {exc})") from None
    finally:
        reply.seconds += time.perf_counter() - started
    return reply

