"""Terminal actions: a JSON list of tmux-style keystroke batches, or a plain command line.

A plain command line is the convenient form; it becomes `[{"keystrokes": "<line>\\n", "duration": 1}]`.
Text that parses as JSON must have the keystroke shape; text that only looks like JSON (a shell
test such as `[ -f x ] && ...`) is a command line.
"""

from __future__ import annotations

import json
import re

from ..pack import ActionError
from ..shell import Location, PathState, Semantics, analyze
from ..shell.world.screen import computed_screen  # noqa: F401  (the pack reads it from here)

_TMUX_KEY = re.compile(r"(C-|M-|S-)\S+|Enter|Escape|Tab|BSpace|Up|Down|Left|Right|PageUp|PageDown|Home|End|F\d+")

EXPECTED_SHAPE = (
    'a command line such as "ls -la", or a JSON list of keystroke batches such as '
    '[{"keystrokes": "ls -la\\n", "duration": 1}] (tmux key names like C-c are allowed; duration in seconds)'
)


def normalize_action(action: str) -> str:
    text = action.strip()
    if not text:
        raise ActionError(f"empty terminal action; expected {EXPECTED_SHAPE}")
    try:
        decoded = json.loads(text) if text[0] in "[{" else None
    except json.JSONDecodeError:
        decoded = None
    if decoded is None:
        batches = [{"keystrokes": text + "\n", "duration": 1}]
    else:
        batches = _keystroke_batches(decoded)
    return json.dumps(batches, ensure_ascii=False)


def action_text(normalized: str) -> str:
    """What the user types, as one string: the form constraint patterns match on."""
    return "".join(batch["keystrokes"] for batch in json.loads(normalized))


def shown_action(normalized: str) -> str:
    """What was typed, without the Enter that ends it: `mkdir site`."""
    typed = action_text(normalized)
    return typed[:-1] if typed.endswith("\n") else typed


def _keystroke_batches(decoded: object) -> list[dict]:
    items = [decoded] if isinstance(decoded, dict) else decoded
    if not isinstance(items, list) or not items:
        raise ActionError(f"a terminal action in JSON must be a non-empty list; expected {EXPECTED_SHAPE}")
    batches = []
    for index, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("keystrokes"), str):
            raise ActionError(f"keystroke batch {index} has no string 'keystrokes'; expected {EXPECTED_SHAPE}")
        unknown = set(item) - {"keystrokes", "duration"}
        if unknown:
            raise ActionError(f"keystroke batch {index} has unknown fields {sorted(unknown)}; expected {EXPECTED_SHAPE}")
        duration = item.get("duration", 1)
        if isinstance(duration, bool) or not isinstance(duration, (int, float)) or not 0 <= duration <= 600:
            raise ActionError(f"keystroke batch {index} needs a duration between 0 and 600 seconds; expected {EXPECTED_SHAPE}")
        batches.append({"keystrokes": item["keystrokes"], "duration": duration})
    return batches


def semantics(normalized: str, location: Location, state: PathState | None) -> Semantics | None:
    """What the typed line does: the keystrokes up to Enter, read as bash (tmux key names are not a command)."""
    typed = action_text(normalized)
    if not typed.strip() or _TMUX_KEY.fullmatch(typed.strip()):
        return None
    return analyze(typed.rstrip("\n"), location.cwd, location.home, location.root, state)


def shell_line(normalized: str) -> str | None:
    """The command the action types and enters, for the virtual shell: one line, or lines bash reads as one
    command (a here-document; the virtual shell's gate decides); None for anything else (keys, several batches,
    a line left unfinished)."""
    batches = json.loads(normalized)
    typed = "".join(batch["keystrokes"] for batch in batches)
    if len(batches) != 1 or not typed.endswith("\n") or _TMUX_KEY.fullmatch(typed.strip()):
        return None
    return typed[:-1] if typed[:-1].strip() else None
