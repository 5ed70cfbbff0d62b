"""How predictions are made; the operator picks each with a flag (server/settings.py). Kept apart from
tools/context.py so that the settings (which the guard's hook reads before every tool call) import no engine."""

from __future__ import annotations

from typing import Literal

EffectsMode = Literal["model", "parser", "off"]
DemonstrationsMode = Literal["auto", "on", "off"]
# A prediction that contradicts the world's known files (cat of a deleted file succeeds): left alone,
# warned about, or re-asked once and then corrected.
StateCheckMode = Literal["off", "warn", "correct"]
# A tool with an output schema: its result is generated under the schema, or freely and then only checked.
StructuredResultsMode = Literal["constrained", "free"]
