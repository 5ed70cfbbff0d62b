"""The front ends: the MCP surface, the command line, the Python API and the environments, and what they
share (the tool registry, settings, the runtime). For Python use without MCP: `Simulator` (the tools
in-process) and `WorldModelEnv` (a Gymnasium-style environment over it).

Both load on first access, so that starting the MCP server imports neither (nor gymnasium).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api.gym_env import WorldModelEnv
    from .api.python_api import Simulator

__all__ = ["Simulator", "WorldModelEnv"]


def __getattr__(name: str) -> Any:
    if name == "Simulator":
        from .api.python_api import Simulator

        return Simulator
    if name == "WorldModelEnv":
        from .api.gym_env import WorldModelEnv

        return WorldModelEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
