"""The in-process backend: one `llama_cpp.Llama`, used only from the engine's worker thread.

Prompts are rendered here with the model's own chat template (so template variables such as
`enable_thinking` can be passed) and sent as tokens, which lets us report how many prompt tokens
the model's cached sequence already held.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import io
import json
import logging
import re
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .abort import DecodeAbort
from .cpu_kernels import CpuKernels, ensure_loaded
from .llama_import import llama_cpp as import_llama_cpp
from .reply_end import EndWatcher
from .snapshots import SnapshotCache
from .thinking import CLOSING, ThinkingWatcher, prompt_opens_thinking
from .types import (
    Completion,
    ContextOverflow,
    FinishReason,
    GenerationRequest,
    ModelDescription,
    ModelUnavailable,
    StopCheck,
    StopSignal,
)

if TYPE_CHECKING:
    from llama_cpp import Llama
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

log = logging.getLogger(__name__)
native_log = logging.getLogger("agentworld_mcp.llama_cpp")

# Used only for a GGUF without a template of its own; ChatML is what most instruct models expect.
_CHATML_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message.role }}\n{{ message.content }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
# A tensor of a block llama.cpp expected and the file lacks. The wording moved between llama.cpp versions:
# "missing tensor 'blk.40.attn_norm.weight'", then "check_tensor_dims: tensor 'blk.40.attn_norm.weight' not found".
_MISSING_BLOCK = re.compile(r"(?:missing tensor '|tensor ')blk\.(\d+)\.[^']*'(?: not found)?")


def missing_mtp_hint(architecture: str, detail: str) -> str:
    """For a Qwen3.5-MoE file that declares its multi-token-prediction block but holds none of its tensors (some
    community conversions): the two overrides that make it load, with the file's own block count."""
    found = _MISSING_BLOCK.search(detail)
    if architecture != "qwen35moe" or found is None:
        return ""
    blocks = found.group(1)
    return (f"; this Qwen3.5-MoE file declares one block more than it holds (no MTP tensors): start the server "
            f"with --override-kv qwen35moe.block_count=int:{blocks} "
            f"--override-kv qwen35moe.nextn_predict_layers=int:0")


@dataclass
class LlamaSettings:
    model_path: str
    n_ctx: int = 8192
    n_threads: int = 1
    n_batch: int = 512
    n_gpu_layers: int = 0
    flash_attn: bool = False
    template_vars: dict[str, Any] = field(default_factory=dict)
    kv_overrides: dict[str, bool | int | float | str] = field(default_factory=dict)
    quantization: str = ""
    architecture: str = ""  # the GGUF's, as read before the load (for the load error's hint)
    chat_template: str | None = None  # replaces the GGUF's own template
    snapshot_bytes: int = 2 << 30  # memory for saved contexts of interleaved conversations; 0: none
    extend_only: bool | None = None  # the model can only extend its cached tokens; None: ask llama.cpp


class NativeLog:
    """Routes llama.cpp's own log lines to Python logging and keeps the last errors for messages.

    One per process: llama.cpp keeps calling the installed callback, so it must never be freed.
    """

    _installed: NativeLog | None = None

    def __init__(self):
        llama_cpp = import_llama_cpp()
        self.recent_errors: deque[str] = deque(maxlen=8)
        self._callback = llama_cpp.llama_log_callback(self._on_line)
        llama_cpp.llama_log_set(self._callback, ctypes.c_void_p(0))

    @classmethod
    def capture(cls) -> NativeLog:
        """The process's log router, with its error memory cleared for a new load."""
        if cls._installed is None:
            cls._installed = cls()
        cls._installed.recent_errors.clear()
        return cls._installed

    def _on_line(self, level: int, text: bytes, _user_data) -> None:
        line = text.decode("utf-8", errors="replace").rstrip()
        if not line:
            return
        if level in (3, 4):  # ggml_log_level: NONE 0, DEBUG 1, INFO 2, WARN 3, ERROR 4, CONT 5
            self.recent_errors.append(line)
        native_log.debug("%s", line)


