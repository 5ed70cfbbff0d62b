"""The real server process over stdio: a real MCP client, raw JSON-RPC frames, and bad model files."""

from __future__ import annotations

import asyncio
import json
import struct
import subprocess
import sys

import anyio
import pytest
from mcp import Client, StdioServerParameters

QUICK = {"temperature": 0, "max_tokens": 32}


@pytest.mark.parametrize("era", ["legacy", "auto"])
async def test_a_real_client_simulates_over_stdio(server_argv, server_env, era):
    params = StdioServerParameters(command=server_argv[0], args=server_argv[1:], env=server_env)
    async with Client(params, mode=era, read_timeout_seconds=300) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"simulate_action", "dry_run_plan"} <= names
        result = await client.call_tool("simulate_action", {"domain": "terminal", "action": "whoami", **QUICK})
    assert not result.is_error, result.content
    prediction = result.structured_content
    assert prediction["observation"].strip() or prediction["raw"] is not None
    assert prediction["usage"]["completion_tokens"] > 0


async def _read_frame(stdout: asyncio.StreamReader, frames: list[dict], wanted_id: int, timeout: float) -> dict:
    """Read lines until the response with `wanted_id`; every line must be one JSON-RPC 2.0 frame."""
    while True:
        line = await asyncio.wait_for(stdout.readline(), timeout)
        assert line, "the server closed stdout"
        frame = json.loads(line)  # anything but a JSON frame on stdout fails here
        assert frame.get("jsonrpc") == "2.0", frame
        frames.append(frame)
        if frame.get("id") == wanted_id:
            return frame


async def test_stdout_carries_only_json_rpc_frames_while_loading_and_generating(server_argv, server_env):
    env = {**server_env, "AGENTWORLD_LOG_LEVEL": "DEBUG"}  # as much stderr chatter as possible
    process = await asyncio.create_subprocess_exec(
        *server_argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    frames: list[dict] = []

    async def send(message: dict) -> None:
        process.stdin.write((json.dumps(message) + "\n").encode())
        await process.stdin.drain()

    stderr_task = asyncio.create_task(process.stderr.read())
    try:
        loop = asyncio.get_running_loop()
        started = loop.time()
        await send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}})
        init = await _read_frame(process.stdout, frames, 1, timeout=15)
        assert init["result"]["serverInfo"]["name"] == "agentworld-mcp"
        assert loop.time() - started < 15  # clients give up after 10-30 s; the model loads in the background
        await send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        await send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        assert len((await _read_frame(process.stdout, frames, 2, timeout=15))["result"]["tools"]) >= 2
        await send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "dry_run_plan", "arguments": {"domain": "terminal", "steps": ["ls", "pwd"], **QUICK},
            "_meta": {"progressToken": "p"}}})
        call = await _read_frame(process.stdout, frames, 3, timeout=300)
        assert call["result"]["isError"] is False
        progress = [f for f in frames if f.get("method") == "notifications/progress"]
        assert [f["params"]["progress"] for f in progress] == list(range(1, len(call["result"]["structuredContent"]["steps"]) + 1))
    finally:
        process.stdin.close()
        await asyncio.wait_for(process.wait(), 30)
    stderr = (await stderr_task).decode()
    assert "loaded in" in stderr  # the logs went to stderr, at DEBUG
    assert (await process.stdout.read()) == b""


def _gguf_with_architecture(path, architecture: str) -> None:
    """A header-only GGUF (no tensors) naming `architecture`."""
    def string(text: str) -> bytes:
        data = text.encode()
        return struct.pack("<Q", len(data)) + data

    header = b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + string("general.architecture") + struct.pack("<I", 8)
    header += string(architecture)
    path.write_bytes(header + b"\0" * (-len(header) % 32))


@pytest.fixture
def bad_models(tmp_path, model_info):
    missing = tmp_path / "missing.gguf"
    not_gguf = tmp_path / "weights.bin"
    not_gguf.write_bytes(b"PK\x03\x04 this is a zip archive, not a model" * 10)
    truncated = tmp_path / "truncated.gguf"
    with model_info.path.open("rb") as source:
        truncated.write_bytes(source.read(8_000_000))  # the whole header, a sliver of the tensors
    alien = tmp_path / "alien.gguf"
    _gguf_with_architecture(alien, "nosucharch")
    return {
        "missing": (missing, "not found"),
        "not_gguf": (not_gguf, "not a GGUF model file"),
        "truncated": (truncated, "is truncated"),
        "alien": (alien, "unknown model architecture"),
    }


