"""Desktop actions: a Python block driving the screen with pyautogui (and the harness's helpers).

Accepted as raw code or as one ```python fenced block; a block indented as a whole is dedented.
The code is only parsed, never run: a syntax error is reported with its line, and code with no
statements (empty, or comments only) is refused. The canonical form is the bare code.
"""

from __future__ import annotations

import ast

from ..code_blocks import unfenced_code
from ..pack import ActionError

EXPECTED_SHAPE = (
    "a Python block that acts on the desktop with pyautogui, such as pyautogui.click(36, 84) or "
    "pyautogui.hotkey('ctrl', 'l'); raw code or one ```python fenced block; "
    "WAIT, DONE and FAIL on their own are allowed as special actions"
)


def normalize_action(action: str) -> str:
    code = unfenced_code(action)
    if not code:
        raise ActionError(f"empty desktop action; expected {EXPECTED_SHAPE}")
    if code.startswith("```") or code.endswith("```"):
        raise ActionError(f"the code block's fences do not match; expected {EXPECTED_SHAPE}")
    try:
        module = ast.parse(code)
    except SyntaxError as error:
        raise ActionError(
            f"the code does not parse: {error.msg} on line {error.lineno}; expected {EXPECTED_SHAPE}"
        ) from None
    if not module.body:
        raise ActionError(f"the code has no statements (only comments?); expected {EXPECTED_SHAPE}")
    return code
