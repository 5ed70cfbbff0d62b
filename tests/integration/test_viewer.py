"""The viewer in a real browser (Debian's Chromium, driven by Playwright), over a store made by
real tools on the real model: a committed plan with a constraint, a fork, a step recorded from
reality, and an observation that tries to run a script."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from agentworld_mcp.server.evals.drift import StepScore, summarize_drift
from agentworld_mcp.server.measure.llama_server import free_port
from agentworld_mcp.server.viewer.site import CONTENT_SECURITY_POLICY
from agentworld_mcp.tools.requests import PlanRequest
from agentworld_mcp.tools.simulation.plan import dry_run_plan
from agentworld_mcp.tools.worlds.store import StepRow, Store
from agentworld_mcp.tools.worlds.worlds import fork_world, open_world, record_reality

from ..third_party import REPO

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_INSTALL = "apt-get install -y chromium (and pip install playwright, in the test extra)"
ARTIFACTS = Path(os.environ.get("AGENTWORLD_TEST_ARTIFACTS", REPO / "test-artifacts"))
QUICK = {"temperature": 0, "max_tokens": 24}
HOSTILE = '<script>window.__ran = 1</script><img src="x" onerror="window.__ran = 2">done'
# A post rule that no step can keep, whatever the model says: every step shows its verdict.
FLAGGED = {"id": "always-flagged", "kind": "rule", "phase": "post", "severity": "warning", "expr": "step < 0"}


@pytest.fixture(scope="module")
def browser(viewed_store):
    """After the store: Playwright's sync API keeps an event loop running in this thread while it is open."""
    if not CHROMIUM.exists():
        message = f"Chromium is not installed: {CHROMIUM_INSTALL}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
async def viewed_store(tool_context, tmp_path_factory):
    """A fresh store filled through the real tools, on the session's model."""
    folder = tmp_path_factory.mktemp("viewer-data")
    ctx = dataclasses.replace(tool_context, store=Store(folder / "worlds.sqlite3"), jobs=None, world_locks={})
    world = open_world(ctx, "terminal", "tidy the notes", "", None, [])
    await dry_run_plan(ctx, PlanRequest(world_id=world.world_id, steps=["mkdir notes", "python3 app.py"], commit=True,
                                        constraints=[FLAGGED], stop_on_violation=False, **QUICK))
    fork = await fork_world(ctx, world.world_id, 1)
    # The fork's first step is still only predicted: reality arrives for it, and the world is anchored there.
    anchored = await record_reality(ctx, fork.world_id, "mkdir notes", "$ mkdir notes\n$ ")
    assert anchored.recorded.anchored
    await record_reality(ctx, fork.world_id, "cat notes/todo.html", "$ cat notes/todo.html\n" + HOSTILE + "\n$ ")
    reports = folder / "eval-results"
    (reports / "drift-run").mkdir(parents=True)
    scores = {mode: [StepScore(1, 0.9, True, False, "a"), StepScore(2, 0.4, False, True, "b")]
              for mode in ("teacher_forced", "closed_loop", "anchored")}
    drift = summarize_drift({"one": scores}, {"model": {"name": "demo"}})
    (reports / "drift-run" / "drift.json").write_text(json.dumps(drift))
    yield folder, world.world_id, fork.world_id, ctx
    ctx.store.close()


