"""The documentation as a reader meets it: the site builds with no broken link or missing page, every Python
example runs as written on the real default model, and `--help` leads to the documentation."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ..doc_examples import ROOT, Block, blocks, python_examples
from ..doc_site import broken_links, nested_items_in_source, page_of, read_page, vanished_placeholders
from ..staged_install import staged_python, without_user_site

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


def test_no_placeholder_vanished_from_a_page(site):
    """`<domain>` or `<think>` written outside code is taken for an HTML tag and hidden: every one is escaped."""
    assert vanished_placeholders(site) == []


def test_every_result_field_on_the_tools_page_has_a_meaning(site):
    page = (site / "reference" / "tools" / "index.html").read_text(encoding="utf-8")
    rows = [re.findall(r"<td>(.*?)</td>", row, re.S) for row in page.split("<tr>")[1:]]
    empty = [cells[0] for cells in rows if len(cells) == 4 and cells[0].startswith("<code>") and not cells[3].strip()]
    assert empty == [], f"fields with no meaning on the tools page: {empty}"


def test_names_in_a_table_s_first_column_stay_whole(site):
    """Material breaks inline code anywhere; the site's CSS keeps a name in a table's first column whole."""
    assert "stylesheets/extra.css" in (site / "reference" / "tools" / "index.html").read_text(encoding="utf-8")
    css = (site / "stylesheets" / "extra.css").read_text(encoding="utf-8")
    assert re.search(r"td:first-child code\s*\{[^}]*white-space:\s*nowrap", css)


@pytest.fixture(scope="module")
def installs(tmp_path_factory):
    """A Python per claimed install, holding exactly what that install brings (tests/staged_install.py)."""
    made: dict[tuple[str, ...], Path] = {}

    def python_for(extras: tuple[str, ...]) -> Path:
        if extras not in made:
            made[extras] = staged_python(tmp_path_factory.mktemp("install"), extras)
        return made[extras]

    return python_for


def _run_example(example: Block, python: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(python), "-c", example.text], cwd=folder, env=without_user_site(_env(folder)),
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("example", python_examples(), ids=lambda block: block.where)
def test_every_python_example_runs_on_the_install_it_names(example, tmp_path, installs):
    assert example.runs_on is not None, f"{example.where}: say which install it runs on"
    ran = _run_example(example, installs(example.runs_on), tmp_path)
    assert ran.returncode == 0, f"{example.where}:\n{ran.stdout[-2000:]}\n{ran.stderr[-3000:]}"


def test_an_example_that_needs_a_package_only_the_tests_bring_fails(tmp_path, installs):
    """Planted: two base-install examples, one importing the test extra's Hypothesis, one needing NumPy (which the
    `gym` extra, or llama-cpp-python's, brings); both fail where the reader's install would, and pass in the test
    environment the examples used to run in."""
    page = tmp_path / "planted.md"
    page.write_text("A page that names the `gym` extra.\n\n"
                    "<!-- example: runs on agentworld-mcp -->\n```python\nimport hypothesis\nimport agentworld_mcp\n```\n\n"
                    "<!-- example: runs on agentworld-mcp -->\n```python\n"
                    "from agentworld_mcp import WorldModelVectorEnv\n```\n", encoding="utf-8")
    planted = blocks(page)
    assert [block.runs_on for block in planted] == [(), ()]
    for block, missing in zip(planted, ("hypothesis", "NumPy"), strict=True):
        ran = _run_example(block, installs(block.runs_on), tmp_path)
        assert ran.returncode != 0 and missing in ran.stderr, ran.stderr[-2000:]
        assert _run_example(block, Path(sys.executable), tmp_path).returncode == 0  # what the old test ran on


def test_help_leads_to_the_documentation():
    shown = subprocess.run([sys.executable, "-m", "agentworld_mcp", "--help"],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "docs/reference/cli.md" in shown.stdout and "mkdocs serve" in shown.stdout


def _shown_after(page, command: str) -> str:
    """The `text` block a page shows under the block that runs `command`."""
    found = blocks(ROOT / "docs" / page)
    runs = [block for block in found if command in block.text and block.language != "text"]
    assert len(runs) == 1, f"{page}: the block that runs {command!r} moved: point this test at it"
    return next(block.text for block in found if block.line > runs[0].line and block.language == "text")


_FOLDER = re.compile(r"agentworld-demo-[^/$\s]+")


def _screens(text: str) -> dict[str, str]:
    """The demo's output by step (`--- step N: ...` up to the next), with the folder's name made neutral."""
    parts = re.split(r"^(--- step \d+: .*)$", _FOLDER.sub("agentworld-demo-FOLDER", text), flags=re.M)
    return {"head": parts[0], **{parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}}


def test_getting_started_shows_what_the_demo_prints(tmp_path, installs):
    """The tutorial's demo output is a real run: the progress lines, the four computed steps (header, screen,
    changes), the fifth step's header but for its token count, and the verdict, as the script prints them now."""
    shown = _shown_after("getting-started.md", "python client_examples/dry_run_demo.py")
    done = subprocess.run([str(installs(("default-model",))), str(ROOT / "client_examples" / "dry_run_demo.py")],
                          cwd=ROOT, env=without_user_site(_env(tmp_path)), capture_output=True, text=True,
                          timeout=900, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-3000:]
    progress = [line for line in done.stderr.splitlines() if line.startswith(("Dry-running", "  ... "))]
    assert progress == shown.split("\n\n", 1)[0].splitlines()
    real, page = _screens(done.stdout), _screens(shown.split("\n\n", 1)[1])
    computed = [header for header in page if header.startswith("--- step") and "[computed" in header]
    assert len(computed) == 4
    for header in computed:
        assert real.get(header) == page[header], header
    [last] = [header for header in page if "[predicted in" in header]
    pattern = re.escape(last.split("[")[0]) + r"\[predicted in \d+ tokens: (succeeds|FAILS|unclear)\]"
    assert any(re.fullmatch(pattern, header) for header in real), (last, list(real))
    assert "\nverdict: completed\n" in done.stdout and "\nverdict: completed\n" in shown
    assert re.search(r"^tokens: \d+ prompt \(\d+ reused from cache\), \d+ generated in [\d.]+ s$", done.stdout, re.M)


def test_getting_started_shows_what_the_model_command_prints(tmp_path, installs):
    """`agentworld-mcp model` prints the embedded model as the tutorial shows it (the CPU part is the machine's)."""
    shown = _shown_after("getting-started.md", "agentworld-mcp model")
    done = subprocess.run([str(installs(("default-model",))), "-m", "agentworld_mcp", "model"],
                          env=without_user_site(_env(tmp_path)), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    printed, page = json.loads(done.stdout), json.loads(shown[shown.index("{"):])
    assert {key: value for key, value in printed.items() if key not in ("path", "cpu")} == \
        {key: value for key, value in page.items() if key not in ("path", "cpu")}
    assert Path(printed["path"]).name == Path(page["path"]).name
    assert set(printed["cpu"]) == set(page["cpu"]) and printed["cpu"]["variant"] in printed["cpu"]["variants_scored"]
