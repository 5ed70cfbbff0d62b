"""What the viewer shows, read from the world store and the evaluation reports. Nothing here writes.

The pages take plain values from here; they never reach into the store themselves.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...domains import DomainPack
from ...tools.worlds.store import StepRow, Store, WorldRow

# Screens that are accessibility trees or page dumps: long, and folded on a card until opened.
FOLDED_DOMAINS = {"android", "web", "os"}
_FOLD_LINES = 40


@dataclass
class WorldNode:
    """One world in the fork tree, with the worlds forked from it."""

    row: WorldRow
    steps: int
    children: list[WorldNode] = field(default_factory=list)


@dataclass(frozen=True)
class Card:
    """One step as a card: what was done, what was predicted, what really happened, and its cost."""

    step: StepRow
    folded: bool
    action: str  # as its author wrote it (`mkdir site`); the stored encoding stays in step.action

    @property
    def compared(self) -> bool:
        return self.step.source == "real" and self.step.predicted is not None

    @property
    def computed(self) -> bool:
        """Run by the world's virtual shell on what the world knew, not predicted."""
        return (self.step.effects or {}).get("source") == "computed"

    @property
    def usage(self) -> dict[str, Any] | None:
        return (self.step.details or {}).get("usage")

    @property
    def constraints(self) -> list[dict[str, Any]]:
        return (self.step.details or {}).get("constraints") or []

    @property
    def warnings(self) -> list[str]:
        return (self.step.details or {}).get("warnings", [])

    @property
    def diff_lines(self) -> list[tuple[str, str]]:
        """The stored unified diff, each line with its kind: add, del, hunk (the two file lines and
        each @@ line) or same."""
        kinds = []
        for number, line in enumerate((self.step.diff or "").splitlines()):
            if number < 2 or line.startswith("@@"):
                kinds.append(("hunk", line))
            elif line.startswith("+"):
                kinds.append(("add", line))
            elif line.startswith("-"):
                kinds.append(("del", line))
            else:
                kinds.append(("same", line))
        return kinds


@dataclass(frozen=True)
class WorldPage:
    row: WorldRow
    cards: list[Card]
    drift: list[tuple[int, float]]  # (step, similarity) of every step compared with reality
    parent: WorldRow | None
    children: list[WorldRow]


@dataclass(frozen=True)
class Report:
    """An evaluation report found on disk: `eval samples` (report.json) or `eval drift` (drift.json)."""

    kind: str  # "bench" or "drift"
    path: Path
    data: dict[str, Any]

    @property
    def model_name(self) -> Any:
        """The model the report names: {"name": ...} as the eval commands write it, or a bare value."""
        model = self.data.get("model") or {}
        return model.get("name") if isinstance(model, dict) else model

    @property
    def title(self) -> str:
        name = self.model_name
        return f"{self.kind}: {self.path.parent.name}" + (f" ({name})" if name else "")

    @property
    def sample_set(self) -> str | None:
        """The digest of the samples a bench run scored (`eval samples` writes it); None: unknown."""
        value = self.data.get("sample_set")
        return value if isinstance(value, str) else None

    @property
    def setting(self) -> str:
        """How the run was made, in a few words: its model, whether real steps were shown, its sampling."""
        retrieval = self.data.get("retrieval")
        shown = "retrieval on" if isinstance(retrieval, dict) else "retrieval off"
        if isinstance(retrieval, dict) and isinstance(retrieval.get("train_steps"), int):
            shown += f" ({retrieval['train_steps']} real train steps)"
        sampling = self.data.get("sampling")
        sampled = (f", temperature {sampling.get('temperature')}, at most {sampling.get('max_tokens')} tokens"
                   if isinstance(sampling, dict) else "")
        return f"{self.model_name or 'unnamed model'}, {shown}{sampled}"


COMPARED_FIGURES = {"similarity": "similarity", "exact": "exact", "outcome_agreement": "outcome agreement"}


