"""One request model per tool, and every way in takes exactly its fields: the MCP schemas, the
Python API, the Gym env, batch and the one-shot CLI. Adding a field to a model and not to a front
end (or the other way round) fails here. No model is loaded: the engine runs a scripted backend."""

from __future__ import annotations

import argparse
import inspect
import json

import pytest
from agentworld_mcp.domains import builtin_domains
from agentworld_mcp.engine import Engine
from agentworld_mcp.engine.fake import FakeBackend
from agentworld_mcp.server import Simulator, WorldModelEnv
from agentworld_mcp.server.api.batch import Rejected, Request, read_requests
from agentworld_mcp.server.api.gym_env import EPISODE_FIELDS, NOT_IN_AN_EPISODE
from agentworld_mcp.server.api.python_api import InputError, parse_arguments
from agentworld_mcp.server.cli.main import parser
from agentworld_mcp.server.cli.one_shot import FLAG_FIELDS, NO_FLAG
from agentworld_mcp.server.surface.app import create_server
from agentworld_mcp.server.tool_registry import BY_NAME
from agentworld_mcp.tools.context import ToolContext
from agentworld_mcp.tools.requests import PlanRequest, SimulateRequest
from mcp import Client

REQUESTS = {name: tool.request for name, tool in BY_NAME.items()}

# The fields each request needs to validate; everything else has a default.
REQUIRED = {
    "simulate_action": {"action": "ls"},
    "dry_run_plan": {"steps": ["ls"]},
    "check_constraints": {},
    "world": {"operation": "get"},
    "job": {"job_id": "job_x"},
    "guard": {"event": "pre"},
}


def _every_field(tool: str) -> dict:
    """Each field of the tool's request at its default (or a usable value when it has none)."""
    model = REQUESTS[tool]
    values = {name: field.get_default(call_default_factory=True) for name, field in model.model_fields.items()
              if not field.is_required()}
    return {**values, **REQUIRED[tool]}


@pytest.fixture(scope="module")
async def published():
    ctx = ToolContext(engine=Engine(FakeBackend()), domains=builtin_domains())  # never started: lists only
    async with Client(create_server(ctx)) as client:
        return {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}


def test_every_tool_has_a_request_model(published):
    assert set(published) == set(REQUESTS)


async def test_every_front_end_offers_every_tool_of_the_registry():
    from agentworld_mcp.server.api.python_api import TOOL_NAMES

    ctx = ToolContext(engine=Engine(FakeBackend()), domains=builtin_domains())
    async with Client(create_server(ctx)) as client:
        listed = (await client.list_tools()).tools
    assert [tool.name for tool in listed] == list(BY_NAME)  # MCP, in the registry's order
    for tool in listed:  # a structured reply publishes its result model; the guard's host document does not
        entry = BY_NAME[tool.name]
        assert (tool.output_schema is not None) == entry.structured
        assert tool.annotations.read_only_hint == entry.hints.read_only
    assert TOOL_NAMES == tuple(BY_NAME)  # the Python API, batch and the CLI's batch command
    assert all(type(parse_arguments(name, _every_field(name))) is BY_NAME[name].request for name in BY_NAME)


@pytest.mark.parametrize("tool", sorted(REQUESTS))
def test_the_published_schema_is_the_request_model(published, tool):
    schema, model = published[tool], REQUESTS[tool]
    assert "$ref" not in json.dumps(schema) and "$defs" not in schema  # flat: hosts mishandle references
    assert set(schema["properties"]) == set(model.model_fields)
    assert set(schema.get("required", [])) == {n for n, f in model.model_fields.items() if f.is_required()}
    own = model.model_json_schema()["properties"]
    for name, field in model.model_fields.items():
        shown = schema["properties"][name]
        assert shown.get("default") == own[name].get("default"), name
        for bound in ("minimum", "maximum", "enum", "type", "anyOf"):
            if bound in own[name]:
                assert shown[bound] == own[name][bound], (name, bound)
        assert shown.get("description"), f"{tool}.{name} has no description"


