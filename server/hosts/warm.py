"""The hook's warm decider: `agentworld-mcp hook` as a small client of a process that has already imported the guard.

A host starts the hook before every tool call, and most of a cold start is importing (pydantic, the packs, the
shell's grammar), not deciding. So the first call decides in its own process, as it always did, and then starts a
decider in the background; every later call sends it its arguments, standard input, working folder and environment
over a Unix socket and prints its reply. The decider runs the very same `hook.main` on them, one call at a time,
so a call decides alike whichever way it went.

Whatever goes wrong on the way (no decider yet, a stale or busy one, a socket that is not ours) the call decides
in its own process: the warm path only ever saves time. The decider serves only its own user (a folder only they
can enter), exits after ten idle minutes or when this package's code changes under it, and is never used with
`--url` (a model's seconds dwarf the start-up). `AGENTWORLD_HOOK_DAEMON=0` turns it off.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import socket
import stat
import struct
import sys
from typing import Any

# Only what a client needs is imported above: it runs before every tool call.
_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_CODE_FOLDERS = ("domains", "engine", "server", "tools")
IDLE_SECONDS = 600
_REPLY_SECONDS = 20.0  # a reply slower than this: decide here instead (the host's own timeout is longer)
_SWITCH = "AGENTWORLD_HOOK_DAEMON"
_SOCKET_PATH_MAX = 104  # a Unix socket's path: 108 bytes on Linux, 104 on macOS, with its terminating zero


def run_hook(argv: list[str]) -> int:
    """`agentworld-mcp hook ARGS`: the warm decider's answer where it has one, else this process's own."""
    if os.environ.get(_SWITCH, "1") == "0" or not _warm_applies(argv):
        return _decide_here(argv, None)
    stdin = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    place = socket_path()
    reply = _ask(place, {"argv": argv, "stdin": stdin, "cwd": os.getcwd(), "env": dict(os.environ)}) if place else None
    if reply is not None:
        sys.stdout.write(reply["stdout"])
        sys.stderr.write(reply["stderr"])
        return int(reply["code"])
    code = _decide_here(argv, stdin)
    if place is not None:
        _start_decider(place)
    return code


def _warm_applies(argv: list[str]) -> bool:
    """Model work over --url takes seconds anyway, and help is printed once: both stay in this process."""
    return not any(arg in ("-h", "--help") or arg == "--url" or arg.startswith("--url=") for arg in argv)


def _decide_here(argv: list[str], stdin: str | None) -> int:
    from .hook import main

    sys.stdout.flush()
    return main(argv, stdin)


def socket_path() -> str | None:
    """This user's socket for this interpreter and checkout, in a folder only they can enter; None where there is
    no such folder (then every call decides in its own process)."""
    if os.name != "posix":
        return None  # Unix sockets and file locks as this module uses them
    runtime = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp"
    folder = os.path.join(runtime, f"agentworld-mcp-{os.getuid()}")
    try:
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder, 0o700)
        info = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None  # not ours, or others may enter it
    key = hashlib.sha256(f"{sys.executable}\0{_PACKAGE}".encode()).hexdigest()[:16]
    place = os.path.join(folder, f"hook-{key}.sock")
    return place if len(place.encode()) < _SOCKET_PATH_MAX else None


def _ask(place: str, request: dict[str, Any]) -> dict[str, Any] | None:
    """The decider's reply, or None where there is none to be had in time."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.settimeout(_REPLY_SECONDS)
            client.connect(place)
            _send(client, request)
            reply = _receive(client)
    except (OSError, ValueError):
        return None
    if not isinstance(reply, dict) or reply.get("stale") or not isinstance(reply.get("stdout"), str):
        return None
    return reply


def _start_decider(place: str) -> None:
    """Start the decider in the background, detached from the host's hook (no shared pipes, its own session)."""
    import subprocess

    with contextlib.suppress(OSError):
        subprocess.Popen([sys.executable, "-m", "agentworld_mcp.server.hosts.warm", place],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True, close_fds=True, cwd="/")


# --- the decider ------------------------------------------------------------------------------------
def serve(place: str, idle_seconds: float = IDLE_SECONDS, watched: tuple[str, ...] | None = None) -> None:
    """Answer hook calls on `place` until idle, or until a file under `watched` (this package's code and data)
    changes; a second decider for the same place exits at once."""
    import fcntl

    from . import hook  # the import a cold call pays for, paid once here

    lock = open(f"{place}.lock", "w")  # noqa: SIM115  (held for the process's life)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return  # another decider serves this place
    lock.write(f"{os.getpid()}\n")  # whoever must stop it (a test, a user) finds it here
    lock.flush()
    with contextlib.suppress(FileNotFoundError):
        os.unlink(place)  # a socket left by one that died
    watched = watched or tuple(os.path.join(_PACKAGE, top) for top in _CODE_FOLDERS)
    code_seen = _code_times(watched)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(place)
        os.chmod(place, 0o600)
        server.listen(16)
        server.settimeout(idle_seconds)
        while True:
            try:
                connection, _ = server.accept()
            except TimeoutError:
                break
            with connection:
                connection.settimeout(_REPLY_SECONDS)
                if _code_times(watched) != code_seen:  # this package changed under it: a new decider must import it
                    with contextlib.suppress(OSError):
                        _send(connection, {"stale": True})
                    break
                with contextlib.suppress(Exception):  # a broken call gets no reply: its client decides itself
                    _send(connection, _answer(hook, _receive(connection)))
    with contextlib.suppress(FileNotFoundError):
        os.unlink(place)


def _answer(hook: Any, request: Any) -> dict[str, Any]:
    """One call, run as its own process would run it: its folder, its environment, its stdin; stdout and stderr
    kept for the reply."""
    if not isinstance(request, dict):
        raise ValueError("not a hook call")
    out, err = io.StringIO(), io.StringIO()
    environment, folder = dict(os.environ), os.getcwd()
    try:
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = hook.main(list(request["argv"]), request["stdin"])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    finally:
        os.environ.clear()
        os.environ.update(environment)
        os.chdir(folder)
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "code": code}


def _code_times(watched: tuple[str, ...]) -> dict[str, int]:
    """The modification time of each module and data file (the packs' JSON) under `watched`, which a module may
    read once and keep."""
    times = {}
    for top in watched:
        for folder, folders, files in os.walk(top):
            folders[:] = [name for name in folders if name != "__pycache__"]
            for name in files:
                if name.endswith((".py", ".json", ".md")):
                    path = os.path.join(folder, name)
                    with contextlib.suppress(OSError):
                        times[path] = os.stat(path).st_mtime_ns
    return times


# Frames: a 4-byte length, then that much JSON.
def _send(connection: socket.socket, value: dict[str, Any]) -> None:
    data = json.dumps(value).encode()
    connection.sendall(struct.pack("!I", len(data)) + data)


def _receive(connection: socket.socket) -> Any:
    (size,) = struct.unpack("!I", _exactly(connection, 4))
    return json.loads(_exactly(connection, size))


def _exactly(connection: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = connection.recv(min(left, 1 << 16))
        if not chunk:
            raise ValueError("the other side closed early")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


if __name__ == "__main__":
    serve(sys.argv[1])