@dataclass(frozen=True)
class Change:
    before: float | None  # the other run
    after: float | None  # this run

    @property
    def delta(self) -> float | None:
        return None if self.before is None or self.after is None else self.after - self.before

    @property
    def direction(self) -> str:
        """better, worse or same, at the three decimals a page shows (every compared figure rises when better)."""
        delta = self.delta
        return "same" if delta is None or abs(delta) < 0.0005 else "better" if delta > 0 else "worse"


@dataclass(frozen=True)
class Comparison:
    """This bench run against another on the very same samples (with retrieval off against on, say)."""

    number: int  # the other report's number on the viewer
    other: Report
    rows: list[tuple[str, dict[str, Change]]]  # per domain both runs scored, then all samples


def comparisons(number: int, reports: list[Report]) -> list[Comparison]:
    """The other bench runs on report `number`'s samples, each with its figures beside this run's."""
    this = reports[number - 1]
    if this.kind != "bench" or this.sample_set is None:
        return []
    found = []
    for other_number, other in enumerate(reports, 1):
        if other_number == number or other.kind != "bench" or other.sample_set != this.sample_set:
            continue
        rows = [(name, _changes(other.data["domains"][name], figures))
                for name, figures in this.data["domains"].items() if name in other.data["domains"]]
        overall, other_overall = this.data.get("overall_mean_of_samples"), other.data.get("overall_mean_of_samples")
        if isinstance(overall, dict) and isinstance(other_overall, dict):
            rows.append(("all samples", _changes(other_overall, overall)))
        found.append(Comparison(other_number, other, rows))
    return found


def _changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Change]:
    return {figure: Change(_figure(before.get(figure)), _figure(after.get(figure))) for figure in COMPARED_FIGURES}


def _figure(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def fork_tree(store: Store) -> list[WorldNode]:
    """Every world, each under the world it was forked from (roots: newest first)."""
    listed = store.worlds(limit=None)
    nodes = {row.id: WorldNode(row, count) for row, count in listed}
    roots: list[WorldNode] = []
    for row, _ in reversed(listed):  # oldest first, so children read in the order they were made
        parent = nodes.get(row.parent_id) if row.parent_id else None
        (parent.children if parent is not None else roots).append(nodes[row.id])
    return list(reversed(roots))


def world_page(store: Store, world_id: str, domains: dict[str, DomainPack]) -> WorldPage | None:
    row = store.world(world_id)
    if row is None:
        return None
    steps = store.steps(world_id)
    folded = row.domain in FOLDED_DOMAINS
    pack = domains.get(row.domain)
    cards = [Card(step, folded or step.observation.count("\n") >= _FOLD_LINES,
                  pack.action_shown(step.action) if pack else step.action) for step in steps]
    drift = [(step.position, step.similarity) for step in steps if step.similarity is not None]
    parent = store.world(row.parent_id) if row.parent_id else None
    return WorldPage(row, cards, drift, parent, store.children(world_id))


def running_mean(points: list[tuple[int, float]]) -> list[tuple[int, float]]:
    total, means = 0.0, []
    for index, (step, value) in enumerate(points, 1):
        total += value
        means.append((step, total / index))
    return means


def find_reports(folders: list[Path]) -> list[Report]:
    """Every report.json / drift.json under the folders, in path order (so a report keeps its number
    as others are added beside it); unreadable files and other shapes are skipped."""
    found = []
    for folder in folders:
        for name, kind in (("report.json", "bench"), ("drift.json", "drift")):
            for path in folder.rglob(name) if folder.is_dir() else []:
                try:
                    data = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue
                if _has_shape(data, "domains" if kind == "bench" else "modes"):
                    found.append(Report(kind, path, data))
    return sorted(found, key=lambda report: str(report.path))


def reports_version(folders: list[Path]) -> str:
    """Changes when a report is added, removed or rewritten."""
    stamps = sorted((str(path), path.stat().st_mtime_ns) for folder in folders if folder.is_dir()
                    for name in ("report.json", "drift.json") for path in folder.rglob(name))
    return str(hash(tuple(stamps)))


def _has_shape(data: object, key: str) -> bool:
    """A report's figures: {key: {name: {figure: value}}}, as the eval commands write them."""
    table = data.get(key) if isinstance(data, dict) else None
    return isinstance(table, dict) and all(isinstance(row, dict) for row in table.values())
