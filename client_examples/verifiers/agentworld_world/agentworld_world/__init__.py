"""One agentworld-mcp world per rollout, as a verifiers 0.4 taskset (`vf-eval agentworld_world`).

verifiers finds a taskset by its package name and the `Taskset` subclass this package exports in
`__all__`; `load_environment(**kwargs)` builds the same environment from Python.
"""

from agentworld_world.environment import WorldHarness, load_environment
from agentworld_world.taskset import WorldTaskset

__all__ = ["WorldHarness", "WorldTaskset", "load_environment"]
