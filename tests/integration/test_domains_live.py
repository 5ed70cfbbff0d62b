"""Every domain through the real server and model; user packs, upstream prompts and discovery."""

from __future__ import annotations

import json
import subprocess

import pytest
from agentworld_mcp.domains import PackError, builtin_domains, load_domains
from agentworld_mcp.domains.protocol import system_prompt
from agentworld_mcp.server.surface.app import create_server
from agentworld_mcp.tools.context import ToolContext
from mcp import Client
from mcp.types import PromptReference, ResourceTemplateReference

QUICK = {"temperature": 0, "max_tokens": 24}
ISSUE_TRACKER_TOOLS = [
    {
        "name": "list_issues",
        "description": "List the issues of a repository.",
        "inputSchema": {
            "type": "object",
            "properties": {"repo": {"type": "string"}, "state": {"enum": ["open", "closed", "all"]}},
            "required": ["repo"],
        },
    },
    {"name": "close_issue", "description": "Close one issue.", "inputSchema": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}},
]
MALFORMED = {
    "terminal": '[{"keystrokes": 5}]',
    "mcp": '{"name": "list_issues", "arguments": [1]}',
    "search": 'web_extractor {"url": "not a url"}',
    "swe": 'read_file {"path": ""}',
    "android": '{"action": "teleport"}',
    "web": "click(",
    "os": "pyautogui.click(10,",
}


def _arguments(domain: str, action: str) -> dict:
    arguments = {"domain": domain, "action": action, **QUICK}
    if domain == "mcp":
        arguments["tools"] = ISSUE_TRACKER_TOOLS
    return arguments


@pytest.mark.parametrize("domain", sorted(builtin_domains()))
async def test_every_domain_simulates_end_to_end(mcp_server, domain):
    pack = builtin_domains()[domain]
    async with Client(mcp_server, mode="legacy") as client:
        result = await client.call_tool("simulate_action", _arguments(domain, pack.action_example))
    assert not result.is_error, result.content
    prediction = result.structured_content
    if prediction["parse_error"] is None:
        assert prediction["observation"].strip()
    else:
        assert prediction["raw"] is not None
    assert prediction["usage"]["prompt_tokens"] > 0


@pytest.mark.parametrize("domain", sorted(MALFORMED))
async def test_invalid_actions_are_rejected_before_the_model_runs(mcp_server, tool_context, domain):
    before = tool_context.engine.stats()
    async with Client(mcp_server, mode="legacy") as client:
        result = await client.call_tool("simulate_action", _arguments(domain, MALFORMED[domain]))
    assert result.is_error and "expected" in result.content[0].text
    after = tool_context.engine.stats()
    assert (after.completed, after.prompt_tokens) == (before.completed, before.prompt_tokens)


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"action": '{"name": "delete_repo", "arguments": {}}'}, "no tool 'delete_repo'; its tools: list_issues, close_issue"),
        ({"action": '{"name": "close_issue", "arguments": {"id": "seven"}}'}, "break its input schema at id"),
        ({"action": '{"name": "list_issues", "arguments": {"repo": "a/b"}}', "tools": None}, "needs its tool definitions"),
        ({"action": '{"name": "x", "arguments": {}}', "tools": [{"description": "no name"}]}, "tools[0] has no name"),
    ],
)
async def test_mcp_calls_are_checked_against_the_simulated_tools(mcp_server, arguments, message):
    call = {**_arguments("mcp", ""), **arguments}
    call = {key: value for key, value in call.items() if value is not None}
    async with Client(mcp_server, mode="legacy") as client:
        result = await client.call_tool("simulate_action", call)
    assert result.is_error and message in result.content[0].text


async def test_tools_are_refused_for_a_domain_that_does_not_take_them(mcp_server):
    async with Client(mcp_server, mode="legacy") as client:
        result = await client.call_tool("simulate_action", {"domain": "terminal", "action": "ls", "tools": ISSUE_TRACKER_TOOLS})
    assert result.is_error and "not 'terminal'" in result.content[0].text


