"""Turning a world model's raw reply into an observation, without ever raising.

Replies look like `<think>...</think>` followed by the observation; GUI domains wrap the
observation in `<predicted_observation>` tags. Small or untrained models add echoes of the
prompt's headings, fences, unclosed tags or nothing at all: each case yields either an
observation or a `parse_error` that says what was wrong (the caller keeps the raw text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_THINK_BLOCK = re.compile(r"<think>.*?</think>[ \t]*", re.DOTALL)  # spaces after it only separate
_OBSERVATION_BLOCK = re.compile(r"<predicted_observation>(.*?)</predicted_observation>", re.DOTALL)
_OBSERVATION_HEADING = re.compile(r"\A[ \t]*(\*\*)?Environment Observation:?(\*\*)?:?[ \t]*(\n|\Z)", re.IGNORECASE)
_LEADING_BLANK_LINES = re.compile(r"\A(?:[ \t]*\n)+")
_WHOLE_FENCE = re.compile(r"^```[\w-]*\n(.*?)\n?```$", re.DOTALL)


@dataclass(frozen=True)
class ParsedReply:
    observation: str
    reasoning: str | None
    parse_error: str | None


def split_reasoning(raw: str) -> tuple[str | None, str]:
    """Separate the think block(s) from the rest. An unclosed `<think>` is all reasoning."""
    reasoning_parts = [match.rstrip(" \t")[len("<think>") : -len("</think>")].strip() for match in _THINK_BLOCK.findall(raw)]
    rest = _THINK_BLOCK.sub("", raw)
    if "</think>" in rest:  # template opened the block in the prompt: only the closing tag is generated
        head, _, rest = rest.rpartition("</think>")
        rest = rest.lstrip(" \t")
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


def _trim(text: str) -> str:
    """Blank lines off both ends; the first line keeps its indentation (aligned columns, code)."""
    return _LEADING_BLANK_LINES.sub("", text).rstrip()


def _finish(text: str, reasoning: str | None) -> ParsedReply:
    text = _trim(_OBSERVATION_HEADING.sub("", _trim(text), count=1))
    fenced = _WHOLE_FENCE.match(text.strip())
    if fenced:
        text = _trim(fenced.group(1))
    if text.strip():
        return ParsedReply(text, reasoning, None)
    why = "the model produced only reasoning and no observation" if reasoning else "the model produced no observation"
    return ParsedReply("", reasoning, why)
