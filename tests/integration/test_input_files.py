"""Every command that takes a file reads it one way: whatever is wrong with the file (random bytes,
a valid file cut short or mutated, the wrong shape, empty, a folder, a missing path) is one line
that names the file, with exit status 2, never a traceback.

The property test drives, in-process, the very function each command reads its file with (so
hypothesis can try hundreds of files in seconds); the end-to-end test runs each real command once
on a file of random bytes and on a folder."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from agentworld_mcp.domains import builtin_domains
from agentworld_mcp.engine.errors import AgentWorldError
from agentworld_mcp.server.api.batch import read_requests
from agentworld_mcp.server.api.python_api import parse_arguments
from agentworld_mcp.server.cli.env import _tools
from agentworld_mcp.server.cli.one_shot import FLAG_FIELDS, flag_arguments
from agentworld_mcp.server.cli.plan import _arguments as plan_arguments
from agentworld_mcp.server.evals.drift import load_scenarios
from agentworld_mcp.server.evals.gate import load_cases
from agentworld_mcp.server.evals.make_gate_cases import SHIPPED as GATE_CASES
from agentworld_mcp.server.evals.make_scenarios import SHIPPED as DRIFT_SCENARIOS
from agentworld_mcp.server.evals.samples import load_samples
from agentworld_mcp.server.input_files import read_text
from agentworld_mcp.server.sessions import claude_code
from agentworld_mcp.tools.guard.policy import load_policy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DOMAINS = builtin_domains()
SAMPLES = Path(__file__).parents[1] / "data" / "bench" / "terminal_test.jsonl"


def _plan(path: Path):
    args = argparse.Namespace(plan_file=str(path), domain=None, stop_on_error=False,
                              **{name: None for name in FLAG_FIELDS})  # no flags given: the file alone
    return plan_arguments(args)


def _simulate_with(field: str, domain: str = "terminal"):
    def read(path: Path):
        args = argparse.Namespace(**{name: None for name in FLAG_FIELDS} | {field: str(path)})
        return parse_arguments("simulate_action", {"domain": domain, "action": "ls",
                                                   **flag_arguments(args, "simulate_action")})
    return read


# command -> (what it reads its file with, a valid file to cut and mutate, the file's name)
READERS = {
    "eval samples": (lambda p: load_samples([p], DOMAINS), SAMPLES.read_bytes()[:6000].rsplit(b"\n", 1)[0],
                     "terminal_test.jsonl"),
    "eval drift": (load_scenarios, DRIFT_SCENARIOS.read_bytes()[:4000].rsplit(b"\n", 1)[0], "drift.jsonl"),
    "eval gate": (load_cases, GATE_CASES.read_bytes()[:4000].rsplit(b"\n", 1)[0], "cases.jsonl"),
    "batch": (lambda p: read_requests(read_text(p, "requests").splitlines()),
              b'{"id": 1, "tool": "simulate_action", "arguments": {"domain": "terminal", "action": "ls"}}\n',
              "requests.jsonl"),
    "plan": (_plan, b'{"steps": ["mkdir site", "ls"], "task": "a site"}', "plan.json"),
    "simulate --history-file": (_simulate_with("history"), b'[{"action": "pwd", "observation": "/home/dev"}]',
                                "history.json"),
    "simulate --tools-file": (_simulate_with("tools", "mcp"),
                              b'[{"name": "read", "inputSchema": {"type": "object"}}]', "tools.json"),
    "simulate --constraints-file": (_simulate_with("constraints"),
                                    b'[{"id": "no-rm", "kind": "pattern", "pattern": "rm"}]', "constraints.json"),
    "--policy": (lambda p: load_policy(p, DOMAINS), b'{"presets": ["no-pipe-to-shell"], "unknown": "ask"}',
                 "policy.json"),
    "env serve --tools": (_tools, b'{"tools": [{"name": "read", "inputSchema": {"type": "object"}}]}', "tools.json"),
    "import claude-code": (claude_code.read, b'{"type": "user", "sessionId": "s", "message": {"role": "user", '
                                              b'"content": "hi"}}\n', "session.jsonl"),
}


def _variants(valid: bytes):
    """Random bytes, the valid file cut short, and the valid file with bytes changed or dropped."""
    cut = st.integers(0, len(valid)).map(lambda n: valid[:n])
    flipped = st.lists(st.tuples(st.integers(0, max(len(valid) - 1, 0)), st.integers(0, 255)), min_size=1,
                       max_size=4).map(lambda changes: _changed(valid, changes))
    shapes = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                      max_size=3),
                          max_leaves=6).map(lambda value: json.dumps(value).encode())
    return st.binary(max_size=300) | cut | flipped | shapes


def _changed(valid: bytes, changes) -> bytes:
    data = bytearray(valid)
    for at, byte in changes:
        if data:
            data[at % len(data)] = byte
    return bytes(data)


@pytest.mark.parametrize("command", sorted(READERS))
def test_any_file_is_read_or_refused_in_one_line_naming_it(command):
    reader, valid, name = READERS[command]
    reader(_written(valid, name))  # the valid example itself is read

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_variants(valid))
    def check(data: bytes) -> None:
        path = _written(data, name)
        try:
            reader(path)
        except AgentWorldError as exc:  # a refusal: one line, naming the file (what the command prints)
            message = str(exc)
            assert "\n" not in message.strip() and message.strip(), message
            assert str(path) in message, message

    check()


def _written(data: bytes, name: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="agentworld-input-"))
    path = folder / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("argv", [
    ["eval", "samples", "{file}"], ["eval", "drift", "{file}"], ["eval", "gate", "{file}"],
    ["batch", "{file}"], ["plan", "{file}"], ["simulate", "--history-file", "{file}", "ls"],
    ["simulate", "--domain", "mcp", "--tools-file", "{file}", "x"], ["simulate", "--constraints-file", "{file}", "ls"],
    ["import", "claude-code", "{file}"],
])
@pytest.mark.parametrize("given_as", ["random bytes", "a folder", "a missing path"])
def test_each_command_refuses_a_bad_file_with_one_line_and_exit_2(tmp_path, argv, given_as):
    target = {"random bytes": tmp_path / "input.jsonl", "a folder": tmp_path, "a missing path": tmp_path / "gone"}[given_as]
    if given_as == "random bytes":
        target.write_bytes(os.urandom(200) + b"\xff\xfe")
    done = subprocess.run([sys.executable, "-m", "agentworld_mcp", *(a.replace("{file}", str(target)) for a in argv)],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
                          env={**os.environ, "AGENTWORLD_DATA_DIR": str(tmp_path / "store")})
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and "Traceback" not in done.stderr, (done.returncode, done.stderr)
    assert lines[-1].startswith("agentworld-mcp: ") and str(target) in lines[-1], done.stderr
