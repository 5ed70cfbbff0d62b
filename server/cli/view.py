"""`agentworld-mcp view [--port P] [--export DIR]`: look at worlds and evaluations instead of reading JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..surface.loopback import is_loopback
from .flags import Parents
from .prepared import Prepared

DEFAULT_REPORTS = Path("eval-results")  # where the eval commands write by default


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    view = commands.add_parser(
        "view",
        help="a local web page of the worlds (fork tree, step cards, drift) and the evaluation reports; read-only")
    # SUPPRESS: a --data-dir given before `view` must not be reset by this copy.
    view.add_argument("--data-dir", default=argparse.SUPPRESS,
                      help="the world store to show (default: the per-user data directory)")
    view.add_argument("--host", default="127.0.0.1", help="loopback only: the viewer has no login (127.0.0.1)")
    view.add_argument("--port", type=int, default=8766, help="port (8766)")
    view.add_argument("--export", type=Path, metavar="DIR", help="write the pages as static HTML into DIR instead")
    view.add_argument("--reports", type=Path, action="append", metavar="DIR",
                      help=f"a folder of eval samples / eval drift outputs (repeatable; default ./{DEFAULT_REPORTS})")


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    from ..viewer.site import Pages, create_app

    store = prepared.store(settle_jobs=False)  # it reads the store only: jobs are left to the server that runs them
    pages = Pages(store, args.reports or [DEFAULT_REPORTS], prepared.domains)
    if args.export is not None:
        written = pages.export(args.export)
        print(f"wrote {written} pages to {args.export}/index.html", file=sys.stderr)
        return 0
    if not is_loopback(args.host):
        print(f"agentworld-mcp: --host {args.host}: the viewer has no login, so it serves this machine only; "
              "reach it from elsewhere through an SSH tunnel", file=sys.stderr)
        return 2
    import uvicorn

    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"viewing {store.where} at http://{shown}:{args.port}/", file=sys.stderr)
    uvicorn.run(create_app(pages), host=args.host, port=args.port, log_level="warning")
    return 0


