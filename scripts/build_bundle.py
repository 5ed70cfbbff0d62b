"""Build the desktop bundle: dist/agentworld-mcp-VERSION.mcpb, for a one-click install in Claude Desktop.

    python scripts/build_bundle.py [--out dist] [--mcpb PATH]

The bundle is of the MCPB `uv` type (manifest 0.4): it carries the package's source and pyproject.toml, and
the host installs the dependencies with uv, so nothing is compiled: the bundle serves from a model server
(bundle/manifest.json asks the user for its URL). It is checked and packed by the `mcpb` CLI from npm
(`npm install @anthropic-ai/mcpb@2.1.2`; CI installs it under .ci/mcpb), which --mcpb names if it is not there.
tests/e2e/test_bundle.py builds it, unpacks it and starts the server as the manifest says.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "bundle" / "manifest.json"
# What the package is made of (pyproject.toml's packages live in these folders), and what it needs to build.
SOURCE_FOLDERS = ("server", "tools", "domains", "engine")
SOURCE_FILES = ("__init__.py", "__main__.py", "pyproject.toml", "README.md", "LICENSE")
_LEFT_OUT = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
MCPB_CLI = ROOT / ".ci" / "mcpb" / "node_modules" / ".bin" / "mcpb"


def version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def stage(folder: Path) -> Path:
    """The bundle's files laid out in `folder`: the manifest at the top, beside the project it runs."""
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    if manifest["version"] != version():
        raise SystemExit(f"bundle/manifest.json says version {manifest['version']}, pyproject.toml {version()}: "
                         "make them one")
    for name in SOURCE_FOLDERS:
        shutil.copytree(ROOT / name, folder / name, ignore=_LEFT_OUT)
    for name in SOURCE_FILES:
        shutil.copy2(ROOT / name, folder / name)
    shutil.copy2(MANIFEST, folder / "manifest.json")
    return folder


def build(out: Path, mcpb: str | None = None) -> Path:
    """Validate the manifest and pack the bundle into `out`; returns the .mcpb file."""
    cli = mcpb or (str(MCPB_CLI) if MCPB_CLI.exists() else shutil.which("mcpb"))
    if cli is None:
        raise SystemExit("the mcpb CLI is not installed: npm install --prefix .ci/mcpb @anthropic-ai/mcpb@2.1.2, "
                         "or pass --mcpb PATH")
    out.mkdir(parents=True, exist_ok=True)
    bundle = out / f"agentworld-mcp-{version()}.mcpb"
    with tempfile.TemporaryDirectory() as temporary:
        staged = stage(Path(temporary) / "agentworld-mcp")
        subprocess.run([cli, "validate", str(staged / "manifest.json")], check=True)
        subprocess.run([cli, "pack", str(staged), str(bundle)], check=True)
    return bundle


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the .mcpb goes (default: dist/)")
    parser.add_argument("--mcpb", help="the mcpb CLI (default: .ci/mcpb's, else the one on PATH)")
    arguments = parser.parse_args()
    print(build(arguments.out, arguments.mcpb))
    return 0


if __name__ == "__main__":
    sys.exit(main())