def test_tool_schemas_are_read_by_their_own_draft_and_output_schemas_reach_the_model():
    from agentworld_mcp.tools.tool_definitions import parse_tool_definitions

    # Draft-07 tuple `items` is not a 2020-12 schema: read by 2020-12 this tool would be refused.
    tuple_schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]}},
        "required": ["point"],
    }
    output = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    tools = parse_tool_definitions([{"name": "plot", "inputSchema": tuple_schema, "outputSchema": output}], 10_000)
    assert tools.call_problem("plot", {"point": [1, 2]}) is None
    assert "at point/0" in tools.call_problem("plot", {"point": ["x", 2]})
    assert '"outputSchema"' in tools.prompt_text()


def test_tool_definitions_fill_their_place_in_the_mcp_instructions():
    from agentworld_mcp.tools.tool_definitions import parse_tool_definitions

    pack = builtin_domains()["mcp"]
    tools = parse_tool_definitions({"tools": ISSUE_TRACKER_TOOLS}, 10_000)  # a whole tools/list result works too
    prompt = system_prompt(pack, demonstrations=False, tool_definitions=tools.prompt_text())
    assert "{tool_definitions}" not in prompt and '"name": "close_issue"' in prompt


def _write_pack(folder, name="crm", **overrides):
    folder.mkdir(parents=True)
    manifest = {
        "name": name,
        "title": "In-house CRM",
        "summary": "The sales team's customer database, driven by JSON commands.",
        "action_format": 'A JSON command such as {"op": "find", "customer": "Acme"}.',
        "observation_format": "The CRM's JSON reply.",
        "action_example": '{"op": "find", "customer": "Acme"}',
        "initial_state": "Customers: Acme (id 1, active), Globex (id 2, churned).",
        "action_schema": {
            "type": "object",
            "properties": {"op": {"enum": ["find", "update", "delete"]}, "customer": {"type": "string"}},
            "required": ["op"],
        },
        **overrides,
    }
    (folder / "pack.json").write_text(json.dumps(manifest))
    (folder / "instructions.md").write_text("# Role\nYou simulate the CRM's JSON API.\n")
    return folder


