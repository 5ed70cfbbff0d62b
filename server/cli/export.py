"""`agentworld-mcp export --format agentworldbench|chat [--split train|test|all] --out DIR`: the store's real steps
as the user's own benchmark (which `eval samples` reads) or as supervised fine-tuning data."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .flags import Parents
from .prepared import Prepared

if TYPE_CHECKING:
    from ..sessions.export import SplitChoice

DEFAULT_SPLIT: dict[str, SplitChoice] = {"agentworldbench": "test", "chat": "train"}  # a benchmark is held out


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    exporting = commands.add_parser(
        "export", help="write the store's real steps as a benchmark (agentworldbench) or training data (chat)")
    exporting.add_argument("--format", required=True, choices=sorted(DEFAULT_SPLIT), dest="form",
                           help="agentworldbench: <domain>_test.jsonl for `eval samples`; chat: chat.jsonl of "
                                "{messages} in the world model's prompt protocol")
    exporting.add_argument("--split", choices=["train", "test", "all"],
                           help="which sessions (default: test for agentworldbench, train for chat)")
    exporting.add_argument("--out", type=Path, required=True, metavar="DIR", help="the folder to write into")
    exporting.add_argument("--data-dir", default=argparse.SUPPRESS, help="the world store (default: the per-user one)")
    exporting.add_argument("--no-redact", action="store_true",
                           help="write steps as stored, without redacting them again")


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    from ...tools.data.redaction import Redactor
    from ..sessions.export import export

    split: SplitChoice = args.split or DEFAULT_SPLIT[args.form]
    store = prepared.store(settle_jobs=False)
    summary = export(store, prepared.domains, args.form, split, args.out, None if args.no_redact else Redactor())
    by_domain = ", ".join(f"{count} {domain}" for domain, count in sorted(summary.lines.items())) or "nothing"
    print(f"{args.form}, {split} split: {summary.worlds} worlds of real steps from {store.where}; "
          f"{sum(summary.lines.values())} lines ({by_domain}) in {', '.join(map(str, summary.files)) or 'no file'}",
          file=sys.stderr)
    if summary.skipped:
        print("  left out: " + ", ".join(f"{count} {reason}" for reason, count in summary.skipped.most_common()),
              file=sys.stderr)
    return 0
