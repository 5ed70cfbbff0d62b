"""One request model per tool: the single statement of each tool's arguments.

The tool registry (server/tool_registry.py) pairs each with its tool; the MCP signatures, the
Python API and the batch runner are derived from them there, and the tool functions take them. A
field added here appears everywhere; tests/unit/test_request_models.py fails if a front end drifts.

Fields stay flat and typed (no nested models), so the published input schemas have no $ref.
Descriptions here are what holds on every server; what only a running server knows (its
domains, its limits) is added to the published schema by the MCP layer.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

History = Annotated[
    list[dict[str, str]],
    Field(description="Turns already taken, oldest first, each {'action': ..., 'observation': ...}; a turn the "
          "world predicted rather than saw happen may say {'source': 'predicted'}, so its facts are never taken as exact."),
]
Tools = Annotated[
    list[dict[str, Any]] | None,
    Field(
        description="Domain mcp only: the tool definitions of the MCP server to simulate, i.e. the `tools` array "
        "of its tools/list result ({name, description, inputSchema} each)."
    ),
]
Constraints = Annotated[
    list[dict[str, Any]],
    Field(
        description="Rules that must not be broken, each {id, kind, expr | pattern | text, target, phase, severity}. "
        "kind 'rule': expr is a CEL expression that must be true, over action, parsed, observation, effects, step, "
        "domain, history. kind 'pattern': a regex (syntax 'glob' for a glob) that is forbidden in target 'action' "
        "or 'observation'. kind 'judge': text is a plain-language rule the world model decides. phase 'pre' runs "
        "before simulating (no tokens), 'post' on the prediction; severity 'error' (default) or 'warning'."
    ),
]
Presets = Annotated[
    list[str],
    Field(description="Names of the domain's constraint presets to apply (listed in the domains://{name} resource)."),
]


class ToolRequest(BaseModel):
    """A tool call's arguments: unknown names are refused, not dropped."""

    model_config = ConfigDict(extra="forbid")


class SceneRequest(ToolRequest):
    """What simulate_action and dry_run_plan share: where to simulate, the rules, the sampling."""

    domain: str | None = Field(default=None, description="The environment to simulate. Leave it out when world_id is given.")
    history: History = []
    state: str = Field(
        default="", description="The current state/screen if known; empty uses the domain's plausible initial state."
    )
    task: str = Field(default="", description="What the agent is trying to achieve (optional context).")
    from_dir: str = Field(
        default="", description="Start from a real folder: a read-only, bounded, redacted snapshot of it (paths, "
        "sizes, git's view, small text files) is the starting state, so what the world then knows is computed exactly. "
        "The folder must lie inside the client's declared roots, the server's working folder or an --allow-dir "
        "folder. Leave state empty with it.")
    tools: Tools = None
    constraints: Constraints = []
    presets: Presets = []
    stop_on_violation: bool = Field(
        default=True, description="Stop at the first violated constraint of severity error (pre ones before any model call)."
    )
    world_id: str = Field(
        default="",
        description="Simulate inside a world opened with the world tool; it supplies domain, history, state and tools.",
    )
    commit: bool = Field(default=False, description="With world_id: append the predicted step(s) to the world.")
    budget_seconds: float | None = Field(
        default=None,
        ge=1,
        le=3600,
        description="Seconds to wait before handing back a job id instead (hosts cut tool calls at about 60 s). "
        "Poll the job tool for the result.",
    )
    temperature: float | None = Field(default=None, ge=0, le=2, description="Sampling temperature; 0 is greedy.")
    max_tokens: int | None = Field(default=None, ge=1, description="Most tokens to generate per step.")
    seed: int | None = Field(default=None, ge=0, description="Seed for reproducible sampling.")
    thinking_budget: int | None = Field(
        default=None,
        ge=1,
        description="Reasoning models: most tokens to think before the observation (default 3/4 of max_tokens).",
    )
    include_reasoning: bool = Field(default=False, description="Also return the model's reasoning, if it produced any.")


