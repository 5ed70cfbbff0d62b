"""NeMo Gym's end-of-collection summary (`POST /aggregate_metrics`) of a resources server's verify answers.

Its `AggregateMetrics` has flat keys for a metrics logger: here `mean/reward` and `mean/<component>` for
each reward component, over every rollout (`agent_metrics`, and the same means as `key_metrics`) and per
task (`group_level_metrics`, one entry per `_ng_task_index`), each with its count of `rollouts`.
"""

from __future__ import annotations

from typing import Any

TASK_INDEX = "_ng_task_index"  # the field NeMo Gym numbers a collection's tasks by


def aggregated(answers: list[dict[str, Any]]) -> dict[str, Any]:
    by_task: dict[Any, list[dict[str, Any]]] = {}
    for answer in answers:
        by_task.setdefault(answer.get(TASK_INDEX), []).append(answer)
    overall = _means(answers)
    return {
        "group_level_metrics": [{TASK_INDEX: task, **_means(group)} for task, group in by_task.items()
                                if task is not None],
        "agent_metrics": overall,
        "key_metrics": {name: value for name, value in overall.items() if name.startswith("mean/")},
    }


def _means(answers: list[dict[str, Any]]) -> dict[str, Any]:
    columns: dict[str, list[float]] = {}
    for answer in answers:
        scores = {"reward": answer.get("reward"), **(answer.get("reward_components") or {})}
        for name, value in scores.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                columns.setdefault(name, []).append(float(value))
    return {"rollouts": len(answers), **{f"mean/{name}": sum(values) / len(values) for name, values in columns.items()}}
