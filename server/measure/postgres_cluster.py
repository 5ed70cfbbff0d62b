"""A throwaway PostgreSQL cluster for the tests and the bench: Debian's own binaries, run as an unprivileged
user in a temporary folder on a free port, stopped and removed afterwards. No system service is started or
touched.

`.ci/run` installs Debian's `postgresql`; elsewhere the tests that need a cluster skip, saying why.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_PACKAGE = "apt-get install postgresql"


def binaries() -> Path | None:
    """The newest installed server's bin folder (/usr/lib/postgresql/<version>/bin), or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda path: int(path.parts[-3]))
    return found[-1].parent if found else None


def unavailable() -> str:
    """Why no cluster can be started here ('' when one can)."""
    if binaries() is None:
        return f"PostgreSQL's server is not installed (Debian: {_PACKAGE})"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, and there is no `postgres` user to run the server as"
    return ""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def cluster() -> Iterator[str]:
    """A running cluster; yields its URL (trust authentication, on 127.0.0.1 only)."""
    bin_dir = binaries()
    assert bin_dir is not None, unavailable()
    folder = Path(tempfile.mkdtemp(prefix="agentworld-pg-"))
    data, port = folder / "data", _free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:  # the server refuses to run as root
        account = pwd.getpwnam("postgres")
        os.chown(folder, account.pw_uid, account.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]

    def run(*command: str) -> None:
        subprocess.run([*as_user, *command], check=True, capture_output=True, text=True, timeout=120)

    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50"
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "server.log"), "-w", "start")
        try:
            yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
        finally:
            run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
