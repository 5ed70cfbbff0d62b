"""Actions written as code (web's BrowserGym calls, os's pyautogui blocks) arrive bare or fenced."""

from __future__ import annotations

import re
import textwrap

_WHOLE_FENCE = re.compile(r"^```[\w+-]*[ \t]*\n(.*?)\n?```$", re.DOTALL)


def unfenced_code(action: str) -> str:
    """The code of one ```-fenced block, or the text itself; dedented, then stripped.

    Dedent before stripping: stripping first would unindent only the first line.
    """
    fenced = _WHOLE_FENCE.match(action.strip())
    return textwrap.dedent(fenced.group(1) if fenced else action).strip()
