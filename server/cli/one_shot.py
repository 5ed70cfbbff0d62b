"""What `simulate` and `plan` share: the flags that set a request's fields, and one call run to its end."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any, TextIO

from ...engine.errors import AgentWorldError, validation_line
from .prepared import Prepared
from .scripted import CommandError, engine_for, read_json


def request_flags() -> argparse.ArgumentParser:
    """The simulated world and sampling flags, a parent of `simulate` and `plan`."""
    one_shot = argparse.ArgumentParser(add_help=False)
    flags = one_shot.add_argument_group("the simulated world and sampling")
    # Each flag's dest is the request field it sets (tools/requests.py); None means not given.
    flags.add_argument("--history-file", dest="history", type=Path, metavar="FILE",
                       help="a JSON list of earlier {action, observation} turns")
    flags.add_argument("--state", help="the current state or screen (default: the domain's initial state)")
    flags.add_argument("--task", help="what the agent is trying to achieve")
    flags.add_argument("--from-dir", metavar="PATH",
                       help="start from a real folder: a read-only, bounded, redacted snapshot of it is the state "
                            "(inside the working folder or an --allow-dir folder)")
    flags.add_argument("--tools-file", dest="tools", type=Path, metavar="FILE",
                       help="domain mcp: a JSON file with the simulated server's tools/list tools")
    flags.add_argument("--constraints-file", dest="constraints", type=Path, metavar="FILE",
                       help="a JSON list of constraints, as the tools take them")
    flags.add_argument("--preset", dest="presets", action="append", metavar="NAME",
                       help="a constraint preset of the domain (repeatable)")
    flags.add_argument("--no-stop-on-violation", dest="stop_on_violation", action="store_false", default=None,
                       help="simulate even when an error-severity constraint is violated")
    flags.add_argument("--world-id", help="simulate inside a stored world (it supplies domain, history, state, tools)")
    flags.add_argument("--commit", action="store_true", default=None, help="with --world-id: append the prediction")
    flags.add_argument("--temperature", type=float, help="sampling temperature; 0 is greedy")
    flags.add_argument("--max-tokens", type=int, help="most tokens to generate per step")
    flags.add_argument("--seed", type=int, help="seed for reproducible sampling")
    flags.add_argument("--include-reasoning", action="store_true", default=None,
                       help="also return the model's reasoning (with --json)")
    one_shot.add_argument("--json", action="store_true", help="print the result as JSON")
    return one_shot


# The request fields the one-shot flags set (each flag's dest), and those with no flag and why;
# tests/unit/test_request_models.py checks that together they cover every field of the requests.
FLAG_FIELDS = ("history", "state", "task", "from_dir",
               "tools", "constraints", "presets", "stop_on_violation", "world_id",
               "commit", "temperature", "max_tokens", "seed", "include_reasoning")
NO_FLAG = {
    "budget_seconds": "a command runs each call to the end; there are no jobs to poll",
    "thinking_budget": "the model flag --thinking-budget sets it for every call of the command",
}
_JSON_FILES = {"history", "tools", "constraints"}


def flag_arguments(args: argparse.Namespace, tool: str) -> dict[str, Any]:
    """The request fields given as flags, JSON files read and each checked against its field of `tool`'s
    request, so that a file of the wrong shape is named in the one line that says so."""
    from pydantic import TypeAdapter, ValidationError

    from ..tool_registry import BY_NAME

    given = {}
    for name in FLAG_FIELDS:
        value = getattr(args, name)
        if value is None:
            continue
        given[name] = read_json(value, name) if name in _JSON_FILES else value
        annotation = BY_NAME[tool].request.model_fields[name].annotation
        if name in _JSON_FILES and annotation is not None:
            try:
                TypeAdapter(annotation).validate_python(given[name])
            except ValidationError as exc:
                raise CommandError(f"{name} file {value}: {validation_line(exc, 'the file', most=1)}") from None
    return given


def call_once(tool: str, arguments: dict[str, Any], prepared: Prepared, as_json: bool, stdout: TextIO) -> int:
    """Check `arguments` for `tool`, run it in this process, and write its result (a summary, or JSON)."""
    from ..api.python_api import call_tool, parse_arguments
    from ..tool_registry import BY_NAME

    try:
        checked = parse_arguments(tool, arguments)
    except AgentWorldError as exc:  # the request (flags and files) has the wrong shape: unusable, like a bad file
        raise CommandError(str(exc), status=2) from None
    with engine_for(prepared, worlds=bool(getattr(checked, "world_id", None))) as context:

        async def call():
            return await call_tool(await context(), checked)

        try:
            result = asyncio.run(call())
        except AgentWorldError as exc:
            raise CommandError(str(exc), status=1) from None
    if as_json:
        stdout.write(result.model_dump_json(indent=2) + "\n")
    else:
        stdout.write(BY_NAME[tool].summary(checked, result) + "\n")
    return 0
