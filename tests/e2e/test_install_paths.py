"""The install without a compiler (README, Getting started): `uv tool install` of the project puts
`agentworld-mcp` on PATH with no llama-cpp-python; its hook decides, and its server answers from a model server.

The project is copied first (as the bundle stages it), so that the build writes nothing into this checkout."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from agentworld_mcp.server.measure import llama_server
from mcp import Client, StdioServerParameters

from scripts import build_bundle

from ..third_party import UV


def _install(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    project = build_bundle.stage(tmp_path / "project")
    env = {**os.environ, "UV_TOOL_DIR": str(tmp_path / "tools"), "UV_TOOL_BIN_DIR": str(tmp_path / "bin"),
           "UV_PYTHON_DOWNLOADS": "never", "HOME": str(tmp_path / "home"), "AGENTWORLD_HOOK_DAEMON": "0"}
    done = subprocess.run([str(UV), "tool", "install", str(project)], env=env, capture_output=True, text=True,
                          timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    return tmp_path / "bin" / "agentworld-mcp", env


async def test_the_no_compile_install_guards_and_serves_from_a_model_server(tmp_path, model_info):
    command, env = _install(tmp_path)
    site = list((tmp_path / "tools" / "agentworld-mcp").glob("lib/python*/site-packages/*"))
    assert site and not any(path.name.startswith("llama_cpp") for path in site), "llama-cpp-python was pulled in"

    event = {"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "PreToolUse", "tool_name": "Bash",
             "tool_input": {"command": "rm -rf ~"}}
    hook = subprocess.run([str(command), "hook", "--event", "pre", "--format", "claude-code"], input=json.dumps(event),
                          env=env, capture_output=True, text=True, timeout=120)
    assert hook.returncode == 0, hook.stderr
    assert json.loads(hook.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"

    with llama_server.llama_server(model_info.path, slots=1, n_ctx=2048) as server:
        params = StdioServerParameters(command=str(command), args=["--base-url", server.base_url], env=env)
        async with Client(params, read_timeout_seconds=300) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            step = await client.call_tool("simulate_action", {"domain": "terminal", "action": "python3 app.py",
                                                              "max_tokens": 16, "temperature": 0})
    assert {"simulate_action", "dry_run_plan", "check_constraints", "guard"} <= tools
    assert not step.is_error, step.content
    assert step.structured_content["model"]["architecture"] == "llama-server"
    assert step.structured_content["usage"]["completion_tokens"] > 0