@pytest.fixture(scope="module")
def viewer(viewed_store):
    folder = viewed_store[0]
    port = free_port()
    env = {**os.environ, "AGENTWORLD_DATA_DIR": str(folder)}
    process = subprocess.Popen(
        [sys.executable, "-m", "agentworld_mcp", "view", "--port", str(port), "--reports", str(folder / "eval-results")],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            httpx2.get(base + "/version", timeout=2)
            break
        except httpx2.HTTPError:
            assert process.poll() is None, process.stderr.read().decode()
            time.sleep(0.25)
    else:
        process.kill()
        pytest.fail("the viewer did not start within 30 s")
    yield base
    process.terminate()
    process.wait(timeout=30)


def _screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def test_the_fork_tree_the_cards_the_diff_and_the_drift_plot_are_on_the_pages(browser, viewer, viewed_store):
    _, world_id, fork_id, _ = viewed_store
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(viewer + "/")
    tree = page.locator("#fork-tree")
    assert tree.locator(f"a:text-is('{world_id}')").count() == 1
    nested = tree.locator(f"li.world:has(> a:text-is('{world_id}')) ul a:text-is('{fork_id}')")
    assert nested.count() == 1, "the fork is drawn under the world it came from"
    assert page.locator(".reports a").count() == 1

    page.goto(f"{viewer}/worlds/{world_id}")
    cards = page.locator("article.card")
    # The action as the agent typed it, not the terminal's keystroke encoding.
    assert cards.count() == 2 and cards.nth(0).locator("pre.action").inner_text() == "mkdir notes"
    assert page.locator("ul.constraints li strong:text-is('always-flagged')").count() == 2  # the rule on each step
    assert "prompt tokens" in cards.nth(0).locator(".usage").inner_text()
    # `mkdir notes` in the domain's start (a folder listed in full) is computed, `python3 app.py` the model's.
    assert cards.nth(0).locator(".badge.computed").count() == 1 and cards.nth(1).locator(".badge.computed").count() == 0

    page.goto(f"{viewer}/worlds/{fork_id}")
    assert f"Forked from {world_id} at step 1" in page.locator(".lineage").inner_text()
    compared = page.locator("article.card:has(.compare)")
    assert compared.count() == 1, "the anchored step shows prediction and reality side by side"
    assert compared.locator(".similarity").count() == 1 and compared.locator("pre.diff span.add").count() >= 1
    assert page.locator("#drift svg.chart polyline.series").count() == 2  # similarity and its running mean
    _screenshot(page, "viewer-world.png")

    page.goto(viewer + "/reports/1")
    assert page.locator("svg.chart polyline.series").count() == 3  # one divergence curve per mode
    page.close()


def test_an_observation_that_holds_a_script_is_shown_as_text_and_never_runs(browser, viewer, viewed_store):
    fork_id = viewed_store[2]
    page = browser.new_page()
    response = page.goto(f"{viewer}/worlds/{fork_id}")
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert HOSTILE in page.locator("#step-2 pre").last.inner_text()
    assert page.evaluate("window.__ran") is None
    assert page.locator("script").count() == 1 and page.locator("main img").count() == 0
    page.close()


def test_a_page_follows_its_world_as_steps_are_added(browser, viewer, viewed_store):
    fork_id, ctx = viewed_store[2], viewed_store[3]
    page = browser.new_page()
    page.goto(f"{viewer}/worlds/{fork_id}")
    before = page.locator("article.card").count()
    # Another process steps the world (as a running plan does); the open page picks it up by itself.
    ctx.store.append_steps(fork_id, [StepRow(before + 1, "pwd", "$ pwd\n/home/user\n$ ", None, None, "real", None, None)])
    page.wait_for_selector(f"#step-{before + 1}", timeout=15_000)
    page.close()


def test_the_exported_pages_open_from_disk_without_a_server(browser, viewed_store, tmp_path):
    folder, world_id, fork_id, _ = viewed_store
    done = subprocess.run([sys.executable, "-m", "agentworld_mcp", "view", "--export", str(tmp_path / "site"),
                           "--reports", str(folder / "eval-results")],
                          env={**os.environ, "AGENTWORLD_DATA_DIR": str(folder)}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    page = browser.new_page()
    page.goto((tmp_path / "site" / "index.html").as_uri())
    page.locator(f"a:text-is('{fork_id}')").click()
    assert page.url.endswith(f"worlds/{fork_id}.html") and page.locator("article.card").count() >= 2
    assert page.locator("script").count() == 0 and page.evaluate("window.__ran") is None
    # The page's own policy lets its stylesheet in from beside it.
    assert page.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor") == "rgb(17, 24, 39)"
    page.goto((tmp_path / "site" / "worlds" / f"{world_id}.html").as_uri())
    assert page.locator("link[rel=stylesheet]").get_attribute("href") == "../static/viewer.css"
    page.close()


def test_the_viewer_refuses_other_host_names_and_says_what_is_missing(viewer):
    assert httpx2.get(viewer + "/", headers={"Host": "evil.example"}).status_code == 400  # DNS rebinding
    assert httpx2.get(viewer + "/worlds/no-such-world").status_code == 404
    done = subprocess.run([sys.executable, "-m", "agentworld_mcp", "view", "--host", "0.0.0.0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no login" in done.stderr and "Traceback" not in done.stderr
