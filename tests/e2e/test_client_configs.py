"""The host configurations in client_examples/: they parse, and every server entry really starts.

Each entry is launched as its host would launch it (command, args, env from the file), with the
placeholder prefix pointing at this checkout and a user's own GGUF replaced by the default model.
Listing the tools needs no generation: the model loads in the background.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from client_examples.dry_run_demo import COMPUTED, PLAN

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "client_examples"
PLACEHOLDER = "/ABSOLUTE/PATH/TO/agentworld-mcp"
CONFIGS = sorted(EXAMPLES.glob("*.json"))
EXPECTED_TOOLS = {"simulate_action", "dry_run_plan", "check_constraints"}


def _servers(config: Path) -> dict[str, dict]:
    data = json.loads(config.read_text(encoding="utf-8"))
    return data.get("servers") if config.name.startswith("vscode") else data.get("mcpServers")


ENTRIES = [(config.name, name) for config in CONFIGS for name in (_servers(config) or {})]


def test_each_host_has_a_config():
    assert {c.name for c in CONFIGS} >= {
        "claude_desktop_config.json", "claude_code.mcp.json", "cursor.mcp.json", "vscode.mcp.json"
    }


@pytest.mark.parametrize("config", CONFIGS, ids=lambda path: path.name)
def test_a_config_has_a_default_and_an_own_model_entry_of_the_right_shape(config):
    servers = _servers(config)
    assert isinstance(servers, dict) and servers, f"{config.name}: no server entries under the host's key"
    own_model = [entry for entry in servers.values() if "--model" in entry.get("args", [])]
    assert len(own_model) == 1 and len(servers) == 2
    for name, entry in servers.items():
        assert entry["command"].endswith("agentworld-mcp"), name
        assert entry["command"].startswith(PLACEHOLDER + "/"), "hosts need absolute paths"
        assert all(isinstance(arg, str) for arg in entry.get("args", []))
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in entry.get("env", {}).items())
        assert all(key.startswith("AGENTWORLD_") for key in entry.get("env", {}))
        if config.name.startswith("vscode"):
            assert entry["type"] == "stdio"


def _launchable(entry: dict, model_path: Path) -> StdioServerParameters:
    args = list(entry.get("args", []))
    if "--model" in args:  # a user's own GGUF: the test has only the default one
        args[args.index("--model") + 1] = str(model_path)
    command = entry["command"].replace(PLACEHOLDER, str(REPO))
    assert "/ABSOLUTE/PATH" not in " ".join([command, *args]), "a placeholder the test does not know"
    return StdioServerParameters(command=command, args=args, env={**os.environ, **entry.get("env", {})})


@pytest.mark.parametrize(("config", "name"), ENTRIES)
async def test_an_entry_launches_the_server_and_lists_the_tools(config, name, model_info):
    params = _launchable(_servers(EXAMPLES / config)[name], model_info.path)
    assert Path(params.command).is_file(), f"{params.command}: install the project into .venv first"
    async with Client(params, read_timeout_seconds=60) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
    assert EXPECTED_TOOLS <= tools


def test_the_readme_demo_dry_runs_its_plan_over_stdio(server_env):
    """The README's first command ends by running this script: it must print a whole plan."""
    done = subprocess.run(
        [sys.executable, str(REPO / "client_examples" / "dry_run_demo.py"), "--max-tokens", "16", "--json"],
        env={**server_env, "AGENTWORLD_EFFECTS": "parser"}, capture_output=True, text=True, timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    assert "progress callback raised" not in done.stderr and f"step 1/{len(PLAN)} computed" in done.stderr
    plan = json.loads(done.stdout)
    assert plan["domain"] == "terminal" and plan["verdict"]["status"] == "completed"
    # From an empty folder the world knows all the first steps touch: each computed, no model token spent,
    # each screen what real bash prints in an empty folder. The last one is the model's, and says so.
    sources = [step["prediction"]["effects"]["source"] for step in plan["steps"]]
    assert sources[:len(COMPUTED)] == ["computed"] * len(COMPUTED) and sources[-1] != "computed"
    assert plan["steps"][-1]["prediction"]["usage"]["completion_tokens"] == plan["usage"]["completion_tokens"] > 0
    with tempfile.TemporaryDirectory() as real:
        for step, line in zip(plan["steps"], COMPUTED, strict=False):
            ran = subprocess.run(["bash", "--noprofile", "--norc", "-c", line], cwd=real, capture_output=True,
                                 text=True, env={"PATH": "/usr/bin:/bin", "LANG": "C"}, check=False)
            screen = step["prediction"]["observation"]
            assert screen.endswith(f"$ {line}\n{ran.stdout}{ran.stderr}" + screen.rsplit("\n", 1)[-1])
            assert step["prediction"]["effects"]["exit_code"] == ran.returncode
