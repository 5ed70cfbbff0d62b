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
# Markdown a model wraps an environment's plain output in: a fence line, and a line that is only a
# bold label (`**Screen after Action:**`). A terminal, a tool or an accessibility tree writes neither
# before its output, so in a domain whose observations are not Markdown they are not observation.
_FENCE_LINE = re.compile(r"^[ \t]*```[\w+.-]*[ \t]*$")
_LABEL_LINE = re.compile(r"^[ \t]*\*\*[^*\n]+\*\*:?[ \t]*$")


@dataclass(frozen=True)
class ParsedReply:
    observation: str
    reasoning: str | None
    parse_error: str | None
    trimmed: bool = False  # Markdown around a plain observation was taken off (the caller keeps the reply)


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


def parse_reply(raw: str, wrapped: bool, markdown: bool = True) -> ParsedReply:
    """`wrapped`: the domain asks for one `<predicted_observation>` block (GUI domains). `markdown`:
    its observations may be Markdown themselves (a page); otherwise Markdown around them is not theirs."""
    reasoning, rest = split_reasoning(raw)
    if wrapped:
        blocks = _OBSERVATION_BLOCK.findall(rest)
        if blocks:
            return _finish(blocks[-1], reasoning, markdown)  # the last complete block wins, as in the reference
        if "<predicted_observation>" in rest:  # opened but never closed: take what follows the tag
            rest = rest.rpartition("<predicted_observation>")[2]
    return _finish(rest, reasoning, markdown)


def _unwrapped(text: str) -> str:
    """A plain observation out of the Markdown around it: label and fence lines before it, and a
    fence that closes it with whatever follows (the model's comment on its own prediction)."""
    lines = text.splitlines()
    opened = False
    while lines and (not lines[0].strip() or _LABEL_LINE.match(lines[0]) or _FENCE_LINE.match(lines[0])):
        opened = opened or bool(_FENCE_LINE.match(lines[0]))
        lines.pop(0)
    if opened:  # the output was fenced: it ends where the fence closes
        close = next((index for index, line in enumerate(lines) if _FENCE_LINE.match(line)), None)
        lines = lines[:close] if close is not None else lines
    while lines and (not lines[-1].strip() or _FENCE_LINE.match(lines[-1])):
        lines.pop()
    return "\n".join(lines)


def _trim(text: str) -> str:
    """Blank lines off both ends; the first line keeps its indentation (aligned columns, code)."""
    return _LEADING_BLANK_LINES.sub("", text).rstrip()


def _finish(text: str, reasoning: str | None, markdown: bool = True) -> ParsedReply:
    text = before = _trim(_OBSERVATION_HEADING.sub("", _trim(text), count=1))
    fenced = _WHOLE_FENCE.match(text.strip())
    if fenced:
        text = _trim(fenced.group(1))
    if not markdown:
        text = _unwrapped(text)
    trimmed = text != before
    if text.strip():
        return ParsedReply(text, reasoning, None, trimmed)
    why = "the model produced only reasoning and no observation" if reasoning else "the model produced no observation"
    return ParsedReply("", reasoning, why)
