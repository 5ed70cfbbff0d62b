"""Reading samples in AgentWorldBench's format: one `<domain>_test.jsonl` per domain.

Each line is one turn of a real trajectory: `system_str` (the system prompt), `prompt` (the per-turn
user messages, each holding an action), `response` (the real observations), `turn_idx` (1-based)
and `current_prompt` (this turn's message). The sample asks for the observation of turn `turn_idx`
with the real earlier turns as history (teacher forcing).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from ...engine.errors import InputError
from ..input_files import json_lines


class SampleError(InputError):
    """A benchmark file or line that cannot be read; the message names the file and line."""


@dataclass(frozen=True)
class BenchSample:
    id: str
    domain: str
    system: str
    history: tuple[tuple[str, str], ...]  # (user message, real observation), oldest first
    message: str  # this turn's user message
    truth: str  # the real observation of this turn
    action: str = ""  # this turn's action, where the file gives it (`export` does) or the message shows it

    @property
    def before(self) -> str:
        """The action of the turn before this one, as its message shows it; "" for a first turn."""
        return _action_in(self.history[-1][0]) if self.history else ""

    def with_examples(self, examples: str) -> BenchSample:
        """This sample with real steps like its action shown in its message, where `simulate_action` shows them."""
        if not examples:
            return self
        section = f"**Real steps like this one, recorded in this environment:**\n{examples}\n\n"
        at = self.message.rfind("**Action:**")
        message = self.message[:at] + section + self.message[at:] if at >= 0 else section + self.message
        return replace(self, message=message)

    def messages(self, system: str | None = None) -> list[dict[str, str]]:
        """The chat the model continues; `system` replaces the sample's own system prompt."""
        chat = [{"role": "system", "content": self.system if system is None else system}]
        for user, observation in self.history:
            chat += [{"role": "user", "content": user}, {"role": "assistant", "content": observation}]
        return chat + [{"role": "user", "content": self.message}]


def sample_files(paths: Iterable[Path]) -> list[Path]:
    """The files named, and every `*_test.jsonl` in the folders named."""
    paths = list(paths)
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(path.glob("*_test.jsonl"))
        elif path.is_file():
            files.append(path)
        else:
            raise SampleError(f"{path}: no such file or folder")
    if not files:
        raise SampleError(f"no benchmark files in {', '.join(map(str, paths))}: give <domain>_test.jsonl files or a "
                          "folder holding them")
    return files


def load_samples(paths: Iterable[Path], domains: Iterable[str]) -> list[BenchSample]:
    known = set(domains)
    samples: list[BenchSample] = []
    for file in sample_files(paths):
        file_domain = file.name.removesuffix(".jsonl").removesuffix("_test").lower()
        for number, data in json_lines(file, "benchmark"):
            samples.append(_sample(data, file_domain, known, f"{file}:{number}"))
    twice = next((id_ for id_, n in Counter(sample.id for sample in samples).items() if n > 1), None)
    if twice is not None:
        raise SampleError(f"sample id {twice!r} appears twice; ids must be unique across the files given")
    return samples




def _sample(data: dict, file_domain: str, known: set[str], where: str) -> BenchSample:
    domain = file_domain if file_domain in known else str(data.get("task", "")).lower()
    if domain not in known:
        raise SampleError(f"{where}: unknown domain {file_domain!r}; name files <domain>_test.jsonl, "
                          f"with a domain of {', '.join(sorted(known))}")
    try:
        prompts, responses = list(data["prompt"]), list(data["response"])
        turn = int(data["turn_idx"])
        system = str(data["system_str"])
    except (KeyError, TypeError, ValueError) as exc:
        raise SampleError(f"{where}: needs prompt and response lists, turn_idx and system_str ({exc})") from None
    if not 1 <= turn <= len(prompts) or len(responses) < turn:
        raise SampleError(f"{where}: turn_idx {turn} is outside its {len(prompts)} prompts and {len(responses)} responses")
    message = str(data.get("current_prompt") or prompts[turn - 1])
    history = tuple((str(p), str(r)) for p, r in zip(prompts[: turn - 1], responses[: turn - 1]))
    sample_id = str(data.get("id", where))
    action = str(data.get("action") or _action_in(message))
    return BenchSample(f"{domain}/{sample_id}", domain, system, history, message, str(responses[turn - 1]), action)


def _action_in(message: str) -> str:
    """The action a turn's message shows: after its last `Action:` heading, less a code fence."""
    at = max(message.rfind("**Action:**"), message.rfind("Action:"))
    if at < 0:
        return ""
    body = message[at:].split(":", 1)[1].strip().strip("*").strip()
    fenced = re.match(r"```[\w-]*\n(.*?)\n```", body, re.DOTALL)
    return fenced[1] if fenced else body
