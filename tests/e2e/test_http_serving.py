"""Serving over real HTTP: the bearer token, DNS-rebinding protection, the body limit, the health
route, a refused unsafe bind, and a good token end to end through the SDK's HTTP client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from agentworld_mcp.server.measure.llama_server import free_port

from ..third_party import CONFORMANCE, CONFORMANCE_INSTALL, installed

TOKEN = "test-token-0123456789abcdef"
QUICK = {"temperature": 0, "max_tokens": 24}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _serve(folder, env: dict[str, str]):
    """A real server over HTTP on a free port: its address, and the process to stop."""
    port = free_port()
    log = folder / "server.log"
    with log.open("wb") as sink:
        process = subprocess.Popen([sys.executable, "-m", "agentworld_mcp", "serve", "--transport", "http", "--port",
                                    str(port)], env={**env, "AGENTWORLD_N_CTX": "4096"}, stdout=sink,
                                   stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx2.get(base + "/health", timeout=2).status_code in (200, 503):
                return base, process
        except httpx2.HTTPError:
            time.sleep(0.1)
    process.kill()
    pytest.fail(f"the HTTP server did not come up:\n{log.read_text()}")


@pytest.fixture(scope="module")
def http_server(tmp_path_factory):
    base, process = _serve(tmp_path_factory.mktemp("http"), {**os.environ, "AGENTWORLD_AUTH_TOKEN": TOKEN})
    yield base
    process.terminate()
    process.wait(20)


@pytest.fixture(scope="module")
def open_http_server(tmp_path_factory):
    """On the loopback address without a token, as a local user runs it."""
    env = {key: value for key, value in os.environ.items() if key != "AGENTWORLD_AUTH_TOKEN"}
    base, process = _serve(tmp_path_factory.mktemp("open-http"), env)
    yield base
    process.terminate()
    process.wait(20)


def _post(base: str, token: str | None, body: bytes | None = None, **headers: str) -> httpx2.Response:
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    content = body if body is not None else json.dumps(INITIALIZE).encode()
    return httpx2.post(base + "/mcp", content=content, headers={**MCP_HEADERS, **auth, **headers}, timeout=30)


def test_health_answers_without_a_token_and_says_only_the_model_state(http_server):
    response = httpx2.get(http_server + "/health", timeout=5)
    assert response.status_code == 200 and set(response.json()) == {"status"}
    assert response.json()["status"] in ("ok", "loading")


def test_requests_without_the_right_token_or_from_a_wrong_host_or_origin_or_too_big_are_refused(http_server):
    assert _post(http_server, None).status_code == 401
    refused = _post(http_server, "not-the-token")
    assert refused.status_code == 401 and "Bearer" in refused.headers.get("www-authenticate", "")
    assert _post(http_server, TOKEN, Host="evil.example").status_code == 421
    assert _post(http_server, TOKEN, Origin="https://evil.example").status_code == 403
    assert _post(http_server, TOKEN, body=b'{"x": "' + b"a" * (5 << 20) + b'"}').status_code == 413
    assert _post(http_server, TOKEN, Origin="http://localhost:3000").status_code == 200  # a local page may


async def test_a_good_token_works_end_to_end_with_progress(http_server):
    http_client = create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
    progress: list[float] = []

    async def on_progress(done, total, message):
        progress.append(done)

    async with Client(streamable_http_client(http_server + "/mcp", http_client=http_client), mode="legacy") as client:
        prediction = await client.call_tool("simulate_action", {"domain": "terminal", "action": "python3 app.py", **QUICK})
        assert not prediction.is_error and prediction.structured_content["usage"]["completion_tokens"] > 0
        plan = await client.call_tool("dry_run_plan", {"domain": "terminal", "steps": ["pwd", "ls"], **QUICK},
                                      progress_callback=on_progress)
        assert not plan.is_error and progress  # progress notifications came over HTTP
        world = (await client.call_tool("world", {"operation": "open", "domain": "terminal"})).structured_content
        stepped = await client.call_tool("simulate_action", {"world_id": world["world_id"], "action": "id", "commit": True, **QUICK})
        assert not stepped.is_error
        handle = (await client.call_tool("dry_run_plan", {
            "domain": "terminal", "steps": ["whoami", "date"], "budget_seconds": 1, **QUICK})).structured_content
        assert handle["job_id"]
        for _ in range(60):
            job = (await client.call_tool("job", {"job_id": handle["job_id"], "wait_seconds": 10})).structured_content
            if job["status"] != "running":
                break
        assert job["status"] == "completed"


def test_a_bind_other_machines_can_reach_needs_a_token(server_env):
    env = {key: value for key, value in server_env.items() if key != "AGENTWORLD_AUTH_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "agentworld_mcp", "serve", "--transport", "http", "--host", "0.0.0.0",
                           "--port", str(free_port())], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "--auth-token" in done.stderr


# The suite's server scenarios that apply to any server; the others call fixtures of its own
# (test_prompt_with_arguments, test://static-text, test_tool_with_logging, ...) that this server does not have.
CONFORMANCE_SCENARIOS = ["server-initialize", "ping", "tools-list", "resources-list", "prompts-list", "logging-set-level",
                         "server-sse-multiple-streams", "dns-rebinding-protection"]


@pytest.mark.parametrize("scenario", CONFORMANCE_SCENARIOS)
def test_the_mcp_conformance_suite_passes_the_server_scenarios_that_apply(open_http_server, scenario, tmp_path):
    suite = installed(CONFORMANCE, CONFORMANCE_INSTALL)
    run = subprocess.run([str(suite), "server", "--url", open_http_server + "/mcp", "--scenario", scenario,
                          "-o", str(tmp_path)], capture_output=True, text=True, timeout=120)
    checks = [check for found in tmp_path.rglob("checks.json") for check in json.loads(found.read_text())]
    not_passed = [f"{check['name']}: {check['status']} {check.get('errorMessage', '')}" for check in checks
                  if check["status"] not in ("SUCCESS", "INFO")]
    assert checks and not not_passed and run.returncode == 0, not_passed or run.stdout[-2000:]
