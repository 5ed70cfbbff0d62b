"""The remote backend: any OpenAI-compatible model server (llama-server, vLLM, SGLang, Ollama).

The engine calls `generate` from one worker thread per slot. Each call runs as a task on this
backend's own event loop (a daemon thread, so a backend nobody closed never holds the process
at exit), and a cancel is a task cancellation: the streamed response is closed and the server
stops generating. The server is probed when the
engine loads the backend and again before a call while it has never answered, so a model server
started after this one is picked up without a restart.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx2

from ..types import Completion, FinishReason, GenerationRequest, ModelDescription, ReplyEnd, StopSignal
from .errors import ModelServerError, ModelServerUnreachable, status_error
from .server_kind import ServerInfo, ServerKind, continuation_fields, continued_reply, dialect_fields, identify
from .stream import StreamedReply, stream_chat

log = logging.getLogger(__name__)

DEFAULT_PARALLEL = 4  # requests in flight when neither the user nor the server says
RETRY_PAUSES = (0.5, 1.0, 2.0)  # seconds before each retry of a request nothing of which arrived


@dataclass(frozen=True)
class RemoteSettings:
    base_url: str
    api_key: str | None = None
    served_model: str | None = None  # None: the one the server lists first
    parallel: int | None = None  # None: the server's slots where it says, else DEFAULT_PARALLEL
    template_vars: dict[str, Any] = field(default_factory=dict)
    read_timeout: float = 600.0  # longest silence while the server reads a long prompt
    connect_timeout: float = 5.0


def api_root(base_url: str) -> str:
    """The /v1 root: a bare host gets /v1; a path the user gave is kept (proxies mount elsewhere)."""
    parts = urlsplit(base_url.strip().rstrip("/"))
    path = parts.path.removesuffix("/chat/completions")
    return urlunsplit((parts.scheme, parts.netloc, path if path not in ("", "/") else "/v1", "", ""))


class OpenAICompatibleBackend:
    def __init__(self, settings: RemoteSettings):
        self.settings = settings
        self.url = api_root(settings.base_url)
        self.slots = settings.parallel or DEFAULT_PARALLEL
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client: httpx2.AsyncClient | None = None
        self._info: ServerInfo | None = None
        self._served = settings.served_model or ""
        self._opens_thinking = False  # the server's generation prompt opens a think block
        self._pinned_slots = 0  # server slots a request may be pinned to (llama-server's id_slot)
        self._probe_lock = threading.Lock()
        self._figures_lock = threading.Lock()
        self._counts = {"requests": 0, "retries": 0, "failed": 0, "in_flight": 0, "in_flight_peak": 0}
        self._last_error: str | None = None
        self._answering = True  # the last call got through: a failure after one is logged once, and so is the return
        self._overheads: deque[float] = deque(maxlen=256)  # our seconds per call beyond the server's own

    # --- the Backend protocol ----------------------------------------------------------------
    def load(self) -> ModelDescription:
        self._loop = asyncio.new_event_loop()
        threading.Thread(target=self._loop.run_forever, name="agentworld-model-server", daemon=True).start()
        self._client = self._call(self._new_client())
        try:
            self._probe()
        except ModelServerError as exc:  # each call says so until the server answers
            log.warning("%s", exc)
            self._answering = False
        if self._info is not None and self.settings.parallel is None and self._info.slots:
            self.slots = self._info.slots
        return self.describe()

    @property
    def stale(self) -> bool:
        return self._info is None

    def refresh(self) -> None:
        self._probe()

    def describe(self) -> ModelDescription:
        info = self._info
        return ModelDescription(
            name=self._served or "(model server not reached yet)",
            file=self.url,
            architecture=info.kind if info else "openai-compatible",
            quantization="",
            n_ctx=(info.n_ctx or 0) if info else 0,
        )

    def generate(self, request: GenerationRequest, should_stop: StopSignal, slot: int = 0) -> Completion:
        assert self._loop is not None, "load() first"
        started = time.perf_counter()
        try:
            self._probe()
        except ModelServerError as exc:
            self._count("failed")
            self._note_answering(False, str(exc))
            raise
        # The engine's worker for `slot` runs one request at a time, so the server's slot of that number is free.
        pin = slot if slot < self._pinned_slots else None
        self._count("requests", in_flight=1)
        future = asyncio.run_coroutine_threadsafe(self._complete(request, pin, should_stop), self._loop)
        try:
            with should_stop.watch(future.cancel):  # cancels the task on the backend's loop
                completion = future.result()
        except concurrent.futures.CancelledError:
            return Completion("", "cancelled", 0, 0, 0, time.perf_counter() - started)
        except ModelServerError as exc:
            self._count("failed")
            self._last_error = str(exc)
            self._note_answering(False, str(exc))
            raise
        else:
            self._note_answering(True)
            return completion
        finally:
            self._count(in_flight=-1)

    def _note_answering(self, answering: bool, error: str = "") -> None:
        with self._figures_lock:
            changed, self._answering = self._answering != answering, answering
        if changed and answering:
            log.warning("the model server at %s answers again", self.url)
        elif changed:
            log.warning("the model server at %s went away: %s", self.url, error)

    def figures(self) -> dict[str, Any]:
        """What the status resource shows: never the API key."""
        with self._figures_lock:
            counts = dict(self._counts)
            overheads = sorted(self._overheads)
        return {
            "kind": self._info.kind if self._info else "not reached yet",
            "url": self.url,
            "served_model": self._served,
            "slots": self.slots,
            "slot_pinning": self._pinned_slots > 0,
            **counts,
            "last_error": self._last_error,
            "overhead_ms_p50": round(overheads[len(overheads) // 2] * 1000, 2) if overheads else None,
        }

    def close(self) -> None:
        if self._loop is None:
            return
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._call(self._client.aclose(), timeout=5)
        self._loop.call_soon_threadsafe(self._loop.stop)

    def _call(self, coroutine, timeout: float | None = None):
        """Run a coroutine on the backend's loop and wait for it here."""
        assert self._loop is not None, "load() first"
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout)

    @property
    def _http(self) -> httpx2.AsyncClient:
        assert self._client is not None, "load() first"
        return self._client

    @property
    def _kind(self) -> ServerKind:
        """The server's kind once a probe has answered; requests are sent only after one."""
        assert self._info is not None, "probe first"
        return self._info.kind

    # --- the server ----------------------------------------------------------------------------
    async def _new_client(self) -> httpx2.AsyncClient:
        key = self.settings.api_key
        return httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {key}"} if key else {},
            timeout=httpx2.Timeout(self.settings.read_timeout, connect=self.settings.connect_timeout),
            limits=httpx2.Limits(max_connections=self.slots * 2 + 4),
        )

    def _probe(self) -> None:
        """Ask the server what it is, once it answers; until then each call says why it cannot."""
        if self._info is not None:
            return
        with self._probe_lock:
            if self._info is not None:
                return
            try:
                self._call(self._aprobe())
                self._last_error = None
            except ModelServerError as exc:
                self._last_error = str(exc)
                raise

    async def _aprobe(self) -> None:
        models = await self._get("/models")
        root = self.url.removesuffix("/v1")
        props = await self._get("/props", base=root, optional=True)
        info = identify(models or {}, props)
        wanted = self.settings.served_model
        if wanted and info.models and wanted not in info.models:
            raise ModelServerError(
                f"the model server at {self.url} serves {', '.join(info.models)}, not {wanted!r}; "
                "pass --served-model with one of those names"
            )
        self._served = wanted or (info.models[0] if info.models else "default")
        if info.kind == "llama-server":
            self._opens_thinking = await self._generation_prompt_opens_thinking(root)
            self._pinned_slots = info.slots or 0
        self._info = info
        log.info("model server %s at %s: %s, %s slots", info.kind, self.url, self._served, info.slots or "?")

    async def _get(self, path: str, base: str | None = None, optional: bool = False) -> dict | None:
        url = (base or self.url) + path
        try:
            response = await self._http.get(url)
        except (httpx2.ConnectError, httpx2.ConnectTimeout) as exc:
            raise ModelServerUnreachable(
                f"cannot reach the model server at {self.url} ({exc or type(exc).__name__}); start it, or fix --base-url"
            ) from None
        except httpx2.HTTPError as exc:
            raise ModelServerError(f"the model server at {self.url} did not answer {path} ({type(exc).__name__})") from None
        if optional and response.status_code != 200:
            return None
        if response.status_code == 404:
            raise ModelServerError(
                f"no OpenAI-compatible API at {self.url} (HTTP 404 for {path}); --base-url should be the server's "
                "/v1 root, e.g. http://127.0.0.1:8080/v1"
            )
        if response.status_code >= 400:
            raise status_error(self.url, response.status_code, response.content, self._served)
        try:
            document = response.json()
        except ValueError:
            if optional:
                return None
            raise ModelServerError(f"{url} answered something other than JSON; is --base-url an OpenAI-compatible API?") from None
        return document if isinstance(document, dict) else None

    async def _generation_prompt_opens_thinking(self, root: str) -> bool:
        """Thinking templates may open <think> in the generation prompt; the reply then starts inside it."""
        body: dict[str, Any] = {"messages": [{"role": "user", "content": "hello"}]}
        if self.settings.template_vars:
            body["chat_template_kwargs"] = self.settings.template_vars
        with contextlib.suppress(httpx2.HTTPError, ValueError):
            response = await self._http.post(root + "/apply-template", json=body)
            if response.status_code == 200:
                return str(response.json().get("prompt", "")).rstrip().endswith("<think>")
        return False

    # --- one request -----------------------------------------------------------------------
    def _body(self, request: GenerationRequest, slot: int | None) -> dict[str, Any]:
        sampling = request.sampling
        body: dict[str, Any] = {
            "model": self._served,
            "messages": list(request.messages),
            "stream": True,
            "max_tokens": sampling.max_tokens,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
        }
        if sampling.seed is not None:
            body["seed"] = sampling.seed
        if request.json_schema is not None:
            body["response_format"] = {
                "type": "json_schema", "json_schema": {"name": "reply", "schema": request.json_schema, "strict": True},
            }
        body.update(dialect_fields(
            self._kind, slot=slot, repeat_penalty=sampling.repeat_penalty, top_k=sampling.top_k,
            min_p=sampling.min_p, template_vars=self.settings.template_vars,
        ))
        return body

    async def _complete(self, request: GenerationRequest, slot: int | None, should_stop: StopSignal) -> Completion:
        started = time.perf_counter()
        body = self._body(request, slot)
        constrained = request.json_schema is not None
        budget = request.thinking_budget if not constrained else None
        ends: list[ReplyEnd] = []

        def stop_when(scanner, prefix: str = ""):
            def check(reply: StreamedReply) -> bool:
                if should_stop():
                    return True
                if budget is not None and not prefix and reply.thinking and reply.thinking_chunks >= budget:
                    return True
                if scanner is not None and (end := scanner.feed(prefix + reply.text())) is not None:
                    ends.append(end)
                    return True
                return False
            return check

        def scanner():
            return request.end_rule.scanner(self._opens_thinking) if request.end_rule and not constrained else None

        reply = await self._send(body, stop_when(scanner()), StreamedReply(thinking_open=self._opens_thinking))
        text, replies = reply.text(), [reply]
        cut = budget is not None and not ends and not should_stop() and reply.thinking and reply.thinking_chunks >= budget
        if cut:
            # Thinking ran out of budget: close the block and let the model write the observation.
            message, prefix = continued_reply(self._kind, self._opens_thinking, reply.with_thinking_closed(),
                                              reply.reasoning_so_far())
            continued = {
                **body,
                "messages": [*request.messages, message],
                "max_tokens": max(1, request.sampling.max_tokens - reply.completion_tokens()),
                **continuation_fields(self._kind),
            }
            rest = await self._send(continued, stop_when(scanner(), prefix), StreamedReply(prefill=prefix))
            text, replies = prefix + rest.text(), [reply, rest]
        last = replies[-1]
        for part in replies:
            if part.complete and (server := part.server_seconds()) is not None:
                with self._figures_lock:
                    self._overheads.append(max(0.0, part.seconds - server))
        finish: FinishReason = "cancelled" if should_stop() else ("length" if last.finish_reason == "length" and not ends else "stop")
        return Completion(
            text=text,
            finish_reason=finish,
            prompt_tokens=reply.prompt_tokens(),
            reused_tokens=reply.reused_tokens(),
            completion_tokens=sum(part.completion_tokens() for part in replies),
            generation_seconds=time.perf_counter() - started,
            reasoning_tokens=budget if cut and budget is not None else reply.thinking_chunks,
            thinking_cut=cut,
            end=ends[0] if ends and finish != "cancelled" else None,
        )

    async def _send(self, body: dict[str, Any], stop_when, reply: StreamedReply) -> StreamedReply:
        """One streamed request, tried again after a pause while nothing of it arrived and the
        trouble may pass (connection refused, 5xx, 429)."""
        url = self.url + "/chat/completions"
        for tries, pause in enumerate((*RETRY_PAUSES, None), start=1):
            try:
                return await stream_chat(self._http, url, body, self._served, stop_when, reply)
            except ModelServerError as exc:
                if not exc.retry or pause is None or reply.chunks:
                    if tries > 1:
                        raise type(exc)(f"{exc} (tried {tries} times)") from None
                    raise
                self._count("retries")
                await asyncio.sleep(pause)
        raise AssertionError("unreachable")

    def _count(self, *names: str, in_flight: int = 0) -> None:
        with self._figures_lock:
            for name in names:
                self._counts[name] += 1
            self._counts["in_flight"] += in_flight
            self._counts["in_flight_peak"] = max(self._counts["in_flight_peak"], self._counts["in_flight"])
