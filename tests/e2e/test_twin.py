"""The twin of a real MCP server, run as a process over real stdio (and HTTP) in front of real
third-party servers: the reference filesystem server (npm) and the reference time server (PyPI)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import anyio
import httpx2
import pytest
from agentworld_mcp.server.measure.llama_server import free_port
from agentworld_mcp.server.twin.observations import observation_of
from agentworld_mcp.tools.worlds.store import StepRow, Store
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from ..third_party import FILESYSTEM_INSTALL, FILESYSTEM_SERVER, TIME_SERVER, installed

# The filesystem server's fourteen tool schemas alone are about 4,000 tokens: it needs the default context.
FILESYSTEM_N_CTX = "8192"


def _twin_argv(mode: str, real: list[str], *flags: str) -> tuple[list[str], str]:
    world = f"test-{mode}-{uuid.uuid4().hex[:8]}"
    quick = [] if mode == "record" else ["--max-tokens", "24", "--effects", "parser"]  # record never asks the model
    argv = [sys.executable, "-m", "agentworld_mcp", "twin", "--mode", mode, "--world", world, *quick, *flags, "--", *real]
    return argv, world


def _stdio(argv: list[str], env: dict[str, str]) -> StdioServerParameters:
    return StdioServerParameters(command=argv[0], args=argv[1:], env=env)


def _tools(listing) -> list[dict]:
    return [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in listing.tools]


async def _read_json(client: Client, uri: str) -> dict:
    return json.loads((await client.read_resource(uri)).contents[0].text)


def _folder_state(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {str(path.relative_to(folder)): (path.read_bytes() if path.is_file() else b"<dir>", path.stat().st_mtime_ns)
            for path in sorted(folder.rglob("*"))}


def _run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def _real_server_pid(twin_pid: int) -> int:
    children = Path(f"/proc/{twin_pid}/task/{twin_pid}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


@pytest.fixture
def work_folder(tmp_path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "notes.txt").write_text("buy milk\n")
    (folder / "keep").mkdir()
    return folder


@pytest.fixture
def filesystem(work_folder) -> list[str]:
    return [str(installed(FILESYSTEM_SERVER, FILESYSTEM_INSTALL)), str(work_folder)]


@pytest.mark.parametrize("which", ["filesystem", "time"])
async def test_the_twin_lists_the_real_servers_tools_identically(server_env, request, which):
    real = request.getfixturevalue("filesystem") if which == "filesystem" else TIME_SERVER
    argv, _ = _twin_argv("record", real)
    async with Client(_stdio(real, server_env), mode="legacy") as direct:
        expected = _tools(await direct.list_tools())
        real_name = direct.server_info.name
    # The real servers speak the handshake era; so does this client. A modern-era client gets the same tools,
    # less the fields that era no longer defines (the SDK drops them on the wire).
    async with Client(_stdio(argv, server_env), mode="legacy") as twin:
        assert _tools(await twin.list_tools()) == expected
        assert twin.server_info.name == real_name
    async with Client(_stdio(argv, server_env)) as modern:
        listed = {tool["name"]: tool for tool in _tools(await modern.list_tools())}
    assert list(listed) == [tool["name"] for tool in expected]
    for tool in expected:
        for field in ("inputSchema", "outputSchema", "annotations", "description"):
            assert listed[tool["name"]].get(field) == tool.get(field)


async def test_simulate_refuses_bad_calls_without_the_model_and_never_touches_the_real_folder(
    server_env, filesystem, work_folder
):
    argv, world = _twin_argv("simulate", filesystem)
    before = _folder_state(work_folder)
    env = {**server_env, "AGENTWORLD_N_CTX": FILESYSTEM_N_CTX}
    async with Client(_stdio(argv, env), mode="legacy") as twin:
        refused = await twin.call_tool("read_text_file", {"path": 5})
        assert refused.is_error and "-32602" in refused.content[0].text and "at path" in refused.content[0].text
        with pytest.raises(MCPError, match="Unknown tool: format_disk"):
            await twin.call_tool("format_disk", {})
        status = await _read_json(twin, "status://server")
        assert (status["completed"], status["prompt_tokens"]) == (0, 0)  # no model work for either refusal
        assert status["twin"]["calls"] == {"refused": 2}

        target = str(work_folder / "notes.txt")
        calls = [("write_file", {"path": target, "content": "overwritten\n"}),
                 ("move_file", {"source": target, "destination": str(work_folder / "moved.txt")}),
                 ("create_directory", {"path": str(work_folder / "new-dir")})]
        for name, arguments in calls:
            result = await twin.call_tool(name, arguments)
            assert result.meta["agentworld/twin"]["mode"] == "simulate"  # the model's answer, or the twin's refusal
            assert result.content and all(block.type == "text" for block in result.content)
            if "output schema" in result.content[0].text:  # generated under the schema: only a cut-off reply breaks it
                assert result.is_error and "cut off at max_tokens" in result.content[0].text
        report = await _read_json(twin, "twin://report")
        world_view = await _read_json(twin, f"world://{world}")
    assert _folder_state(work_folder) == before  # simulate mode never reached the real folder
    calls_made = report["calls"]
    answered, refused_by_schema = calls_made.get("simulated", 0), calls_made.get("broke_output_schema", 0)
    assert answered + refused_by_schema + calls_made.get("failed", 0) == len(calls)
    assert answered + refused_by_schema >= 1 and report["real_server"]["answering"] is False
    # Every answered call is a predicted step of the world, in call order; a prediction the twin refused
    # (it broke the tool's output schema) is not kept, since the agent was told nothing happened.
    kept = [json.loads(step["action"])["name"] for step in world_view["steps"]]
    remaining = iter(name for name, _ in calls)
    assert len(kept) == answered and all(name in remaining for name in kept)
    assert all(step["source"] == "predicted" for step in world_view["steps"])


async def test_record_runs_every_call_on_the_real_server_and_keeps_the_real_results(server_env, filesystem, work_folder):
    argv, world = _twin_argv("record", filesystem)
    async with Client(_stdio(argv, server_env), mode="legacy") as twin:
        written = await twin.call_tool("write_file", {"path": str(work_folder / "plan.md"), "content": "# plan\n"})
        read = await twin.call_tool("read_text_file", {"path": str(work_folder / "plan.md")})
        outside = await twin.call_tool("read_text_file", {"path": "/etc/hostname"})  # the real server refuses this
        status = await _read_json(twin, "status://server")
    assert (work_folder / "plan.md").read_text() == "# plan\n"  # it really ran
    assert not written.is_error and read.structured_content == {"content": "# plan\n"} and outside.is_error
    assert status["twin"]["calls"] == {"real": 3} and status["completed"] == 0  # record mode never asks the model
    store = Store(Path(server_env["AGENTWORLD_DATA_DIR"]) / "worlds.sqlite3")
    try:
        steps = store.steps(world)
    finally:
        store.close()
    assert [step.source for step in steps] == ["real"] * 3
    assert [step.observation for step in steps] == [observation_of(r) for r in (written, read, outside)]


async def test_shadow_answers_with_reality_and_reports_how_close_each_prediction_was(server_env):
    argv, world = _twin_argv("shadow", TIME_SERVER)
    async with Client(_stdio(argv, server_env)) as twin:
        now = await twin.call_tool("get_current_time", {"timezone": "UTC"})
        converted = await twin.call_tool(
            "convert_time", {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"})
        unknown_zone = await twin.call_tool("get_current_time", {"timezone": "Nowhere/Atlantis"})
        assert now.structured_content["timezone"] == "UTC" and not now.is_error  # the real answers, at once
        assert converted.structured_content["target"]["timezone"] == "Asia/Tokyo" and unknown_zone.is_error
        with anyio.fail_after(600):
            while (report := await _read_json(twin, "twin://report"))["shadow"]["pending"]:
                await anyio.sleep(1)
        status = await _read_json(twin, "status://server")
        world_view = await _read_json(twin, f"world://{world}")
    shadow = report["shadow"]
    assert shadow["compared"] + report["calls"].get("uncompared", 0) == 3 and shadow["compared"] >= 1
    assert 0 <= shadow["mean_similarity"] <= 1 and 0 <= shadow["error_agreement"] <= 1
    assert set(shadow["by_tool"]) <= {"get_current_time", "convert_time"}
    assert status["twin"]["shadow"]["compared"] == shadow["compared"] and status["completed"] >= shadow["compared"]
    assert report["drift"]["compared_steps"] == shadow["compared"]
    assert [step["source"] for step in world_view["steps"]] == ["real"] * 3
    compared = [step for step in world_view["steps"] if step["similarity"] is not None]
    assert len(compared) == shadow["compared"] and all(step["predicted"] is not None for step in compared)


async def test_when_the_real_server_dies_calls_say_so_and_simulation_goes_on(server_env):
    argv, _ = _twin_argv("record", TIME_SERVER)
    async with Client(_stdio(argv, server_env)) as twin:
        assert not (await twin.call_tool("get_current_time", {"timezone": "UTC"})).is_error
        os.kill(_real_server_pid((await _read_json(twin, "status://server"))["process_id"]), signal.SIGKILL)
        with anyio.fail_after(30):
            gone = await twin.call_tool("get_current_time", {"timezone": "UTC"})
        assert gone.is_error and "no longer answers" in gone.content[0].text and "restart the twin" in gone.content[0].text
        assert (await _read_json(twin, "twin://report"))["real_server"]["answering"] is False

    argv, _ = _twin_argv("simulate", TIME_SERVER, "--real-reads")
    async with Client(_stdio(argv, server_env)) as twin:
        real = await twin.call_tool("get_current_time", {"timezone": "UTC"})
        assert not real.is_error and "agentworld/twin" not in (real.meta or {})  # a read-only call, answered by reality
        os.kill(_real_server_pid((await _read_json(twin, "status://server"))["process_id"]), signal.SIGKILL)
        with anyio.fail_after(300):
            simulated = await twin.call_tool("get_current_time", {"timezone": "Europe/Paris"})
        assert simulated.meta["agentworld/twin"]["mode"] == "simulate"
        calls = (await _read_json(twin, "twin://report"))["calls"]
    assert calls["real"] == 1
    assert calls.get("simulated", 0) + calls.get("broke_output_schema", 0) + calls.get("failed", 0) == 1


@pytest.mark.parametrize(
    "real, flags, message",
    [([], [], "twin needs the real server"),
     (["/nonexistent/mcp-server"], [], "did not start"),
     ([sys.executable, "-c", "import sys; sys.exit(3)"], [], "did not start"),
     (TIME_SERVER, ["--tool", "get_weather"], "no such tool; it has convert_time, get_current_time"),
     (TIME_SERVER, ["--world", "../escape"], "world name '../escape'"),
     (TIME_SERVER, ["--max-tokens", "0"], "--max-tokens 0: give 1 to")],
)
def test_a_twin_that_cannot_start_says_why_in_one_line(server_env, real, flags, message):
    argv, _ = _twin_argv("record", real, *flags)
    if not real:
        argv = argv[: argv.index("--")]
    _assert_one_line_refusal(_run(argv, server_env), message)


def _assert_one_line_refusal(done: subprocess.CompletedProcess, message: str) -> None:
    assert done.returncode == 2 and done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("agentworld-mcp: ") and message in last and "Traceback" not in done.stderr


def test_a_real_server_that_never_answers_is_given_up_on(server_env):
    argv, _ = _twin_argv("record", [sys.executable, "-c", "import time; time.sleep(60)"], "--start-timeout", "2")
    started = time.monotonic()
    _assert_one_line_refusal(_run(argv, server_env), "no answer within 2 s")
    assert time.monotonic() - started < 30


async def test_a_world_outlives_the_twin_and_fresh_starts_it_over(server_env):
    argv, world = _twin_argv("record", TIME_SERVER)
    for expected_steps in (1, 2):  # a restarted twin continues its world
        async with Client(_stdio(argv, server_env)) as twin:
            await twin.call_tool("get_current_time", {"timezone": "UTC"})
            assert (await _read_json(twin, "twin://report"))["steps"] == expected_steps
    async with Client(_stdio(argv[: argv.index("--")] + ["--fresh"] + argv[argv.index("--"):], server_env)) as twin:
        assert (await _read_json(twin, "twin://report"))["steps"] == 0


async def test_recording_into_a_world_with_simulated_steps_is_refused_unless_fresh(server_env):
    argv, world = _twin_argv("record", TIME_SERVER)
    store = Store(Path(server_env["AGENTWORLD_DATA_DIR"]) / "worlds.sqlite3")
    try:
        store.create_world("mcp", "", "", [{"name": "get_current_time"}], world_id=world)
        store.append_steps(world, [StepRow(1, '{"name": "get_current_time", "arguments": {}}', "{}", "{}", {},
                                           "predicted", None, None)])
    finally:
        store.close()
    _assert_one_line_refusal(_run(argv, server_env), "holds 1 simulated steps that record mode would drop")
    fresh = argv[: argv.index("--")] + ["--fresh"] + argv[argv.index("--"):]
    async with Client(_stdio(fresh, server_env)) as twin:
        assert (await _read_json(twin, "twin://report"))["steps"] == 0


async def test_stdout_carries_only_json_rpc_frames_while_the_real_server_logs(server_env, filesystem):
    """The filesystem server writes to its stderr; the twin's stdout must hold nothing but frames."""
    argv, _ = _twin_argv("record", filesystem)
    process = await asyncio.create_subprocess_exec(*argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                   stderr=subprocess.PIPE, env=server_env)
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "list_allowed_directories", "arguments": {}}},
    ]
    try:
        for request in requests:
            process.stdin.write((json.dumps(request) + "\n").encode())
        await process.stdin.drain()
        answered = {}
        while len(answered) < 3:
            line = await asyncio.wait_for(process.stdout.readline(), 60)
            assert line, "the twin closed stdout"
            frame = json.loads(line)  # anything but a JSON frame on stdout fails here
            assert frame["jsonrpc"] == "2.0"
            answered[frame.get("id")] = frame
        assert answered[3]["result"]["isError"] is False
    finally:
        process.stdin.close()
        await asyncio.wait_for(process.wait(), 30)
    assert (await process.stdout.read()) == b""
    assert b"Secure MCP Filesystem Server" in await process.stderr.read()  # the real server's log went to stderr


