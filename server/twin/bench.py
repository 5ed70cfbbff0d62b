"""`agentworld-mcp bench --section 7`: what a twin adds to each call, against the real server direct.

Both run at once, as processes over stdio, and their calls alternate, so both see the same machine.
The real server is the reference time server (`pip install mcp-server-time`, part of the test extra).
"""

from __future__ import annotations

import itertools
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters

from ..surface.replies import reply_text


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


def _filesystem_server() -> str | None:
    installed = Path(__file__).resolve().parents[2] / ".ci" / "servers" / "node_modules" / ".bin" / "mcp-server-filesystem"
    return str(installed) if installed.exists() else shutil.which("mcp-server-filesystem")


def _filesystem_calls(folder: str) -> list[tuple[str, dict]]:
    """One valid call of each of the reference filesystem server's tools, in an order a session might take."""
    notes, moved = f"{folder}/notes.txt", f"{folder}/archive/notes.txt"
    return [
        ("list_allowed_directories", {}), ("list_directory", {"path": folder}),
        ("write_file", {"path": notes, "content": "first line\nsecond line\n"}),
        ("read_text_file", {"path": notes}), ("read_file", {"path": notes}),
        ("read_multiple_files", {"paths": [notes, f"{folder}/README.md"]}),
        ("edit_file", {"path": notes, "edits": [{"oldText": "second", "newText": "last"}]}),
        ("get_file_info", {"path": notes}), ("create_directory", {"path": f"{folder}/archive"}),
        ("move_file", {"source": notes, "destination": moved}), ("search_files", {"path": folder, "pattern": "*.txt"}),
        ("list_directory_with_sizes", {"path": folder}), ("directory_tree", {"path": folder}),
        ("read_media_file", {"path": f"{folder}/logo.png"}),
    ]


_TIME_CALLS = [
    ("get_current_time", {"timezone": "UTC"}), ("get_current_time", {"timezone": "Europe/Warsaw"}),
    ("convert_time", {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}),
    ("get_current_time", {"timezone": "America/New_York"}),
    ("convert_time", {"source_timezone": "Europe/London", "time": "09:30", "target_timezone": "America/Los_Angeles"}),
    ("get_current_time", {"timezone": "Australia/Sydney"}),
]


async def schema_refusals(rounds: int = 2, max_tokens: int = 192) -> None:
    """11. How often a simulating twin must refuse a prediction for breaking the tool's output schema,
    with results generated under the schema and without (--structured-results free)."""
    print("11. simulated calls the twin refuses for breaking the tool's output schema: results generated "
          f"freely vs under the schema (default model, max_tokens {max_tokens}, sampled, {rounds} fresh worlds each)")
    servers = {"time": (_time_server(), lambda _folder: _TIME_CALLS)}
    if (filesystem := _filesystem_server()) is not None:
        servers["filesystem"] = ([filesystem], _filesystem_calls)
    else:
        print("  filesystem: skipped, not installed (npm install --prefix .ci/servers "
              "@modelcontextprotocol/server-filesystem)")
    for name, (real, calls_for) in servers.items():
        if real is None:
            print(f"  {name}: skipped, mcp-server-time is not installed (pip install mcp-server-time)")
            continue
        refused: dict[str, list[str]] = {"free": [], "constrained": []}
        calls = 0
        for mode, _round in itertools.product(refused, range(rounds)):
            with tempfile.TemporaryDirectory(prefix="agentworld-bench-schema-") as data:
                folder = str(Path(data).resolve())
                env = {**os.environ, "AGENTWORLD_DATA_DIR": data, "AGENTWORLD_EFFECTS": "parser"}
                argv = ["-m", "agentworld_mcp", "twin", "--structured-results", mode, "--max-tokens", str(max_tokens),
                        "--world", f"bench-{name}", "--", *real, *([folder] if name == "filesystem" else [])]
                async with Client(StdioServerParameters(command=sys.executable, args=argv, env=env),
                                  read_timeout_seconds=600) as twin:
                    for tool, arguments in calls_for(folder):
                        calls += mode == "free"
                        text = reply_text(await twin.call_tool(tool, arguments))
                        if text.startswith("agentworld twin: the predicted result breaks"):
                            refused[mode].append(tool + (" (cut off)" if "cut off at max_tokens" in text else ""))
        print(f"  {name:<10} refused: free {len(refused['free'])}/{calls}, under the schema "
              f"{len(refused['constrained'])}/{calls}   (free: {', '.join(refused['free']) or 'none'}; "
              f"under the schema: {', '.join(refused['constrained']) or 'none'})")
