"""One rollout's world: what the taskset keeps about it, and how each of its steps is taken and scored.

The state travels between the rollout (setup, finalize, rewards) and the shared tool server (`act`)
through verifiers' state channel, so it holds only plain data.
"""

from __future__ import annotations

import shlex
from typing import Any

import verifiers.v1 as vf
from pydantic import BaseModel, ConfigDict, Field, model_validator

from agentworld_world.world_client import ServerUnreachable, WorldError, WorldLost, WorldServer


class Goal(BaseModel):
    """Paths the world should (not) hold at the end: relative to the starting folder, absolute, or ~/..."""

    model_config = ConfigDict(extra="forbid")

    present: list[str] = Field(default_factory=list)
    absent: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _names_a_path(self) -> Goal:
        if not self.present and not self.absent:
            raise ValueError("goal names no path; give the goal as {'present': [paths], 'absent': [paths]}")
        return self


class Rules(BaseModel):
    """What the world checks at every step: the task's constraints and presets, and its success rules."""

    constraints: list[dict[str, Any]] = Field(default_factory=list)
    presets: list[str] = Field(default_factory=list)
    success: list[dict[str, Any]] = Field(default_factory=list)
    max_steps: int = Field(default=8, ge=1)
    simulate: dict[str, Any] = Field(default_factory=dict)  # sampling for predicted steps (temperature, max_tokens)


class StepRecord(BaseModel):
    action: str
    success: bool | None  # the world's effects.success (None: the world does not say)
    source: str  # computed, command, model, parser, none, or `refused` for an action the world refused
    violated: list[str] = Field(default_factory=list)
    succeeded: bool | None = None  # the success rules held at this step (None: no success rules)


class WorldState(vf.State):
    server_url: str = ""
    token_var: str = "AGENTWORLD_AUTH_TOKEN"
    world_id: str | None = None
    start_dir: str | None = None  # the starting folder, as the world computed it (`pwd`)
    rules: Rules = Field(default_factory=Rules)
    steps: list[StepRecord] = Field(default_factory=list)
    lost: str | None = None  # why the world went away mid-episode (the server's words)
    closed: bool = False
    files: float | None = None  # share of goal paths the world confirmed, measured before closing

    @property
    def over(self) -> bool:
        return self.lost is not None or self.closed or len(self.steps) >= self.rules.max_steps

    def server(self) -> WorldServer:
        return WorldServer(self.server_url, self.token_var)


async def take_step(state: WorldState, action: str) -> str:
    """Commit one action to the world; the observation the policy sees."""
    if state.world_id is None:
        return "error: this rollout has no world"
    if state.lost is not None:
        return f"error: the world is lost: {state.lost}"
    if state.over:
        return f"error: the episode is over after {len(state.steps)} steps"
    rules = state.rules
    arguments = {"world_id": state.world_id, "action": action, "commit": True, "constraints": rules.constraints,
                 "presets": rules.presets, **rules.simulate}
    server = state.server()
    try:
        prediction = await server.call("simulate_action", arguments)
    except WorldLost as exc:
        state.lost = str(exc)
        return f"error: the world is lost: {exc}"
    except ServerUnreachable:
        raise  # not the policy's doing: the tool call fails and verifiers records the error
    except WorldError as exc:  # the server refused this action (malformed, too long): the policy pays, the episode goes on
        state.steps.append(StepRecord(action=action, success=False, source="refused"))
        return f"error: {exc}"
    report = prediction.get("constraints") or {}
    violated = [result["id"] for result in report.get("results", []) if result["status"] == "violated"]
    effects = prediction["effects"]
    blocked = prediction.get("blocked")
    succeeded = None
    if rules.success:
        succeeded = blocked is None and await _success_holds(server, rules, action, prediction)
    state.steps.append(StepRecord(action=action, success=False if blocked else effects.get("success"),
                                  source=effects.get("source", "none"), violated=violated, succeeded=succeeded))
    return f"blocked: {blocked}" if blocked else prediction["observation"]


async def _success_holds(server: WorldServer, rules: Rules, action: str, prediction: dict[str, Any]) -> bool:
    checked = await server.call("check_constraints", {
        "constraints": rules.success, "action": action, "observation": prediction["observation"],
        "effects": prediction["effects"]})
    return all(result["status"] == "holds" for result in checked["results"])


async def starting_folder(server: WorldServer, world_id: str) -> str | None:
    """The folder the episode starts in, when the world computes it (an uncommitted `pwd`)."""
    probe = await server.call("simulate_action", {"world_id": world_id, "action": "pwd", "max_tokens": 16})
    if probe["effects"].get("source") != "computed" or probe["effects"].get("exit_code") != 0:
        return None
    lines = probe["observation"].splitlines()
    # The screen echoes the command, then its output: the line after the last `pwd`.
    after = [lines[i + 1] for i, line in enumerate(lines[:-1]) if line.rstrip().endswith("pwd")]
    return after[-1].strip() if after and after[-1].startswith("/") else None


async def goal_share(state: WorldState, goal: Goal) -> float:
    """Share of the goal's paths whose state the world COMPUTED as wanted (an uncommitted `test -e`);
    a path the world can only predict, or a world that is gone, confirms nothing."""
    wanted = [(path, True) for path in goal.present] + [(path, False) for path in goal.absent]
    if state.world_id is None or state.lost is not None:
        return 0.0
    server = state.server()
    confirmed = 0
    for path, present in wanted:
        where = path if path.startswith(("/", "~")) or state.start_dir is None else f"{state.start_dir}/{path}"
        probe = await server.call("simulate_action", {"world_id": state.world_id, "action": f"test -e {_quoted(where)}",
                                                      "max_tokens": 16})
        effects = probe["effects"]
        if effects.get("source") == "computed" and effects.get("exit_code") in (0, 1):
            confirmed += (effects["exit_code"] == 0) == present
    return confirmed / len(wanted)


def _quoted(path: str) -> str:
    # ~ expands only unquoted, so keep it outside the quotes.
    if path.startswith("~/"):
        return "~/" + shlex.quote(path[2:])
    return shlex.quote(path)


def components(state: WorldState) -> dict[str, float]:
    """The named reward components that apply, from the world's own checks: the names and rules of the
    project's shared core (server/api/world_rewards.py), which this package cannot import."""
    found: dict[str, float] = {}
    rules = state.rules
    if rules.success:
        found["success"] = 1.0 if state.steps and state.steps[-1].succeeded else 0.0
    if rules.success or rules.constraints or rules.presets:
        found["violations"] = 0.0 - sum(len(step.violated) for step in state.steps)
    if state.files is not None:
        found["files"] = state.files
    steps = state.steps
    found["commands"] = sum(step.success is True for step in steps) / len(steps) if steps else 0.0
    return found