async def test_a_twin_can_serve_some_of_the_real_tools(server_env):
    argv, _ = _twin_argv("record", TIME_SERVER, "--tool", "convert_time")
    async with Client(_stdio(argv, server_env)) as twin:
        assert [tool.name for tool in (await twin.list_tools()).tools] == ["convert_time"]
        with pytest.raises(MCPError, match="Unknown tool: get_current_time"):
            await twin.call_tool("get_current_time", {"timezone": "UTC"})  # not served, so not run for real


async def test_the_twin_serves_over_http_too(server_env, tmp_path):
    port = free_port()
    argv, _ = _twin_argv("record", TIME_SERVER)
    argv[argv.index("--"):argv.index("--")] = ["--transport", "http", "--port", str(port)]
    with (tmp_path / "twin.log").open("wb") as log:
        process = subprocess.Popen(argv, env=server_env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        for _ in range(120):
            try:
                httpx2.get(url, timeout=2)
                break
            except httpx2.HTTPError:
                time.sleep(0.5)
        async with Client(url) as twin:
            assert {tool.name for tool in (await twin.list_tools()).tools} == {"get_current_time", "convert_time"}
            now = await twin.call_tool("get_current_time", {"timezone": "Asia/Tokyo"})
        assert now.structured_content["timezone"] == "Asia/Tokyo"
    finally:
        process.terminate()
        process.wait(timeout=30)
