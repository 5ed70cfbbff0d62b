"""What a model server's failures mean to the agent that called a tool, and what fixes them."""

from __future__ import annotations

import json

from ..types import ContextOverflow, EngineError


class ModelServerError(EngineError):
    """The model server failed or refused a request; the message says what to do about it.
    `retry`: the trouble may pass (the server is loading, overloaded or restarting)."""

    def __init__(self, message: str, retry: bool = False):
        super().__init__(message)
        self.retry = retry


class ModelServerUnreachable(ModelServerError):
    """Nothing answers at the URL (not started, wrong host or port, gone)."""

    def __init__(self, message: str):
        super().__init__(message, retry=True)


RETRIED_STATUSES = frozenset({429, 500, 502, 503, 504})  # passing trouble: loading, overloaded, restarting


def error_message(body: bytes) -> tuple[str, dict]:
    """The server's own words from an error body ({"error": {"message": ...}} in every server
    we know), and the error object itself for the figures some add."""
    try:
        document = json.loads(body)
    except ValueError:
        return body.decode("utf-8", errors="replace").strip()[:300], {}
    error = document.get("error", document) if isinstance(document, dict) else {}
    if isinstance(error, str):
        return error, {}
    if not isinstance(error, dict):
        return str(document)[:300], {}
    return str(error.get("message") or error.get("detail") or document)[:300], error


def status_error(url: str, status: int, body: bytes, served_model: str) -> EngineError:
    """One actionable error for an HTTP error status from the chat completions route."""
    message, error = error_message(body)
    lowered = message.lower()
    if status in (401, 403):
        return ModelServerError(
            f"the model server at {url} refused the request (HTTP {status}: {message}); "
            "give the key it expects with --api-key or AGENTWORLD_API_KEY"
        )
    if "context" in lowered and any(word in lowered for word in ("exceed", "too long", "maximum", "longer than")):
        prompt, n_ctx = error.get("n_prompt_tokens"), error.get("n_ctx")
        if isinstance(prompt, int) and isinstance(n_ctx, int):
            return ContextOverflow(prompt, n_ctx, fix="start the model server with a larger context (-c, --max-model-len)")
        return ModelServerError(
            f"the prompt is longer than the model server's context ({message}); send fewer history turns or a "
            "shorter state, or start the model server with a larger context (-c, --max-model-len)"
        )
    if status == 404 and "model" in lowered:
        return ModelServerError(
            f"the model server at {url} does not serve {served_model!r} ({message}); "
            "pass --served-model with a name from its /v1/models"
        )
    if status == 404:
        return ModelServerError(
            f"no OpenAI-compatible API at {url} (HTTP 404); --base-url should be the server's /v1 root, "
            "e.g. http://127.0.0.1:8080/v1"
        )
    if status in RETRIED_STATUSES:
        return ModelServerError(f"the model server at {url} failed (HTTP {status}: {message})", retry=True)
    return ModelServerError(f"the model server at {url} rejected the request (HTTP {status}: {message})")
