"""The one family of errors: every failure the project anticipates is an AgentWorldError whose
message is one line that says what to do. Every layer may import this module; it imports nothing
of the project's.

- InputError: what a caller sent (arguments, an action, a rule, a file of cases) cannot be used;
- ConfigurationError: how the server was set up (flags, model file, store, a pack, a policy);
- EngineError: the model could not answer (busy, expired, unloaded, too long a prompt, a model server).

The MCP surface turns them into the SDK's ToolError at its edge (server/surface/signatures.py); the CLI
prints them as one line and exits 2; the Python API raises them as they are.
"""

from __future__ import annotations

from pydantic import ValidationError


class AgentWorldError(Exception):
    """Base: anticipated, and its message is for the caller to act on."""


class InputError(AgentWorldError, ValueError):
    """What the caller sent cannot be used; the message names the field and what is expected."""


class ConfigurationError(AgentWorldError):
    """The server's setup is wrong or incomplete; the message names the flag or file to fix."""


class EngineError(AgentWorldError):
    """The model could not answer this request; the message says whether and how to retry."""


def validation_line(exc: ValidationError, whole: str = "arguments", most: int = 3) -> str:
    """A pydantic report as one line: `where: problem` for the first `most` problems. `whole`
    names the place for a problem of the whole value (no location)."""
    problems = [f"{'.'.join(str(part) for part in error['loc']) or whole}: {error['msg'].removeprefix('Value error, ')}"
                for error in exc.errors()]
    more = f" (and {len(problems) - most} more)" if len(problems) > most else ""
    return "; ".join(problems[:most]) + more
