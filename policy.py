"""The operator's policy for tool calls: input limits and how predictions are made.

Plain values with no behaviour: server/settings.py produces them from flags and environment,
the tools read them from their ToolContext. Neither package owns them, so neither imports the
other to reach them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EffectsMode = Literal["model", "parser", "off"]
DemonstrationsMode = Literal["auto", "on", "off"]
# A prediction that contradicts the world's known files (cat of a deleted file succeeds): left alone,
# warned about, or re-asked once and then corrected.
StateCheckMode = Literal["off", "warn", "correct"]
# A tool with an output schema: its result is generated under the schema, or freely and then only checked.
StructuredResultsMode = Literal["constrained", "free"]


@dataclass(frozen=True)
class Limits:
    """Bounds on what one call may send; stated in the tool descriptions."""

    max_action_chars: int = 16_000
    max_history_turns: int = 100
    max_history_chars: int = 200_000
    max_state_chars: int = 50_000
    max_plan_steps: int = 50
    max_tokens: int = 32_768
