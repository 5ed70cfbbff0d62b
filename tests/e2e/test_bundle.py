"""The desktop bundle (scripts/build_bundle.py): the mcpb CLI validates and packs it, and the unpacked bundle
starts the server exactly as its manifest's command says, over stdio, with uv installing what it needs and
nothing compiled. The model server it names is not running: the tools list, and a computed step answers.

The bundle installs what it runs: its lock holds the base dependencies and no extra, and its first start, with an
empty uv cache and no network, installs that lock from a folder of exactly those wheels (fetched from PyPI at
test time, as the lock names them) and resolves nothing: anything else it asked for is not there to be had."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mcp import Client, StdioServerParameters
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.tags import sys_tags
from packaging.utils import canonicalize_name, parse_wheel_filename

from scripts import build_bundle

from ..third_party import MCPB, MCPB_INSTALL, UV, installed

NOBODY_LISTENS = "http://127.0.0.1:9/v1"  # the discard port: the server must start without its model server


def _substituted(text: str, values: dict[str, str]) -> str:
    """The host's variable substitution: ${__dirname} and ${user_config.KEY}, the rest an error."""
    def value(match: re.Match) -> str:
        assert match.group(1) in values, f"the manifest uses ${{{match.group(1)}}}, which the test does not give"
        return values[match.group(1)]
    return re.sub(r"\$\{([^}]+)\}", value, text)


def test_the_manifest_is_the_project_s_version_and_asks_for_what_its_command_uses():
    manifest = json.loads((build_bundle.MANIFEST).read_text(encoding="utf-8"))
    assert manifest["version"] == build_bundle.version()
    config = manifest["server"]["mcp_config"]
    used = set(re.findall(r"\$\{user_config\.(\w+)\}", json.dumps(config)))
    assert used == set(manifest["user_config"]), "every setting the user is asked for is passed, and only those"
    optional = [key for key, option in manifest["user_config"].items() if not option.get("required")]
    assert all(manifest["user_config"][key].get("default") == "" for key in optional), \
        "an optional setting left empty reaches the server as an empty (ignored) variable"


def _wheel_folder(tmp_path: Path) -> Path:
    """The wheels of the base dependencies, one file for each package of a lock written from PyPI: the one this
    interpreter installs, else any (a Windows-only package is there for the universal lock's resolution); and
    setuptools, the build backend the project itself is built with."""
    probe = build_bundle.stage(tmp_path / "probe")
    build_bundle.lock(probe, str(UV))
    here = set(sys_tags())
    urls = []
    for package in tomllib.loads((probe / "uv.lock").read_text(encoding="utf-8"))["package"]:
        if "registry" not in package["source"]:
            continue
        wheels = [wheel["url"] for wheel in package.get("wheels", [])]
        fitting = [url for url in wheels if parse_wheel_filename(url.rsplit("/", 1)[1])[3] & here]
        urls.append((fitting or wheels or [package["sdist"]["url"]])[0])
    folder = tmp_path / "wheels"
    folder.mkdir()

    def fetch(url: str) -> None:
        with urllib.request.urlopen(url, timeout=120) as response:
            (folder / url.rsplit("/", 1)[1]).write_bytes(response.read())

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(fetch, urls))
    backend = tomllib.loads((probe / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                    "--dest", str(folder), *backend], check=True, timeout=300)
    return folder


def _reached(locked: list[dict]) -> set[str]:
    """The lock's packages that the project's own dependencies reach (an extra of a dependency included, as
    psycopg[binary]), never through an extra of the project."""
    packages = {package["name"]: package for package in locked}
    reached, todo = set(), [{"name": "agentworld-mcp"}]
    while todo:
        wanted = todo.pop()
        package = packages[wanted["name"]]
        todo += [] if wanted["name"] in reached else package.get("dependencies", [])
        reached.add(wanted["name"])
        if wanted["name"] != "agentworld-mcp":
            todo += [d for extra in wanted.get("extra", []) for d in package.get("optional-dependencies", {})[extra]]
    return reached


