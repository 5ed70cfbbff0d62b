"""`agentworld-mcp bench --section 7`: what a twin adds to each call, against the real server direct.

Both run at once, as processes over stdio, and their calls alternate, so both see the same machine.
The real server is the reference time server (`pip install mcp-server-time`, part of the test extra).
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters


def _time_server() -> list[str] | None:
    beside = Path(sys.executable).parent / "mcp-server-time"
    found = str(beside) if beside.exists() else shutil.which("mcp-server-time")
    return [found, "--local-timezone", "UTC"] if found else None


async def twin_overhead(calls: int = 50) -> None:
    print("7. a twin's own cost per call: record mode (the real call plus the world's record) and a "
          "schema refusal (simulate mode, no model), vs the real server direct")
    real = _time_server()
    if real is None:
        print("  skipped: mcp-server-time is not installed (pip install mcp-server-time)")
        return
    with tempfile.TemporaryDirectory(prefix="agentworld-bench-twin-") as data:
        env = {**os.environ, "AGENTWORLD_DATA_DIR": data}

        def twin(mode: str) -> StdioServerParameters:
            return StdioServerParameters(command=sys.executable, env=env, args=[
                "-m", "agentworld_mcp", "twin", "--mode", mode, "--world", f"bench-{mode}", "--", *real])

        async with (Client(StdioServerParameters(command=real[0], args=real[1:], env=env)) as direct,
                    Client(twin("record")) as recording, Client(twin("simulate")) as simulating):
            timings: dict[str, list[float]] = {"direct": [], "record": [], "refusal": []}
            for index in range(calls + 3):  # the first calls warm each side's schema and store
                for name, client, arguments in (("direct", direct, {"timezone": "UTC"}),
                                                ("record", recording, {"timezone": "UTC"}),
                                                ("refusal", simulating, {"timezone": 7})):
                    started = time.perf_counter()
                    await client.call_tool("get_current_time", arguments)
                    if index >= 3:
                        timings[name].append(time.perf_counter() - started)
    p50 = {name: statistics.median(values) * 1000 for name, values in timings.items()}
    print(f"  per call, p50 over {calls} calls each: direct {p50['direct']:.2f} ms, through a recording twin "
          f"{p50['record']:.2f} ms (adds {p50['record'] - p50['direct']:.2f} ms; ratio {p50['record'] / p50['direct']:.2f}), "
          f"a simulating twin's refusal {p50['refusal']:.2f} ms   (goal: a twin adds under 5 ms)")
