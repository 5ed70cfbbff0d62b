"""A real terminal to check predictions against: one bash in a throwaway home, fixed environment.

Every scenario gets a fresh directory `home/dev/project` under a temporary folder, a bash without
profile or rc files, a fixed PATH, locale, time zone and prompt, and no network where the machine
lets an unprivileged process unshare one. Each command runs with stdin from /dev/null, stderr
folded into stdout, and a time limit; shell state (the directory, variables) carries over.
"""

from __future__ import annotations

import os
import selectors
import shutil
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from ...engine.errors import ConfigurationError

PROMPT = "dev@sandbox:\\w$ "  # as bash's PS1: the user and host of the terminal domain's initial state
_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC",
        "TERM": "dumb", "USER": "dev", "LOGNAME": "dev"}


class SandboxError(ConfigurationError):
    """The shell could not start, or died."""


@dataclass(frozen=True)
class Executed:
    output: str  # stdout and stderr as the terminal showed them
    status: int  # the exit status; 124 when the step hit its time limit
    prompt: str  # the prompt after it (it shows the new directory)


def network_isolation_available() -> bool:
    try:
        return subprocess.run(["unshare", "--map-current-user", "--net", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


class ShellSandbox:
    def __init__(self, step_timeout: float = 10.0, isolate_network: bool = True):
        self.step_timeout = step_timeout
        self.isolated = isolate_network and network_isolation_available()
        self._root = Path(tempfile.mkdtemp(prefix="agentworld-sandbox-"))
        home = self._root / "home" / "dev"
        self.project = home / "project"
        self.project.mkdir(parents=True)
        argv = ["bash", "--noprofile", "--norc"]
        if self.isolated:
            argv = ["unshare", "--map-current-user", "--net", *argv]
        self._shell = subprocess.Popen(
            argv, cwd=self.project, env={**_ENV, "HOME": str(home)}, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        )
        self._marker = f"__agentworld_end_{uuid.uuid4().hex}"
        self.initial_prompt = self.run(f"PS1='{PROMPT}'; true").prompt

    def run(self, command: str) -> Executed:
        if self._shell.poll() is not None:
            raise SandboxError("the sandbox shell has exited")
        script = (f"{{\n{command}\n}} < /dev/null 2>&1\n"
                  f"printf '\\n{self._marker} %d %s\\n' \"$?\" \"${{PS1@P}}\"\n")
        assert self._shell.stdin is not None
        self._shell.stdin.write(script.encode())
        self._shell.stdin.flush()
        text, finished = self._read_until_marker()
        if not finished:
            self.close()
            return Executed(text + f"\n[no answer within {self.step_timeout:g} s]", 124, "")
        before, _, tail = text.rpartition(f"\n{self._marker} ")
        status, _, prompt = tail.rstrip("\n").partition(" ")
        return Executed(self._as_home(before), int(status), prompt)

    def _as_home(self, text: str) -> str:
        """The throwaway folder's path reads as the /home/dev it stands for, so outputs repeat across runs."""
        return text.replace(str(self._root), "")

    def _read_until_marker(self) -> tuple[str, bool]:
        assert self._shell.stdout is not None
        deadline = time.monotonic() + self.step_timeout
        chunks = b""
        with selectors.DefaultSelector() as selector:
            selector.register(self._shell.stdout, selectors.EVENT_READ)
            while time.monotonic() < deadline:
                if not selector.select(timeout=max(0.0, deadline - time.monotonic())):
                    break
                chunk = os.read(self._shell.stdout.fileno(), 65536)
                if not chunk:
                    break
                chunks += chunk
                text = chunks.decode("utf-8", errors="replace")
                marker_at = text.rfind(f"\n{self._marker} ")
                if marker_at >= 0 and text.endswith("\n") and text.count("\n", marker_at) >= 2:
                    return text, True
        return chunks.decode("utf-8", errors="replace"), False

    def close(self) -> None:
        if self._shell.poll() is None:
            try:
                os.killpg(self._shell.pid, 9)  # the shell and whatever it started
            except ProcessLookupError:
                pass
            self._shell.wait(10)
        shutil.rmtree(self._root, ignore_errors=True)

    def __enter__(self) -> ShellSandbox:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
