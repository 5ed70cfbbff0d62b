"""A real GNU bash that runs a session line by line and tells each line's stdout, stderr and exit status apart.

One `bash --noprofile --norc` per session (LANG=C, a fixed PATH, HOME the session's throwaway home), so the
working folder, variables and `$?` carry from line to line as at a terminal. Each line's two streams go to
files beside the session's folder, not through pipes, so they are never interleaved or confused with the end
marker; stdin is /dev/null, so a line that would wait for typing reads nothing instead.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
from pathlib import Path

_END = "__agentworld_line_done__"
# A bash reading its lines from a pipe names the line in its own errors; an interactive one does not, and a
# terminal shows the interactive form ("bash: cd: x: No such file or directory").
_LINE_NUMBER = re.compile(r"^bash: line \d+: ", re.MULTILINE)
_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C", "LC_ALL": "C", "TZ": "UTC", "TERM": "dumb",
        "GIT_CONFIG_NOSYSTEM": "1"}


class GnuBash:
    def __init__(self, cwd: Path, home: Path, scratch: Path, step_timeout: float = 10.0):
        self.scratch, self.step_timeout = scratch, step_timeout
        scratch.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(["bash", "--noprofile", "--norc"], cwd=cwd, env={**_ENV, "HOME": str(home)},
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        start_new_session=True)

    def run(self, line: str) -> tuple[str, str, int, str]:
        """The line's stdout, stderr, exit status, and the working folder after it."""
        out, err, status, cwd = (self.scratch / name for name in ("out", "err", "status", "cwd"))
        # `(exit N)` gives the next line the `$?` this line left: the bookkeeping after it must not change it.
        script = (f"{{ {line}\n}} < /dev/null > {out} 2> {err}\nprintf '%s' $? > {status}; "
                  f"printf '%s' \"$PWD\" > {cwd}; echo {_END}; (exit $(< {status}))\n")
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(script.encode())
        self.process.stdin.flush()
        done = b""
        while not done.endswith(f"{_END}\n".encode()):
            if not select.select([self.process.stdout], [], [], self.step_timeout)[0]:
                raise TimeoutError(f"bash did not finish {line!r} within {self.step_timeout:g} s")
            chunk = os.read(self.process.stdout.fileno(), 4096)
            if not chunk:
                raise RuntimeError(f"bash exited on {line!r}")
            done += chunk
        stderr = _LINE_NUMBER.sub("bash: ", err.read_bytes().decode("utf-8", "surrogateescape"))
        return (out.read_bytes().decode("utf-8", "surrogateescape"), stderr, int(status.read_text()),
                cwd.read_text())

    def close(self) -> None:
        try:
            os.killpg(self.process.pid, 9)
        except ProcessLookupError:
            pass
        self.process.wait(10)
