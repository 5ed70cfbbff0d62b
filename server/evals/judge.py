"""An LLM judge on AgentWorldBench's five dimensions, asked over any OpenAI-compatible endpoint.

The judge sees the turn's history, the action, the real observation and the prediction, and
rates the prediction 1-5 on each dimension; a sample's judge score is the mean mapped to 0-100
by (x - 1) / 4 * 100, as the reference benchmark does. The instructions are this project's own,
or the user's upstream `<domain>/judge_system_prompt.txt` where they have one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from statistics import mean

import httpx2

from ...engine.errors import EngineError
from ...engine.remote.backend import api_root
from .samples import BenchSample

DIMENSIONS = ("format", "factuality", "consistency", "realism", "quality")

_INSTRUCTIONS = """You grade a simulated environment. An agent acted; a world model predicted what the \
environment would show; the real environment's observation is given too. Rate the PREDICTION against the \
REAL observation from 1 (worst) to 5 (best) on each dimension:
- format: it has the shape, encoding and layout the environment uses (screen, JSON, tree, tool output).
- factuality: what it states is what really happened (values, results, errors, success or failure).
- consistency: it agrees with the history (files, ids, state carried over from earlier turns).
- realism: a real environment could have printed it; nothing invented that the environment would not show.
- quality: overall usefulness as a stand-in for the real observation.
Reply with JSON only: {"format": n, "factuality": n, "consistency": n, "realism": n, "quality": n}."""

_VERDICT_SCHEMA = {
    "type": "object",
    "properties": {name: {"type": "integer", "minimum": 1, "maximum": 5} for name in DIMENSIONS},
    "required": list(DIMENSIONS),
    "additionalProperties": False,
}
_HISTORY_TURNS = 4  # the judge sees the last few turns; older ones rarely decide a grade


class JudgeError(EngineError):
    """The judge could not be asked or gave no usable verdict."""


@dataclass(frozen=True)
class Verdict:
    ratings: dict[str, int]

    @property
    def score(self) -> float:
        """0-100, as the reference maps its 1-5 scale."""
        return round((mean(self.ratings.values()) - 1) / 4 * 100, 2)


class Judge:
    def __init__(self, base_url: str, model: str | None, api_key: str | None = None,
                 upstream_prompts: Path | None = None, timeout: float = 300.0):
        self.url = api_root(base_url) + "/chat/completions"
        self.model = model
        self.upstream_prompts = upstream_prompts
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx2.AsyncClient(timeout=timeout, headers=headers)

    def instructions(self, domain: str) -> str:
        if self.upstream_prompts is not None:
            theirs = self.upstream_prompts / domain / "judge_system_prompt.txt"
            if theirs.is_file():
                return theirs.read_text(encoding="utf-8")
        return _INSTRUCTIONS

    async def rate(self, sample: BenchSample, predicted: str) -> Verdict:
        history = "\n\n".join(f"ACTION:\n{user}\nOBSERVATION:\n{observation}" for user, observation in sample.history[-_HISTORY_TURNS:])
        question = (f"HISTORY (latest turns):\n{history or '(none)'}\n\nACTION:\n{sample.message}\n\n"
                    f"REAL OBSERVATION:\n{sample.truth}\n\nPREDICTION:\n{predicted}")
        body = {
            "messages": [{"role": "system", "content": self.instructions(sample.domain)}, {"role": "user", "content": question}],
            "temperature": 0,
            "max_tokens": 200,
            "response_format": {"type": "json_schema", "json_schema": {"name": "verdict", "schema": _VERDICT_SCHEMA}},
            **({"model": self.model} if self.model else {}),
        }
        try:
            response = await self._http.post(self.url, json=body)
        except httpx2.HTTPError as exc:
            raise JudgeError(f"the judge at {self.url} could not be reached ({exc.__class__.__name__}: {exc})") from None
        if response.status_code != 200:
            raise JudgeError(f"the judge at {self.url} answered {response.status_code}: {response.text[:200]}")
        try:
            content = response.json()["choices"][0]["message"]["content"]
            ratings = {name: int(json.loads(content)[name]) for name in DIMENSIONS}
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise JudgeError(f"the judge's reply is not a verdict ({exc.__class__.__name__}: {exc})") from None
        if not all(1 <= value <= 5 for value in ratings.values()):
            raise JudgeError(f"the judge rated outside 1-5: {ratings}")
        return Verdict(ratings)

    async def close(self) -> None:
        await self._http.aclose()
