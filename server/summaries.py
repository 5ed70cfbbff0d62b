"""How each tool's result reads as text: the text part of an MCP reply and the CLI's output alike.

Hosts often show a model only the text of a tool result, so the text says what the structured
content says that matters: the observation, whether the action succeeds, what it changes, which
rules it breaks. One function per result, named in the tool registry (tool_registry.py).
"""

from __future__ import annotations

import json

from ..tools.constraints import ConstraintReport
from ..tools.guard.policy import GuardVerdict
from ..tools.requests import GuardRequest, PlanRequest, WorldRequest
from ..tools.results import JobStatus, PlanResult, Prediction, WorldView
from .hosts.formats import render

_OUTCOMES = {True: "predicted to succeed", False: "predicted to FAIL", None: "outcome unclear"}


def prediction_text(prediction: Prediction, indent: str = "") -> str:
    """The observation, then the effects and the constraints."""
    if prediction.job_id:
        return f"{indent}Still running after the call budget: poll the job tool with job_id {prediction.job_id!r}."
    if prediction.blocked:
        return f"{indent}BLOCKED, {prediction.blocked}"
    lines = []
    if prediction.parse_error:
        lines.append(f"(no usable observation: {prediction.parse_error})")
        lines += (prediction.raw or "").splitlines()
    else:
        lines += prediction.observation.splitlines() or ["(empty screen)"]
    if prediction.truncated:
        lines.append("(cut off at max_tokens)")
    effects = prediction.effects
    if effects.source == "computed":
        lines.append(f"computed exactly from what the world knows (no model asked): exit status {effects.exit_code}")
    lines.append(f"effects: {_OUTCOMES[effects.success]}" + (f": {effects.error}" if effects.error else ""))
    lines += [f"  {change.change}: {change.entity}" for change in effects.changed]
    if prediction.constraints is not None:
        broken = [r for r in prediction.constraints.results if r.status != "holds"]
        lines.append("constraints: " + ("VIOLATED" if prediction.constraints.violated else "none violated"))
        lines += [f"  {r.id} ({r.severity}): {r.status}: {r.reason}" for r in broken]
    lines += [f"warning: {warning}" for warning in prediction.warnings]
    if prediction.committed is False:
        lines.append("NOT COMMITTED: the world did not keep this step (see the warning)")
    return "\n".join(indent + line for line in lines)


def plan_text(result: PlanResult, given_steps: list[str] | None = None) -> str:
    """Step by step; `given_steps` shows the actions as written rather than normalized."""
    verdict = result.verdict
    if verdict.status == "running":
        return f"{len(result.steps)} steps done; still running: poll the job tool with job_id {result.job_id!r}."
    given = given_steps or []
    lines = []
    for step in result.steps:
        lines.append(f"step {step.step}: {given[step.step - 1] if len(given) >= step.step else step.action}")
        lines.append(prediction_text(step.prediction, indent="    "))
    if verdict.status == "completed":
        lines.append(f"verdict: completed ({len(result.steps)} steps)")
    else:
        lines.append(f"verdict: stopped at step {verdict.stopped_at}: {verdict.reason}")
    for violation in verdict.violations:
        step_number = violation.evidence.step if violation.evidence else None
        lines.append(f"  step {step_number}: {violation.id} ({violation.severity}): {violation.status}: {violation.reason}")
    usage = result.usage
    lines.append(f"tokens: {usage.prompt_tokens} prompt ({usage.reused_prompt_tokens} reused), "
                 f"{usage.completion_tokens} generated in {usage.generation_seconds:.1f} s")
    return "\n".join(lines)


def report_text(report: ConstraintReport) -> str:
    counts: dict[str, int] = {}
    for result in report.results:
        counts[result.status] = counts.get(result.status, 0) + 1
    head = "VIOLATED" if report.violated else "No error-severity violation"
    lines = [f"{head}: " + ", ".join(f"{n} {status}" for status, n in counts.items())]
    lines += [f"- {r.id} ({r.severity}): {r.status}: {r.reason}" for r in report.results if r.status != "holds"]
    return "\n".join(lines)


def world_text(operation: str, view: WorldView) -> str:
    head = f"world {view.world_id} ({view.domain}): {len(view.steps)} steps" + (", closed" if view.closed else "")
    if operation == "record" and view.recorded is not None:
        recorded = view.recorded
        if recorded.anchored:
            head += f"; step {recorded.step} anchored to reality, similarity {recorded.similarity:.2f}"
        else:
            head += f"; real step {recorded.step} appended (no prediction to compare)"
    if view.drift.mean_similarity is not None:
        head += f"; mean similarity to reality {view.drift.mean_similarity:.2f} over {view.drift.compared_steps} steps"
    return head


def job_text(status: JobStatus) -> str:
    progress = status.progress or {}
    done = f" ({progress.get('done')}/{progress.get('total')} steps)" if progress else ""
    return f"job {status.job_id}: {status.status}{done}" + (f": {status.error}" if status.error else "")


def guard_text(request: GuardRequest, verdict: GuardVerdict) -> str:
    """The host's decision document, which is what a host's `mcp_tool` hook reads."""
    return json.dumps(render(request.format, verdict))


def plan_request_text(request: PlanRequest, result: PlanResult) -> str:
    return plan_text(result, request.steps)


def world_request_text(request: WorldRequest, view: WorldView) -> str:
    return world_text(request.operation, view)
