"""The taskset's defaults beside verifiers' own machinery: the harness its rollouts get unless one is
named, and `load_environment(**kwargs)` for driving it from Python."""

from __future__ import annotations

from typing import Any

import verifiers.v1 as vf
from verifiers.v1.harnesses.null import NullHarness


class WorldHarness(NullHarness):
    """verifiers' tool-only chat loop (the `null` harness): the policy gets `act` and nothing else, so
    it cannot run commands on the evaluating machine (the default `bash` harness would). Exported so
    `vf-eval agentworld_world` picks it without `--env.agent.harness.id null`."""


def load_environment(agent: dict[str, Any] | None = None, **taskset: Any) -> vf.Env:
    """This taskset's verifiers environment. Keywords are `--env.taskset.*` settings, e.g.
    `load_environment(task={"server_url": "http://127.0.0.1:8765/mcp"})`; `agent` the `--env.agent.*`
    ones. The agent runs as a local subprocess unless `agent` says otherwise (verifiers' default is a
    Prime sandbox): it needs no isolation, as its only tool is the world's `act`."""
    agent = {"runtime": {"type": "subprocess"}, **(agent or {})}
    config = vf.resolve_env_config({"taskset": {"id": "agentworld_world", **taskset}, "agent": agent})
    return vf.load_environment(config)
