"""Android actions: one UI action as a JSON object, e.g. {"action": "tap", "index": 5}.

Also accepted: short text forms (`tap 5`, `tap 540 1200`, `swipe up`, `type "hello"`,
`open_app Settings`, `wait 2`, `back`), the AndroidWorld spelling ("action_type", "click",
"input_text", "navigate_back", "app_name", ...). The canonical form is the JSON object with
"action" first and the other fields in a fixed order.
"""

from __future__ import annotations

import ast
import json

from ..pack import ActionError

EXPECTED_SHAPE = (
    'one UI action as JSON: {"action": "tap", "index": 5} or {"action": "tap", "x": 540, "y": 1200}, '
    '{"action": "long_press", "index": 5}, {"action": "type", "text": "hello", "index": 3 (optional field)}, '
    '{"action": "swipe", "direction": "up"}, {"action": "scroll", "direction": "down"}, '
    '{"action": "back"}, {"action": "home"}, {"action": "enter"}, {"action": "open_app", "app": "Settings"}, '
    '{"action": "wait", "seconds": 2}; short forms such as tap 5, swipe up, type "hello", open_app Settings work too'
)

DIRECTIONS = ("up", "down", "left", "right")

# Names other agent stacks use for the same actions and fields.
_ACTION_ALIASES = {
    "click": "tap",
    "long_click": "long_press",
    "input_text": "type",
    "navigate_back": "back",
    "navigate_home": "home",
    "keyboard_enter": "enter",
}
_FIELD_ALIASES = {"action_type": "action", "app_name": "app"}


def _target_fields(action: dict) -> dict:
    """tap and long_press aim at an element index or at a screen point, never both."""
    if "index" in action and ("x" in action or "y" in action):
        raise ActionError(f"{action['action']} takes an index or x and y, not both; expected {EXPECTED_SHAPE}")
    if "index" in action:
        return {"index": _count(action, "index")}
    if "x" in action and "y" in action:
        return {"x": _count(action, "x"), "y": _count(action, "y")}
    raise ActionError(f"{action['action']} needs an element index or x and y; expected {EXPECTED_SHAPE}")


def _type_fields(action: dict) -> dict:
    text = action.get("text")
    if not isinstance(text, str) or not text:
        raise ActionError(f"type needs a non-empty string 'text'; expected {EXPECTED_SHAPE}")
    return {"text": text, **({"index": _count(action, "index")} if "index" in action else {})}


def _direction_fields(action: dict) -> dict:
    if action.get("direction") not in DIRECTIONS:
        raise ActionError(f"{action['action']} needs a direction of {', '.join(DIRECTIONS)}; expected {EXPECTED_SHAPE}")
    return {"direction": action["direction"], **({"index": _count(action, "index")} if "index" in action else {})}


def _app_fields(action: dict) -> dict:
    app = action.get("app")
    if not isinstance(app, str) or not app.strip():
        raise ActionError(f"open_app needs the app's name in 'app'; expected {EXPECTED_SHAPE}")
    return {"app": app.strip()}


def _wait_fields(action: dict) -> dict:
    seconds = action.get("seconds", 1)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= 60:
        raise ActionError(f"wait needs seconds between 0 and 60; expected {EXPECTED_SHAPE}")
    return {"seconds": seconds}


def _no_fields(action: dict) -> dict:
    return {}


# action -> (fields it may carry, how to check and order them)
ACTIONS = {
    "tap": ({"index", "x", "y"}, _target_fields),
    "long_press": ({"index", "x", "y"}, _target_fields),
    "type": ({"text", "index"}, _type_fields),
    "swipe": ({"direction", "index"}, _direction_fields),
    "scroll": ({"direction", "index"}, _direction_fields),
    "back": (set(), _no_fields),
    "home": (set(), _no_fields),
    "enter": (set(), _no_fields),
    "open_app": ({"app"}, _app_fields),
    "wait": ({"seconds"}, _wait_fields),
}


