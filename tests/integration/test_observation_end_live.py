"""Observations end where the environment's output ends, on the real model through the real server.

These check invariants that hold for any model: a terminal screen shows no command the agent did
not type; no observation holds the protocol's next turn; text cut off is reported, not lost.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from mcp import Client

from agentworld_mcp.domains import builtin_domains
from agentworld_mcp.domains.boundaries import NEXT_TURN_MARKERS
from agentworld_mcp.domains.terminal.actions import action_text
from agentworld_mcp.server.surface.app import create_server
from .test_domains_live import _arguments

PLAN = ["mkdir -p notes", "echo 'buy milk' > notes/todo.txt", "cat notes/todo.txt", "rm notes/missing.txt"]
PROMPT_LINE = re.compile(r"^[\w.-]+@[\w.-]+:[^\n$#]*[$#](?: (?P<typed>.*))?$")
MAX_TOKENS = 160


async def test_a_terminal_plan_shows_only_commands_the_agent_typed(tool_context):
    # Every step the model's: these are invariants of where a predicted screen ends.
    async with Client(create_server(dataclasses.replace(tool_context, computed=False)), mode="legacy") as client:
        result = await client.call_tool(
            "dry_run_plan", {"domain": "terminal", "steps": PLAN, "temperature": 0, "max_tokens": MAX_TOKENS}
        )
    assert not result.is_error, result.content
    typed_so_far: set[str] = {""}
    for step in result.structured_content["steps"]:
        prediction, usage = step["prediction"], step["prediction"]["usage"]
        typed_so_far.add(action_text(step["action"]).strip())
        typed = [m.group("typed") or "" for line in prediction["observation"].splitlines() if (m := PROMPT_LINE.match(line))]
        assert {" ".join(t.split()) for t in typed} <= typed_so_far, prediction["observation"]
        if usage["stopped_at"] is not None:
            assert usage["completion_tokens"] - usage["effects_tokens"] < MAX_TOKENS
            assert not prediction["truncated"]
        if usage["stopped_at"] == "shell-prompt":
            last = prediction["observation"].splitlines()[-1]
            assert PROMPT_LINE.match(last) and not (PROMPT_LINE.match(last).group("typed") or "").strip(), last
        if prediction["raw"] is not None and prediction["parse_error"] is None:
            assert usage["stopped_at"] is not None  # raw beside a parsed observation: something was cut


@pytest.mark.parametrize("domain", sorted(builtin_domains()))
async def test_no_observation_holds_the_next_turn(mcp_server, domain):
    pack = builtin_domains()[domain]
    async with Client(mcp_server, mode="legacy") as client:
        result = await client.call_tool("simulate_action", {**_arguments(domain, pack.action_example), "max_tokens": 96})
    assert not result.is_error, result.content
    prediction = result.structured_content
    assert not any(marker in prediction["observation"] for marker in NEXT_TURN_MARKERS), prediction["observation"]
    usage = prediction["usage"]
    if usage["stopped_at"] is not None:  # stopped by a rule, not by running out of tokens
        assert usage["completion_tokens"] - usage["effects_tokens"] < 96 and not prediction["truncated"]
