"""The terminal pack and the shared protocol and parser, without a model."""

from __future__ import annotations

import json

import pytest

from agentworld_mcp.domains import ActionError, Turn, builtin_domains
from agentworld_mcp.domains.parsing import parse_reply
from agentworld_mcp.domains.protocol import history_reply, render_messages


@pytest.fixture(scope="module")
def terminal():
    return builtin_domains()["terminal"]


def test_plain_command_becomes_one_keystroke_batch(terminal):
    assert json.loads(terminal.normalize_action("ls -la")) == [{"keystrokes": "ls -la\n", "duration": 1}]


def test_shell_test_that_looks_like_json_is_a_command(terminal):
    assert json.loads(terminal.normalize_action("[ -f x ] && echo yes"))[0]["keystrokes"] == "[ -f x ] && echo yes\n"


def test_keystroke_json_is_kept_and_a_single_batch_is_wrapped(terminal):
    batches = [{"keystrokes": "vim a.txt\n", "duration": 2}, {"keystrokes": "C-c", "duration": 0.5}]
    assert json.loads(terminal.normalize_action(json.dumps(batches))) == batches
    assert json.loads(terminal.normalize_action('{"keystrokes": "pwd\\n"}')) == [{"keystrokes": "pwd\n", "duration": 1}]


@pytest.mark.parametrize(
    "action, problem",
    [
        ("   ", "empty"),
        ("[]", "non-empty list"),
        ('[{"keys": "ls"}]', "no string 'keystrokes'"),
        ('[{"keystrokes": "ls\\n", "duration": -1}]', "duration"),
        ('[{"keystrokes": "ls\\n", "wait": 1}]', "unknown fields"),
        ("[1, 2]", "no string 'keystrokes'"),
    ],
)
def test_malformed_actions_are_rejected_with_the_expected_shape(terminal, action, problem):
    with pytest.raises(ActionError, match=problem) as raised:
        terminal.normalize_action(action)
    assert "keystrokes" in str(raised.value)


def test_messages_follow_the_reference_turn_structure(terminal):
    history = [Turn(terminal.normalize_action("cd src"), "dev@sandbox:~/project$ cd src\ndev@sandbox:~/project/src$")]
    messages = render_messages(terminal, history, terminal.normalize_action("ls"), task="tidy up", state="a host")
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[0]["content"].startswith("# Role")
    first, last = messages[1]["content"], messages[3]["content"]
    assert first.startswith("### Turn 1") and "**Task Instruction:**\ntidy up" in first
    assert "**Current State:**\na host" in first and "**Action:**\n```json\n" in first
    assert last.startswith("### Turn 2") and "Task Instruction" not in last and '"ls\\n"' in last
    assert messages[2]["content"].startswith("**Environment Observation:**\n")


def test_demonstrations_are_switchable(terminal):
    with_examples = render_messages(terminal, [], "ls", demonstrations=True)[0]["content"]
    without = render_messages(terminal, [], "ls", demonstrations=False)[0]["content"]
    assert "# Demonstrations" in with_examples and "### Turn 3" in with_examples
    assert without == terminal.instructions


def test_a_longer_plan_extends_the_earlier_prompt(terminal):
    """Step k+1's messages begin with step k's (up to step k's reply): the cached prefix is reusable."""
    step1 = render_messages(terminal, [], "ls")
    step2 = render_messages(terminal, [Turn("ls", "a b")], "pwd")
    assert step2[: len(step1)] == step1


@pytest.mark.parametrize(
    "raw, wrapped, observation, error",
    [
        ("<think>consider</think>\n$ ls\nfile", False, "$ ls\nfile", None),
        ("**Environment Observation:**\n$ ls\nfile", False, "$ ls\nfile", None),
        ("```\n$ ls\nfile\n```", False, "$ ls\nfile", None),
        ("<think>still thinking about it", False, "", "only reasoning"),
        ("", False, "", "no observation"),
        ("   \n", False, "", "no observation"),
        ("<think>a</think><predicted_observation>one</predicted_observation> x "
         "<predicted_observation>two</predicted_observation>", True, "two", None),
        ("<think>a</think>\n<predicted_observation>\nunclosed tree", True, "unclosed tree", None),
        ("<think>a</think> no tags at all", True, "no tags at all", None),
        ("reasoning without an opening tag</think>\nscreen", False, "screen", None),
    ],
)
def test_parser_turns_every_reply_into_an_observation_or_a_parse_error(raw, wrapped, observation, error):
    parsed = parse_reply(raw, wrapped)
    assert parsed.observation == observation
    if error is None:
        assert parsed.parse_error is None
    else:
        assert error in parsed.parse_error


def test_parser_keeps_reasoning_apart():
    parsed = parse_reply("<think>the file exists</think>\ncontent", wrapped=False)
    assert parsed.reasoning == "the file exists" and parsed.observation == "content"


def test_parser_keeps_the_indentation_of_the_first_line():
    parsed = parse_reply("<think>x</think>\n\n   1\tdef main():\n   2\t    pass\n", wrapped=False)
    assert parsed.observation == "   1\tdef main():\n   2\t    pass"
    headed = parse_reply("**Environment Observation:**\n  total 8\n", wrapped=False)
    assert headed.observation == "  total 8"


@pytest.mark.parametrize(
    ("reply", "shown"),
    [
        ("dev@sandbox:~$ ls\nsrc\n", "dev@sandbox:~$ ls\nsrc\n"),  # verbatim: the next prompt extends the cached tokens
        ("<think>\nit lists src\n</think>\n\nsrc\n", "src\n"),
        ("it lists src\n</think>\n\nsrc\n", "src\n"),  # the template opened the block in the prompt
        ("<think>\nran out of tokens", None),  # nothing but reasoning: history falls back to the observation
    ],
)
def test_history_shows_a_predicted_reply_without_its_reasoning(reply, shown):
    assert history_reply(reply) == shown
