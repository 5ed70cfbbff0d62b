"""Every tool, fuzzed from its own published inputSchema through a real MCP client and the real model.

Arguments come from the schema (hypothesis-jsonschema) and from deliberate breakage of it: wrong
types, junk objects, huge and deeply nested values, unicode and control characters, malformed CEL
and patterns. Whatever arrives, a call must end within a bound with a result or one readable error,
and the server must answer the next call. `tests/fuzz_seeds.json` holds the hand-picked cases,
replayed on every run.

CI runs a fixed, bounded set (AGENTWORLD_FUZZ_EXAMPLES per tool, derandomized); set the variable
for a longer, random run: `AGENTWORLD_FUZZ_EXAMPLES=500 pytest tests/integration/test_fuzz_tools.py`.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis_jsonschema import from_schema
from mcp import Client

from agentworld_mcp.tools.limits import Limits
from agentworld_mcp.server.surface.app import create_server
from agentworld_mcp.server.surface.short_errors import LONGEST_ERROR

EXAMPLES = int(os.environ.get("AGENTWORLD_FUZZ_EXAMPLES", "30"))
RANDOM_RUN = "AGENTWORLD_FUZZ_EXAMPLES" in os.environ
CALL_BOUND_SECONDS = 120  # generous for a loaded 2-core machine; a hang is what this catches
SEEDS = json.loads((Path(__file__).parents[1] / "fuzz_seeds.json").read_text())


@pytest.fixture(scope="module")
def fuzz_server(tool_context):
    """The real server on the real model, with small generation bounds so that thousands of calls
    that pass validation stay affordable: 8 tokens a step, plans of at most 3 steps."""
    domains = {
        name: dataclasses.replace(pack, sampling={**pack.sampling, "max_tokens": 8})
        for name, pack in tool_context.domains.items()
    }
    ctx = dataclasses.replace(
        tool_context, domains=domains, limits=Limits(max_tokens=8, max_plan_steps=3), world_locks={}
    )
    return create_server(ctx)


# Tools that answer with a document as text (the guard: the host's decision, which is what hooks read).
_TEXT_REPLIES = {"guard"}


async def _assert_bounded_and_readable(client: Client, tool: str, arguments: Any) -> bool:
    """True for a result, False for an error; fails the test for anything else."""
    with anyio.fail_after(CALL_BOUND_SECONDS):
        result = await client.call_tool(tool, arguments)
    texts = [block.text for block in result.content if getattr(block, "text", None) is not None]
    assert all("Traceback" not in text for text in texts), texts
    if result.is_error:
        assert texts and texts[0].strip(), f"{tool}: an error without a message"
        # the SDK's answer to an exception the server did not expect: a bug, and no use to the agent
        assert texts[0].strip() != f"Error executing tool {tool}", f"{tool} crashed on {arguments!r:.300}"
        assert len(texts[0]) <= LONGEST_ERROR, f"{tool}: a {len(texts[0])}-character error"
    elif tool in _TEXT_REPLIES:
        assert len(texts) == 1 and isinstance(json.loads(texts[0]), dict), result
    else:
        assert isinstance(result.structured_content, dict), result
    # the server still answers
    with anyio.fail_after(CALL_BOUND_SECONDS):
        status = json.loads((await client.read_resource("status://server")).contents[0].text)
    assert status["state"] == "ready"
    return not result.is_error


# --- strategies -----------------------------------------------------------------------------------
_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=40)  # every plane, control characters included
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=20,
)
_HUGE = st.sampled_from(["x" * 300_000, "é" * 70_000, "\x00" * 20_000, "$(" * 40_000, "\n" * 60_000])


def _deep(depth: int) -> Any:
    value: Any = "bottom"
    for level in range(depth):
        value = [value] if level % 2 else {"d": value}
    return value


# The SDK client itself refuses to serialize deeper than about 250 levels.
_DEEP = st.integers(min_value=50, max_value=200).map(_deep)


def _broken(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """A valid argument set with one property replaced by something it must not be."""
    names = sorted(schema.get("properties", {}))
    replacement = _JSON | _HUGE | _DEEP | st.lists(_TEXT, min_size=200, max_size=2_000)
    return st.tuples(from_schema(schema), st.sampled_from(names), replacement).map(
        lambda parts: {**parts[0], parts[1]: parts[2]}
    )


# A schema cannot say "domain or world_id", nor what a constraint object holds; these narrow the
# published schema to calls that can run, so that generated text, states and histories reach the model.
_CONSTRAINT = {
    "anyOf": [
        {"type": "object", "properties": {"id": {"type": "string", "minLength": 1, "maxLength": 100},
                                          "kind": {"const": "pattern"}, "pattern": {"type": "string"},
                                          "syntax": {"enum": ["regex", "glob"]}, "target": {"enum": ["action", "observation"]}},
         "required": ["id", "kind", "pattern"], "additionalProperties": False},
        {"type": "object", "properties": {"id": {"type": "string", "minLength": 1, "maxLength": 100},
                                          "kind": {"const": "rule"},
                                          "expr": {"enum": ["true", "action.size() < 100", "!action.contains('rm ')"]}},
         "required": ["id", "kind", "expr"], "additionalProperties": False},
    ]
}
_FREE_TEXT_DOMAINS = ["search", "terminal"]  # any non-empty text is an action there
_TEXT_ACTION = {"type": "string", "minLength": 1, "maxLength": 200}
_RUNNABLE = {
    "simulate_action": (["domain", "action"], ["task", "state", "history", "temperature", "max_tokens", "seed"]),
    "dry_run_plan": (["domain", "steps"], ["task", "history", "temperature", "stop_on_error", "seed"]),
    "check_constraints": (["constraints"], ["action", "observation", "history"]),
    "world": (["operation", "domain"], ["task", "state", "history"]),
}


def _runnable(tool: str, schema: dict[str, Any], domains: list[str]) -> dict[str, Any] | None:
    if tool not in _RUNNABLE:
        return None
    required, optional = _RUNNABLE[tool]
    properties = {name: schema["properties"][name] for name in required + optional}
    if "action" in required:
        properties.update(domain={"enum": _FREE_TEXT_DOMAINS}, action=_TEXT_ACTION)
    if "steps" in required:
        properties.update(domain={"enum": _FREE_TEXT_DOMAINS}, steps={"type": "array", "items": _TEXT_ACTION, "minItems": 1})
    if tool == "check_constraints":
        properties["constraints"] = {"type": "array", "items": _CONSTRAINT, "minItems": 1, "maxItems": 4}
    if tool == "world":
        properties["operation"] = {"const": "open"}
        properties["domain"] = {"enum": domains}  # the world tool's schema leaves it open for `record`
    return {**schema, "properties": properties, "required": required, "additionalProperties": False}


def _arguments(tool: str, schema: dict[str, Any], domains: list[str]) -> st.SearchStrategy[Any]:
    runnable = _runnable(tool, schema, domains)
    wild = st.one_of(
        from_schema(schema),  # anything the published schema allows
        _broken(schema),
        st.dictionaries(_TEXT, _JSON, max_size=6),  # names the schema never heard of
    )
    # half the calls run, so the model answers generated text, states and histories
    return st.one_of(from_schema(runnable), wild) if runnable else wild


def _fuzz(tool: str, schema: dict[str, Any], domains: list[str], check) -> None:
    """Run on a worker thread: hypothesis drives, each example is a call on the event loop."""

    @settings(
        max_examples=EXAMPLES,
        deadline=None,  # the bound is CALL_BOUND_SECONDS per call, asserted in `check`
        derandomize=not RANDOM_RUN,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )
    @given(_arguments(tool, schema, domains))
    def one_call(arguments):
        anyio.from_thread.run(check, tool, arguments)

    one_call()


# --- tests ----------------------------------------------------------------------------------------
async def test_every_tool_survives_arguments_generated_from_its_schema(fuzz_server):
    async with Client(fuzz_server, mode="legacy") as client:
        tools = (await client.list_tools()).tools
        assert {t.name for t in tools} >= {"simulate_action", "dry_run_plan", "check_constraints", "world", "job"}

        outcomes: Counter[tuple[str, str]] = Counter()

        async def check(tool: str, arguments: Any) -> None:
            answered = await _assert_bounded_and_readable(client, tool, arguments)
            outcomes[tool, "result" if answered else "error"] += 1

        domains = next(t for t in tools if t.name == "simulate_action").input_schema["properties"]["domain"]["enum"]
        for tool in tools:
            await anyio.to_thread.run_sync(_fuzz, tool.name, tool.input_schema, domains, check)
        await _assert_queue_drains(client)
    print("fuzzed calls:", dict(sorted(outcomes.items())))
    # not vacuous: generated calls got past validation to the model, and others were refused
    assert all(outcomes[tool, "result"] for tool in _RUNNABLE)
    assert all(outcomes[tool.name, "error"] for tool in tools)


@pytest.mark.parametrize("seed", SEEDS, ids=[seed["why"] for seed in SEEDS])
async def test_the_seed_corpus_gets_a_result_or_a_readable_error(fuzz_server, seed):
    async with Client(fuzz_server, mode="legacy") as client:
        await _assert_bounded_and_readable(client, seed["tool"], _expand(seed["arguments"]))


async def test_a_huge_input_quoted_in_an_error_is_cut_in_its_middle(fuzz_server):
    async with Client(fuzz_server, mode="legacy") as client:
        result = await client.call_tool("simulate_action", {"domain": "x" * 300_000, "action": "ls"})
    text = result.content[0].text
    assert result.is_error and len(text) <= LONGEST_ERROR and "characters cut" in text
    assert text.startswith("Error executing tool simulate_action: unknown domain 'xxx")
    assert text.endswith("terminal, web")  # the end says what would have been right


async def test_arguments_that_break_the_schema_get_one_line_per_field(fuzz_server):
    async with Client(fuzz_server, mode="legacy") as client:
        result = await client.call_tool("simulate_action", {"domain": "terminal", "temperature": 5, "history": ["ls"]})
    assert result.is_error and result.content[0].text == (
        "Error executing tool simulate_action: invalid arguments: action: Field required; "
        "history.0: Input should be a valid dictionary (got 'ls'); temperature: Input should be less than or equal to 2 (got 5)"
    )


def _expand(value: Any) -> Any:
    """Seeds keep huge values short in the file: {"$repeat": "ab", "times": 1000}."""
    if isinstance(value, dict) and "$repeat" in value:
        return value["$repeat"] * value["times"]
    if isinstance(value, dict) and "$nest" in value:
        return _deep(value["$nest"])
    if isinstance(value, dict):
        return {key: _expand(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_expand(item) for item in value]
    return value


async def _assert_queue_drains(client: Client) -> None:
    """Calls that became jobs finish or fail on their own; nothing is left waiting for the model."""
    with anyio.fail_after(CALL_BOUND_SECONDS * 3):
        while True:
            status = json.loads((await client.read_resource("status://server")).contents[0].text)
            if status["queue_depth"] == 0 and status["running"] == 0:
                return
            await anyio.sleep(0.5)
