"""The viewer's pages: rendered from the store by Jinja (autoescaped), served by Starlette, or written as files.

What a page shows came from an agent or a model, so it is only ever text: Jinja escapes it, and
every page carries a content security policy (a header when served, a meta tag when exported)
that runs no script but the viewer's own refresh file, so even a mistake in escaping could not
run what a prediction contains.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from ...domains import DomainPack, builtin_domains
from ...tools.worlds.store import Store
from ..surface.loopback import loopback_hosts
from . import reading
from .charts import Series, bar_chart, line_chart

STATIC = Path(__file__).parent / "static"
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
# Exported pages open from disk or an artifact store: no script at all, the stylesheet beside them.
EXPORTED_POLICY = "default-src 'none'; script-src 'none'; style-src 'self' file:; base-uri 'none'; form-action 'none'"

_templates = Environment(loader=PackageLoader("agentworld_mcp.server.viewer", "templates"),
                         autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)


def world_file(world_id: str) -> str:
    """A world's page as a file name: any id, even one holding '/' or '..', stays one name in one folder."""
    return quote(world_id, safe="") + ".html"


@dataclass(frozen=True)
class Links:
    """Where pages link to: served (absolute routes, live refresh) or exported (relative files)."""

    root: str
    live: bool

    def at_depth(self, depth: int) -> Links:
        return self if self.live else Links("../" * depth, self.live)

    def world(self, world_id: str) -> str:
        if self.live:
            return f"{self.root}worlds/{quote(world_id, safe='')}"
        return f"{self.root}worlds/{quote(world_file(world_id))}"  # the file's own name, quoted as a URL

    def report(self, number: int) -> str:
        return f"{self.root}reports/{number}" + ("" if self.live else ".html")

    def home(self) -> str:
        return self.root if self.live else f"{self.root}index.html"


SERVED = Links("/", True)
EXPORTED = Links("", False)


class Pages:
    def __init__(self, store: Store, report_dirs: list[Path], domains: dict[str, DomainPack] | None = None):
        self.store = store
        self.report_dirs = report_dirs
        self.domains = builtin_domains() if domains is None else domains  # each shows its actions as written

    def version(self, world_id: str = "") -> str:
        if world_id:
            return self.store.version(world_id)
        return f"{self.store.version()}:{reading.reports_version(self.report_dirs)}"

    def index(self, links: Links, reports: list[reading.Report] | None = None) -> str:
        return self._render("index.html", links, version_url="/version", version=self.version(),
                            tree=reading.fork_tree(self.store),
                            reports=reading.find_reports(self.report_dirs) if reports is None else reports,
                            report_dirs=[str(d) for d in self.report_dirs], store_path=self.store.where)

    def world(self, world_id: str, links: Links) -> str | None:
        page = reading.world_page(self.store, world_id, self.domains)
        if page is None:
            return None
        chart, mean = None, None
        if page.drift:
            means = reading.running_mean(page.drift)
            mean = means[-1][1]
            chart = line_chart([Series("similarity per compared step", page.drift),
                                Series("running mean", means, dots=False)], "step", "similarity to reality",
                               f"Drift of {world_id}")
        return self._render("world.html", links.at_depth(1), version_url=f"/version?world={quote(world_id, safe='')}",
                            version=self.version(world_id), page=page, drift_chart=chart, mean_similarity=mean)

    def report(self, number: int, links: Links, reports: list[reading.Report] | None = None) -> str | None:
        found = reading.find_reports(self.report_dirs) if reports is None else reports
        if not 1 <= number <= len(found):
            return None
        report = found[number - 1]
        # A finished report does not change while it is looked at: its page does not poll.
        return self._render("report.html", links.at_depth(1), refresh=False, report=report,
                            charts=_report_charts(report), comparisons=reading.comparisons(number, found),
                            compared_figures=reading.COMPARED_FIGURES)

    def _render(self, template: str, links: Links, refresh: bool | None = None, **values: Any) -> str:
        return _templates.get_template(template).render(
            links=links, root=links.root, live=links.live, refresh=links.live if refresh is None else refresh,
            policy=EXPORTED_POLICY, **values)

    def export(self, folder: Path) -> int:
        """Every page as static HTML under `folder` (index.html, worlds/, reports/, static/); returns the page count."""
        (folder / "worlds").mkdir(parents=True, exist_ok=True)
        (folder / "reports").mkdir(exist_ok=True)
        (folder / "static").mkdir(exist_ok=True)
        shutil.copy(STATIC / "viewer.css", folder / "static" / "viewer.css")
        reports = reading.find_reports(self.report_dirs)
        (folder / "index.html").write_text(self.index(EXPORTED, reports), encoding="utf-8")
        written = 1
        for row, _ in self.store.worlds(limit=None):
            (folder / "worlds" / world_file(row.id)).write_text(self.world(row.id, EXPORTED) or "", encoding="utf-8")
            written += 1
        for number in range(1, len(reports) + 1):
            (folder / "reports" / f"{number}.html").write_text(self.report(number, EXPORTED, reports) or "",
                                                                encoding="utf-8")
            written += 1
        return written


def _report_charts(report: reading.Report) -> list[Markup]:
    data = report.data
    if report.kind == "bench":
        domains = data.get("domains", {})
        return [bar_chart([(name, _number(f.get("similarity"))) for name, f in domains.items()],
                          "similarity", "Similarity to the recorded observation, per domain")]
    curves = [Series(mode.replace("_", " "),
                     [(k, _number(v)) for k, v in enumerate(f.get("diverged_by_step") or [], 1) if v is not None])
              for mode, f in data.get("modes", {}).items()]
    return [line_chart(curves, "step", "share of scenarios diverged", "Divergence by step, per mode")]


def _number(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def create_app(pages: Pages):
    """The served viewer: GET only, loopback Host names only (no DNS rebinding), and the policy above."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    headers = {"Content-Security-Policy": CONTENT_SECURITY_POLICY, "X-Content-Type-Options": "nosniff",
               "Cache-Control": "no-store"}

    def html(body: str | None) -> Response:
        if body is None:
            return HTMLResponse("<!doctype html><title>not found</title><p>Not found.</p>", status_code=404, headers=headers)
        return HTMLResponse(body, headers=headers)

    async def index(_request: Request) -> Response:
        return html(pages.index(SERVED))

    async def world(request: Request) -> Response:
        return html(pages.world(request.path_params["world_id"], SERVED))

    async def report(request: Request) -> Response:
        return html(pages.report(request.path_params["number"], SERVED))

    async def version(request: Request) -> Response:
        return JSONResponse({"version": pages.version(request.query_params.get("world", ""))}, headers=headers)

    return Starlette(
        routes=[Route("/", index), Route("/worlds/{world_id:path}", world), Route("/reports/{number:int}", report),
                Route("/version", version), Mount("/static", StaticFiles(directory=STATIC), name="static")],
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=sorted(loopback_hosts()))],
    )
