"""The model engine: a request queue in front of one backend that owns the model.

Its names load on first use. Every layer imports the error family (engine/errors.py), the guard's
hook among them, and the hook must not pay for the queue's asyncio machinery it never runs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_HOMES = {
    "Engine": "engine", "EngineStats": "engine",
    "AgentWorldError": "errors", "ConfigurationError": "errors", "EngineError": "errors", "InputError": "errors",
    "validation_line": "errors",
    "Backend": "types", "Completion": "types", "ContextOverflow": "types", "DeadlineExpired": "types",
    "EngineBusy": "types", "GenerationRequest": "types", "ModelDescription": "types", "ModelUnavailable": "types",
    "Priority": "types", "Sampling": "types",
}
__all__ = [
    "AgentWorldError", "Backend", "Completion", "ConfigurationError", "ContextOverflow", "DeadlineExpired", "Engine",
    "EngineBusy", "EngineError", "EngineStats", "GenerationRequest", "InputError", "ModelDescription",
    "ModelUnavailable", "Priority", "Sampling", "validation_line",
]

if TYPE_CHECKING:
    from .engine import Engine, EngineStats
    from .errors import (
        AgentWorldError,
        ConfigurationError,
        EngineError,
        InputError,
        validation_line,
    )
    from .types import (
        Backend,
        Completion,
        ContextOverflow,
        DeadlineExpired,
        EngineBusy,
        GenerationRequest,
        ModelDescription,
        ModelUnavailable,
        Priority,
        Sampling,
    )


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value
    return value
