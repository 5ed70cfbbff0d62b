"""What every tool needs: the engine, the loaded domains, the input limits and the prompt policy."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from mcp.server.mcpserver.exceptions import ToolError

from ..domains import DomainPack
from ..engine import Engine, ModelDescription
from ..store import Store

if TYPE_CHECKING:
    from .jobs import Jobs

EffectsMode = Literal["model", "parser", "off"]
DemonstrationsMode = Literal["auto", "on", "off"]


@dataclass(frozen=True)
class Limits:
    """Bounds on what one call may send; stated in the tool descriptions."""

    max_action_chars: int = 16_000
    max_history_turns: int = 100
    max_history_chars: int = 200_000
    max_state_chars: int = 50_000
    max_plan_steps: int = 50
    max_tokens: int = 32_768


@dataclass
class ToolContext:
    engine: Engine
    domains: dict[str, DomainPack]
    limits: Limits = field(default_factory=Limits)
    effects: EffectsMode = "model"
    demonstrations: DemonstrationsMode = "auto"
    queue_timeout: float | None = 300.0  # seconds a request may wait for the model before it is dropped
    thinking_budget: int | None = None  # None: three quarters of each call's max_tokens
    store: Store | None = None  # worlds and jobs; None runs without persistence
    budget_seconds: float = 50.0  # a call running longer hands back a job (hosts cut calls at ~60 s)
    world_locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    jobs: Jobs | None = None

    def domain(self, name: str) -> DomainPack:
        pack = self.domains.get(name)
        if pack is None:
            raise ToolError(f"unknown domain {name!r}; known domains: {', '.join(sorted(self.domains))}")
        return pack

    def use_demonstrations(self, model: ModelDescription) -> bool:
        """A trained world model already knows the protocol; ordinary instruct models are shown it."""
        if self.demonstrations != "auto":
            return self.demonstrations == "on"
        return not is_world_model(model)


def is_world_model(model: ModelDescription) -> bool:
    return "agentworld" in f"{model.name} {model.file}".lower().replace("-", "").replace("_", "")
