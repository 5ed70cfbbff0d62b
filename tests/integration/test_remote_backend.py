"""The remote backend against a REAL llama-server (the test extra's prebuilt binary, on CPU) serving
the default model: every tool, worlds and jobs, parallel slots, reuse, cancel, effects, the
thinking budget, and each failure a user can act on."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import anyio
import pytest
from agentworld_mcp.engine import GenerationRequest, Sampling
from agentworld_mcp.server.measure import llama_server
from agentworld_mcp.server.runtime import build_context, open_store, resolve_source
from agentworld_mcp.server.surface.app import create_server
from agentworld_mcp.tools.requests import SimulateRequest
from agentworld_mcp.tools.simulation.simulate import simulate_action
from mcp import Client
from pydantic import SecretStr

from ..tool_calls import call_error, call_ok

QUICK = {"temperature": 0, "max_tokens": 32}
SLOTS = 4
THINKING_CHATML = (
    "{% for message in messages %}<|im_start|>{{ message.role }}\n{{ message.content }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n<think>\n{% endif %}"
)


def _server(model_info, **options):
    try:
        return llama_server.llama_server(model_info.path, **options)
    except llama_server.LlamaServerMissing as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def remote(model_info):
    """One llama-server with 4 slots of 4096 tokens each, like the in-process tests' context."""
    with _server(model_info, slots=SLOTS, n_ctx=SLOTS * 4096) as server:
        yield server


async def _context(settings, base_url: str, store: bool = True, reachable: bool = True, **changes):
    remote_settings = settings.model_copy(update={"backend": "openai", "base_url": base_url, **changes})
    ctx = build_context(remote_settings, resolve_source(remote_settings), store=open_store(settings) if store else None)
    ctx.engine.start()
    if reachable:
        await ctx.engine.wait_ready()
    return ctx


@pytest.fixture(scope="module")
async def remote_context(settings, remote):
    ctx = await _context(settings, remote.base_url)
    yield ctx
    ctx.engine.close()


def _slots_busy(server) -> int:
    with urllib.request.urlopen(server.base_url.removesuffix("/v1") + "/slots", timeout=5) as response:
        return sum(bool(slot["is_processing"]) for slot in json.load(response))


# --- every tool, unchanged ----------------------------------------------------------------------
async def test_every_tool_a_world_and_a_job_work_against_the_model_server(remote_context):
    async with Client(create_server(remote_context), mode="legacy") as client:
        prediction = await call_ok(client, "simulate_action", {"domain": "terminal", "action": "python3 app.py", **QUICK})
        assert prediction["model"]["architecture"] == "llama-server"
        assert prediction["observation"].strip() or prediction["parse_error"]
        usage = prediction["usage"]
        assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
        # What changed comes from the command; whether it succeeded, from the server's json_schema answer.
        assert prediction["effects"]["source"] == "command" and usage["effects_tokens"] > 0

        plan = await call_ok(client, "dry_run_plan", {"domain": "terminal", "steps": ["mkdir a", "ls"], **QUICK})
        assert 1 <= len(plan["steps"]) <= 2

        judge = {"id": "no-mail", "kind": "judge", "text": "Never send email outside example.com.", "phase": "pre"}
        checked = await call_ok(client, "check_constraints", {
            "domain": "terminal", "action": "mail bob@elsewhere.org < note", "constraints": [judge]})
        verdict = checked["results"][0]
        assert verdict["model_judged"] is True and verdict["status"] in ("holds", "violated")  # judged on the server

        world = await call_ok(client, "world", {"operation": "open", "domain": "terminal"})
        await call_ok(client, "simulate_action", {"world_id": world["world_id"], "action": "touch x", "commit": True, **QUICK})
        view = await call_ok(client, "world", {"operation": "get", "world_id": world["world_id"]})
        assert [step["step"] for step in view["steps"]] == [1]

        handle = await call_ok(client, "dry_run_plan", {
            "domain": "terminal", "steps": ["uname -a", "whoami"], "budget_seconds": 1, **QUICK})
        assert handle["job_id"] and handle["verdict"]["status"] == "running"
        for _ in range(60):
            job = await call_ok(client, "job", {"job_id": handle["job_id"], "wait_seconds": 10})
            if job["status"] != "running":
                break
        assert job["status"] == "completed" and job["result"]["steps"]

        status = json.loads((await client.read_resource("status://server")).contents[0].text)
        assert status["backend"]["kind"] == "llama-server" and status["backend"]["url"] == remote_context.engine.model.file
        assert status["workers"] == SLOTS and status["backend"]["slots"] == SLOTS


