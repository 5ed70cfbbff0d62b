"""How long the stdio server takes to answer `initialize`, next to the floor it cannot go under.

    python -m agentworld_mcp.server.measure.startup_probe [--runs 7] [-- extra server args]

Each run spawns the real server (`python -m agentworld_mcp`), writes a raw JSON-RPC `initialize`
to its stdin at once and times spawn -> answer. The floors, spawned and timed the same way:
the bare interpreter and `import mcp` alone (each answering with a canned line), and a bare
`MCPServer` with one tool answering `initialize`. Next to the usual start: the first start with
a model file (no record of its checks yet) and, with `--before DIR`, an older tree's server.
The machine is shared and noisy, so the probes are interleaved run by run and medians compared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

_INITIALIZE = json.dumps({
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "0"}},
}) + "\n"

# Answers `initialize` with a canned line: the interpreter's own start-up, as a floor.
_ANSWER = 'import sys; sys.stdin.readline(); print(\'{"jsonrpc": "2.0", "id": 1, "result": {}}\', flush=True)'

# The least an MCPServer over stdio can do: one tool, then serve.
_BARE_SERVER = """
from mcp.server import MCPServer
server = MCPServer("bare")
@server.tool()
def echo(text: str) -> str:
    return text
server.run("stdio")
"""


def _until_initialized(argv: list[str], env: dict[str, str] | None = None) -> float:
    """Spawn -> the first line on stdout (the `initialize` answer), not counting the child's exit,
    which for a process holding many modules is itself a tenth of a second. Stderr goes to /dev/null."""
    started = time.perf_counter()
    child = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={**os.environ, **(env or {})}
    )
    stdin, stdout = child.stdin, child.stdout
    assert stdin is not None and stdout is not None  # both asked for as pipes, so Popen made them
    try:
        stdin.write(_INITIALIZE.encode())
        stdin.flush()
        line = stdout.readline()
        elapsed = time.perf_counter() - started
        answer = json.loads(line) if line else {}
        if "result" not in answer:
            raise RuntimeError(f"{argv}: no initialize answer, got {line[:200]!r} (exit {child.poll()})")
        return elapsed
    finally:
        stdin.close()  # end of input: the server shuts down by itself
        try:
            child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def _first_start(argv: list[str]) -> float:
    """A start that finds no record of checked model files: an empty cache folder of its own."""
    if "--model" not in argv:
        from ..model_files import default_model_path  # the cache folder will not have it

        argv = [*argv, "--model", str(default_model_path())]
    with tempfile.TemporaryDirectory(prefix="startup-probe-") as cache:
        return _until_initialized(argv, {"AGENTWORLD_CACHE_DIR": cache})


def measure(runs: int, server_args: list[str], before: str | None = None) -> dict[str, list[float]]:
    python = sys.executable
    server = [python, "-m", "agentworld_mcp", *server_args]
    probes = {
        "python, no imports": lambda: _until_initialized([python, "-c", _ANSWER]),
        "python, import mcp": lambda: _until_initialized([python, "-c", "import mcp\n" + _ANSWER]),
        "bare MCPServer, initialize": lambda: _until_initialized([python, "-c", _BARE_SERVER]),
        "agentworld-mcp, initialize": lambda: _until_initialized(server),
        "  first start of its file": lambda: _first_start(server),
    }
    if before:  # another tree's agentworld_mcp (e.g. `git archive` of an older commit), same runs
        path = os.pathsep.join(filter(None, [before, os.environ.get("PYTHONPATH")]))
        probes[f"  {before}"] = lambda: _until_initialized(server, {"PYTHONPATH": path})
    times: dict[str, list[float]] = {label: [] for label in probes}
    for label, probe in probes.items():  # one unmeasured round warms the page cache
        probe()
    for _ in range(runs):
        for label, probe in probes.items():
            times[label].append(probe())
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="startup_probe", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--before", metavar="DIR", help="also time the agentworld_mcp package found in DIR")
    parser.add_argument("server_args", nargs="*", help="passed to the server, after --")
    args = parser.parse_args(argv)
    times = measure(args.runs, args.server_args, args.before)
    floor = statistics.median(times["bare MCPServer, initialize"])
    print(f"{args.runs} interleaved runs, {os.cpu_count()} CPUs, {sys.executable}")
    for label, values in times.items():
        median = statistics.median(values)
        print(f"  {label:<30} median {median:6.3f} s  (min {min(values):.3f}, max {max(values):.3f})"
              f"  x{median / floor:5.2f} of the bare server")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
