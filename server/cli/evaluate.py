"""`agentworld-mcp eval`: how right the model is. `eval samples FILES...` scores one-step predictions on
AgentWorldBench-format samples (also called `eval bench`), `eval drift` whole scenarios against a
real shell, and `eval gate` a gate's decisions. The evaluations themselves live in server/evals/."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from .flags import Parents
from .prepared import Prepared

if TYPE_CHECKING:  # the rest loads only when the command runs: every server start parses these flags
    from ...tools.worlds.store import Store
    from ..evals.samples import BenchSample


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    model_flags = parents.model
    evaluate = commands.add_parser("eval", help="measure how right the model is")
    kinds = evaluate.add_subparsers(dest="evaluation", required=True)
    bench = kinds.add_parser(
        "samples", aliases=["bench"], parents=[model_flags], help="one-step predictions on AgentWorldBench-format samples, scored without a judge",
        description="Teacher-forced: each sample's real earlier turns are the history. Reruns skip samples already "
        "in OUT/results.jsonl. Prints a Markdown table; OUT/report.json holds every figure.",
    )
    bench.add_argument("paths", nargs="+", type=Path, metavar="DIR_OR_FILE", help="<domain>_test.jsonl files or folders")
    bench.add_argument("--out", type=Path, default=Path("eval-results"), help="where results and the report go (eval-results)")
    bench.add_argument("--limit", type=int, help="at most this many samples per domain, in file order")
    bench.add_argument("--max-tokens", type=int, default=512, help="most tokens per prediction (512)")
    bench.add_argument("--temperature", type=float, default=0.0, help="sampling temperature (0: greedy, reproducible)")
    bench.add_argument("--judge-url", help="an OpenAI-compatible endpoint that also grades each prediction on the five "
                       "dimensions (format, factuality, consistency, realism, quality); samples already done are not re-graded")
    bench.add_argument("--judge-model", help="the judge's model name on that endpoint (default: the one it serves)")
    bench.add_argument("--domain-prompts", action="store_true",
                       help="use this server's own system prompt per domain instead of each sample's system_str")
    drift = kinds.add_parser(
        "drift", parents=[model_flags], help="closed-loop drift of the terminal domain against a real sandboxed shell",
        description="Each scenario's commands are simulated teacher-forced, closed loop, and anchored (reality recorded "
        "into the world every K steps), and compared with what a real bash printed. Prints a Markdown table; "
        "OUT/drift.json holds every step.",
    )
    drift.add_argument("scenarios", nargs="?", type=Path, help="a scenarios JSONL file (default: the shipped set)")
    drift.add_argument("--live", action="store_true", help="run the commands in a fresh sandbox now instead of using "
                       "the recorded reality (a scenario that records none always runs live)")
    drift.add_argument("--anchor-every", type=_positive, default=2, help="anchored mode: record reality every K steps (2)")
    drift.add_argument("--diverge-below", type=float, default=0.6,
                       help="a step diverges when its output similarity is below this, or success/failure disagree (0.6)")
    drift.add_argument("--limit", type=int, help="at most this many scenarios")
    drift.add_argument("--max-tokens", type=int, default=128, help="most tokens per prediction (128)")
    drift.add_argument("--out", type=Path, default=Path("eval-results"), help="where the report goes (eval-results)")
    _add_gate_parser(kinds, model_flags)


def _add_gate_parser(kinds, model_flags: argparse.ArgumentParser) -> None:
    gate = kinds.add_parser(
        "gate", parents=[model_flags], help="how well a gate tells harmful commands from harmless ones: world model, "
        "LLM judge and static rules on the same really-measured cases",
        description="Each line of CASES.jsonl: {id, domain, cwd, history, action, labels: {fails, removes, overwrites, "
        "outside}}. Nothing is executed. OUT/gate.json holds every decision.")
    gate.add_argument("cases", nargs="?", type=Path, help="a cases JSONL file (default: the shipped set)")
    gate.add_argument("--modes", default="world,judge,static", help="comma-separated: world, judge, static (all)")
    gate.add_argument("--limit", type=int, help="at most this many cases")
    gate.add_argument("--max-tokens", type=int, default=128, help="most tokens per model answer (128)")
    gate.add_argument("--report", type=Path, help="also write the JSON report here (OUT/gate.json is always written)")
    gate.add_argument("--out", type=Path, default=Path("eval-results"), help="where the report goes (eval-results)")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    settings, domains, model = prepared.settings, prepared.domains, prepared.model  # packs first, as elsewhere
    if args.evaluation == "drift":
        return asyncio.run(_drift(args, settings, model, domains))
    if args.evaluation == "gate":
        return asyncio.run(_gate(args, settings, model, domains))
    from ..evals.samples import SampleError, load_samples

    try:
        samples = load_samples(args.paths, domains)
    except (SampleError, OSError) as exc:
        print(f"agentworld-mcp: {exc}", file=sys.stderr)
        return 2
    if args.limit is not None:
        samples = _first_per_domain(samples, args.limit)
    store = prepared.store(settle_jobs=False) if settings.retrieval == "on" else None
    return asyncio.run(_bench(args, settings, model, domains, samples, store))


def _first_per_domain(samples: list[BenchSample], limit: int) -> list[BenchSample]:
    taken: dict[str, int] = {}
    kept = []
    for sample in samples:
        taken[sample.domain] = taken.get(sample.domain, 0) + 1
        if taken[sample.domain] <= limit:
            kept.append(sample)
    return kept


async def _bench(args, settings, model, domains, samples, store: Store | None) -> int:
    from ...engine import Sampling
    from ...tools.data.retrieval import RealStepIndex
    from ...tools.simulation.simulate import SamplingOverrides, thinking_budget
    from ..evals.judge import Judge
    from ..evals.one_step import progress_line, run_bench
    from ..evals.report import markdown, sample_set, summarize
    from ..runtime import action_text, build_context

    sampling = Sampling(temperature=args.temperature, max_tokens=args.max_tokens, seed=0)
    ctx = build_context(settings.model_copy(update={"result_cache": 0}), model, domains)
    # The store's train steps as examples: the user's own recorded reality, never a test sample's session.
    retrieval = RealStepIndex(store, partial(action_text, domains)) if store is not None else None
    judge = None
    if args.judge_url:
        key = os.environ.get("AGENTWORLD_JUDGE_API_KEY")  # a key in the environment, never on the command line
        judge = Judge(args.judge_url, args.judge_model, key, settings.upstream_prompts)
    ctx.engine.start()
    try:
        described = await ctx.engine.wait_ready()
        results = await run_bench(ctx.engine, domains, samples, sampling, args.out / "results.jsonl",
                                  thinking_budget=thinking_budget(ctx, SamplingOverrides(), sampling),  # the tools' rule
                                  use_domain_prompts=args.domain_prompts, judge=judge, on_done=progress_line,
                                  retrieval=retrieval)
    finally:
        ctx.engine.close()
        if judge is not None:
            await judge.close()
    about = {
        "model": {"name": described.name, "file": described.file},
        "backend": described.architecture if described.file.startswith("http") else "llama.cpp in process",
        "sampling": {"temperature": sampling.temperature, "max_tokens": sampling.max_tokens, "seed": sampling.seed},
        "system_prompts": "domain" if args.domain_prompts else "sample",
        "judge": {"url": judge.url, "model": args.judge_model} if judge else None,
        "retrieval": {"store": store.where, "train_steps": retrieval.size()}
        if store is not None and retrieval is not None else "off",
        "sample_set": sample_set(samples),  # the viewer sets runs on the same samples side by side
    }
    report = summarize(results, about)
    return _publish(args.out, "report", report, markdown(report))


async def _drift(args, settings, model, domains) -> int:
    import tempfile

    from ...tools.worlds.store import Store
    from ..evals.drift import drift_markdown, load_scenarios, recorded, run_for_real, simulate_modes, summarize_drift
    from ..evals.make_scenarios import SHIPPED
    from ..evals.one_step import progress_line
    from ..runtime import build_context

    path = args.scenarios or SHIPPED
    try:
        scenarios = load_scenarios(path)[: args.limit]
    except (OSError, ValueError) as exc:
        print(f"agentworld-mcp: {exc}", file=sys.stderr)
        return 2
    # --live runs every scenario in the sandbox now; a scenario with no recorded reality always does.
    unrecorded = sum(not recorded(scenario) for scenario in scenarios)
    scenarios = [run_for_real(scenario) if args.live or not recorded(scenario) else scenario for scenario in scenarios]
    store = Store(Path(tempfile.mkdtemp(prefix="agentworld-drift-")) / "worlds.sqlite3")  # worlds of this run only
    ctx = build_context(settings.model_copy(update={"result_cache": 0}), model, domains, store=store, keep_jobs=False)
    sampling = {"temperature": 0, "max_tokens": args.max_tokens, "seed": 0}
    ctx.engine.start()
    try:
        described = await ctx.engine.wait_ready()
        per_scenario = {}
        for number, scenario in enumerate(scenarios, 1):
            per_scenario[scenario.id] = await simulate_modes(ctx, scenario, args.anchor_every, args.diverge_below, sampling)
            progress_line(number, len(scenarios))
    finally:
        ctx.engine.close()
    about = {"model": {"name": described.name, "file": described.file}, "scenarios_file": str(path),
             "reality": "live sandbox" if args.live or unrecorded == len(scenarios) else
             f"recorded ({unrecorded} scenarios without it ran live)" if unrecorded else "recorded",
             "anchor_every": args.anchor_every,
             "diverge_below": args.diverge_below, "sampling": sampling, "effects": settings.effects}
    report = summarize_drift(per_scenario, about)
    return _publish(args.out, "drift", report, drift_markdown(report))


async def _gate(args, settings, model, domains) -> int:
    import tempfile

    from ...tools.worlds.store import Store
    from ..evals.gate import MODES, CaseError, gate_markdown, load_cases, run_gate
    from ..evals.make_gate_cases import SHIPPED
    from ..evals.one_step import progress_line
    from ..runtime import build_context

    modes = list(dict.fromkeys(mode.strip() for mode in args.modes.split(",") if mode.strip()))  # each once
    unknown = [mode for mode in modes if mode not in MODES]
    if unknown or not modes:
        print(f"agentworld-mcp: --modes {args.modes!r}: choose from {', '.join(MODES)}", file=sys.stderr)
        return 2
    try:
        cases = load_cases(args.cases or SHIPPED)[: args.limit]
    except (OSError, CaseError) as exc:
        print(f"agentworld-mcp: {exc}", file=sys.stderr)
        return 2
    folder = tempfile.TemporaryDirectory(prefix="agentworld-gate-")  # worlds of this run only
    store = Store(Path(folder.name) / "worlds.sqlite3")
    ctx = build_context(settings.model_copy(update={"result_cache": 0}), model, domains, store=store, keep_jobs=False)
    ctx.engine.start()
    try:
        described = await ctx.engine.wait_ready()
        result = await run_gate(ctx, cases, modes, args.max_tokens, on_done=progress_line)
    finally:
        ctx.engine.close()
        store.close()
        folder.cleanup()
    result["model"] = {"name": described.name, "file": described.file}
    result["effects"] = settings.effects
    if args.report is not None:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return _publish(args.out, "gate", result, gate_markdown(result))


def _publish(out: Path, name: str, report: dict, table: str) -> int:
    """OUT/NAME.json with every figure, OUT/NAME.md with the table, and the table on stdout."""
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (out / f"{name}.md").write_text(table + "\n", encoding="utf-8")
    print(table)
    return 0
