"""The viewer's pages without a model or a browser: what they read, how they escape, what they link to."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from agentworld_mcp.server.viewer import reading
from agentworld_mcp.server.viewer.site import EXPORTED, SERVED, Pages, world_file
from agentworld_mcp.tools.worlds.store import StepRow, Store

HOSTILE_IDS = ['"><script>alert(1)</script>', "../../escaped", "a/b", "plain-world"]


@pytest.fixture
def store(tmp_path):
    opened = Store(tmp_path / "worlds.sqlite3")
    yield opened
    opened.close()


def _step(position: int, source: str = "predicted", observation: str = "$ ") -> StepRow:
    return StepRow(position, "ls", observation, observation if source == "predicted" else None, {}, source, None, None)


def test_a_worlds_token_changes_with_every_kind_of_change(store):
    world = store.create_world("terminal", "", "", None)
    seen = {store.version(world)}

    def changed() -> None:
        token = store.version(world)
        assert token not in seen
        seen.add(token)

    store.append_steps(world, [_step(1, "real")])
    changed()
    store.set_prediction(world, 1, "$ ", 0.0, "")  # similarity None -> 0.0: the sum of similarities stays 0
    changed()
    store.set_prediction(world, 1, "$ x", 0.0, "-x")  # a new prediction, the same similarity
    changed()
    store.replace_step(world, _step(1))
    changed()
    store.truncate(world, 0)
    changed()
    store.set_world_scene(world, "a new state", None)
    changed()
    store.create_world("terminal", "", "", None, parent=(world, 0))  # its forks show on its page
    changed()
    store.close_world(world)
    changed()
    index = store.version()
    store.create_world("terminal", "", "", None)
    assert store.version() != index


def test_any_world_id_stays_text_in_the_page_and_one_file_in_the_export(store, tmp_path):
    for world_id in HOSTILE_IDS:
        store.create_world("terminal", "", "", None, world_id=world_id)
        store.append_steps(world_id, [_step(1, "real", "<script>alert(2)</script>")])
    pages = Pages(store, [tmp_path / "no-reports-here"])
    for links in (SERVED, EXPORTED):
        page = pages.index(links)
        assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    for world_id in HOSTILE_IDS:
        assert "<script>alert" not in pages.world(world_id, SERVED)
    site = tmp_path / "site"
    assert pages.export(site) == 1 + len(HOSTILE_IDS)
    written = sorted(path.name for path in (site / "worlds").iterdir())
    assert written == sorted(world_file(world_id) for world_id in HOSTILE_IDS)
    assert not (tmp_path / "escaped.html").exists() and all("/" not in name for name in written)
    assert 'href="worlds/a%252Fb.html"' in (site / "index.html").read_text()  # the file a%2Fb.html, as a URL


def test_an_empty_store_and_no_reports_say_so(store, tmp_path):
    page = Pages(store, [tmp_path / "missing"]).index(SERVED)
    assert "No worlds yet" in page and "No reports found" in page


def test_reports_of_another_shape_are_skipped_not_fatal(store, tmp_path):
    (tmp_path / "r" / "broken").mkdir(parents=True)
    (tmp_path / "r" / "broken" / "report.json").write_text(json.dumps({"domains": "not a table"}))
    (tmp_path / "r" / "broken" / "drift.json").write_text(json.dumps({"modes": []}))
    (tmp_path / "r" / "torn.json").write_text("{")
    good = tmp_path / "r" / "good"
    good.mkdir()
    (good / "report.json").write_text(json.dumps({"domains": {"terminal": {"similarity": 0.5, "samples": 2}}}))
    found = reading.find_reports([tmp_path / "r"])
    assert [report.path for report in found] == [good / "report.json"]
    page = Pages(store, [tmp_path / "r"]).report(1, EXPORTED)
    assert 'href="../static/viewer.css"' in page and 'href="../index.html"' in page and "rect" in page


def _bench_report(folder: Path, sample_set: str, retrieval: object, similarity: float, agreement: float) -> None:
    figures = {"samples": 30, "similarity": similarity, "exact": 0.0, "outcome_agreement": agreement}
    folder.mkdir(parents=True)
    (folder / "report.json").write_text(json.dumps({
        "model": {"name": "tiny"}, "retrieval": retrieval, "sample_set": sample_set,
        "domains": {"terminal": figures}, "overall_mean_of_samples": figures}))


def test_runs_on_the_same_samples_stand_side_by_side_and_others_do_not(store, tmp_path):
    """Retrieval off against on: the number a user wants from an evaluation of their own sessions."""
    _bench_report(tmp_path / "r" / "a-off", "30:abc", "off", 0.730, 0.733)
    _bench_report(tmp_path / "r" / "b-on", "30:abc", {"store": "s", "train_steps": 236}, 0.705, 0.900)
    _bench_report(tmp_path / "r" / "c-other", "12:def", "off", 0.5, 0.5)
    pages = Pages(store, [tmp_path / "r"])
    page = pages.report(2, SERVED)
    on = html.unescape(re.sub(r"<[^>]+>", "", page))  # the text a reader sees
    assert on.count("Against") == 1 and 'href="/reports/1"' in page and "bench: a-off" in on
    assert "That run: tiny, retrieval off." in on and "This run: tiny, retrieval on (236 real train steps)." in on
    assert '<span class="same">(+0.000)</span>' in page and '<span class="better">(+0.167)</span>' in page
    assert "0.730 → 0.705 (-0.025)" in on and "0.733 → 0.900 (+0.167)" in on
    assert "0.000 → 0.000 (+0.000)" in on and on.count("(-0.025)") == 2  # terminal, then all samples
    assert "Against" not in pages.report(3, SERVED)  # other samples: nothing to set beside it


def test_every_world_is_in_the_tree_and_the_export(store, tmp_path):
    parent = store.create_world("terminal", "", "", None)
    for _ in range(210):
        store.create_world("terminal", "", "", None, parent=(parent, 0))
    tree = reading.fork_tree(store)
    assert len(tree) == 1 and len(tree[0].children) == 210
    assert Pages(store, []).export(tmp_path / "site") == 1 + 211


def test_exported_pages_carry_their_own_policy_and_no_script(store, tmp_path):
    world = store.create_world("terminal", "", "", None)
    page = html.unescape(Pages(store, []).world(world, EXPORTED))
    assert '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; script-src \'none\'' in page
    assert "<script" not in page and 'href="../static/viewer.css"' in page


def test_diff_lines_are_classed_by_position_not_by_their_first_characters():
    diff = "--- predicted\n+++ real\n@@ -1 +1 @@\n--rf\n+-f\n same"
    card = reading.Card(StepRow(1, "a", "b", "c", None, "real", 0.5, diff), folded=False, action="a")
    assert [kind for kind, _ in card.diff_lines] == ["hunk", "hunk", "hunk", "del", "add", "same"]


def test_the_viewer_needs_no_model(tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "AGENTWORLD_MODEL": str(tmp_path / "no-such-model.gguf"), "AGENTWORLD_DATA_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "agentworld_mcp", "view", "--export", str(tmp_path / "site")],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert Path(tmp_path / "site" / "index.html").exists()


def test_a_computed_step_is_marked_with_its_exit_status(store):
    world = store.create_world("terminal", "", "", None)
    computed = {"success": False, "error": "cat: a: No such file or directory", "changed": [], "source": "computed",
                "exit_code": 1}
    store.append_steps(world, [
        StepRow(1, "cat a", "$ cat a\ncat: a: No such file or directory\n$ ", "$ ", computed, "predicted", None, None),
        StepRow(2, "ls", "$ ls\n$ ", "$ ", {"success": None, "changed": [], "source": "model"}, "predicted", None, None),
    ])
    page = Pages(store, []).world(world, SERVED)
    cards = page.split('<article class="card')[1:]
    assert 'class="badge computed"' in cards[0] and "(exit status 1)" in cards[0]
    assert 'class="badge computed"' not in cards[1] and "exit status" not in cards[1]
