"""The model engine: a request queue in front of one backend that owns the model."""

from .engine import Engine, EngineStats
from .types import (
    Backend,
    Completion,
    ContextOverflow,
    DeadlineExpired,
    EngineBusy,
    EngineError,
    GenerationRequest,
    ModelDescription,
    ModelUnavailable,
    Priority,
    Sampling,
)

__all__ = [
    "Backend",
    "Completion",
    "ContextOverflow",
    "DeadlineExpired",
    "Engine",
    "EngineBusy",
    "EngineError",
    "EngineStats",
    "GenerationRequest",
    "ModelDescription",
    "ModelUnavailable",
    "Priority",
    "Sampling",
]
