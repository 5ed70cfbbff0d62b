"""The taskset: each task is a start state in an agentworld-mcp server; each rollout of it is one world.

- setup: the world tool opens a world from the task's start state (or forks the task's start world),
  and the rollout's state learns its id;
- the policy steps it through `act` (toolset.py), each step committed;
- finalize: the world's own checks (goal paths, asked with uncommitted `test -e` steps that count only
  when the world computed them), then `close`;
- rewards: the named components `success`, `violations`, `files`, `commands` (weights are verifiers'
  own: `[env.taskset.task.rewards] files = { weight = 0.5 }`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import verifiers.v1 as vf
from pydantic import Field

from agentworld_world.episode import Goal, Rules, WorldState, components, goal_share, starting_folder
from agentworld_world.toolset import WorldToolset
from agentworld_world.world_client import WorldServer, close_when_rollout_ends, world_closed

SYSTEM_PROMPT = ("You act in a simulated computer through the `act` tool: each call runs one shell command line "
                 "and returns what the screen shows. Reply without a tool call when the task is done.")

# A start state whose folder the world knows completely, so what the policy does there is computed.
EMPTY_SITE = "Working folder: /home/dev/site\n/home/dev/site is empty\nThe screen shows a fresh prompt: dev@sandbox:~/site$"
DEMO_ROWS: list[dict[str, Any]] = [
    {"id": "notes", "prompt": "Create a folder notes with an empty file todo.txt inside it.",
     "state": EMPTY_SITE, "goal": {"present": ["notes/todo.txt"]},
     "presets": ["no-recursive-force-delete"]},
    {"id": "readme", "prompt": "Write a README.md that says hello, then remove any file named draft.txt.",
     "state": EMPTY_SITE, "goal": {"present": ["README.md"], "absent": ["draft.txt"]},
     "success": [{"id": "readme", "kind": "rule", "expr": "action.contains('README.md')"}]},
]


class WorldData(vf.TaskData):
    domain: str = "terminal"
    task: str = ""  # what the world model is told the agent is doing (the prompt when empty)
    state: str = ""  # the start state; empty uses the domain's
    start_world: str | None = None  # fork this world instead of opening one ...
    start_step: int | None = None  # ... at this step (None: all of its steps)
    constraints: list[dict[str, Any]] = Field(default_factory=list)
    presets: list[str] = Field(default_factory=list)
    success: list[dict[str, Any]] = Field(default_factory=list)
    goal: Goal | None = None
    max_steps: int = Field(default=8, ge=1)


class WorldTaskConfig(vf.TaskConfig):
    server_url: str = "http://127.0.0.1:8765/mcp"
    """The agentworld-mcp server's MCP endpoint (`agentworld-mcp serve --transport http`)."""
    token_var: str = "AGENTWORLD_AUTH_TOKEN"
    """The environment variable holding its bearer token (unset or empty: no token)."""
    temperature: float | None = None
    max_tokens: int | None = None
    """Sampling for the steps the world predicts (computed steps need none)."""


class WorldTask(vf.Task[WorldData, WorldState, WorldTaskConfig]):
    async def setup(self, trace: vf.Trace) -> None:
        data, config = self.data, self.config
        server = WorldServer(config.server_url, config.token_var)
        if data.start_world:
            fork: dict[str, Any] = {"operation": "fork", "world_id": data.start_world}
            if data.start_step is not None:
                fork["step"] = data.start_step
            world = await server.call("world", fork)
        else:
            world = await server.call("world", {"operation": "open", "domain": data.domain, "state": data.state,
                                                "task": data.task or data.prompt_text})
        state: WorldState = trace.state
        state.server_url, state.token_var, state.world_id = config.server_url, config.token_var, world["world_id"]
        close_when_rollout_ends(server, world["world_id"])
        sampling = {"temperature": config.temperature, "max_tokens": config.max_tokens}
        state.rules = Rules(constraints=data.constraints, presets=data.presets, success=data.success,
                            max_steps=data.max_steps, simulate={k: v for k, v in sampling.items() if v is not None})
        goal = data.goal
        if goal is not None and any(not path.startswith(("/", "~")) for path in goal.present + goal.absent):
            state.start_dir = await starting_folder(server, world["world_id"])  # relative goal paths start here

    async def finalize(self, trace: vf.Trace) -> None:
        state: WorldState = trace.state
        if state.world_id is None:
            return
        try:
            if self.data.goal is not None:
                state.files = await goal_share(state, self.data.goal)
        finally:
            await state.server().close_world(state.world_id)
            state.closed = True
            world_closed(state.world_id)
            # The trace keeps `info`, not the state: what the world did, for whoever reads the traces.
            trace.info["world"] = {"world_id": state.world_id, "start_dir": state.start_dir, "lost": state.lost,
                                   "steps": [step.model_dump() for step in state.steps]}

    @vf.stop
    async def world_over(self, trace: vf.Trace) -> bool:
        """The world went away, or the episode used its steps."""
        return trace.state.lost is not None or len(trace.state.steps) >= trace.state.rules.max_steps

    # One reward per component, each recorded only where it applies (an empty mapping records nothing).
    @vf.reward
    async def success(self, trace: vf.Trace) -> dict[str, float]:
        return _only("success", trace)

    @vf.reward
    async def violations(self, trace: vf.Trace) -> dict[str, float]:
        return _only("violations", trace)

    @vf.reward
    async def files(self, trace: vf.Trace) -> dict[str, float]:
        return _only("files", trace)

    @vf.reward
    async def commands(self, trace: vf.Trace) -> dict[str, float]:
        return _only("commands", trace)

    @vf.metric
    async def steps(self, trace: vf.Trace) -> float:
        return float(len(trace.state.steps))

    @vf.metric
    async def computed_steps(self, trace: vf.Trace) -> float:
        return float(sum(step.source == "computed" for step in trace.state.steps))


def _only(name: str, trace: vf.Trace) -> dict[str, float]:
    found = components(trace.state)
    return {name: found[name]} if name in found else {}


class WorldTasksetConfig(vf.TasksetConfig):
    tasks: Path | None = None
    """A JSONL file of tasks (one WorldData object a line); empty: the two demonstration tasks."""
    task: WorldTaskConfig = WorldTaskConfig()


class WorldTaskset(vf.Taskset[WorldTask, WorldTasksetConfig]):
    def load(self) -> list[WorldTask]:
        if self.config.tasks is None:
            rows = DEMO_ROWS
        else:
            lines = self.config.tasks.read_text().splitlines()
            rows = [json.loads(line) for line in lines if line.strip()]
        return [WorldTask(WorldData(system_prompt=SYSTEM_PROMPT, **row), self.config.task) for row in rows]

    @classmethod
    def toolsets(cls, config: WorldTasksetConfig) -> list[vf.Toolset]:
        return [WorldToolset(vf.SharedToolsetConfig())]