class LlamaCppBackend:
    slots = 1  # a `Llama` is not thread-safe: one call at a time
    stale = False  # the loaded file describes itself once and for all

    def __init__(self, settings: LlamaSettings):
        self.settings = settings
        self._llm: Llama | None = None
        self._formatter: Jinja2ChatFormatter | None = None
        self._boundary_formatter: Jinja2ChatFormatter | None = None
        self._grammars: dict[str, Any] = {}
        self._snapshots = SnapshotCache(settings.snapshot_bytes)
        self._abort: DecodeAbort | None = None
        self._description: ModelDescription | None = None
        self._kernels: CpuKernels | None = None

    def figures(self) -> dict[str, Any]:
        """What the status resource shows about this backend."""
        cache = self._snapshots
        return {
            "kind": "llama.cpp in process",
            "extend_only": cache.extend_only,
            "snapshots_saved": cache.saved,
            "snapshots_restored": cache.restored,
            "snapshot_bytes": cache.bytes_held,
            "cpu": self._kernels.as_dict() if self._kernels is not None else None,
        }

    def refresh(self) -> None:
        """Nothing to refresh: see `stale`."""

    def close(self) -> None:
        """Nothing to release early: the model lives as long as the process that loaded it."""

    def load(self) -> ModelDescription:
        import llama_cpp
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        native = NativeLog.capture()
        self._kernels = ensure_loaded()  # the CPU kernels first: the model is placed on their backend
        s = self.settings
        log.info("loading %s (n_ctx %d, %s threads)", s.model_path, s.n_ctx, s.n_threads or "default")
        chatter = io.StringIO()
        try:
            # verbose=True keeps llama-cpp-python from pointing fd 1 and 2 at /dev/null during the load
            # (process-wide, while the MCP transport runs); its Python-level chatter is captured instead.
            with contextlib.redirect_stderr(chatter):
                llm = llama_cpp.Llama(
                    model_path=s.model_path,
                    n_ctx=s.n_ctx,
                    n_threads=s.n_threads,
                    n_threads_batch=s.n_threads,
                    n_batch=s.n_batch,
                    n_gpu_layers=s.n_gpu_layers,
                    flash_attn=s.flash_attn,
                    kv_overrides=s.kv_overrides or None,
                    verbose=True,
                )
        except Exception as exc:
            detail = "; ".join(native.recent_errors) or str(exc)
            hint = missing_mtp_hint(s.architecture, detail)
            raise ModelUnavailable(f"llama.cpp could not load {s.model_path}: {detail}{hint}") from None
        finally:
            log.debug("llama-cpp-python load output:\n%s", chatter.getvalue())
        llm.verbose = False  # per-request timing prints off from here on
        template = s.chat_template or llm.metadata.get("tokenizer.chat_template") or _CHATML_TEMPLATE
        if not s.chat_template and "tokenizer.chat_template" not in llm.metadata:
            log.warning("the model has no chat template; using ChatML")
        eos_id, bos_id = llm.token_eos(), llm.token_bos()
        token_text = lambda token: llm.detokenize([token], special=True).decode("utf-8", errors="ignore")  # noqa: E731
        formatter = functools.partial(
            Jinja2ChatFormatter,
            template,
            eos_token=token_text(eos_id) if eos_id >= 0 else "",
            bos_token=token_text(bos_id) if bos_id >= 0 else "",
            stop_token_ids=[eos_id],
        )
        self._formatter = formatter(add_generation_prompt=True)
        self._boundary_formatter = formatter(add_generation_prompt=False)
        self._llm = llm
        self._abort = DecodeAbort(llm._ctx.ctx)
        self._snapshots.extend_only = (
            s.extend_only if s.extend_only is not None
            else bool(llama_cpp.llama_model_is_recurrent(llm.model) or llama_cpp.llama_model_is_hybrid(llm.model))
        )
        self._description = ModelDescription(
            name=llm.metadata.get("general.name", "") or s.model_path.rsplit("/", 1)[-1],
            file=s.model_path,
            architecture=llm.metadata.get("general.architecture", ""),
            quantization=s.quantization,
            n_ctx=llm.n_ctx(),
        )
        return self._description

    def describe(self) -> ModelDescription:
        assert self._description is not None, "load() first"
        return self._description

    @property
    def _loaded(self) -> Llama:
        assert self._llm is not None, "load() first"
        return self._llm

    def render(self, request: GenerationRequest, generation_prompt: bool = True) -> list[int]:
        formatter = self._formatter if generation_prompt else self._boundary_formatter
        assert formatter is not None, "load() first"
        # Plain role/content dicts are what llama-cpp-python's message TypedDicts describe.
        rendered = formatter(messages=list(request.messages), **self.settings.template_vars)  # type: ignore[arg-type]
        return self._loaded.tokenize(rendered.prompt.encode("utf-8"), add_bos=False, special=True)

    def _read(self, tokens: list[int], start: int, should_stop: StopCheck) -> bool:
        """Evaluate `tokens` from `start` on, a batch at a time. A cancel aborts the batch under
        way (engine/abort.py) or, without the abort flag, stops before the next one. False: stopped."""
        llm = self._loaded
        llm.n_tokens = start  # eval() drops whatever the context held past this point
        try:
            for position in range(start, len(tokens), self.settings.n_batch):
                if should_stop():
                    return False
                llm.eval(tokens[position : position + self.settings.n_batch])
        except RuntimeError:
            if not should_stop():
                raise
            self._after_abort()
            return False
        return not should_stop()

    def _after_abort(self) -> None:
        """An aborted decode leaves the cached tokens as they were, except on models whose recurrent
        state cannot be cut back: those start over."""
        if self._snapshots.extend_only:
            self._loaded.reset()

    def _keep_turn_boundary(self, request: GenerationRequest, tokens: list[int], should_stop: StopCheck) -> bool:
        """Read the prompt up to the end of the conversation so far and keep that state.

        Only for extend-only models: the conversation's next prompt extends this boundary, not
        this reply, when the chat template shows the reply differently in history. False: it
        failed or was cancelled, and the context was cleared.
        """
        llm = self._loaded
        try:
            boundary = self.render(request, generation_prompt=False)
            if llm.n_tokens <= len(boundary) < len(tokens) and tokens[: len(boundary)] == boundary:
                if not self._read(boundary, llm.n_tokens, should_stop):
                    llm.reset()
                    return False
                self._snapshots.keep(llm)
            return True
        except Exception:  # only a shortcut for later steps: this request goes on from a clean context
            log.warning("could not keep the turn boundary; the next step re-reads its prompt", exc_info=True)
            llm.reset()
            return False

    def generate(self, request: GenerationRequest, should_stop: StopSignal, slot: int = 0) -> Completion:
        assert self._llm is not None and self._abort is not None, "load() first"
        with self._abort.armed(should_stop):
            return self._generate(request, should_stop)

    def _generate(self, request: GenerationRequest, should_stop: StopCheck) -> Completion:
        llm = self._loaded
        started = time.perf_counter()  # rendering and tokenizing are model work too
        tokens = self.render(request)
        thinking_open = prompt_opens_thinking(llm.detokenize(tokens[-8:], special=True).decode("utf-8", errors="ignore"))
        closed_first = ""
        if thinking_open and request.json_schema is not None:
            # A grammar from the first token would write the reply inside the open think block: close it first.
            closed_first = CLOSING
            tokens = tokens + llm.tokenize(CLOSING.encode("utf-8"), add_bos=False, special=True)
        n_ctx = llm.n_ctx()
        room = n_ctx - len(tokens)
        if room < 16:
            raise ContextOverflow(len(tokens), n_ctx)
        reused = skip = self._snapshots.prepare(llm, tokens, request.detour)
        if self._snapshots.extend_only and self._snapshots.max_bytes > 0 and not request.detour and not should_stop():
            if self._keep_turn_boundary(request, tokens, should_stop):
                skip = llm.n_tokens  # the context holds the boundary now
            else:
                reused = skip = 0
        # A fully cached prompt still reads its last token again, for fresh logits.
        reused = min(reused, len(tokens) - 1)
        if not self._read(tokens, min(skip, len(tokens) - 1), should_stop):
            return self._cancelled(tokens, reused, started)
        max_tokens = min(request.sampling.max_tokens, room)
        thinking = None
        if request.thinking_budget is not None and request.json_schema is None:
            # Thinking never takes all the room the context leaves: a quarter stays for the observation.
            budget = min(request.thinking_budget, max(1, max_tokens * 3 // 4))
            thinking = ThinkingWatcher(lambda ids: llm.detokenize(ids, special=True), len(tokens), budget, thinking_open)
        end = self._end_watcher(request, tokens, thinking_open)
        text, finish, generated = self._complete(request, tokens, max_tokens, should_stop, thinking, end)
        if thinking is not None and thinking.cut and not should_stop():
            # Thinking ran out of budget: close the block and let the model write the observation.
            continued = tokens + llm.tokenize((text + CLOSING).encode("utf-8"), add_bos=False, special=True)
            skip = self._snapshots.prepare(llm, continued)  # re-tokenized thinking may differ from the sampled tokens
            if not self._read(continued, min(skip, len(continued) - 1), should_stop):
                return self._cancelled(tokens, reused, started, text, generated)
            end = self._end_watcher(request, continued, thinking_open, prefix=text + CLOSING)
            rest, finish, more = self._complete(request, continued, max(1, max_tokens - generated), should_stop, None, end)
            text, generated = text + CLOSING + rest, generated + more
        return Completion(
            text=closed_first + text,
            finish_reason=finish,
            prompt_tokens=len(tokens),
            reused_tokens=reused,
            completion_tokens=generated,
            generation_seconds=time.perf_counter() - started,
            reasoning_tokens=thinking.reasoning_tokens if thinking is not None else 0,
            thinking_cut=bool(thinking and thinking.cut),
            end=end.end if end is not None and finish != "cancelled" else None,
        )

    def _end_watcher(self, request: GenerationRequest, tokens: list[int], thinking_open: bool, prefix: str = "") -> EndWatcher | None:
        if request.end_rule is None or request.json_schema is not None:
            return None
        llm = self._loaded
        return EndWatcher(request.end_rule, lambda ids: llm.detokenize(ids, special=True), len(tokens), thinking_open, prefix)

    @staticmethod
    def _cancelled(tokens: list[int], reused: int, started: float, text: str = "", generated: int = 0) -> Completion:
        return Completion(text, "cancelled", len(tokens), reused, generated, time.perf_counter() - started)

    def _complete(
        self, request: GenerationRequest, tokens: list[int], max_tokens: int, should_stop: StopCheck, thinking, end
    ) -> tuple[str, FinishReason, int]:
        import llama_cpp

        sampling = request.sampling
        criteria = [lambda _ids, _logits: should_stop()] + [watcher for watcher in (thinking, end) if watcher is not None]
        try:
            output = self._loaded.create_completion(
                prompt=tokens,
                max_tokens=max_tokens,
                temperature=sampling.temperature,
                top_p=sampling.top_p,
                top_k=sampling.top_k,
                min_p=sampling.min_p,
                repeat_penalty=sampling.repeat_penalty,
                seed=sampling.seed,
                grammar=self._grammar(request.json_schema) if request.json_schema else None,
                stopping_criteria=llama_cpp.StoppingCriteriaList(criteria),
            )
        except RuntimeError:  # llama_decode aborted by a cancel (engine/abort.py)
            if not should_stop():
                raise
            self._after_abort()
            return "", "cancelled", 0
        choice = output["choices"][0]  # type: ignore[index]  # a dict, as no stream was asked for
        finish: FinishReason = "cancelled" if should_stop() else ("length" if choice["finish_reason"] == "length" else "stop")
        return choice["text"], finish, output["usage"]["completion_tokens"]  # type: ignore[index]

    def _grammar(self, schema: dict[str, Any]):
        from llama_cpp import LlamaGrammar

        key = json.dumps(schema, sort_keys=True)
        if key not in self._grammars:
            try:
                self._grammars[key] = LlamaGrammar.from_json_schema(key, verbose=False)
            except Exception:  # a schema feature the converter lacks: the caller still validates the reply
                log.warning("a JSON schema could not become a grammar; this reply is generated without it", exc_info=True)
                self._grammars[key] = None
        return self._grammars[key]


