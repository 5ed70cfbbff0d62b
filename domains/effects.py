"""Effects derived without the model: a failed action shows one of the domain's error phrases."""

from __future__ import annotations

from collections.abc import Sequence


def first_error_line(observation: str, markers: Sequence[str]) -> str | None:
    """The first line of the observation that carries one of the markers (case-insensitive)."""
    lowered_markers = [marker.lower() for marker in markers]
    for line in observation.splitlines():
        lowered = line.lower()
        if any(marker in lowered for marker in lowered_markers):
            return line.strip()
    return None
