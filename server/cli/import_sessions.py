"""`agentworld-mcp import claude-code|codex [PATH...]`: real agent sessions into the store as worlds of real steps.

Bash becomes terminal steps, Write and Edit swe file actions, `mcp__SERVER__TOOL` mcp calls; other
tools are counted and left out. Secrets are redacted before anything is written (`--no-redact` to
keep them). Reruns add only what is new. The summary goes to stderr; stdout stays empty.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from ...engine.errors import InputError
from .flags import Parents
from .prepared import Prepared

if TYPE_CHECKING:
    from ..sessions.importer import ImportSummary

def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    importing = commands.add_parser("import", help="read agent hosts' session transcripts into the store as worlds "
                                                   "of real steps")
    hosts = importing.add_subparsers(dest="host", required=True, metavar="{claude-code,codex}")
    shared = argparse.ArgumentParser(add_help=False)
    shared.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="transcript files or folders")
    shared.add_argument("--data-dir", default=argparse.SUPPRESS, help="the world store (default: the per-user one)")
    shared.add_argument("--no-redact", action="store_true",
                        help="store secrets as they are (only for data you know holds none)")
    hosts.add_parser("claude-code", parents=[shared], help="Claude Code transcripts (default: ~/.claude/projects)")
    hosts.add_parser("codex", parents=[shared], help="Codex CLI rollouts (default: $CODEX_HOME/sessions, ~/.codex/sessions)")


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    from ...tools.data.redaction import Redactor
    from ...tools.data.session_split import TEST_FRACTION
    from ..sessions import claude_code, codex
    from ..sessions.importer import import_sessions

    reader = claude_code if args.host == "claude-code" else codex
    if missing := [path for path in args.paths if not path.exists()]:  # a typo imports nothing, and says so
        raise InputError(f"{missing[0]}: no such file or folder; give {args.host} transcripts (.jsonl) or folders "
                         "holding them")
    paths = args.paths or reader.default_paths()
    found: Counter[str] = Counter()
    files = reader.files(paths, found)
    if not files and not found:
        raise InputError(f"no {args.host} transcripts (.jsonl) under {', '.join(map(str, paths))}")
    store = prepared.store(settle_jobs=False)
    redactor = None if args.no_redact else Redactor()
    summary = import_sessions(store, reader.read, files, redactor, TEST_FRACTION, _progress(len(files)))
    summary.skipped.update(found)
    _report(args.host, summary, store.where, redactor is not None)
    if not summary.sessions and not summary.unchanged:  # nothing new, nothing imported before: a failure
        raise InputError(f"no {args.host} session found in {', '.join(map(str, paths))}; nothing was imported")
    return 0


def _progress(total: int):
    if not sys.stderr.isatty():
        return None

    def show(done: int) -> None:
        print(f"\r{done}/{total} transcripts", end="" if done < total else "\n", file=sys.stderr, flush=True)
    return show


def _report(host: str, summary: ImportSummary, store_path: str, redacted: bool) -> None:
    by_domain = ", ".join(f"{count} {domain}" for domain, count in sorted(summary.steps.items())) or "none"
    lines = [
        f"{host}: {summary.files} transcripts read into {store_path}",
        (f"  sessions added or extended: {summary.sessions} (train {summary.splits['train']}, "
         f"test {summary.splits['test']}); already imported: {summary.unchanged}; without a step to keep: {summary.empty}"),
        f"  real steps added: {sum(summary.steps.values())} ({by_domain})",
        f"  secrets redacted: {summary.redacted}" if redacted else "  secrets: not redacted (--no-redact)",
    ]
    if summary.skipped:
        lines.append("  left out: " + ", ".join(f"{count} {reason}" for reason, count in summary.skipped.most_common()))
    print("\n".join(lines), file=sys.stderr)
