"""The store's real steps out as a benchmark or a training set, one split at a time.

- `agentworldbench`: `<domain>_test.jsonl`, one line per real turn in the reference benchmark's
  format (system_str, prompt, response, current_prompt, turn_idx, total_turns), which `eval samples`
  reads: a user's own benchmark from their own sessions.
- `chat`: `chat.jsonl`, one conversation per real step in the world model's own prompt protocol
  (system, the user turns, the real observation as the assistant's reply), `{"messages": [...]}` as
  the common fine-tuning trainers read it.

A world's real steps count up to its first predicted one: past that, the history is no longer
real. Everything written goes through the redactor again: a store may hold steps recorded with
`--redaction off` or imported with `--no-redact`, or redacted by an older, weaker redactor.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TextIO

from ...domains import DomainPack, Turn
from ...domains.protocol import assistant_turn, render_messages, system_prompt, user_turn
from ...tools.data.redaction import Redactor
from ...tools.data.session_split import TEST_FRACTION, session_key, split_of
from ...tools.tool_definitions import parse_tool_definitions
from ...tools.worlds.store import Store, WorldRow

ExportFormat = Literal["agentworldbench", "chat"]
SplitChoice = Literal["train", "test", "all"]


@dataclass
class ExportSummary:
    files: list[Path] = field(default_factory=list)
    lines: Counter[str] = field(default_factory=Counter)  # domain: lines written
    worlds: int = 0
    skipped: Counter[str] = field(default_factory=Counter)


def export(store: Store, packs: dict[str, DomainPack], form: ExportFormat, split: SplitChoice, out: Path,
           redactor: Redactor | None, test_fraction: float = TEST_FRACTION) -> ExportSummary:
    summary = ExportSummary()
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, TextIO] = {}
    try:
        for row, turns in _real_worlds(store, split, test_fraction, summary):
            pack = packs.get(row.domain)
            if pack is None:
                summary.skipped[f"worlds of unknown domain {row.domain}"] += 1
                continue
            summary.worlds += 1
            clean = _cleaner(redactor)
            turns = [Turn(clean(turn.action), clean(turn.observation)) for turn in turns]
            task, state = clean(row.task), clean(row.state)
            name = f"{row.domain}_test.jsonl" if form == "agentworldbench" else "chat.jsonl"
            if name not in files:
                files[name] = (out / name).open("w", encoding="utf-8")
                summary.files.append(out / name)
            sink = files[name]
            lines = _bench_lines(row, pack, turns, task, state) if form == "agentworldbench" else \
                _chat_lines(row, pack, turns, task, state)
            for line in lines:
                sink.write(json.dumps(line, ensure_ascii=False) + "\n")
                summary.lines[row.domain] += 1
    finally:
        for sink in files.values():
            sink.close()
    return summary


def _real_worlds(store: Store, split: SplitChoice, test_fraction: float,
                 summary: ExportSummary) -> Iterator[tuple[WorldRow, list[Turn]]]:
    for row, count in store.worlds(limit=None):
        if count == 0:
            continue
        if split != "all" and split_of(session_key(row.id, row.origin), test_fraction) != split:
            continue
        turns = []
        for step in store.steps(row.id):
            if step.source != "real":
                break
            turns.append(Turn(step.action, step.observation))
        if turns:
            yield row, turns
        else:
            summary.skipped["worlds without a real first step"] += 1


def _tools(row: WorldRow) -> str:
    """An mcp world's tool definitions as the system prompt shows them."""
    if not row.tools:
        return ""
    return parse_tool_definitions(row.tools, 10**7).prompt_text()  # as a prediction's prompt shows them


def _bench_lines(row: WorldRow, pack: DomainPack, turns: list[Turn], task: str, state: str) -> Iterator[dict]:
    system = system_prompt(pack, False, _tools(row))
    prompts = [user_turn(number, turn.action, task if number == 1 else "", state if number == 1 else "")
               for number, turn in enumerate(turns, 1)]
    for index in range(1, len(turns) + 1):
        yield {"task": row.domain, "id": f"{row.id}-{index}", "system_str": system, "prompt": prompts[:index],
               "response": [turn.observation for turn in turns[:index]], "current_prompt": prompts[index - 1],
               "turn_idx": index, "total_turns": len(turns), "action": turns[index - 1].action}


def _chat_lines(row: WorldRow, pack: DomainPack, turns: list[Turn], task: str, state: str) -> Iterator[dict]:
    tools = _tools(row)
    for index, turn in enumerate(turns):
        messages = render_messages(pack, turns[:index], turn.action, task, state, True, tools)
        messages.append({"role": "assistant", "content": assistant_turn(turn.observation, pack.wrapped_observation)})
        yield {"messages": messages, "domain": row.domain, "id": f"{row.id}-{index + 1}"}


def _cleaner(redactor: Redactor | None):
    if redactor is None:
        return lambda text: text
    return lambda text: redactor.redact(text)[0]