async def test_the_bundle_packs_unpacks_and_starts_offline_installing_only_its_lock(tmp_path: Path):
    mcpb = installed(MCPB, MCPB_INSTALL)
    uv = installed(UV, "pip install -e '.[test]' (the test extra brings uv)")
    wheels = _wheel_folder(tmp_path)
    offline = {"UV_OFFLINE": "1", "UV_NO_INDEX": "1", "UV_FIND_LINKS": str(wheels), "UV_PYTHON_DOWNLOADS": "never"}
    # The builder's index is the wheel folder, so the lock names it; the lock is written offline, from it alone.
    builder = {**os.environ, **offline, "UV_CACHE_DIR": str(tmp_path / "builder-cache")}
    bundle = build_bundle.build(tmp_path / "dist", str(mcpb), str(uv), builder)
    unpacked = tmp_path / "unpacked"
    subprocess.run([str(mcpb), "unpack", str(bundle), str(unpacked)], check=True, capture_output=True)
    manifest = json.loads((unpacked / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["server"]["type"] == "uv" and (unpacked / "pyproject.toml").is_file()
    assert not (unpacked / "tests").exists(), "the bundle carries the package, not its tests"
    assert "optional-dependencies" not in tomllib.loads((unpacked / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"], "the bundle's project has no extras"
    locked = tomllib.loads((unpacked / "uv.lock").read_text(encoding="utf-8"))["package"]
    names = {package["name"] for package in locked}
    assert not next(p for p in locked if p["name"] == "agentworld-mcp").get("optional-dependencies")
    assert names == _reached(locked) and "llama-cpp-python" not in names, "the lock holds more than the base"

    values = {"__dirname": str(unpacked), **{f"user_config.{key}": "" for key in manifest["user_config"]},
              "user_config.model_server_url": NOBODY_LISTENS}
    config = json.loads(_substituted(json.dumps(manifest["server"]["mcp_config"]), values))
    # The host puts its own uv first on PATH; here the test extra's. No Python is downloaded: this one serves.
    # The first start: an empty cache, no network, and only the wheel folder to install from.
    env = {**os.environ, **config["env"], **offline, "PATH": f"{UV.parent}{os.pathsep}{os.environ['PATH']}",
           "UV_CACHE_DIR": str(tmp_path / "empty-cache"), "HOME": str(tmp_path / "home")}
    params = StdioServerParameters(command=config["command"], args=config["args"], env=env, cwd=str(tmp_path))
    async with Client(params, read_timeout_seconds=600) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        assert tools == {tool["name"] for tool in manifest["tools"]}
        step = await client.call_tool("simulate_action", {"domain": "terminal", "action": "ls"})
    assert not step.is_error and step.structured_content["effects"]["source"] == "computed"

    # What was installed is the lock's packages that apply on this machine, and the project: nothing else.
    exported = subprocess.run([str(uv), "export", "--frozen", "--no-hashes", "--no-emit-project", "--no-dev",
                               "--directory", str(unpacked)], env=env, capture_output=True, text=True, check=True)
    requirements = [Requirement(line.strip()) for line in exported.stdout.splitlines()
                    if line.strip() and not line.lstrip().startswith("#")]
    wanted = {canonicalize_name(r.name) for r in requirements if r.marker is None or r.marker.evaluate()}
    site = list((unpacked / ".venv").glob("lib/python*/site-packages/*.dist-info"))
    got = {canonicalize_name(path.name.split("-")[0]) for path in site}
    assert got == wanted | {"agentworld-mcp"}, (got ^ (wanted | {"agentworld-mcp"}))
    assert not any(path.name.startswith("llama_cpp") for path in site)
    assert Marker("sys_platform == 'win32'").evaluate() or "pywin32" not in got
