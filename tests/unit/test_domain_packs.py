"""The six built-in packs besides terminal: files, action checks, demonstrations and rendering, without a model."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from agentworld_mcp.domains import ActionError, Turn, builtin_domains
from agentworld_mcp.domains.effects import first_error_line
from agentworld_mcp.domains.parsing import parse_reply
from agentworld_mcp.domains.protocol import render_messages

PACKS = ("mcp", "search", "swe", "android", "web", "os")
GUI_PACKS = ("android", "web", "os")
DOMAINS_DIR = Path(importlib.import_module("agentworld_mcp.domains").__file__).parent
REFERENCE_HEADINGS = ["Role", "Your task", "State and how it carries over", "Execution rules", "Principles"]


@pytest.fixture(scope="module")
def packs():
    return builtin_domains()


def expected_shape(name: str) -> str:
    return importlib.import_module(f"agentworld_mcp.domains.{name}.actions").EXPECTED_SHAPE


# ---------------------------------------------------------------- files and manifests


def test_every_reference_domain_is_discovered(packs):
    assert set(PACKS) | {"terminal"} <= set(packs)


@pytest.mark.parametrize("name", PACKS)
def test_pack_folders_have_the_terminal_file_set(name):
    def files(folder: Path) -> set[str]:
        return {path.name for path in folder.iterdir() if path.is_file()}

    assert files(DOMAINS_DIR / name) == files(DOMAINS_DIR / "terminal")
    assert (DOMAINS_DIR / name / "__init__.py").read_text() == ""


@pytest.mark.parametrize("name", PACKS)
def test_manifest_carries_what_the_server_needs(packs, name):
    pack = packs[name]
    manifest = json.loads((DOMAINS_DIR / name / "pack.json").read_text(encoding="utf-8"))
    terminal_keys = set(json.loads((DOMAINS_DIR / "terminal" / "pack.json").read_text(encoding="utf-8")))
    assert {"name", "title", "summary", "action_format", "observation_format", "wrapped_observation",
            "initial_state", "sampling", "error_markers", "action_example"} <= set(manifest)
    assert set(manifest) - {"action_example"} <= terminal_keys
    assert pack.name == name
    assert pack.wrapped_observation is (name in GUI_PACKS)
    assert pack.initial_state.strip() and pack.error_markers and pack.action_example
    assert {key: pack.sampling[key] for key in ("temperature", "top_p", "top_k")} == {"temperature": 0.6, "top_p": 0.95, "top_k": 20}
    assert pack.sampling["max_tokens"] >= (1024 if name in GUI_PACKS else 512)


# ---------------------------------------------------------------- instructions


def headings(text: str) -> list[str]:
    return [line[2:].strip() for line in text.splitlines() if line.startswith("# ")]


@pytest.mark.parametrize("name", PACKS)
def test_instructions_follow_the_reference_structure(packs, name):
    text = packs[name].instructions
    found = headings(text)
    if name == "mcp":
        assert found == [*REFERENCE_HEADINGS[:2], "Tools of the server being simulated", *REFERENCE_HEADINGS[2:]]
    else:
        assert found == REFERENCE_HEADINGS
    principles = text.split("# Principles", 1)[1]
    for dimension in ("Format", "Factuality", "Consistency", "Realism", "Quality"):
        assert f"- {dimension}:" in principles
    assert 35 <= len(text.splitlines()) <= 75


@pytest.mark.parametrize("name", GUI_PACKS)
def test_gui_instructions_ask_for_one_wrapped_observation(packs, name):
    text = packs[name].instructions
    assert "<predicted_observation>" in text and "</predicted_observation>" in text
    assert "local edit" in text


def test_only_mcp_takes_tool_definitions_and_they_replace_the_placeholder(packs):
    assert [name for name in PACKS if packs[name].takes_tool_definitions] == ["mcp"]
    mcp = packs["mcp"]
    placeholder_lines = [line for line in mcp.instructions.splitlines() if "{tool_definitions}" in line]
    assert placeholder_lines == ["{tool_definitions}"]
    tools = json.dumps([{"name": "list_issues", "inputSchema": {"type": "object", "properties": {}}}])
    system = render_messages(mcp, [], mcp.action_example, tool_definitions=tools)[0]["content"]
    assert tools in system and "{tool_definitions}" not in system
    section = system.split("# Tools of the server being simulated", 1)[1].split("\n# ", 1)[0]
    assert tools in section
    # Either way of filling the placeholder (replace or str.format) works: no other braces in the text.
    assert mcp.instructions.format(tool_definitions=tools) == mcp.instructions.replace("{tool_definitions}", tools)


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize("name", PACKS)
def test_action_example_normalizes_and_normalizing_is_idempotent(packs, name):
    normalize = packs[name].normalize_action
    once = normalize(packs[name].action_example)
    assert normalize(once) == once
    assert once == packs[name].action_example  # the advertised example is already canonical


@pytest.mark.parametrize("name", PACKS)
def test_demonstration_actions_are_canonical(packs, name):
    pack = packs[name]
    assert pack.examples
    for example in pack.examples:
        assert 2 <= len(example.turns) <= 3 and example.task and example.state
        for turn in example.turns:
            assert pack.normalize_action(turn.action) == turn.action
            assert turn.observation.strip() == turn.observation != ""


MALFORMED = {
    "mcp": [
        "   ",
        "[1, 2]",
        "list_issues state=open",
        'list_issues {"state": }',
        '{"arguments": {}}',
        '{"name": "", "arguments": {}}',
        '{"name": "bad name!", "arguments": {}}',
        '{"name": "list_issues", "arguments": [1]}',
        '{"name": "list_issues", "arguments": "{not json"}',
        '{"name": "list_issues", "arguments": "[1, 2]"}',
        '{"name": "list_issues", "args": {}}',
        '{"type": "function", "function": {"name": "f"}, "extra": 1}',
    ],
    "search": [
        "",
        "web_search",
        'web_search {"queries": []}',
        'web_search {"queries": [""]}',
        'web_search {"queries": ["a"], "limit": 5}',
        'web_extractor {"url": "ftp://example.org/file"}',
        'web_extractor {"url": "not a url"}',
        'memory {"action": "pop"}',
        'memory {"action": "set", "key": "a"}',
        'memory {"action": "list", "key": "a"}',
        'visit {"url": "https://example.org"}',
        '{"name": "web_search", "arguments": {"queries": 3}}',
    ],
    "swe": [
        "",
        'bash {"command": ""}',
        "read_file {}",
        'read_file {"path": "a.py", "start_line": 0}',
        'read_file {"path": "a.py", "start_line": 5, "end_line": 2}',
        'write_file {"path": "a.py"}',
        'edit_file {"path": "a.py", "old": "", "new": "b"}',
        'todo {"items": "buy milk"}',
        'str_replace_editor {"command": "view"}',
        '{"name": "bash", "arguments": {"cmd": "ls"}}',
    ],
    "android": [
        "",
        '{"action": "fly"}',
        '{"index": 5}',
        '{"action": "tap"}',
        '{"action": "tap", "index": -1}',
        '{"action": "tap", "index": true}',
        '{"action": "tap", "index": 2, "x": 1, "y": 2}',
        '{"action": "swipe", "direction": "sideways"}',
        '{"action": "type", "text": ""}',
        '{"action": "wait", "seconds": 600}',
        '{"action": "back", "index": 3}',
        '{"action": "tap", "index": 1',
        "tap",
        "tap five",
        "back now",
        "fly away",
    ],
    "web": [
        "",
        "click()",
        "click('a1', 'left', [], 'extra')",
        "fly('a1')",
        "page.click('a1')",
        "click(bid)",
        "click('a1', colour='red')",
        "click('a1', bid='b2')",
        "fill('a1')",
        "x = click('a1')",
        "click('a1'",
        "scroll('up')",
        "click('a1', button='top')",
        "tab_focus(-1)",
        "click(__import__('os').system('echo hi'))",
        "# only a comment",
    ],
    "os": [
        "",
        "```python\n```",
        "pyautogui.click(",
        "# only a comment",
        "def f(:\n    pass",
        "```python\npyautogui.click(1, 2)",
    ],
}


@pytest.mark.parametrize("name, action", [(name, action) for name, actions in MALFORMED.items() for action in actions])
def test_malformed_actions_are_rejected_with_the_expected_shape(packs, name, action):
    with pytest.raises(ActionError) as raised:
        packs[name].normalize_action(action)
    assert expected_shape(name) in str(raised.value)


CONVENIENT = {
    "mcp": [
        ('list_issues {"state": "open"}', '{"name": "list_issues", "arguments": {"state": "open"}}'),
        ('{"arguments": {"state": "open"}, "name": "list_issues"}', '{"name": "list_issues", "arguments": {"state": "open"}}'),
        ('{"name": "list_issues", "arguments": "{\\"state\\": \\"open\\"}"}', '{"name": "list_issues", "arguments": {"state": "open"}}'),
        ('{"type": "function", "id": "c1", "function": {"name": "ping", "arguments": ""}}', '{"name": "ping", "arguments": {}}'),
        ("ping", '{"name": "ping", "arguments": {}}'),
        ('github/list-issues.v2 {"q": "é"}', '{"name": "github/list-issues.v2", "arguments": {"q": "é"}}'),
    ],
    "search": [
        ("python 3.12 release date", 'web_search {"queries": ["python 3.12 release date"]}'),
        ("memory leak in  python", 'web_search {"queries": ["memory leak in python"]}'),
        ('{"name": "web_search", "arguments": {"query": "x"}}', 'web_search {"queries": ["x"]}'),
        ('web_search {"queries": "x"}', 'web_search {"queries": ["x"]}'),
        ('{"name": "web_extractor", "arguments": {"goal": "g", "url": "https://a.org/p"}}', 'web_extractor {"url": "https://a.org/p", "goal": "g"}'),
        ('memory {"value": [1, 2], "key": "k", "action": "set"}', 'memory {"action": "set", "key": "k", "value": [1, 2]}'),
    ],
    "swe": [
        ("ls -la", 'bash {"command": "ls -la"}'),
        ("[ -f setup.py ] && echo yes", 'bash {"command": "[ -f setup.py ] && echo yes"}'),
        ("{ echo a; echo b; } > out.txt", 'bash {"command": "{ echo a; echo b; } > out.txt"}'),
        ('{"name": "read_file", "arguments": {"path": "a.py"}}', 'read_file {"path": "a.py"}'),
        ('{"name": "bash", "arguments": "{\\"command\\": \\"ls\\"}"}', 'bash {"command": "ls"}'),
        ('edit_file {"new": "b", "old": "a", "path": "x.py"}', 'edit_file {"path": "x.py", "old": "a", "new": "b"}'),
    ],
    "android": [
        ("tap 5", '{"action": "tap", "index": 5}'),
        ("tap 540 1200", '{"action": "tap", "x": 540, "y": 1200}'),
        ('type "hello world"', '{"action": "type", "text": "hello world"}'),
        ("swipe up", '{"action": "swipe", "direction": "up"}'),
        ("back", '{"action": "back"}'),
        ("home", '{"action": "home"}'),
        ("open_app Google Maps", '{"action": "open_app", "app": "Google Maps"}'),
        ("wait 2", '{"action": "wait", "seconds": 2}'),
        ('{"action_type": "click", "index": 3}', '{"action": "tap", "index": 3}'),
        ('{"action_type": "input_text", "index": 2, "text": "hi"}', '{"action": "type", "text": "hi", "index": 2}'),
        ('{"action": "open_app", "app_name": "Clock"}', '{"action": "open_app", "app": "Clock"}'),
    ],
    "web": [
        ("click(51)", "click('51')"),
        ('fill(bid="12", value="hi")', "fill('12', 'hi')"),
        ("mouse_click(56, 712, 'right')", "mouse_click(56, 712, button='right')"),
        ("click('b2', modifiers=('Shift',), button='right')", "click('b2', button='right', modifiers=['Shift'])"),
        ("```python\nclick('a1')\n\ngo_back()\n```", "click('a1')\ngo_back()"),
        ("click('a1'); click('a2')", "click('a1')\nclick('a2')"),
        ("scroll(0, -200)", "scroll(0, -200)"),
        ('select_option("c3", ["red", "blue"])', "select_option('c3', ['red', 'blue'])"),
    ],
    "os": [
        ("```python\nimport pyautogui\npyautogui.click(10, 20)\n```", "import pyautogui\npyautogui.click(10, 20)"),
        ("    pyautogui.press('enter')\n    pyautogui.hotkey('ctrl', 's')\n", "pyautogui.press('enter')\npyautogui.hotkey('ctrl', 's')"),
        ("DONE", "DONE"),
    ],
}


@pytest.mark.parametrize("name, given, canonical", [(n, g, c) for n, pairs in CONVENIENT.items() for g, c in pairs])
def test_convenience_forms_map_to_the_canonical_form(packs, name, given, canonical):
    normalize = packs[name].normalize_action
    assert normalize(given) == canonical
    assert normalize(canonical) == canonical


def test_unknown_web_action_lists_the_valid_names(packs):
    web_actions = importlib.import_module("agentworld_mcp.domains.web.actions").ACTIONS
    assert {"noop", "click", "fill", "select_option", "goto", "go_back", "tab_focus", "send_msg_to_user",
            "report_infeasible", "keyboard_press", "mouse_click", "drag_and_drop", "upload_file"} <= set(web_actions)
    with pytest.raises(ActionError) as raised:
        packs["web"].normalize_action("tap('a1')")
    assert all(name in str(raised.value) for name in web_actions)


def test_os_syntax_errors_name_the_line(packs):
    with pytest.raises(ActionError, match=r"line 2\b"):
        packs["os"].normalize_action("pyautogui.click(1, 2)\npyautogui.write('x'")


def test_os_code_is_parsed_never_run(packs, tmp_path):
    marker = tmp_path / "ran"
    code = f"open({str(marker)!r}, 'w').write('x')"
    assert packs["os"].normalize_action(code) == code
    assert not marker.exists()


# ---------------------------------------------------------------- rendering and parsing


@pytest.mark.parametrize("name", PACKS)
def test_rendering_produces_the_reference_message_structure(packs, name):
    pack = packs[name]
    example = pack.examples[0]
    *history, last = example.turns
    messages = render_messages(pack, history, last.action, task=example.task, state=example.state)
    roles = [message["role"] for message in messages]
    assert roles[0] == "system" and roles[-1] == "user"
    assert roles[1:] == ["user", "assistant"] * len(history) + ["user"]
    users = [m["content"] for m in messages if m["role"] == "user"]
    assert users[0].startswith("### Turn 1") and "**Task Instruction:**" in users[0] and "**Current State:**" in users[0]
    assert all(content.startswith(f"### Turn {number}") for number, content in enumerate(users, 1))
    assert all("**Task Instruction:**" not in content for content in users[1:])
    assert "**Action:**\n```" in users[-1] and last.action in users[-1]
    assistants = [m["content"] for m in messages if m["role"] == "assistant"]
    assert all(content.startswith("**Environment Observation:**\n") for content in assistants)
    assert "# Demonstrations" in messages[0]["content"]


@pytest.mark.parametrize("name", PACKS)
def test_rendered_observations_parse_back_to_themselves(packs, name):
    pack = packs[name]
    turns = pack.examples[0].turns
    messages = render_messages(pack, list(turns), pack.action_example)
    for turn, message in zip(turns, [m for m in messages if m["role"] == "assistant"]):
        content = message["content"]
        if pack.wrapped_observation:
            assert content.count("<predicted_observation>") == 1 and content.endswith("</predicted_observation>")
            assert "<predicted_observation>" not in turn.observation
        parsed = parse_reply(content, wrapped=pack.wrapped_observation)
        assert parsed.parse_error is None and parsed.observation == turn.observation


@pytest.mark.parametrize("name", GUI_PACKS)
def test_gui_reply_with_reasoning_yields_the_demonstrated_observation(packs, name):
    observation = packs[name].examples[0].turns[-1].observation
    reply = f"<think>the action changes the screen</think>\n<predicted_observation>\n{observation}\n</predicted_observation>"
    assert parse_reply(reply, wrapped=True).observation == observation


# Which demonstration turns show a failed action; the pack's error markers must flag exactly those.
FAILING_TURNS = {"mcp": {1}, "search": set(), "swe": {0}, "android": {2}, "web": set(), "os": set()}


@pytest.mark.parametrize("name", PACKS)
def test_error_markers_flag_the_failing_demonstration_turns(packs, name):
    pack = packs[name]
    flagged = {index for index, turn in enumerate(pack.examples[0].turns) if first_error_line(turn.observation, pack.error_markers)}
    assert flagged == FAILING_TURNS[name]


@pytest.mark.parametrize("name", PACKS)
def test_a_later_step_extends_the_earlier_prompt(packs, name):
    """Rendering is prefix-stable in every domain, so a plan's cached prompt prefix is reused."""
    pack = packs[name]
    first, second = pack.examples[0].turns[:2]
    step1 = render_messages(pack, [], first.action)
    step2 = render_messages(pack, [Turn(first.action, first.observation)], second.action)
    assert step2[: len(step1)] == step1
    assert re.match(r"### Turn 2\b", step2[-1]["content"])


