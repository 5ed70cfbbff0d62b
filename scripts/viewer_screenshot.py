"""Make docs/viewer.png: the viewer's page of a world built the way a user builds one.

    python scripts/viewer_screenshot.py [--out docs/viewer.png]

The README demo's plan runs in a world that starts from an empty folder (four steps computed, the fifth
predicted by the model); then real bash runs each step in that folder and its screen is recorded into the
world, so the page shows each prediction beside reality and the drift plot. Needs Debian's Chromium and
Playwright (the test extra); nothing but the temporary folders is written, and the picture.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agentworld_mcp import Simulator  # noqa: E402
from agentworld_mcp.server.measure.llama_server import free_port  # noqa: E402

from client_examples.dry_run_demo import PLAN  # noqa: E402  (the README demo's plan, as it runs)


def build_world(data: Path, folder: Path) -> str:
    """The demo's plan committed into a world, then each step run for real in the same folder and recorded:
    the computed steps meet reality exactly, the predicted one as near as the model came."""
    os.environ["AGENTWORLD_DATA_DIR"] = str(data)
    with Simulator(n_ctx=4096, allow_dirs=[folder]) as sim:
        world = sim.world_sync("open", domain="terminal", task="keep a shopping list", from_dir=str(folder))
        plan = sim.plan_sync(None, PLAN, world_id=world.world_id, commit=True, temperature=0, max_tokens=160)
        prompt = plan.steps[0].prediction.observation.rstrip("\n").rsplit("\n", 1)[-1]
        screen = prompt
        for action in PLAN:
            real = subprocess.run(["bash", "-c", action], cwd=folder, capture_output=True, text=True)
            screen = f"{screen} {action}\n{real.stdout}{real.stderr}{prompt}"
            sim.world_sync("record", world_id=world.world_id, action=action, observation=screen)
        return world.world_id


def screenshot(data: Path, world_id: str, out: Path) -> None:
    from playwright.sync_api import sync_playwright

    port = free_port()
    viewer = subprocess.Popen([sys.executable, "-m", "agentworld_mcp", "view", "--port", str(port)],
                              env={**os.environ, "AGENTWORLD_DATA_DIR": str(data)}, stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                httpx2.get(base + "/version", timeout=2)
                break
            except httpx2.HTTPError:
                time.sleep(0.25)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 1100})
            page.goto(f"{base}/worlds/{world_id}")
            page.screenshot(path=str(out), full_page=False)
            browser.close()
    finally:
        viewer.terminate()
        viewer.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "viewer.png")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory(prefix="shopping-") as folder:
        world_id = build_world(Path(data), Path(folder))
        screenshot(Path(data), world_id, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
