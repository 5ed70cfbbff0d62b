"""agentworld-mcp: a language world model that predicts what an agent's action will do, served as
MCP tools (`agentworld-mcp`, server/) and usable from Python.

The public surface is what this module exports. Each name loads on first use, so that starting
the MCP server or the guard's hook imports only what it runs:
- `Simulator`: the tools in-process, no MCP (server/api/python_api.py);
- `WorldModelEnv`: a Gymnasium environment over a Simulator (server/api/gym_env.py);
- `WorldModelVectorEnv`: N of its episodes stepped at once (server/api/vector_env.py);
- `trl_environment`: a class for TRL's GRPOTrainer(environment_factory=...) (server/api/trl_env.py);
- `AgentWorldError` and its kinds `InputError`, `ConfigurationError`, `EngineError`: every
  anticipated failure, each with a one-line message that says what to do (engine/errors.py).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_HOMES = {
    "Simulator": "server.api.python_api",
    "WorldModelEnv": "server.api.gym_env",
    "WorldModelVectorEnv": "server.api.vector_env",
    "trl_environment": "server.api.trl_env",
    "AgentWorldError": "engine.errors",
    "InputError": "engine.errors",
    "ConfigurationError": "engine.errors",
    "EngineError": "engine.errors",
}
__all__ = ["AgentWorldError", "ConfigurationError", "EngineError", "InputError", "Simulator", "WorldModelEnv",
           "WorldModelVectorEnv", "__version__", "trl_environment"]

if TYPE_CHECKING:
    from .engine.errors import AgentWorldError, ConfigurationError, EngineError, InputError
    from .server.api.gym_env import WorldModelEnv
    from .server.api.python_api import Simulator
    from .server.api.trl_env import trl_environment
    from .server.api.vector_env import WorldModelVectorEnv

    __version__: str


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import version

        return version("agentworld-mcp")
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value
    return value
