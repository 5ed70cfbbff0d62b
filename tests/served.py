"""A project server a test starts in a process of its own: on a free port, answering /health, with its log kept."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2
import pytest
from agentworld_mcp.server.measure.llama_server import free_port

from .conftest import TEST_N_CTX


@contextmanager
def serving(arguments: list[str], log: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """`python -m agentworld_mcp ARGUMENTS --port P` on the embedded test model (with `env` added to this
    process's environment); yields `http://127.0.0.1:P` once /health answers (503: up, the model still loading)."""
    port = free_port()
    command = [sys.executable, "-m", "agentworld_mcp", *arguments, "--port", str(port)]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, env={**os.environ, "AGENTWORLD_N_CTX": str(TEST_N_CTX), **(env or {})},
                                   stdout=sink, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx2.get(base + "/health", timeout=2).status_code in (200, 503):
                    break
            except httpx2.HTTPError:
                time.sleep(0.1)
        else:
            pytest.fail(f"{' '.join(arguments)} did not come up:\n{log.read_text()}")
        yield base
    finally:
        process.terminate()
        process.wait(20)