class SimulateRequest(SceneRequest):
    action: str = Field(description="The action as text, in the domain's action format.")


class PlanRequest(SceneRequest):
    steps: list[str] = Field(description="The plan: one action per step, in order, in the domain's action format.")
    stop_on_error: bool = Field(default=False, description="Stop at the first step predicted to fail.")


class CheckRequest(ToolRequest):
    constraints: Constraints = []
    presets: Presets = []
    action: str = Field(default="", description="The action, as for simulate_action.")
    observation: str = Field(default="", description="The outcome to check; empty means not known.")
    effects: dict[str, Any] | None = Field(default=None, description="Structured effects, as simulate_action returns them.")
    history: History = []
    domain: str = Field(
        default="", description="The domain, for its action format and presets; empty matches the action as given."
    )
    cwd: str = Field(default="", description="The absolute folder the action runs in: the workspace that rules call "
                                             "inside. Empty: where the domain's initial state puts the shell.")


WorldOperation = Literal["open", "fork", "rewind", "record", "close", "get"]


class WorldRequest(ToolRequest):
    operation: WorldOperation = Field(description="open | fork | rewind | record | close | get")
    world_id: str = Field(default="", description="The world, for every operation but open.")
    domain: str = Field(default="", description="open: the domain; record: optional check of the world's domain.")
    task: str = Field(default="", description="open: what the agent is trying to achieve.")
    state: str = Field(default="", description="open: the initial state; empty uses the domain's.")
    from_dir: str = Field(
        default="", description="open: start from a real folder: a read-only, bounded, redacted snapshot of it "
        "(paths, sizes, git's view, small text files) is the starting state, so what the world then knows is computed exactly. "
        "The folder must lie inside the client's declared roots, the server's working folder or an --allow-dir "
        "folder. Leave state empty with it.")
    tools: Tools = None
    history: History = []
    step: int | None = Field(default=None, ge=0, description="fork/rewind: the step to keep up to (0: none).")
    action: str = Field(default="", description="record: the action that was really executed.")
    observation: str = Field(default="", description="record: the real observation it produced.")


class JobRequest(ToolRequest):
    job_id: str = Field(description="The job_id a simulate_action or dry_run_plan call returned.")
    wait_seconds: float = Field(default=0.0, ge=0, description="Wait up to this long for the job to finish.")
    cancel: bool = Field(default=False, description="Stop the job.")


GuardFormat = Literal["claude-code", "cursor", "gemini", "plain"]
GuardEvent = Literal["pre", "post"]


class GuardRequest(ToolRequest):
    """A host's hook payload, split into its parts. Hosts substitute objects as JSON text, so every
    argument may be given as a string."""

    event: GuardEvent = Field(description="pre: before the real tool runs; post: after, with its output.")
    tool_name: str = Field(default="", description="The host's tool: Bash, Write, Edit, mcp__server__tool, WebFetch, ...")
    tool_input: dict[str, Any] | str | None = Field(
        default=None, description="The tool's arguments: an object, or its JSON text (as hook substitutions give it).")
    command: str = Field(default="", description="Shorthand for shell tools: the command line (tool_input.command).")
    session_id: str = Field(default="", description="The host session: each has its own world, kept in the store.")
    cwd: str = Field(default="", description="The working folder of the session.")
    tool_response: dict[str, Any] | list[Any] | str | None = Field(
        default=None, description="post: the tool's real output, as an object or text.")
    format: GuardFormat = Field(default="claude-code", description="The host whose decision document to answer with.")
    prechecked: bool = Field(default=False, description="pre: the rules that need no model already ran where the "
                                                        "workspace is (the `hook` command); only the outcome rules are left.")
    undecided: dict[str, str] = Field(
        default={}, description="pre, with prechecked: the rules the `hook` command could not decide from "
        "the call alone (a verb no table reads, code it cannot follow), by id with its reason. The world model's "
        "predicted effects decide them; where it cannot, the call is asked about.")