# --- an observation holds only what the environment shows ----------------------------------------
PLANTED = {  # what an environment shows, per domain, and what a model wrapped it in
    "terminal": "dev@sandbox:~/project$ ls\nREADME.md  main.py\ndev@sandbox:~/project$",
    "swe": "   1\tdef total(items):\n   2\t    return sum(items)",
    "mcp": '{"content": [{"type": "text", "text": "3 issues"}]}',
    "search": "# Release notes\n\n```python\nprint('hi')\n```",
    "android": "[0] FrameLayout\n  [1] Button 'OK'",
    "web": "RootWebArea 'Shop'\n  [a51] button 'Buy'",
    "os": "desktop-frame\n  push-button 'Save'",
}


def _wrapped_in_markdown(observation: str) -> list[str]:
    return [
        f"**Screen after Action:**\n{observation}",
        f"```plaintext\n{observation}\n```",
        f"**Result:**\n```\n{observation}\n```\nThe command lists the folder, as expected.",
        f"```\n{observation}",  # the end rule cut the reply before the fence closed
    ]


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_markdown_around_a_plain_observation_is_not_the_environments(name):
    pack = builtin_domains()[name]
    shown = PLANTED[name]
    for reply in _wrapped_in_markdown(shown):
        if pack.wrapped_observation:
            reply = f"<predicted_observation>\n{reply}\n</predicted_observation>"
        parsed = parse_reply(reply, pack.wrapped_observation, pack.observation_markdown)
        if pack.observation_markdown:  # a page or a tool's text may be Markdown: only a whole fence is taken off
            if not reply.startswith("```\n"):  # an unclosed fence before a page that ends in one is ambiguous
                assert shown in parsed.observation
        else:
            assert parsed.observation == shown and parsed.trimmed, (name, reply, parsed)
    unwrapped = parse_reply(shown, pack.wrapped_observation, pack.observation_markdown)
    if not pack.wrapped_observation:
        assert unwrapped.observation == shown and not unwrapped.trimmed  # Markdown inside the output stays


def test_a_reply_of_nothing_but_fences_is_no_observation():
    parsed = parse_reply("```\n```\n```plaintext\n```\n", wrapped=False, markdown=False)
    assert parsed.observation == "" and "no observation" in parsed.parse_error
