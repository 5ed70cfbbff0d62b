"""Per-domain and overall figures of a bench run, as JSON and as a Markdown table.

Two overalls, because they differ when domains have different sample counts: the mean of the
domain means (what AgentWorldBench's published table reports) and the mean over all samples.
"""

from __future__ import annotations

import hashlib
from statistics import mean
from typing import Any

from .judge import DIMENSIONS
from .one_step import SampleResult
from .samples import BenchSample


def _figures(results: list[SampleResult]) -> dict[str, Any]:
    outcomes = [r.outcome_agrees for r in results if r.outcome_agrees is not None]
    return {
        "samples": len(results),
        "similarity": round(mean(r.similarity for r in results), 4),
        "exact": round(mean(r.exact for r in results), 4),
        "outcome_agreement": round(mean(outcomes), 4) if outcomes else None,
        "parse_errors": sum(r.parse_error is not None for r in results),
        "with_real_examples": sum(r.retrieved_steps > 0 for r in results),  # shown real steps (--retrieval on)
        **_judged(results),
    }


def _judged(results: list[SampleResult]) -> dict[str, Any]:
    rated = _ratings(results)
    errors = sum(r.judge_error is not None for r in results)
    if not rated:
        return {"judge_score": None, "judge_errors": errors}
    return {
        "judge_score": round(mean(score for _, score in rated), 2),
        "judge_dimensions": {name: round(mean(ratings[name] for ratings, _ in rated), 3) for name in DIMENSIONS},
        "judged": len(rated),
        "judge_errors": errors,
    }


def _ratings(results: list[SampleResult]) -> list[tuple[dict[str, int], float]]:
    """The judged samples' ratings and score, which one_step sets together from one verdict."""
    rated = []
    for r in results:
        if r.judge is None:
            continue
        if r.judge_score is None:
            raise ValueError(f"sample {r.id}: judge ratings without a judge score")
        rated.append((r.judge, r.judge_score))
    return rated


def sample_set(samples: list[BenchSample]) -> str:
    """Which samples a run scored, as a short digest of their ids and texts: two runs with the same one
    can be compared (a sample's id may be only its place in a file)."""
    each = sorted(f"{sample.id}\t{hashlib.sha256(f'{sample.message}{sample.truth}'.encode()).hexdigest()}"
                  for sample in samples)
    digest = hashlib.sha256("\n".join(each).encode()).hexdigest()[:16]
    return f"{len(samples)}:{digest}"


def summarize(results: list[SampleResult], about: dict[str, Any]) -> dict[str, Any]:
    """`about`: the model, backend and sampling, stated with the figures."""
    by_domain = {domain: _figures([r for r in results if r.domain == domain])
                 for domain in sorted({r.domain for r in results})}
    domain_means = None
    if by_domain:
        domain_means = {key: round(mean(f[key] for f in by_domain.values()), 4) for key in ("similarity", "exact")}
        judged = [f["judge_score"] for f in by_domain.values() if f["judge_score"] is not None]
        domain_means["judge_score"] = round(mean(judged), 2) if judged else None
    return {
        **about,
        "domains": by_domain,
        "overall_mean_of_domains": domain_means,
        "overall_mean_of_samples": _figures(results) if results else None,
    }


def markdown(report: dict[str, Any]) -> str:
    lines = ["| domain | samples | similarity | exact | outcome agreement | parse errors | judge (0-100) |",
             "|---|---|---|---|---|---|---|"]

    def row(name: str, f: dict[str, Any]) -> str:
        agreement = "" if f.get("outcome_agreement") is None else f"{f['outcome_agreement']:.3f}"
        judge = "" if f.get("judge_score") is None else f"{f['judge_score']:.1f}"
        return (f"| {name} | {f.get('samples', '')} | {f['similarity']:.3f} | {f['exact']:.3f} | {agreement} "
                f"| {f.get('parse_errors', '')} | {judge} |")

    lines += [row(domain, figures) for domain, figures in report["domains"].items()]
    if report["overall_mean_of_domains"]:
        lines.append(row("Overall (mean of domain means)", report["overall_mean_of_domains"]))
        lines.append(row("Overall (mean of samples)", report["overall_mean_of_samples"]))
    return "\n".join(lines)
