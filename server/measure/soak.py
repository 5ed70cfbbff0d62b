"""`agentworld-mcp soak`: many clients, many calls, random cancels, against a real server process.

Not a speed figure: it reports what a long-running server must keep true under load. Every call
ends (as a result, a busy refusal, an error or our own cancel), memory and file descriptors stay
flat, and the queue drains to zero once the clients stop. Over stdio one session carries all
clients' calls at once (as a host running tool calls in parallel does); over HTTP each client has
its own session.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import TextResourceContents

from ..surface.replies import reply_text
from .llama_server import free_port

_QUICK = {"temperature": 0, "max_tokens": 16}
_COMMANDS = ["ls -la", "pwd", "mkdir build", "cat README.md", "git status", "echo $HOME", "rm notes.txt", "df -h"]
_CALL_BOUND_SECONDS = 300  # a call not answered by then counts as hung


@dataclass
class Process:
    """A server process's footprint, read from /proc (Linux)."""

    pid: int

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def open_fds(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))


@dataclass
class Tally:
    outcomes: Counter[str] = field(default_factory=Counter)
    first_errors: list[str] = field(default_factory=list)

    def add(self, outcome: str, message: str = "") -> None:
        self.outcomes[outcome] += 1
        if outcome == "error" and len(self.first_errors) < 3:
            self.first_errors.append(message[:200])


async def _status(client: Client) -> dict[str, Any]:
    contents = (await client.read_resource("status://server")).contents[0]
    if not isinstance(contents, TextResourceContents):
        raise TypeError(f"the status resource came back as {type(contents).__name__}, not JSON text")
    return json.loads(contents.text)


def _one_call(rng: random.Random, world_id: str) -> tuple[str, dict[str, Any]]:
    kind = rng.choice(["simulate", "simulate", "plan", "check", "world"])
    command = rng.choice(_COMMANDS)
    if kind == "simulate":
        return "simulate_action", {"domain": "terminal", "action": f"{command} # {rng.random():.6f}", **_QUICK}
    if kind == "plan":
        return "dry_run_plan", {"domain": "terminal", "steps": [command, rng.choice(_COMMANDS)], **_QUICK}
    if kind == "check":
        rule = {"id": "no-rm", "kind": "rule", "expr": "!action.contains('rm ')"}
        return "check_constraints", {"action": command, "constraints": [rule]}
    return "simulate_action", {"world_id": world_id, "action": command, "commit": True, **_QUICK}


async def _client_run(client: Client, index: int, calls: int, cancel_rate: float, tally: Tally) -> None:
    rng = random.Random(index)  # the same mix of calls and cancels on every run
    opened = await client.call_tool("world", {"operation": "open", "domain": "terminal", "task": f"soak {index}"})
    world_id = opened.structured_content["world_id"]
    for _ in range(calls):
        tool, arguments = _one_call(rng, world_id)
        cancel_after = rng.uniform(0.05, 2.0) if rng.random() < cancel_rate else None
        with anyio.move_on_after(cancel_after if cancel_after is not None else _CALL_BOUND_SECONDS) as scope:
            try:
                result = await client.call_tool(tool, arguments)
            except MCPError as exc:  # a protocol-level failure, a read timeout among them
                tally.add("error", f"{tool}: {exc}")
                continue
        if scope.cancelled_caught:
            tally.add("cancelled" if cancel_after is not None else "hung")
            continue
        text = reply_text(result) if result.content else ""
        if not result.is_error:
            tally.add("completed")
        elif "is busy" in text:
            tally.add("busy")
        else:
            tally.add("error", text)


async def _drain(client: Client, bound: float = 120.0) -> float | None:
    """Seconds until nothing waits or runs; None when that did not happen within `bound`."""
    started = time.perf_counter()
    while time.perf_counter() - started < bound:
        status = await _status(client)
        if status["queue_depth"] == 0 and status["running"] == 0:
            return time.perf_counter() - started
        await asyncio.sleep(0.2)
    return None


async def _soak(open_client: Callable[[], Any], clients: int, calls: int, cancel_rate: float, shared: bool) -> dict[str, Any]:
    """`open_client()`: an async context manager giving a connected Client. `shared`: one session for all."""
    tally = Tally()
    async with open_client() as probe:
        await probe.call_tool("simulate_action", {"domain": "terminal", "action": "echo warm", **_QUICK})
        process = Process((await _status(probe))["process_id"])
        start = {"rss_mb": process.rss_mb(), "fds": process.open_fds()}
        began = time.perf_counter()
        samples: list[int] = []  # RSS every 30 s: growth that levels off is a cache, growth that does not is a leak
        async with anyio.create_task_group() as group:
            group.start_soon(_sample_rss, process, samples)
            callers = anyio.create_task_group()
            async with callers:
                for index in range(clients):
                    if shared:
                        callers.start_soon(_client_run, probe, index, calls, cancel_rate, tally)
                    else:
                        callers.start_soon(_own_session, open_client, index, calls, cancel_rate, tally)
            group.cancel_scope.cancel()  # the callers are done: stop sampling
        elapsed = time.perf_counter() - began
        drain_seconds = await _drain(probe)
        stats = await _status(probe)
        await asyncio.sleep(1.0)  # closed HTTP sessions release their descriptors
        end = {"rss_mb": process.rss_mb(), "fds": process.open_fds()}
    return {
        "calls": clients * calls, "seconds": round(elapsed, 1), **{k: tally.outcomes[k] for k in
        ("completed", "busy", "cancelled", "error", "hung")}, "first_errors": tally.first_errors,
        "rss_mb": [round(start["rss_mb"]), round(end["rss_mb"])], "rss_every_30s": samples, "fds": [start["fds"], end["fds"]],
        "drained_after_s": None if drain_seconds is None else round(drain_seconds, 2), "queue_depth": stats["queue_depth"], "running": stats["running"],
        "engine": {k: stats[k] for k in ("completed", "cancelled", "rejected", "expired", "failed")},
        "snapshot_mb": round(stats["backend"].get("snapshot_bytes", 0) / 2**20),  # saved contexts: part of the RSS
    }


