"""Sessions into the store: one world of real steps per session and domain (per MCP server for mcp).

Secrets are redacted before anything is written. A session imported before gains only the steps it
did not have (a transcript that grew since), so running an import again changes nothing.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ...tools.data.redaction import Redactor
from ...tools.data.session_split import Split, split_of
from ...tools.guard.host_actions import open_tool
from ...tools.guard.session_worlds import session_world_id
from ...tools.worlds.store import StepRow, Store
from .transcripts import RealStep, Session

Reader = Callable[[Path], Session]


@dataclass
class ImportSummary:
    files: int = 0
    sessions: int = 0  # sessions that gained steps
    unchanged: int = 0  # imported before, nothing new
    empty: int = 0  # no step any domain simulates
    steps: Counter[str] = field(default_factory=Counter)  # domain: steps added
    skipped: Counter[str] = field(default_factory=Counter)  # reason: how many
    redacted: int = 0  # secrets replaced by a marker
    splits: Counter[Split] = field(default_factory=Counter)  # sessions added, by side


def import_sessions(store: Store, reader: Reader, files: Iterable[Path], redactor: Redactor | None,
                    test_fraction: float, progress: Callable[[int], None] | None = None) -> ImportSummary:
    summary = ImportSummary()
    for number, path in enumerate(files, 1):
        summary.files += 1
        session = reader(path)
        summary.skipped.update(session.skipped)
        if not session.steps:
            summary.empty += 1
        elif added := _store(store, session, redactor, summary):
            summary.sessions += 1
            summary.steps.update(added)
            summary.splits[split_of(session.id, test_fraction)] += 1
        else:
            summary.unchanged += 1
        if progress is not None:
            progress(number)
    return summary


def _store(store: Store, session: Session, redactor: Redactor | None, summary: ImportSummary) -> Counter[str]:
    """The session's new steps, written; how many per domain."""
    def clean(text: str) -> str:
        if redactor is None:
            return text
        cleaned, count = redactor.redact(text)
        summary.redacted += count
        return cleaned

    added: Counter[str] = Counter()
    for (domain, server), steps in _by_world(session.steps).items():
        world_id = session_world_id(f"import-{session.host}-", session.id, domain, server)
        row = store.world(world_id)
        known = len(store.steps(world_id)) if row is not None else 0
        if known >= len(steps):
            continue
        tools = _tools(steps) if domain == "mcp" else None
        if row is None:
            state = f"Working folder: {session.cwd}" if session.cwd else ""
            origin = {"host": session.host, "session": session.id, "file": str(session.file)}
            store.create_world(domain, clean(session.task), clean(state), tools, world_id=world_id, origin=origin)
        elif tools is not None and tools != row.tools:
            store.set_world_scene(world_id, row.state, tools)
        store.append_steps(world_id, [StepRow(position, clean(step.action), clean(step.observation), None, None,
                                              "real", None, None)
                                      for position, step in enumerate(steps[known:], known + 1)])
        added[domain] += len(steps) - known
    return added


def _by_world(steps: list[RealStep]) -> dict[tuple[str, str], list[RealStep]]:
    worlds: dict[tuple[str, str], list[RealStep]] = {}
    for step in steps:
        worlds.setdefault((step.domain, step.mcp_server), []).append(step)
    return worlds


def _tools(steps: list[RealStep]) -> list[dict]:
    """The tools an MCP server's world needs: those the session called, their schemas unknown (open)."""
    names = dict.fromkeys(json.loads(step.action)["name"] for step in steps)
    return [open_tool(name) for name in names]
