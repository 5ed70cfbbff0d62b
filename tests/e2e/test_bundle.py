"""The desktop bundle (scripts/build_bundle.py): the mcpb CLI validates and packs it, and the unpacked bundle
starts the server exactly as its manifest's command says, over stdio, with uv installing what it needs and
nothing compiled. The model server it names is not running: the tools list, and a computed step answers."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

from mcp import Client, StdioServerParameters

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


async def test_the_bundle_packs_unpacks_and_starts_as_its_manifest_says(tmp_path: Path):
    mcpb = installed(MCPB, MCPB_INSTALL)
    bundle = build_bundle.build(tmp_path / "dist", str(mcpb))
    unpacked = tmp_path / "unpacked"
    subprocess.run([str(mcpb), "unpack", str(bundle), str(unpacked)], check=True, capture_output=True)
    manifest = json.loads((unpacked / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["server"]["type"] == "uv" and (unpacked / "pyproject.toml").is_file()
    assert not (unpacked / "tests").exists(), "the bundle carries the package, not its tests"

    values = {"__dirname": str(unpacked), **{f"user_config.{key}": "" for key in manifest["user_config"]},
              "user_config.model_server_url": NOBODY_LISTENS}
    config = json.loads(_substituted(json.dumps(manifest["server"]["mcp_config"]), values))
    # The host puts its own uv first on PATH; here the test extra's. No Python is downloaded: this one serves.
    env = {**os.environ, **config["env"], "PATH": f"{UV.parent}{os.pathsep}{os.environ['PATH']}",
           "UV_PYTHON_DOWNLOADS": "never", "HOME": str(tmp_path / "home")}
    params = StdioServerParameters(command=config["command"], args=config["args"], env=env, cwd=str(tmp_path))
    async with Client(params, read_timeout_seconds=600) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        assert tools == {tool["name"] for tool in manifest["tools"]}
        step = await client.call_tool("simulate_action", {"domain": "terminal", "action": "ls"})
    assert not step.is_error and step.structured_content["effects"]["source"] == "computed"
    installed_packages = list((unpacked / ".venv").glob("lib/python*/site-packages/*"))
    assert installed_packages and not any(path.name.startswith("llama_cpp") for path in installed_packages)
