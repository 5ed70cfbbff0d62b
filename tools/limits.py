"""The operator's bounds on what one tool call may send.

Plain values with no behaviour: server/settings.py produces them from flags and environment, the
tools read them from their ToolContext and state them in the tool descriptions.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Bounds on what one call may send; stated in the tool descriptions."""

    max_action_chars: int = 16_000
    max_history_turns: int = 100
    max_history_chars: int = 200_000
    max_state_chars: int = 50_000
    max_plan_steps: int = 50
    max_tokens: int = 32_768


@dataclass(frozen=True)
class SnapshotBounds:
    """Bounds on reading a real folder into a world's state (tools/worlds/folder_snapshot.py)."""

    max_paths: int = 5000
    max_file_bytes: int = 256 * 1024
    max_total_bytes: int = 32 * 1024 * 1024
    max_seconds: float = 2.0  # the guard snapshots within its hook's budget
