"""Web actions: BrowserGym's high-level action set, written as Python calls, e.g. click('a51').

Several calls may be given, one per line; they run in order. Each call is read with `ast` and
its arguments with `ast.literal_eval`, so nothing is ever evaluated. The canonical form writes
required arguments by position and optional ones by keyword, values as Python literals, one call
per line. An element id given as a number (click(51)) becomes the string '51'.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TypeGuard
from dataclasses import dataclass

from ..code_blocks import unfenced_code
from ..pack import ActionError

EXPECTED_SHAPE = (
    "one or more BrowserGym actions, one per line, written as Python calls with literal arguments, "
    "such as click('a51'), fill('b12', 'hello'), select_option('c3', 'Blue'), scroll(0, 300), "
    "goto('https://example.com'), go_back(), tab_focus(1) or send_msg_to_user('done')"
)


@dataclass(frozen=True)
class Signature:
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()


# The action names and parameters of BrowserGym's HighLevelActionSet (bid, coord, nav, tab, chat
# and infeas subsets, plus noop).
ACTIONS: dict[str, Signature] = {
    "noop": Signature((), ("wait_ms",)),
    "send_msg_to_user": Signature(("text",)),
    "report_infeasible": Signature(("reason",)),
    "scroll": Signature(("delta_x", "delta_y")),
    "fill": Signature(("bid", "value")),
    "select_option": Signature(("bid", "options")),
    "click": Signature(("bid",), ("button", "modifiers")),
    "dblclick": Signature(("bid",), ("button", "modifiers")),
    "hover": Signature(("bid",)),
    "press": Signature(("bid", "key_comb")),
    "focus": Signature(("bid",)),
    "clear": Signature(("bid",)),
    "drag_and_drop": Signature(("from_bid", "to_bid")),
    "upload_file": Signature(("bid", "file")),
    "go_back": Signature(()),
    "go_forward": Signature(()),
    "goto": Signature(("url",)),
    "new_tab": Signature(()),
    "tab_close": Signature(()),
    "tab_focus": Signature(("index",)),
    "mouse_move": Signature(("x", "y")),
    "mouse_up": Signature(("x", "y"), ("button",)),
    "mouse_down": Signature(("x", "y"), ("button",)),
    "mouse_click": Signature(("x", "y"), ("button",)),
    "mouse_dblclick": Signature(("x", "y"), ("button",)),
    "mouse_drag_and_drop": Signature(("from_x", "from_y", "to_x", "to_y")),
    "mouse_upload_file": Signature(("x", "y", "file")),
    "keyboard_down": Signature(("key",)),
    "keyboard_up": Signature(("key",)),
    "keyboard_press": Signature(("key",)),
    "keyboard_type": Signature(("text",)),
    "keyboard_insert_text": Signature(("text",)),
}

BUTTONS = ("left", "middle", "right")
MODIFIERS = ("Alt", "Control", "ControlOrMeta", "Meta", "Shift")


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_string(value: object) -> bool:
    return isinstance(value, str)


def _is_strings(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(item, str) for item in value))


# parameter -> (check, description); parameters with one name mean one thing in every action.
_PARAMETERS: dict[str, tuple[Callable[[object], bool], str]] = {
    "bid": (lambda value: isinstance(value, str) and bool(value), "an element id string such as 'a51'"),
    "from_bid": (lambda value: isinstance(value, str) and bool(value), "an element id string"),
    "to_bid": (lambda value: isinstance(value, str) and bool(value), "an element id string"),
    "value": (_is_string, "a string"),
    "text": (_is_string, "a string"),
    "reason": (_is_string, "a string"),
    "key": (lambda value: isinstance(value, str) and bool(value), "a key name such as 'Enter' or 'Control+a'"),
    "key_comb": (lambda value: isinstance(value, str) and bool(value), "a key name such as 'Enter' or 'Control+a'"),
    "url": (lambda value: isinstance(value, str) and bool(value.strip()), "a URL string"),
    "options": (_is_strings, "an option label or value, or a list of them"),
    "file": (_is_strings, "a file path or a list of file paths"),
    "button": (lambda value: value in BUTTONS, f"one of {BUTTONS}"),
    "modifiers": (
        lambda value: isinstance(value, list) and all(item in MODIFIERS for item in value),
        f"a list drawn from {MODIFIERS}",
    ),
    "index": (lambda value: isinstance(value, int) and not isinstance(value, bool) and value >= 0, "a tab index from 0"),
    "wait_ms": (lambda value: _is_number(value) and value >= 0, "milliseconds, 0 or more"),
}
_NUMBER_PARAMETERS = ("delta_x", "delta_y", "x", "y", "from_x", "from_y", "to_x", "to_y")
_ELEMENT_PARAMETERS = ("bid", "from_bid", "to_bid")


def normalize_action(action: str) -> str:
    text = unfenced_code(action)
    if not text:
        raise ActionError(f"empty web action; expected {EXPECTED_SHAPE}")
    try:
        module = ast.parse(text, mode="exec")
    except SyntaxError as error:
        raise ActionError(f"the action does not parse ({error.msg}, line {error.lineno}); expected {EXPECTED_SHAPE}") from None
    if not module.body:
        raise ActionError(f"the action has no calls; expected {EXPECTED_SHAPE}")
    # Each statement must be one bare call: the same thing ast.parse(line, mode="eval") accepts as a Call.
    return "\n".join(_canonical_call(statement) for statement in module.body)


def _canonical_call(statement: ast.stmt) -> str:
    line = f"line {statement.lineno}"
    if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
        raise ActionError(f"{line} is not an action call; expected {EXPECTED_SHAPE}")
    call = statement.value
    if not isinstance(call.func, ast.Name):
        raise ActionError(f"{line} calls {ast.unparse(call.func)}, not a plain action name; expected {EXPECTED_SHAPE}")
    name = call.func.id
    if name not in ACTIONS:
        raise ActionError(
            f"unknown web action {name!r} on {line}; valid actions: {', '.join(ACTIONS)}; expected {EXPECTED_SHAPE}"
        )
    signature = ACTIONS[name]
    arguments = _bind(name, signature, call, line)
    positional = [repr(arguments[parameter]) for parameter in signature.required]
    keywords = [f"{parameter}={arguments[parameter]!r}" for parameter in signature.optional if parameter in arguments]
    return f"{name}({', '.join(positional + keywords)})"


def _bind(name: str, signature: Signature, call: ast.Call, line: str) -> dict[str, object]:
    parameters = signature.required + signature.optional
    usage = f"{name}({', '.join(signature.required + tuple(f'{p}=...' for p in signature.optional))})"
    if len(call.args) > len(parameters):
        raise ActionError(f"{name} takes at most {len(parameters)} arguments, got {len(call.args)} on {line}: {usage}; expected {EXPECTED_SHAPE}")
    arguments: dict[str, object] = {}
    for parameter, node in zip(parameters, call.args):
        arguments[parameter] = _literal(node, name, line)
    for keyword in call.keywords:
        if keyword.arg is None or keyword.arg not in parameters:
            raise ActionError(f"{name} has no argument {keyword.arg!r} on {line}: {usage}; expected {EXPECTED_SHAPE}")
        if keyword.arg in arguments:
            raise ActionError(f"{name} got {keyword.arg!r} twice on {line}: {usage}; expected {EXPECTED_SHAPE}")
        arguments[keyword.arg] = _literal(keyword.value, name, line)
    missing = [parameter for parameter in signature.required if parameter not in arguments]
    if missing:
        raise ActionError(f"{name} is missing {missing} on {line}: {usage}; expected {EXPECTED_SHAPE}")
    for parameter, value in arguments.items():
        arguments[parameter] = _checked_value(name, parameter, value, line)
    return arguments


def _literal(node: ast.expr, name: str, line: str) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        raise ActionError(
            f"{name} on {line} has an argument that is not a literal ({ast.unparse(node)}); expected {EXPECTED_SHAPE}"
        ) from None


def _checked_value(name: str, parameter: str, value: object, line: str) -> object:
    if parameter in _ELEMENT_PARAMETERS and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # click(51) means the element whose bid is "51"
    if isinstance(value, tuple):
        value = list(value)
    accepts: Callable[[object], bool]
    if parameter in _NUMBER_PARAMETERS:
        accepts, description = _is_number, "a number"
    else:
        accepts, description = _PARAMETERS[parameter]
    if not accepts(value):
        raise ActionError(f"{name} on {line}: {parameter} must be {description}, got {value!r}; expected {EXPECTED_SHAPE}")
    return value
