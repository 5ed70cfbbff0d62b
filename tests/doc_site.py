"""The built site as a browser gets it: lists that rendered as lists, and links that land.

The pages are read as Python-Markdown renders them, which is not CommonMark: a nested item indented two
spaces, or a list with no blank line before it, comes out as run-on text. So these checks read the HTML
that `mkdocs build` wrote, not the Markdown.
"""

from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .doc_examples import markdown_tokens

# A list marker at a line's start inside running text: what a list that did not render leaves behind.
_MARKER = re.compile(r"\n[ \t]*(?:[-*+]|\d+\.)[ \t]")
_NOT_TEXT = frozenset({"pre", "code", "script", "style", "textarea", "nav", "h1", "h2", "h3", "h4", "h5", "h6"})


class _Page(HTMLParser):
    """One page's run-on list markers, nested list items (outside the navigation), ids and links."""

    def __init__(self) -> None:
        super().__init__()
        self.run_on: list[str] = []
        self.nested_items = 0
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.tags: set[str] = set()
        self._skipping = 0
        self._open_items = 0
        self._nav = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.add(tag)
        if found.get("id"):
            self.ids.add(found["id"] or "")
        if tag == "a" and found.get("href"):
            self.links.append(found["href"] or "")
        self._skipping += tag in _NOT_TEXT
        self._nav += tag == "nav"
        if tag == "li" and not self._nav:
            self.nested_items += self._open_items > 0
            self._open_items += 1

    def handle_endtag(self, tag: str) -> None:
        self._skipping -= tag in _NOT_TEXT
        self._nav -= tag == "nav"
        if tag == "li" and not self._nav:
            self._open_items -= 1

    def handle_data(self, data: str) -> None:
        if not self._skipping and _MARKER.search(data):
            self.run_on.append(data.strip()[:100])


# Every element a page of this site may hold: HTML's own and the SVG of the theme's icons. Anything else is Markdown
# text that looked like a tag (`<domain>` in prose or a table) and that the browser hides.
HTML_ELEMENTS = frozenset("""
    a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption cite code col
    colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure footer form h1 h2
    h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li link main map mark menu meta
    meter nav noscript object ol optgroup option output p picture pre progress q rp rt ruby s samp script search
    section select slot small source span strong style sub summary sup table tbody td template textarea tfoot th
    thead time title tr track u ul var video wbr
    svg path g circle ellipse line polyline polygon rect defs use symbol clippath lineargradient radialgradient
    stop mask pattern text tspan title desc
""".split())


def vanished_placeholders(site: Path) -> list[str]:
    """Tags on the built pages that are no HTML element: placeholders a reader never sees, with their page."""
    found = []
    for path in sorted(site.rglob("*.html")):
        page = read_page(path)
        found += [f"{path.relative_to(site)}: <{tag}>" for tag in sorted(page.tags - HTML_ELEMENTS)]
    return found


def read_page(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def page_of(source: Path, docs: Path, site: Path) -> Path:
    """Where `mkdocs build` writes a Markdown page (directory URLs: guides/guard.md -> guides/guard/index.html)."""
    relative = source.relative_to(docs).with_suffix("")
    folder = relative.parent if relative.name == "index" else relative
    return site / folder / "index.html"


def nested_items_in_source(source: Path) -> int:
    """How many list items sit inside another, as the Markdown reads to CommonMark (and to GitHub)."""
    depth = nested = 0
    for token in markdown_tokens(source):
        if token.type == "list_item_open":
            nested += depth > 0
            depth += 1
        elif token.type == "list_item_close":
            depth -= 1
    return nested


def broken_links(site: Path) -> list[str]:
    """Links between the site's pages (anchors included) that land nowhere."""
    pages = {path: read_page(path) for path in site.rglob("*.html")}
    broken = []
    for path, page in pages.items():
        if path.name == "404.html":
            continue  # served at any address, so its links are absolute from the site's root
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:")):
                continue
            target = path if not parts.path else Path(posixpath.normpath(path.parent / unquote(parts.path)))
            if target.is_dir() or not target.suffix:
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(site)}: {link}")
                continue
            if parts.fragment and target in pages and unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{path.relative_to(site)}: {link} (no such anchor)")
    return broken
