"""Judge-free scores of one predicted observation against the real one: no model, deterministic."""

from __future__ import annotations

from dataclasses import dataclass

from ...domains import DomainPack
from ...domains.effects import first_error_line
from ...tools.data.similarity import normalized, similarity

# Domains whose observations say plainly whether the action worked (an error line, an exit status).
OUTCOME_DOMAINS = ("terminal", "swe")


@dataclass(frozen=True)
class Scores:
    similarity: float  # 0..1, normalized edit similarity after whitespace normalization
    exact: bool  # equal after whitespace normalization
    outcome_agrees: bool | None  # success/failure read the same from both; None outside OUTCOME_DOMAINS


def score(predicted: str, truth: str, pack: DomainPack) -> Scores:
    ours, real = normalized(predicted), normalized(truth)
    agrees = None
    if pack.name in OUTCOME_DOMAINS:
        agrees = (first_error_line(predicted, pack.error_markers) is None) == (first_error_line(truth, pack.error_markers) is None)
    return Scores(similarity(predicted, truth), ours == real, agrees)
