"""What the tools return: pydantic models, published to clients as each tool's `outputSchema`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, PrivateAttr

from ..domains import Turn
from ..domains.boundaries import StopReason
from .constraints import ConstraintReport, ConstraintResult


class Change(BaseModel):
    entity: str = Field(description="What changed: a path, an id, a record, a setting.")
    change: Literal["created", "modified", "deleted"] = Field(description="Whether `entity` was created, modified "
                                                               "or deleted.")
    kind: str | None = Field(default=None, description="From a command's semantics, the precise change: created, "
                             "appended, modified, overwritten, truncated, deleted, permissions, moved-from, moved-to.")
    tree: bool | None = Field(default=None, description="The change covers the whole directory tree at `entity`.")
    pattern: bool | None = Field(default=None, description="`entity` is a glob: the change is on what it matches.")


class Effects(BaseModel):
    success: bool | None = Field(description="Whether the action succeeded; null when the prediction does not say.")
    error: str | None = Field(default=None, description="The error the environment reports, if any.")
    changed: list[Change] = Field(default_factory=list, description="State the action created, modified or deleted.")
    source: Literal["computed", "command", "model", "parser", "none"] = Field(
        description="Who derived the step: `computed` (the world's virtual shell ran the line on what the world "
        "knows: screen, exit status and changes are exact, no model was asked), the action itself (its shell "
        "semantics: `success` and `error` still come from the predicted screen), the world model "
        "(schema-constrained), the domain's parser, or nobody."
    )
    exit_code: int | None = Field(default=None, description="The command line's exit status, where it is known "
                                  "exactly (computed steps).")
    other: list[str] = Field(default_factory=list, description="From the command: git work it loses, network "
                             "transfers and privilege (e.g. 'git-discard: /repo', 'upload: /x (host)').")
    opaque: list[str] = Field(default_factory=list, description="Parts of the command whose effects its text does "
                              "not tell (interpreter code, a variable from the environment, an unknown program).")


class Usage(BaseModel):
    prompt_tokens: int = Field(description="Tokens of the prompt the model read (reused ones included).")
    reused_prompt_tokens: int = Field(description="Prompt tokens the model already held from an earlier request.")
    completion_tokens: int = Field(description="Tokens the model wrote: reasoning, observation and effects.")
    effects_tokens: int = Field(description="Completion tokens spent deriving `effects` (included in completion_tokens).")
    queue_seconds: float = Field(description="Seconds the request waited in the model's queue.")
    generation_seconds: float = Field(description="Seconds the model spent reading the prompt and writing.")
    seconds: float = Field(
        default=0.0,
        description="Wall-clock seconds of the tool's work (or the step's) at the server: checks, queue, model, parsing; 0 while it runs as a job.",
    )
    cached: bool = Field(default=False, description="Answered from the result cache (identical greedy request).")
    retrieved_steps: int = Field(default=0, description="Real steps of this environment shown to the model as "
                                 "examples (from the store's train sessions).")
    retrieved_chars: int = Field(default=0, description="Characters those examples added to the prompt (capped).")
    reasoning_tokens: int = Field(default=0, description="Completion tokens spent thinking (inside the `<think>` block).")
    thinking_cut: bool = Field(default=False, description="The thinking budget closed the think block early.")
    reasked: bool = Field(default=False, description="The model was asked once more: its first reply contradicted "
                          "the world's known files (asked again with them as a hint), or a result under the tool's "
                          "output schema ran out of room (asked again with twice as much). All replies' tokens count.")
    stopped_at: StopReason | None = Field(
        default=None,
        description="What ended the observation before the model did: the domain's closing structure (a new shell "
        "prompt, the closing tag, the end of a JSON value, an exit status), the protocol's next turn, or a loop "
        "(repetition). Whatever was generated past that point is in `raw`. Null: the model ended it, or max_tokens.",
    )

    @classmethod
    def nothing(cls) -> Usage:
        return cls(
            prompt_tokens=0, reused_prompt_tokens=0, completion_tokens=0, effects_tokens=0,
            queue_seconds=0.0, generation_seconds=0.0,
        )


class ModelInfo(BaseModel):
    name: str = Field(description="The model's name, from its GGUF metadata or the model server.")
    file: str = Field(description="The GGUF file, or the served model's name on a model server.")
    architecture: str = Field(description="The model's architecture (`qwen2`, `qwen35moe`, ...).")
    quantization: str = Field(description="How the weights are stored (`Q4_K_M`, ...).")


class Prediction(BaseModel):
    job_id: str | None = Field(
        default=None, description="Set when the call outlived its budget: poll the job tool with it for the result."
    )
    blocked: str | None = Field(
        default=None, description="Why the action was not simulated: a pre constraint forbids it. Zero tokens spent."
    )
    observation: str = Field(description="The predicted observation, in the environment's own format.")
    effects: Effects = Field(description="What the action did, as structured data: success, error, changes.")
    parse_error: str | None = Field(description="Why the model output could not be parsed; `raw` then holds it.")
    raw: str | None = Field(
        default=None,
        description="The model's whole output, when it could not be parsed or ran on past the observation's end "
        "(usage.stopped_at says where).",
    )
    reasoning: str | None = Field(default=None, description="The model's reasoning, only when asked for.")
    truncated: bool = Field(description="The model hit max_tokens before finishing the observation.")
    usage: Usage = Field(description="Tokens and seconds this prediction took.")
    model: ModelInfo | None = Field(description="The model that predicted; null when nothing was simulated.")
    constraints: ConstraintReport | None = Field(default=None, description="Results of the constraints given, if any.")
    committed: bool | None = Field(
        default=None, description="For a call that asked to commit to a world: whether the world kept this step "
        "(false: `warnings` says why). Null when nothing was to be committed.")
    warnings: list[str] = Field(
        default_factory=list, description="Contradictions with the world's earlier steps (a deleted entity seen again)."
    )
    # The model's verbatim reply less its reasoning, kept out of the result: later steps show it as history.
    _reply: str | None = PrivateAttr(default=None)
    # The known-state block its prompt showed: the turn renders the same way when it is history.
    _note: str = PrivateAttr(default="")
    # The real steps its prompt showed as examples: the turn renders the same way when it is history.
    _examples: str = PrivateAttr(default="")
    # A computed step's outcome in the virtual shell: the world's tracker moves on by it.
    _outcome: Any = PrivateAttr(default=None)
    # The model's own answer to the effects question, before a command's semantics replace `changed`: what the guard
    # reads for a part of the command that the semantics cannot tell (tools/guard/unknown_judged.py).
    _model_effects: Effects | None = PrivateAttr(default=None)

    def history_turn(self, action: str) -> Turn:
        """This step as history for the next one."""
        return Turn(action, self.observation, self._reply if self.parse_error is None else None, self._note,
                    self._examples)

    @classmethod
    def pending(cls, job_id: str) -> Prediction:
        return cls(
            job_id=job_id, observation="", effects=Effects(success=None, source="none"), parse_error=None,
            truncated=False, usage=Usage.nothing(), model=None,
        )


class PlanStep(BaseModel):
    step: int = Field(description="1-based position in the plan.")
    action: str = Field(description="The action as sent to the world model (after normalization).")
    prediction: Prediction = Field(description="The step's prediction, as `simulate_action` returns it.")
    violations: list[ConstraintResult] = Field(
        default_factory=list, description="Constraints this step violated (or could not be evaluated on)."
    )


class PlanVerdict(BaseModel):
    status: Literal["completed", "stopped", "running"] = Field(
        description="running: the plan outlived the call budget; `job_id` fetches the rest."
    )
    stopped_at: int | None = Field(
        default=None, description="The step the rollout stopped at: after it was predicted, or before any model call "
        "when a pre constraint forbids it."
    )
    reason: str | None = Field(default=None, description="Why the rollout stopped; null when it completed.")
    violated: bool = Field(default=False, description="True when any constraint of severity error is violated.")
    violations: list[ConstraintResult] = Field(
        default_factory=list, description="Every violation (and evaluation error), each with its step in `evidence`."
    )


class PlanResult(BaseModel):
    job_id: str | None = Field(default=None, description="Set when the plan outlived its budget: poll the job tool.")
    domain: str = Field(description="The domain the plan was rolled forward in.")
    steps: list[PlanStep] = Field(description="Each step predicted, in order (up to the one the rollout stopped at).")
    verdict: PlanVerdict = Field(description="How the rollout ended, with every violation.")
    usage: Usage = Field(description="Totals over all steps.")


class WorldStep(BaseModel):
    step: int = Field(description="1-based position in the world's history.")
    action: str = Field(description="The action in the domain's encoding, as stored and replayed.")
    action_text: str = Field(default="", description="The same action as its author wrote it, for people: "
                                                     "`mkdir site` for a terminal step.")
    observation: str = Field(description="What the world continues from: the real observation once recorded.")
    source: Literal["predicted", "real"] = Field(description="`predicted` by the world (model or computed), or "
                                                  "`real`: recorded from reality.")
    predicted: str | None = Field(default=None, description="For a recorded step: what had been predicted for it.")
    similarity: float | None = Field(default=None, description="Predicted vs real, 0..1 (1: identical).")


class Drift(BaseModel):
    compared_steps: int = Field(description="Steps with both a prediction and a recorded reality.")
    mean_similarity: float | None = Field(description="Mean similarity of predictions to reality; null before any.")


class RecordResult(BaseModel):
    step: int = Field(description="The step reality was recorded for (1-based).")
    anchored: bool = Field(description="True when reality replaced a prediction for this step (drift measured).")
    similarity: float | None = Field(default=None, description="Predicted vs real, 0..1 (1: identical); null "
                                     "when nothing had been predicted for the step.")
    diff: str | None = Field(default=None, description="A short unified diff, predicted -> real.")
    dropped_steps: int = Field(
        default=0, description="Predicted steps dropped because the real action differed from the predicted one."
    )


class WorldView(BaseModel):
    world_id: str = Field(description="The world's id: give it to `simulate_action`, `dry_run_plan` and `world`.")
    domain: str = Field(description="The domain the world simulates.")
    task: str = Field(description="The task the world was opened with (the agent's goal, shown to the model).")
    closed: bool = Field(description="True once the world is closed: it takes no more steps.")
    parent_id: str | None = Field(default=None, description="For a fork: the world it was forked from.")
    forked_at: int | None = Field(default=None, description="For a fork: how many of the parent's steps it "
                                   "copied; it continues after them.")
    steps: list[WorldStep] = Field(description="The world's history, oldest first.")
    drift: Drift = Field(description="How far predictions have been from recorded reality.")
    recorded: RecordResult | None = Field(default=None, description="After `record`: what recording reality did.")
    warnings: list[str] = Field(default_factory=list, description="open from_dir: the bounds the snapshot met "
                                "(what past them is unknown to the world).")


class JobStatus(BaseModel):
    job_id: str = Field(description="The job's id, as the call that outlived its budget returned it.")
    tool: str = Field(description="The tool whose call the job runs (`dry_run_plan`, `simulate_action`, ...).")
    status: Literal["running", "completed", "failed", "cancelled", "interrupted"] = Field(
        description="`running`, then `completed`, `failed`, `cancelled`, or `interrupted` (the process running it "
        "stopped; `partial` holds what was done).")
    progress: dict | None = Field(default=None, description="Steps done so far (`done`, `total`) and a message.")
    partial: dict | None = Field(default=None, description="The result so far, while running or when interrupted.")
    result: dict | None = Field(default=None, description="The final result: the tool's own result object.")
    error: str | None = Field(default=None, description="Why the job failed or was interrupted; null "
                               "otherwise.")
