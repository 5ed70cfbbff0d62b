"""Where an observation ends: the end rules on their own, fed text the way a backend feeds it."""

from __future__ import annotations

import pytest

from agentworld_mcp.domains.boundaries import LOOP_LINES, ObservationEnd, observation_end

P = "dev@sandbox:~/project$"


def run(rule: ObservationEnd, reply: str, thinking_open: bool = False, step: int = 1):
    """Feed `reply` in pieces of `step` characters, as tokens arrive; the first stop wins."""
    scanner = rule.scanner(thinking_open)
    for end in range(step, len(reply) + step, step):
        stop = scanner.feed(reply[:end])
        if stop is not None:
            return stop
    return None


def observation(rule: ObservationEnd, reply: str, **kwargs) -> str:
    stop = run(rule, reply, **kwargs)
    return reply if stop is None else reply[: stop.at]


@pytest.mark.parametrize("step", [1, 3, 1000])
def test_a_terminal_screen_ends_at_the_prompt_after_the_output(step):
    rule = observation_end("shell-prompt", "ls\n")
    reply = f"{P} ls\nREADME.md  main.py\n{P} cd notes\n{P} ls -l\n"
    stop = run(rule, reply, step=step)
    assert stop is not None and stop.reason == "shell-prompt"
    assert reply[: stop.at] == f"{P} ls\nREADME.md  main.py\n{P}"


def test_a_prompt_showing_a_command_the_agent_did_not_type_ends_the_screen():
    rule = observation_end("shell-prompt", "mkdir -p notes\n")
    assert observation(rule, f"{P} rm -rf /\nbye\n") == P


def test_the_previous_screen_shown_again_is_not_new_input():
    previous = f"{P} cat a.txt\nhello\n{P}"
    rule = observation_end("shell-prompt", "cat b.txt\n", previous)
    reply = f"{P} cat a.txt\nhello\n{P} cat b.txt\nworld\n{P} cat c.txt\n"
    assert observation(rule, reply) == f"{P} cat a.txt\nhello\n{P} cat b.txt\nworld\n{P}"


def test_an_earlier_command_shown_a_little_differently_is_not_cut():
    previous = f"{P} cat a.txt\nhello\n{P}"
    rule = observation_end("shell-prompt", "cat b.txt\n", previous)
    reply = f"{P} cat a.txt\nhello there\n{P} cat b.txt\nworld\n{P} whoami\n"
    assert observation(rule, reply) == f"{P} cat a.txt\nhello there\n{P} cat b.txt\nworld\n{P}"


def test_every_command_of_a_multi_line_action_is_echoed_before_the_screen_ends():
    rule = observation_end("shell-prompt", "cd /tmp\npwd\n")
    reply = f"{P} cd /tmp\ndev@sandbox:/tmp$ pwd\n/tmp\ndev@sandbox:/tmp$ ls\n"
    assert observation(rule, reply) == f"{P} cd /tmp\ndev@sandbox:/tmp$ pwd\n/tmp\ndev@sandbox:/tmp$"


def test_text_typed_without_enter_stays_on_the_prompt_line():
    rule = observation_end("shell-prompt", "echo hi")
    assert observation(rule, f"{P} echo hi\n{P} ls\n") == f"{P} echo hi"


def test_a_screen_without_a_new_prompt_is_left_to_the_model():
    rule = observation_end("shell-prompt", "python3\n")
    reply = f"{P} python3\nPython 3.11.2\n>>> "
    assert run(rule, reply) is None


def test_the_closing_tag_ends_a_gui_observation():
    rule = observation_end("closing-tag")
    reply = "<think>the button opens a dialog</think>\n<predicted_observation>\n[1] Button\n</predicted_observation>\n<predicted_observation>"
    stop = run(rule, reply, step=2)
    assert stop.reason == "closing-tag"
    assert reply[: stop.at].endswith("[1] Button\n</predicted_observation>")


def test_reasoning_is_never_scanned():
    rule = observation_end("closing-tag")
    assert run(rule, "<think>it would print </predicted_observation> here") is None
    assert run(rule, "still thinking ### Turn 2 </predicted_observation>", thinking_open=True) is None


@pytest.mark.parametrize(
    "reply, expected",
    [
        ('{"ok": true, "text": "a } and a ]"}\n{"ok": false}', '{"ok": true, "text": "a } and a ]"}'),
        ('[{"id": 1}, {"id": "x\\"}"}]\nmore', '[{"id": 1}, {"id": "x\\"}"}]'),
        ('```json\n{"a": [1, 2]}\n```\nand then', '```json\n{"a": [1, 2]}\n```'),
    ],
)
def test_a_json_response_ends_with_its_value(reply, expected):
    assert observation(observation_end("json-value"), reply) == expected


def test_a_response_that_is_not_json_is_left_to_the_model():
    assert run(observation_end("json-value"), "Error: rate limited { retry later }\n\nok") is None


def test_a_shell_tool_prints_one_exit_status():
    reply = "1 passed in 0.01s\n[exit code: 0]\n[exit code: 0]\nbash {}"
    stop = run(observation_end("exit-code"), reply)
    assert stop.reason == "exit-code" and reply[: stop.at] == "1 passed in 0.01s\n[exit code: 0]"


@pytest.mark.parametrize("marker", ["\n\n### Turn 3\n", "\n**Action:**\n", "\n**Environment Observation:**\n"])
def test_no_observation_holds_the_next_turn(marker):
    reply = f"**Environment Observation:**\nresult one{marker}more"
    stop = run(observation_end("turn"), reply)
    assert stop.reason == "next-turn" and reply[: stop.at] == "**Environment Observation:**\nresult one"


def test_a_block_of_lines_repeated_back_to_back_is_a_loop():
    block = f"{P} cat notes.txt\n{P} ls -l\n"
    reply = "header\n" + block * LOOP_LINES
    stop = run(observation_end("turn"), reply)
    assert stop.reason == "repetition" and "2 line(s)" in stop.detail
    assert reply[: stop.at] == "header\n" + block.rstrip("\n")


def test_one_line_repeating_a_short_unit_is_a_loop():
    reply = "output: " + "na" * 2000
    stop = run(observation_end("turn"), reply, step=7)
    assert stop.reason == "repetition"
    assert reply[: stop.at].startswith("output: na") and len(reply[: stop.at]) < 20


@pytest.mark.parametrize("structure", ["turn", "shell-prompt", "json-value", "closing-tag", "exit-code"])
def test_a_line_of_fences_written_until_max_tokens_is_a_loop_in_every_domain(structure):
    reply = "```" * 120  # about as many tokens: a short unit, well under a kilobyte
    stop = run(observation_end(structure, "ls\n", f"{P} "), reply)
    assert stop is not None and stop.reason == "repetition" and len(reply[: stop.at]) <= 3


def test_varied_long_output_is_not_a_loop():
    listing = "".join(f"-rw-r--r-- 1 dev dev {n * 37 % 1000:4d} Jan  1 file{n}.txt\n" for n in range(200))
    assert run(observation_end("turn"), listing) is None
    assert run(observation_end("turn"), "x" * 250 + "\n" + "=" * 80 + "\n") is None
    assert run(observation_end("turn"), "-" * 200 + "\n" + "ab" * 100) is None  # a wide rule, a short run