def normalize_action(action: str) -> str:
    text = action.strip()
    if not text:
        raise ActionError(f"empty Android action; expected {EXPECTED_SHAPE}")
    decoded = _json_object(text) if text.startswith("{") else _short_form(text)
    decoded = {_FIELD_ALIASES.get(key, key): value for key, value in decoded.items()}
    name = decoded.get("action")
    if not isinstance(name, str):
        raise ActionError(f"the action needs a string 'action' naming it; expected {EXPECTED_SHAPE}")
    name = _ACTION_ALIASES.get(name, name)
    if name not in ACTIONS:
        raise ActionError(f"unknown Android action {name!r} (actions: {', '.join(ACTIONS)}); expected {EXPECTED_SHAPE}")
    allowed, check = ACTIONS[name]
    decoded["action"] = name
    unknown = set(decoded) - allowed - {"action"}
    if unknown:
        raise ActionError(f"{name} has unknown fields {sorted(unknown)}; expected {EXPECTED_SHAPE}")
    return json.dumps({"action": name, **check(decoded)}, ensure_ascii=False)


def _json_object(text: str) -> dict:
    try:
        decoded = json.loads(text)
    except json.JSONDecodeError as error:
        raise ActionError(f"the action is not valid JSON ({error.msg}); expected {EXPECTED_SHAPE}") from None
    if not isinstance(decoded, dict):
        raise ActionError(f"the action must be a JSON object; expected {EXPECTED_SHAPE}")
    return decoded


def _short_form(text: str) -> dict:
    """`tap 5`, `tap 540 1200`, `swipe up`, `type "hi"`, `open_app Google Maps`, `wait 2`, `back`."""
    name, _, rest = text.partition(" ")
    name, rest = name.lower(), rest.strip()
    name = _ACTION_ALIASES.get(name, name)
    if name in ("tap", "long_press"):
        numbers = [_short_number(part, name) for part in rest.split()]
        if len(numbers) == 1:
            return {"action": name, "index": numbers[0]}
        if len(numbers) == 2:
            return {"action": name, "x": numbers[0], "y": numbers[1]}
        raise ActionError(f"{name} takes an index or x y; expected {EXPECTED_SHAPE}")
    if name == "type":
        return {"action": name, "text": _unquoted(rest)}
    if name in ("swipe", "scroll"):
        return {"action": name, "direction": rest.lower()}
    if name == "open_app":
        return {"action": name, "app": _unquoted(rest)}
    if name == "wait":
        return {"action": name, **({"seconds": _short_number(rest, name)} if rest else {})}
    if name in ACTIONS and not rest:
        return {"action": name}
    if name in ACTIONS:
        raise ActionError(f"{name} takes nothing after it; expected {EXPECTED_SHAPE}")
    raise ActionError(f"unknown Android action {name!r} (actions: {', '.join(ACTIONS)}); expected {EXPECTED_SHAPE}")


def _short_number(part: str, name: str) -> int | float:
    try:
        return int(part)
    except ValueError:
        pass
    try:
        return float(part)
    except ValueError:
        raise ActionError(f"{name}: {part!r} is not a number; expected {EXPECTED_SHAPE}") from None


def _unquoted(text: str) -> str:
    """A quoted literal ("hi" or 'hi', escapes allowed) is unquoted; bare text is taken as it is."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        try:
            value = ast.literal_eval(text)  # a string literal only; nothing is evaluated
        except (ValueError, SyntaxError):
            return text
        if isinstance(value, str):
            return value
    return text


def _count(action: dict, field: str) -> int:
    value = action.get(field)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ActionError(f"{action['action']}: '{field}' must be a whole number from 0; expected {EXPECTED_SHAPE}")
    return value


def shown_action(normalized: str) -> str:
    """In the short forms the pack reads: `tap 5`, `tap 540 1200`, `type "hello"`, `swipe up`, `back` (with
    `into N` or `on N` where the action names an element)."""
    action = json.loads(normalized)
    name = action["action"]
    if name in ("tap", "long_press"):
        where = [str(action["index"])] if "index" in action else [str(action["x"]), str(action["y"])]
        return " ".join([name, *where])
    if name == "type":
        return f"type {json.dumps(action['text'], ensure_ascii=False)}" + (
            f" into {action['index']}" if "index" in action else "")
    if name in ("swipe", "scroll"):
        return f"{name} {action['direction']}" + (f" on {action['index']}" if "index" in action else "")
    if name == "open_app":
        return f"open_app {action['app']}"
    if name == "wait":
        return f"wait {action['seconds']}"
    return name