async def test_a_user_pack_loads_and_simulates(tmp_path, tool_context):
    _write_pack(tmp_path / "packs" / "crm")
    domains = load_domains(tmp_path / "packs")
    assert domains["crm"].source.endswith("crm") and "terminal" in domains
    ctx = ToolContext(engine=tool_context.engine, domains=domains, limits=tool_context.limits)
    async with Client(create_server(ctx), mode="legacy") as client:
        listed = json.loads((await client.read_resource("domains://list")).contents[0].text)
        good = await client.call_tool("simulate_action", {"domain": "crm", "action": '{"op": "find", "customer": "Acme"}', **QUICK})
        bad = await client.call_tool("simulate_action", {"domain": "crm", "action": '{"op": "drop"}'})
    assert "crm" in [entry["name"] for entry in listed]
    assert not good.is_error and good.structured_content["usage"]["prompt_tokens"] > 0
    assert bad.is_error and "action schema" in bad.content[0].text


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"title": ""}, "pack.json: title"),
        ({"name": "Bad Name!"}, "pack.json: name"),
        ({"colour": "blue"}, "colour"),
        ({"action_schema": {"type": "no-such-type"}}, "action_schema is not a valid JSON Schema"),
        # presets are checked at load: a bad one stops the start, not every call that names it
        ({"presets": [{"id": "cel", "kind": "rule", "expr": "action.startsWith("}]},
         "presets[0] ('cel'): the CEL expression does not compile"),
        ({"presets": [{"id": "ok", "kind": "pattern", "pattern": "drop"}, {"id": "typo", "kind": "rule", "exp": "true"}]},
         "presets[1] ('typo'): exp: Extra inputs are not permitted"),
        ({"presets": [{"id": "twice", "kind": "judge", "text": "be nice"}] * 2}, "presets[1] ('twice'): the id is used"),
    ],
)
def test_a_broken_user_pack_fails_start_up_in_one_line(tmp_path, server_argv, server_env, overrides, message):
    _write_pack(tmp_path / "packs" / "crm", **overrides)
    done = subprocess.run(
        [*server_argv, "--domains-dir", str(tmp_path / "packs"), "model"],
        env=server_env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and str(tmp_path) in lines[0], done.stderr


def test_a_user_pack_replaces_a_built_in_one_only_when_asked(tmp_path):
    _write_pack(tmp_path / "packs" / "terminal", name="terminal")
    with pytest.raises(PackError, match="already taken by a built-in pack.*--override-domains"):
        load_domains(tmp_path / "packs")
    assert load_domains(tmp_path / "packs", override_builtin=True)["terminal"].title == "In-house CRM"


def test_upstream_prompt_files_replace_instructions_with_placeholders_filled(tmp_path):
    (tmp_path / "prompts" / "terminal").mkdir(parents=True)
    (tmp_path / "prompts" / "terminal" / "system_prompt.txt").write_text(
        "UPSTREAM terminal world model.\n\n## Examples\n{demonstrations}\n"
    )
    pack = load_domains(upstream_prompts=tmp_path / "prompts")["terminal"]
    prompt = system_prompt(pack, demonstrations=True)
    assert prompt.startswith("UPSTREAM terminal") and "{demonstrations}" not in prompt and "### Turn 1" in prompt
    assert load_domains(upstream_prompts=tmp_path / "prompts")["web"].source == "built-in"  # no file: unchanged


async def test_discovery_resources_completions_and_the_prompt(mcp_server):
    async with Client(mcp_server, mode="legacy") as client:
        listed = json.loads((await client.read_resource("domains://list")).contents[0].text)
        web = json.loads((await client.read_resource("domains://web")).contents[0].text)
        templates = (await client.list_resource_templates()).resource_templates
        completion = await client.complete(ResourceTemplateReference(type="ref/resource", uri="domains://{name}"), {"name": "name", "value": "te"})
        prompt_completion = await client.complete(PromptReference(type="ref/prompt", name="look_before_you_leap"), {"name": "domain", "value": "an"})
        prompt = await client.get_prompt("look_before_you_leap", {"domain": "terminal", "goal": "clean the build"})
    assert sorted(entry["name"] for entry in listed) == sorted(builtin_domains())
    assert web["observation_wrapped_in_predicted_observation_tags"] is True and web["action_example"]
    assert web["example"]["turns"] and web["constraint_presets"]
    assert any(template.uri_template == "domains://{name}" for template in templates)
    assert completion.completion.values == ["terminal"]
    assert prompt_completion.completion.values == ["android"]
    text = prompt.messages[0].content.text
    assert "clean the build" in text and "dry_run_plan" in text


TIME_TOOLS = [{
    "name": "get_current_time",
    "description": "Get the current time in a specific timezone.",
    "inputSchema": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]},
    "outputSchema": {
        "type": "object",
        "properties": {"timezone": {"type": "string"}, "datetime": {"type": "string"}, "is_dst": {"type": "boolean"}},
        "required": ["timezone", "datetime", "is_dst"],
        "additionalProperties": False,
    },
}]


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_tool_with_an_output_schema_gets_a_prediction_that_follows_it(tool_context, seed):
    from agentworld_mcp.tools.requests import SimulateRequest
    from agentworld_mcp.tools.simulation.simulate import simulate_action
    from agentworld_mcp.tools.tool_definitions import parse_tool_definitions, reply_problem

    prediction = await simulate_action(tool_context, SimulateRequest(
        domain="mcp", tools=TIME_TOOLS, action='get_current_time {"timezone": "Europe/Warsaw"}', seed=seed,
        max_tokens=256))
    schema = parse_tool_definitions(TIME_TOOLS, 10_000).reply_schema("get_current_time")
    problem = reply_problem(schema, prediction.observation)
    assert prediction.parse_error is None
    # Valid by construction; a reply cut off even with twice the room is the one way out, and it says so.
    assert problem is None or prediction.truncated
    assert any("breaks the tool's output schema" in warning for warning in prediction.warnings) == (problem is not None)