async def test_requests_run_side_by_side_on_the_slots_and_reuse_is_what_the_server_reports(remote_context):
    engine = remote_context.engine
    actions = ["ls /etc", "uname -a", "id", "date"]
    predictions = await asyncio.gather(*(simulate_action(remote_context, SimulateRequest(
        domain="terminal", action=action, **QUICK)) for action in actions))
    assert all(p.usage.completion_tokens > 0 for p in predictions)
    assert engine.stats().backend["in_flight_peak"] >= 2  # more than one request was on the server at once

    # The same state again: the server's cache holds the shared prefix, and says so.
    again = await simulate_action(remote_context, SimulateRequest(domain="terminal", action="ls /etc", **QUICK))
    assert 0 < again.usage.reused_prompt_tokens < again.usage.prompt_tokens or again.usage.cached


async def test_cancelling_closes_the_stream_and_the_server_stops_generating(remote_context, remote):
    long = GenerationRequest(
        messages=({"role": "user", "content": "Write a very long story about a lighthouse keeper."},),
        sampling=Sampling(temperature=1.0, max_tokens=3000),
    )
    running = asyncio.create_task(remote_context.engine.generate(long))
    for _ in range(200):
        if _slots_busy(remote):
            break
        await asyncio.sleep(0.05)
    assert _slots_busy(remote) == 1
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    for _ in range(60):  # 3 s
        if not _slots_busy(remote):
            break
        await asyncio.sleep(0.05)
    assert _slots_busy(remote) == 0
    follow_up = await simulate_action(remote_context, SimulateRequest(domain="terminal", action="whoami", **QUICK))
    assert follow_up.usage.completion_tokens > 0


async def test_the_thinking_budget_closes_the_block_and_the_observation_still_comes(settings, model_info, tmp_path):
    template = tmp_path / "thinking.jinja"
    template.write_text(THINKING_CHATML)
    with _server(model_info, slots=1, n_ctx=4096, extra=("--jinja", "--chat-template-file", str(template))) as server:
        ctx = await _context(settings, server.base_url, store=False, effects="parser")
        try:
            prediction = await simulate_action(ctx, SimulateRequest(
                domain="terminal", action="cat /etc/os-release", temperature=0, max_tokens=96, thinking_budget=24,
                include_reasoning=True,
            ))
        finally:
            ctx.engine.close()
    usage = prediction.usage
    assert 0 < usage.reasoning_tokens <= 24 and prediction.reasoning
    if usage.thinking_cut:
        assert usage.reasoning_tokens == 24 and usage.completion_tokens > usage.reasoning_tokens
    assert prediction.observation.strip() or prediction.parse_error
    assert "<think>" not in prediction.observation and "</think>" not in prediction.observation


# --- failures a user can act on -------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:The logging capability is deprecated")
async def test_nothing_listening_is_one_clear_error_and_a_server_started_later_is_found(settings, model_info):
    port = llama_server.free_port()
    ctx = await _context(settings, f"http://127.0.0.1:{port}", store=False, reachable=False)
    logged = []

    async def on_log(params) -> None:
        logged.append(params)

    try:
        async with Client(create_server(ctx), mode="legacy", logging_callback=on_log) as client:
            await client.set_logging_level("warning")
            message = await call_error(client, "simulate_action", {"domain": "terminal", "action": "python3 app.py", **QUICK})
            assert "cannot reach the model server" in message and "--base-url" in message
            checked = await call_ok(client, "check_constraints", {  # zero-token rules need no model
                "domain": "terminal", "action": "rm -rf /", "presets": ["no-recursive-force-delete"]})
            assert checked["results"][0]["status"] == "violated"
            server = llama_server.start(model_info.path, slots=1, n_ctx=4096, port=port)
            try:
                prediction = await call_ok(client, "simulate_action", {"domain": "terminal", "action": "python3 app.py", **QUICK})
                assert prediction["model"]["architecture"] == "llama-server"
                with anyio.fail_after(10):  # the client is told, apart from the reply
                    while not any("answers again" in m.data for m in logged):
                        await anyio.sleep(0.05)
            finally:
                server.stop()
    finally:
        ctx.engine.close()


async def test_a_wrong_api_key_a_wrong_model_name_and_a_too_long_prompt_each_say_what_to_fix(settings, model_info, remote):
    with _server(model_info, slots=1, n_ctx=2048, extra=("--api-key", "right-key")) as guarded:
        wrong = await _context(settings, guarded.base_url, store=False, api_key=SecretStr("wrong-key"), reachable=False)
        try:
            async with Client(create_server(wrong), mode="legacy") as client:
                message = await call_error(client, "simulate_action", {"domain": "terminal", "action": "python3 app.py", **QUICK})
                assert "401" in message and "--api-key" in message
                status = (await client.read_resource("status://server")).contents[0].text
                assert "wrong-key" not in status and guarded.base_url in status
        finally:
            wrong.engine.close()

    wrong_path = await _context(settings, remote.base_url.removesuffix("/v1") + "/not-the-api/v1", store=False, reachable=False)
    try:
        with pytest.raises(Exception, match="no OpenAI-compatible API at .*/not-the-api/v1"):
            await simulate_action(wrong_path, SimulateRequest(domain="terminal", action="python3 app.py", **QUICK))
    finally:
        wrong_path.engine.close()

    unknown = await _context(settings, remote.base_url, store=False, served_model="no-such-model", reachable=False)
    try:
        with pytest.raises(Exception, match="not 'no-such-model'; pass --served-model"):
            await simulate_action(unknown, SimulateRequest(domain="terminal", action="python3 app.py", **QUICK))
    finally:
        unknown.engine.close()

    too_long = await _context(settings, remote.base_url, store=False, effects="off")
    try:
        with pytest.raises(Exception, match="context"):
            await simulate_action(too_long, SimulateRequest(
                domain="terminal", action="ls", state="drwxr-xr-x 2 dev dev 4096 notes\n" * 900, **QUICK))
    finally:
        too_long.engine.close()


