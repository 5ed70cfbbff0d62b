"""Turning a world model's raw reply into an observation, without ever raising.

Replies look like `<think>...</think>` followed by the observation; GUI domains wrap the
observation in `<predicted_observation>` tags. Small or untrained models add echoes of the
prompt's headings, fences, unclosed tags or nothing at all: each case yields either an
observation or a `parse_error` that says what was wrong (the caller keeps the raw text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.DOTALL)
_OBSERVATION_BLOCK = re.compile(r"<predicted_observation>(.*?)</predicted_observation>", re.DOTALL)
_OBSERVATION_HEADING = re.compile(r"^\s*(\*\*)?Environment Observation:?(\*\*)?:?\s*", re.IGNORECASE)
_WHOLE_FENCE = re.compile(r"^```[\w-]*\n(.*?)\n?```$", re.DOTALL)


@dataclass(frozen=True)
class ParsedReply:
    observation: str
    reasoning: str | None
    parse_error: str | None


def split_reasoning(raw: str) -> tuple[str | None, str]:
    """Separate the think block(s) from the rest. An unclosed `<think>` is all reasoning."""
    reasoning_parts = [match[len("<think>") : -len("</think>")].strip() for match in _THINK_BLOCK.findall(raw)]
    rest = _THINK_BLOCK.sub("", raw)
    if "</think>" in rest:  # template opened the block in the prompt: only the closing tag is generated
        head, _, rest = rest.rpartition("</think>")
        reasoning_parts.append(head.replace("<think>", "").strip())
    elif "<think>" in rest:
        head, _, tail = rest.partition("<think>")
        reasoning_parts.append(tail.strip())
        rest = head
    reasoning = "\n\n".join(part for part in reasoning_parts if part) or None
    return reasoning, rest


def parse_reply(raw: str, wrapped: bool) -> ParsedReply:
    """`wrapped`: the domain asks for one `<predicted_observation>` block (GUI domains)."""
    reasoning, rest = split_reasoning(raw)
    if wrapped:
        blocks = _OBSERVATION_BLOCK.findall(rest)
        if blocks:
            return _finish(blocks[-1], reasoning)  # the last complete block wins, as in the reference
        if "<predicted_observation>" in rest:  # opened but never closed: take what follows the tag
            rest = rest.rpartition("<predicted_observation>")[2]
    return _finish(rest, reasoning)


def _finish(text: str, reasoning: str | None) -> ParsedReply:
    text = _OBSERVATION_HEADING.sub("", text.strip(), count=1).strip()
    fenced = _WHOLE_FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    text = text.strip("\n")
    if text.strip():
        return ParsedReply(text, reasoning, None)
    why = "the model produced only reasoning and no observation" if reasoning else "the model produced no observation"
    return ParsedReply("", reasoning, why)
