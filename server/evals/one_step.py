"""`eval samples`: predict each sample's observation with the configured backend and score it.

Results are appended to a JSONL file as they finish, so a rerun skips the samples already done
(an interrupted run resumes). Samples run concurrently up to the backend's slots; the engine's
queue does the rest.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from ...domains import DomainPack
from ...domains.boundaries import ObservationEnd, observation_end
from ...domains.parsing import parse_reply
from ...domains.protocol import system_prompt
from ...engine import Engine, GenerationRequest, Priority, Sampling
from ...tools.data.retrieval import RealStepIndex
from ...tools.data.retrieval import render as render_examples
from .judge import Judge, JudgeError
from .metrics import score
from .samples import BenchSample


@dataclass(frozen=True)
class SampleResult:
    id: str
    domain: str
    similarity: float
    exact: bool
    outcome_agrees: bool | None
    predicted: str
    parse_error: str | None
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    judge: dict[str, int] | None = None  # the five 1-5 ratings, when a judge was asked
    judge_score: float | None = None  # their mean mapped to 0-100
    judge_error: str | None = None
    retrieved_steps: int = 0  # real steps shown as examples (--retrieval on)


def read_results(results_file: Path) -> list[SampleResult]:
    lines = results_file.read_text(encoding="utf-8").splitlines() if results_file.exists() else []
    return [SampleResult(**json.loads(line)) for line in lines if line.strip()]


async def predict_sample(engine: Engine, pack: DomainPack, sample: BenchSample, sampling: Sampling,
                         thinking_budget: int | None = None, system: str | None = None,
                         judge: Judge | None = None, retrieval: RealStepIndex | None = None) -> SampleResult:
    """`thinking_budget`: the most tokens a reasoning model may think before it must answer. `retrieval`:
    the store's train steps most like the sample's action are shown in its message, as a prediction shows them."""
    found = await asyncio.to_thread(retrieval.nearest, sample.domain, sample.action, before=sample.before) \
        if retrieval is not None and sample.action else []
    sample = sample.with_examples(render_examples(found))
    end_rule = _end_rule(pack, sample)
    request = GenerationRequest(tuple(sample.messages(system)), sampling, end_rule=end_rule, thinking_budget=thinking_budget)
    completion = await engine.generate(request, Priority.PLAN)
    reply = completion.text[: completion.end.at] if completion.end is not None else completion.text
    predicted = parse_reply(reply, pack.wrapped_observation, pack.observation_markdown)
    truth = parse_reply(sample.truth, pack.wrapped_observation).observation or sample.truth
    scores = score(predicted.observation, truth, pack)
    verdict, judge_error = None, None
    if judge is not None:
        try:
            verdict = await judge.rate(sample, predicted.observation)
        except JudgeError as exc:
            judge_error = str(exc)
    return SampleResult(sample.id, sample.domain, scores.similarity, scores.exact, scores.outcome_agrees,
                        predicted.observation, predicted.parse_error, completion.prompt_tokens,
                        completion.completion_tokens, round(completion.generation_seconds + completion.queue_seconds, 3),
                        verdict.ratings if verdict else None, verdict.score if verdict else None, judge_error, len(found))


async def run_bench(engine: Engine, domains: dict[str, DomainPack], samples: list[BenchSample], sampling: Sampling,
                    results_file: Path, thinking_budget: int | None = None, use_domain_prompts: bool = False,
                    judge: Judge | None = None, on_done: Callable[[int, int], None] | None = None,
                    retrieval: RealStepIndex | None = None) -> list[SampleResult]:
    """Predict every sample not yet in `results_file`; returns all results in the file."""
    skip = {result.id for result in read_results(results_file)}
    todo = [sample for sample in samples if sample.id not in skip]
    gate = asyncio.Semaphore(max(1, engine.stats().workers))
    finished = 0
    results_file.parent.mkdir(parents=True, exist_ok=True)
    with results_file.open("a", encoding="utf-8") as sink:

        async def one(sample: BenchSample) -> None:
            nonlocal finished
            pack = domains[sample.domain]
            system = system_prompt(pack, demonstrations=False) if use_domain_prompts else None
            async with gate:
                result = await predict_sample(engine, pack, sample, sampling, thinking_budget, system, judge, retrieval)
            sink.write(json.dumps(asdict(result), ensure_ascii=False) + "\n")
            sink.flush()  # what is written survives an interrupted run
            finished += 1
            if on_done is not None:
                on_done(finished, len(todo))

        await asyncio.gather(*(one(sample) for sample in todo))
    wanted = {sample.id for sample in samples}
    return [result for result in read_results(results_file) if result.id in wanted]


def progress_line(done: int, total: int) -> None:
    """A one-line progress bar on a terminal; nothing when stderr is a file or pipe."""
    if sys.stderr.isatty():
        width = 30
        filled = width * done // max(total, 1)
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end="" if done < total else "\n",
              file=sys.stderr, flush=True)


def _end_rule(pack: DomainPack, sample: BenchSample) -> ObservationEnd | None:
    """Where the observation ends, as `simulate_action` ends it, so a sample measures what the server returns.
    A terminal's rule needs the keystrokes: a sample whose action is unknown or unreadable ends at the
    model's own stop (or max_tokens) instead."""
    if pack.observation_end != "shell-prompt":
        return observation_end(pack.observation_end)
    if not sample.action:
        return None
    try:
        typed = pack.action_text(pack.normalize_action(sample.action))
    except ValueError:  # InputError is one: a malformed action
        return None
    # The screen before: the last real turn's (a first turn's state sits inside its message, so none).
    previous = parse_reply(sample.history[-1][1], pack.wrapped_observation).observation or sample.history[-1][1] \
        if sample.history else ""
    return observation_end(pack.observation_end, typed, previous)