async def _sample_rss(process: Process, samples: list[int]) -> None:
    while True:
        await anyio.sleep(30)
        samples.append(round(process.rss_mb()))


async def _own_session(open_client, index: int, calls: int, cancel_rate: float, tally: Tally) -> None:
    async with open_client() as client:
        await _client_run(client, index, calls, cancel_rate, tally)


def _stdio_client(argv: list[str], env: dict[str, str]):
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env)
    return lambda: Client(params, mode="legacy", read_timeout_seconds=_CALL_BOUND_SECONDS)


@asynccontextmanager
async def _http_server(argv: list[str], env: dict[str, str], log: Path):
    port, token = free_port(), secrets.token_urlsafe(24)
    with log.open("wb") as sink:
        server = subprocess.Popen([*argv, "serve", "--transport", "http", "--port", str(port)],
                                  env={**env, "AGENTWORLD_AUTH_TOKEN": token}, stdout=sink, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        await _wait_for_health(f"http://127.0.0.1:{port}/health", server, log)

        @asynccontextmanager
        async def open_client():
            # the HTTP client is ours to close: a client left open keeps its connection, and a server fd
            async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
                async with Client(streamable_http_client(url, http_client=http), mode="legacy",
                                  read_timeout_seconds=_CALL_BOUND_SECONDS) as client:
                    yield client

        yield open_client
    finally:
        server.terminate()
        server.wait(30)


async def _wait_for_health(url: str, server: subprocess.Popen, log: Path) -> None:
    import httpx2

    async with httpx2.AsyncClient(timeout=2) as http:
        for _ in range(600):
            if server.poll() is not None:
                raise RuntimeError(f"the HTTP server exited: {log.read_text()[-2000:]}")
            try:
                if (await http.get(url)).status_code == 200:
                    return
            except httpx2.HTTPError:
                pass
            await asyncio.sleep(0.2)
    raise RuntimeError(f"the HTTP server did not get ready: {log.read_text()[-2000:]}")


def _print(transport: str, clients: int, report: dict[str, Any]) -> None:
    print(f"{transport}: {clients} clients, {report['calls']} calls in {report['seconds']} s")
    print(f"  completed {report['completed']}  busy {report['busy']}  cancelled {report['cancelled']}  "
          f"error {report['error']}  hung {report['hung']}")
    print(f"  server RSS every 30 s: {report['rss_every_30s']} MB")
    for message in report["first_errors"]:
        print(f"    error: {message}")
    print(f"  server RSS {report['rss_mb'][0]} -> {report['rss_mb'][1]} MB (saved contexts at the end: "
          f"{report['snapshot_mb']} MB, bounded by --snapshot-mb)   open fds {report['fds'][0]} -> {report['fds'][1]}")
    drained = "did NOT drain" if report["drained_after_s"] is None else f"drained {report['drained_after_s']} s"
    print(f"  queue {drained} after the last call (depth {report['queue_depth']}, "
          f"running {report['running']}); engine counts {report['engine']}")


async def run_soak(settings_env: dict[str, str], clients: int, calls: int, cancel_rate: float, transports: list[str]) -> int:
    """`settings_env`: the caller's settings as AGENTWORLD_* variables, for each server process."""
    argv = [sys.executable, "-m", "agentworld_mcp"]
    scratch = Path(tempfile.mkdtemp(prefix="agentworld-soak-"))
    env = {**os.environ, **settings_env, "AGENTWORLD_DATA_DIR": str(scratch), "AGENTWORLD_EFFECTS": "parser"}
    print(f"soak: {clients} clients x {calls} calls, cancel rate {cancel_rate:.0%}, data in {scratch}")
    healthy = True
    for transport in transports:
        if transport == "stdio":
            report = await _soak(_stdio_client(argv, env), clients, calls, cancel_rate, shared=True)
        else:
            async with _http_server(argv, env, scratch / "http-server.log") as open_client:
                report = await _soak(open_client, clients, calls, cancel_rate, shared=False)
        _print(transport, clients, report)
        healthy &= report["hung"] == 0 and report["error"] == 0 and report["queue_depth"] == 0 and report["running"] == 0
    print("soak: every call ended and the queue drained" if healthy else "soak: FAILED (see above)")
    return 0 if healthy else 1