async def test_a_model_server_that_dies_mid_plan_loses_no_committed_step(settings, model_info):
    server = llama_server.start(model_info.path, slots=1, n_ctx=4096)
    ctx = await _context(settings, server.base_url)
    try:
        async with Client(create_server(ctx), mode="legacy") as client:
            world_id = (await call_ok(client, "world", {"operation": "open", "domain": "terminal"}))["world_id"]
            await call_ok(client, "simulate_action", {"world_id": world_id, "action": "mkdir kept", "commit": True, **QUICK})
            plan = asyncio.create_task(client.call_tool("dry_run_plan", {
                "world_id": world_id, "steps": ["python3 app.py", "pwd", "whoami", "date"], "commit": True,
                "temperature": 1.0, "max_tokens": 400}))
            while ctx.engine.stats().backend["in_flight"] == 0:
                await asyncio.sleep(0.05)
            server.process.kill()
            result = await plan
            text = result.content[0].text
            assert "Traceback" not in text
            if result.is_error:
                assert "model server" in text
            else:  # the plan stopped at the failed step and says why
                assert "model server" in json.dumps(result.structured_content)
            view = await call_ok(client, "world", {"operation": "get", "world_id": world_id})
            assert view["steps"][0]["step"] == 1 and json.loads(view["steps"][0]["action"])[0]["keystrokes"] == "mkdir kept\n"
            message = await call_error(client, "simulate_action", {"world_id": world_id, "action": "python3 app.py", **QUICK})
            assert "cannot reach the model server" in message
    finally:
        ctx.engine.close()
        server.stop()


# --- the other front ends -------------------------------------------------------------------------
def test_the_batch_command_and_the_simulator_take_the_model_server_too(remote, server_env, tmp_path):
    import subprocess
    import sys

    from agentworld_mcp.server.api.python_api import Simulator

    lines = [json.dumps({"id": i, "arguments": {"domain": "terminal", "action": action, **QUICK}})
             for i, action in enumerate(["python3 app.py", "pwd", "whoami", "id"])]
    done = subprocess.run(
        [sys.executable, "-m", "agentworld_mcp", "batch", "-", "--concurrency", "4", "--base-url", remote.base_url,
         "--effects", "off"],
        input="\n".join(lines), capture_output=True, text=True, timeout=600, env=server_env,
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["id"] for r in records] == [0, 1, 2, 3] and all(r["ok"] for r in records)

    with Simulator(base_url=remote.base_url, data_dir=tmp_path) as simulator:
        prediction = simulator.simulate_sync("terminal", "python3 app.py", **QUICK)
        assert prediction.model.architecture == "llama-server" and prediction.usage.completion_tokens > 0


async def test_a_shadowing_twin_predicts_on_the_model_server(remote, server_env):
    """The twin's predictions go wherever the server's do: here, llama-server's slots."""
    import sys

    from mcp.client.stdio import StdioServerParameters

    from ..third_party import TIME_SERVER

    argv = [sys.executable, "-m", "agentworld_mcp", "twin", "--mode", "shadow", "--world", "remote-shadow", "--fresh",
            "--base-url", remote.base_url, "--max-tokens", "24", "--effects", "off", "--", *TIME_SERVER]
    async with Client(StdioServerParameters(command=argv[0], args=argv[1:], env=server_env)) as twin:
        # Each real answer comes at once; the three predictions behind them run side by side on the slots.
        for zone in ("UTC", "Asia/Tokyo", "America/Lima"):
            assert not (await twin.call_tool("get_current_time", {"timezone": zone})).is_error
        for _ in range(300):
            status = json.loads((await twin.read_resource("status://server")).contents[0].text)
            if not status["twin"]["shadow"]["pending"]:
                break
            await asyncio.sleep(1)
    assert status["model"]["architecture"] == "llama-server"
    shadow, calls = status["twin"]["shadow"], status["twin"]["calls"]
    assert shadow["compared"] >= 1 and shadow["compared"] + calls.get("uncompared", 0) == 3
    assert status["completed"] >= shadow["compared"]
