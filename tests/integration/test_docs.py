"""The documentation as a reader meets it: the site builds with no broken link or missing page, every Python
example runs as written on the real default model, and `--help` leads to the documentation."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ..doc_examples import ROOT, python_examples
from ..doc_site import broken_links, nested_items_in_source, page_of, read_page

pytestmark = pytest.mark.docs


def _env(tmp_path) -> dict[str, str]:
    # A store of the example's own, and no banner about MkDocs' future in the build's output.
    return {**os.environ, "AGENTWORLD_DATA_DIR": str(tmp_path / "data"), "NO_MKDOCS_2_WARNING": "1"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site as `mkdocs build --strict` writes it: no broken link, anchor or missing page in the Markdown."""
    folder = tmp_path_factory.mktemp("docs")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder / "site")],
                           cwd=ROOT, env=_env(folder), capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-3000:]
    return folder / "site"


def test_the_site_builds_strictly_with_its_generated_references(site):
    cli = (site / "reference" / "cli" / "index.html").read_text()
    assert "agentworld-mcp eval samples" in cli and "--max-tokens" in cli  # generated at build time
    assert "simulate_sync" in (site / "reference" / "python" / "index.html").read_text()


@pytest.mark.parametrize("source", sorted((ROOT / "docs").rglob("*.md")), ids=lambda path: path.name)
def test_every_list_renders_as_a_list(site, source):
    page = read_page(page_of(source, ROOT / "docs", site))
    assert page.run_on == [], "list markers left in running text (indent nested items four spaces, and put a " \
                              f"blank line before a list): {page.run_on}"
    # Every item nested in the Markdown (as GitHub reads it) is nested on the page too.
    assert page.nested_items >= nested_items_in_source(source)


def test_every_link_between_pages_lands(site):
    assert broken_links(site) == []


@pytest.mark.parametrize("example", python_examples(), ids=lambda block: block.where)
def test_every_python_example_runs(example, tmp_path):
    ran = subprocess.run([sys.executable, "-c", example.text], cwd=tmp_path, env=_env(tmp_path),
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, f"{example.where}:\n{ran.stdout[-2000:]}\n{ran.stderr[-3000:]}"


def test_help_leads_to_the_documentation():
    shown = subprocess.run([sys.executable, "-m", "agentworld_mcp", "--help"],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "docs/reference/cli.md" in shown.stdout and "mkdocs serve" in shown.stdout