@pytest.mark.parametrize("case", ["missing", "not_gguf", "truncated", "alien"])
def test_a_bad_model_file_is_one_stderr_line_and_exit_2_before_the_transport_opens(server_argv, server_env, bad_models, case):
    path, message = bad_models[case]
    done = subprocess.run(
        [*server_argv, "--model", str(path)], env=server_env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert message in lines[0] and lines[0].startswith("agentworld-mcp: ")


def test_model_command_prepares_and_describes_the_default_model(server_env):
    done = subprocess.run(
        [sys.executable, "-m", "agentworld_mcp", "model"], env=server_env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    described = json.loads(done.stdout)
    assert described["architecture"] == "qwen2" and described["quantization"] == "Q4_K_M"
    assert described["size_bytes"] == 491_400_064


# Logging is deprecated by the 2026-07-28 protocol; the handshake-era clients that use it are the ones tested.
@pytest.mark.filterwarnings("ignore:The logging capability is deprecated")
async def test_the_servers_own_events_reach_a_client_as_log_messages_at_the_level_it_set(server_argv, server_env, tmp_path):
    received = []

    async def on_log(params) -> None:
        received.append(params)

    def drifting_world_messages() -> list:
        return [m for m in received if m.logger == "agentworld_mcp.tools.worlds.worlds" and "drifts from reality" in m.data]

    async def drift_once(client) -> None:
        """A world whose one prediction is nothing like what happened: its drift falls below the warning line."""
        world = await client.call_tool("world", {"operation": "open", "domain": "terminal"})
        world_id = world.structured_content["world_id"]
        await client.call_tool("simulate_action", {"world_id": world_id, "action": "whoami", "commit": True, **QUICK})
        unrelated = "Q" * 3000  # far longer than any 32-token prediction, and sharing nothing with it
        await client.call_tool("world", {"operation": "record", "world_id": world_id, "action": "whoami",
                                         "observation": unrelated})

    env = {**server_env, "AGENTWORLD_DATA_DIR": str(tmp_path)}
    params = StdioServerParameters(command=server_argv[0], args=server_argv[1:], env=env)
    async with Client(params, mode="legacy", read_timeout_seconds=300, logging_callback=on_log) as client:
        assert client.server_capabilities.logging is not None
        await drift_once(client)
        assert received == []  # a client that set no level gets nothing
        await client.set_logging_level("error")
        await drift_once(client)
        await client.set_logging_level("warning")
        await drift_once(client)
        with anyio.fail_after(30):  # log messages travel apart from the replies
            while not drifting_world_messages():
                await anyio.sleep(0.1)
    assert len(drifting_world_messages()) == 1 and all(m.level != "debug" for m in received)
    assert drifting_world_messages()[0].level == "warning"


@pytest.mark.filterwarnings("ignore:The logging capability is deprecated")
async def test_a_call_that_outlives_its_budget_is_logged_as_a_job(server_argv, server_env, tmp_path):
    received = []

    async def on_log(params) -> None:
        received.append(params)

    env = {**server_env, "AGENTWORLD_DATA_DIR": str(tmp_path), "AGENTWORLD_BUDGET_SECONDS": "0.01"}
    params = StdioServerParameters(command=server_argv[0], args=server_argv[1:], env=env)
    async with Client(params, mode="legacy", read_timeout_seconds=300, logging_callback=on_log) as client:
        await client.set_logging_level("info")
        handed = await client.call_tool("simulate_action", {"domain": "terminal", "action": "python3 app.py", **QUICK})
        job_id = handed.structured_content["job_id"]
        with anyio.fail_after(300):
            while (await client.call_tool("job", {"job_id": job_id})).structured_content["status"] == "running":
                await anyio.sleep(0.2)
            while not any(f"job {job_id} completed" in m.data for m in received):  # it travels apart from replies
                await anyio.sleep(0.1)
    assert any(m.level == "info" and f"goes on as job {job_id}" in m.data for m in received)
