"""Build the desktop bundle: dist/agentworld-mcp-VERSION.mcpb, for a one-click install in Claude Desktop.

    python scripts/build_bundle.py [--out dist] [--mcpb PATH] [--uv PATH]

The bundle is of the MCPB `uv` type (manifest 0.4): it carries the package's source, a pyproject.toml with the
base dependencies only (no extras: the server it runs needs none) and the uv.lock that `uv lock` writes for them here,
from the index the builder's uv is set to (UV_INDEX_URL, UV_FIND_LINKS...). The host installs exactly that lock
(`uv run --frozen`, bundle/manifest.json), so the first start resolves nothing and nothing is compiled: the bundle
serves from a model server (the manifest asks the user for its URL). It is checked and packed by the `mcpb` CLI from npm
(`npm install @anthropic-ai/mcpb@2.1.2`; CI installs it under .ci/mcpb), which --mcpb names if it is not there.
tests/e2e/test_bundle.py builds it, unpacks it and starts it as the manifest says, offline with an empty uv cache.
"""

from __future__ import annotations

import argparse
import json
import re
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
# uv from PyPI beside this interpreter (the test extra), else the one on PATH.
UV = Path(sys.executable).parent / "uv"


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
    (folder / "pyproject.toml").write_text(base_only((ROOT / "pyproject.toml").read_text(encoding="utf-8")),
                                           encoding="utf-8")
    shutil.copy2(MANIFEST, folder / "manifest.json")
    return folder


def base_only(pyproject: str) -> str:
    """pyproject.toml without its [project.optional-dependencies]: the extras (llama.cpp, the tests' tools, the
    docs, the RL libraries) are no part of what the bundle runs, and a lock of the project would resolve them all."""
    kept, dropping = [], False
    for line in pyproject.splitlines(keepends=True):
        if re.match(r"\s*\[", line):
            dropping = line.strip() == "[project.optional-dependencies]"
        if not dropping:
            kept.append(line)
    text = "".join(kept)
    before, after = tomllib.loads(pyproject), tomllib.loads(text)
    before["project"].pop("optional-dependencies", None)
    if before != after:
        raise SystemExit("pyproject.toml: removing [project.optional-dependencies] changed more than the extras")
    return text


def lock(folder: Path, uv: str | None = None, env: dict[str, str] | None = None) -> Path:
    """Write folder/uv.lock with the builder's uv and index; returns it."""
    program = uv or (str(UV) if UV.exists() else shutil.which("uv"))
    if program is None:
        raise SystemExit("uv is not installed: pip install uv (the test extra has it), or pass --uv PATH")
    subprocess.run([program, "lock", "--directory", str(folder)], check=True, env=env)
    return folder / "uv.lock"


def build(out: Path, mcpb: str | None = None, uv: str | None = None, env: dict[str, str] | None = None) -> Path:
    """Lock the base dependencies, validate the manifest and pack the bundle into `out`; returns the .mcpb file.
    `env` is the environment `uv lock` runs in (default: this one), where its index settings come from."""
    cli = mcpb or (str(MCPB_CLI) if MCPB_CLI.exists() else shutil.which("mcpb"))
    if cli is None:
        raise SystemExit("the mcpb CLI is not installed: npm install --prefix .ci/mcpb @anthropic-ai/mcpb@2.1.2, "
                         "or pass --mcpb PATH")
    out.mkdir(parents=True, exist_ok=True)
    bundle = out / f"agentworld-mcp-{version()}.mcpb"
    with tempfile.TemporaryDirectory() as temporary:
        staged = stage(Path(temporary) / "agentworld-mcp")
        lock(staged, uv, env)
        subprocess.run([cli, "validate", str(staged / "manifest.json")], check=True)
        subprocess.run([cli, "pack", str(staged), str(bundle)], check=True)
    return bundle


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the .mcpb goes (default: dist/)")
    parser.add_argument("--mcpb", help="the mcpb CLI (default: .ci/mcpb's, else the one on PATH)")
    parser.add_argument("--uv", help="the uv that writes the lock (default: the one beside Python, else on PATH)")
    arguments = parser.parse_args()
    print(build(arguments.out, arguments.mcpb, arguments.uv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