async def test_the_server_adds_its_domains_and_limits(published):
    domain = published["simulate_action"]["properties"]["domain"]
    assert domain["enum"] == sorted(builtin_domains()) and "terminal (" in domain["description"]
    assert "at most 100 turns" in published["dry_run_plan"]["properties"]["history"]["description"]
    assert "enum" not in published["check_constraints"]["properties"]["domain"]


@pytest.mark.parametrize("tool", sorted(REQUESTS))
def test_the_python_api_and_batch_take_every_field(tool):
    arguments = _every_field(tool)
    assert type(parse_arguments(tool, arguments)) is REQUESTS[tool]
    [entry] = read_requests([json.dumps({"id": 1, "tool": tool, "arguments": arguments})])
    assert isinstance(entry, Request) and type(entry.arguments) is REQUESTS[tool]
    with pytest.raises(InputError, match="bogus"):
        parse_arguments(tool, {**arguments, "bogus": 1})
    [rejected] = read_requests([json.dumps({"id": 1, "tool": tool, "arguments": {**arguments, "bogus": 1}})])
    assert isinstance(rejected, Rejected) and "bogus" in rejected.error


SIMULATOR_METHODS = {"simulate": "simulate_action", "plan": "dry_run_plan", "check": "check_constraints", "world": "world"}


@pytest.mark.parametrize("method, tool", sorted(SIMULATOR_METHODS.items()))
def test_the_simulator_methods_name_only_request_fields(method, tool):
    """Named parameters are fields; the rest arrive as **options and are checked by the model."""
    for variant in (method, f"{method}_sync"):
        parameters = inspect.signature(getattr(Simulator, variant)).parameters
        named = {n for n, p in parameters.items() if n not in ("self", "on_progress") and p.kind is not p.VAR_KEYWORD}
        assert named <= set(REQUESTS[tool].model_fields), variant
        assert any(p.kind is p.VAR_KEYWORD for p in parameters.values()), variant


def test_a_bad_simulator_option_fails_before_any_model_loads():
    simulator = Simulator()
    with pytest.raises(InputError, match="thinking_budgett"):
        simulator.simulate_sync("terminal", "ls", thinking_budgett=8)
    assert simulator._ctx is None  # nothing was built, nothing loaded


def test_the_env_takes_every_simulate_field_it_does_not_own():
    fields = set(SimulateRequest.model_fields)
    assert set(EPISODE_FIELDS) | set(NOT_IN_AN_EPISODE) <= fields
    options = {n: v for n, v in _every_field("simulate_action").items() if n not in (*EPISODE_FIELDS, *NOT_IN_AN_EPISODE)}
    assert {"thinking_budget", "seed", "tools", "constraints"} <= set(options)
    WorldModelEnv(Simulator(), "terminal", **options)  # checked at construction, nothing loads
    for name in NOT_IN_AN_EPISODE:
        with pytest.raises(ValueError, match=name):
            WorldModelEnv(Simulator(), "terminal", **{name: _every_field("simulate_action")[name] or "x"})


def _subcommand(name: str) -> argparse.ArgumentParser:
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices[name]


def _dests(parser: argparse.ArgumentParser) -> set[str]:
    return {action.dest for action in parser._actions}


@pytest.mark.parametrize(
    "command, model, positional",
    [("simulate", SimulateRequest, {"action"}), ("plan", PlanRequest, {"steps"})],  # plan: steps come in the file
)
def test_each_cli_flag_sets_a_field_and_each_field_has_a_flag_or_a_reason(command, model, positional):
    dests = _dests(_subcommand(command))
    flagged = set(FLAG_FIELDS) | {"domain"} | ({"stop_on_error"} if command == "plan" else set())
    assert flagged <= dests
    assert flagged | set(NO_FLAG) | positional == set(model.model_fields)
    assert not flagged & set(NO_FLAG)
