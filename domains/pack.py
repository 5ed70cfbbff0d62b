"""A domain pack: everything the server knows about one kind of environment.

A pack is a folder: `pack.json` (names, formats, sampling, initial state), `instructions.md`
(the world-model system prompt), `examples.json` (short demonstration trajectories; `error_markers` in pack.json are phrases that
mark a failed action in an observation) and, for
built-in packs, an optional `actions.py` whose `normalize_action(text) -> text` validates an
action and rewrites convenience forms before anything reaches the model.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ActionError(ValueError):
    """An action the domain cannot accept; the message shows the expected shape."""


@dataclass(frozen=True)
class Turn:
    action: str
    observation: str


@dataclass(frozen=True)
class Example:
    task: str
    state: str
    turns: tuple[Turn, ...]


def _keep_as_is(action: str) -> str:
    return action


@dataclass(frozen=True)
class DomainPack:
    name: str
    title: str
    summary: str
    instructions: str
    action_format: str
    observation_format: str
    wrapped_observation: bool
    initial_state: str
    examples: tuple[Example, ...] = ()
    sampling: dict[str, Any] = field(default_factory=dict)
    error_markers: tuple[str, ...] = ()
    normalize_action: Callable[[str], str] = _keep_as_is


def load_pack(folder: Path, actions_module: str | None = None) -> DomainPack:
    meta = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    examples_file = folder / "examples.json"
    examples = json.loads(examples_file.read_text(encoding="utf-8")) if examples_file.exists() else []
    normalize = _keep_as_is
    if actions_module is not None:
        normalize = importlib.import_module(actions_module).normalize_action
    return DomainPack(
        name=meta["name"],
        title=meta["title"],
        summary=meta["summary"],
        instructions=(folder / "instructions.md").read_text(encoding="utf-8").strip(),
        action_format=meta["action_format"],
        observation_format=meta["observation_format"],
        wrapped_observation=bool(meta.get("wrapped_observation", False)),
        initial_state=meta.get("initial_state", ""),
        examples=tuple(
            Example(
                task=example.get("task", ""),
                state=example.get("state", ""),
                turns=tuple(Turn(turn["action"], turn["observation"]) for turn in example["turns"]),
            )
            for example in examples
        ),
        sampling=meta.get("sampling", {}),
        error_markers=tuple(meta.get("error_markers", ())),
        normalize_action=normalize,
    )
