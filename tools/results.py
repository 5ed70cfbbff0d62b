"""What the tools return: pydantic models, published to clients as each tool's `outputSchema`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Change(BaseModel):
    entity: str = Field(description="What changed: a path, an id, a record, a setting.")
    change: Literal["created", "modified", "deleted"]


class Effects(BaseModel):
    success: bool | None = Field(description="Whether the action succeeded; null when the prediction does not say.")
    error: str | None = Field(default=None, description="The error the environment reports, if any.")
    changed: list[Change] = Field(default_factory=list, description="State the action created, modified or deleted.")
    source: Literal["model", "parser", "none"] = Field(
        description="Who derived these effects: the world model (schema-constrained), the domain's parser, or nobody."
    )


class Usage(BaseModel):
    prompt_tokens: int
    reused_prompt_tokens: int = Field(description="Prompt tokens the model already held from an earlier request.")
    completion_tokens: int
    effects_tokens: int = Field(description="Completion tokens spent deriving `effects` (included in completion_tokens).")
    queue_seconds: float
    generation_seconds: float


class ModelInfo(BaseModel):
    name: str
    file: str
    architecture: str
    quantization: str


class Prediction(BaseModel):
    observation: str = Field(description="The predicted observation, in the environment's own format.")
    effects: Effects
    parse_error: str | None = Field(description="Why the model output could not be parsed; `raw` then holds it.")
    raw: str | None = Field(default=None, description="The model's raw output, when it could not be parsed.")
    reasoning: str | None = Field(default=None, description="The model's reasoning, only when asked for.")
    truncated: bool = Field(description="The model hit max_tokens before finishing the observation.")
    usage: Usage
    model: ModelInfo


class PlanStep(BaseModel):
    step: int = Field(description="1-based position in the plan.")
    action: str = Field(description="The action as sent to the world model (after normalization).")
    prediction: Prediction


class PlanVerdict(BaseModel):
    status: Literal["completed", "stopped"]
    stopped_at: int | None = Field(default=None, description="The step the rollout stopped after, if it stopped.")
    reason: str | None = None


class PlanResult(BaseModel):
    domain: str
    steps: list[PlanStep]
    verdict: PlanVerdict
    usage: Usage = Field(description="Totals over all steps.")
