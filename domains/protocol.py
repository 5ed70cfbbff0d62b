"""The world-model prompt protocol: a domain's instructions, then one user turn per action.

User turns read `### Turn N` / `**Action:**` with the action in a fenced block; the first turn may
also carry `**Task Instruction:**` and `**Current State:**`. Assistant turns read
`**Environment Observation:**` followed by the observation. The last user turn is the action to
predict. This is the structure the reference world model was trained on, so a trained model
needs nothing else; ordinary instruct models also get the pack's demonstrations.

A predicted turn shows the model's own reply verbatim; a given turn shows the observation under
its heading. Either way a cold render of step k+1 equals step k's prompt plus step k's reply plus
the new turn, so the model's cached tokens are extended, never re-read (hybrid models such as
qwen35moe can reuse a cache only when the new prompt extends it exactly). A reply's reasoning is
left out of history, as thinking templates do themselves: later turns need the observation, and
a world's prompt does not grow by thousands of reasoning tokens a step.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .pack import DomainPack, Example, Turn
from .parsing import split_reasoning

_OBSERVATION_HEADING = "**Environment Observation:**"


def _fence(action: str) -> str:
    language = "json" if _is_json(action) else ""
    return f"```{language}\n{action}\n```"


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def user_turn(number: int, action: str, task: str = "", state: str = "", note: str = "", examples: str = "") -> str:
    """`note`: what the world knows of its files now (a state tracker's block), shown as current state.
    `examples`: real steps like this one, recorded in this environment (tools/data/retrieval.py)."""
    parts = [f"### Turn {number}"]
    if task:
        parts.append(f"**Task Instruction:**\n{task}")
    if state or note:
        parts.append("**Current State:**\n" + "\n\n".join(part for part in (state, note) if part))
    if examples:
        parts.append(f"**Real steps like this one, recorded in this environment:**\n{examples}")
    parts.append(f"**Action:**\n{_fence(action)}")
    return "\n\n".join(parts)


def assistant_turn(observation: str, wrapped: bool) -> str:
    body = f"<predicted_observation>\n{observation}\n</predicted_observation>" if wrapped else observation
    return f"{_OBSERVATION_HEADING}\n{body}"


def system_prompt(pack: DomainPack, demonstrations: bool, tool_definitions: str = "") -> str:
    """The pack's instructions with its placeholders filled.

    `{demonstrations}` takes the rendered examples (or nothing); instructions without the
    placeholder get them appended. `{tool_definitions}` takes the simulated server's tools.
    """
    shown = ""
    if demonstrations and pack.examples:
        rendered = "\n\n".join(_render_example(index, example, pack) for index, example in enumerate(pack.examples, 1))
        shown = f"Each demonstration shows the turns of one session and the observation for each action.\n\n{rendered}"
    text = pack.instructions.replace("{tool_definitions}", tool_definitions or "(no tool definitions were given)")
    if "{demonstrations}" in text:
        return text.replace("{demonstrations}", shown or "(none)")
    return f"{text}\n\n# Demonstrations\n{shown}" if shown else text


def _render_example(index: int, example: Example, pack: DomainPack) -> str:
    lines = [f"## Demonstration {index}"]
    for number, turn in enumerate(example.turns, 1):
        first = number == 1
        lines.append(user_turn(number, turn.action, example.task if first else "", example.state if first else ""))
        lines.append(assistant_turn(turn.observation, pack.wrapped_observation))
    return "\n\n".join(lines)


def history_reply(reply: str) -> str | None:
    """A predicted reply as later turns show it: verbatim, less any think block (None if nothing is left)."""
    if "<think>" not in reply and "</think>" not in reply:
        return reply
    return split_reasoning(reply)[1].lstrip("\n") or None


def render_messages(
    pack: DomainPack,
    history: Sequence[Turn],
    action: str,
    task: str = "",
    state: str = "",
    demonstrations: bool = True,
    tool_definitions: str = "",
    note: str = "",
    examples: str = "",
) -> list[dict[str, str]]:
    """Chat messages that ask the world model for the observation of `action`; `note` is the world's
    known state and `examples` real steps like it, both shown in the action's own turn."""
    messages = [{"role": "system", "content": system_prompt(pack, demonstrations, tool_definitions)}]
    turns = [*history, Turn(action, "", note=note, examples=examples)]
    for number, turn in enumerate(turns, 1):
        first = number == 1
        content = user_turn(number, turn.action, task if first else "", state if first else "", turn.note, turn.examples)
        messages.append({"role": "user", "content": content})
        if number < len(turns):
            content = turn.reply if turn.reply is not None else assistant_turn(turn.observation, pack.wrapped_observation)
            messages.append({"role": "assistant", "content": content})
    return messages
