"""`agentworld-mcp hook install|uninstall --host HOST [--project|--user]`: the guard's command hook written into an
agent host's settings file with this install's program, tried there, and taken out again.

Install merges one entry per event into the file (server/hosts/install.py says where and how, per host), keeping
every other hook and key; the file as it was is kept beside it first (`FILE.agentworld-backup`). It then sends a
harmless and a destructive shell command, in the host's own format, through the very command it wrote, and prints
what the hook decided. Uninstall takes out exactly what install put in: when nothing else changed since, the file
comes back byte for byte (the backup), or goes, with its folder if that is left empty, where install created it.

`hook` must start fast, so server/cli/entry.py sends `hook install` and `hook uninstall` here before anything else
is imported; a bad flag, an unknown host or a settings file that is not JSON is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, NoReturn

from ..hosts.install import (
    DESTRUCTIVE,
    HARMLESS,
    HOSTS,
    Host,
    SettingsError,
    added,
    holds_ours,
    hook_command,
    installed_command,
    removed,
)

BACKUP_SUFFIX = ".agentworld-backup"
DESCRIPTIONS = {
    "install": "It merges one entry per event into the file, keeping every other hook and key, and the file as it was "
               "beside it (FILE.agentworld-backup); then it sends a harmless and a destructive shell command through "
               "the command it wrote, as the host would, and prints what the hook decided (exit 1 if it did not deny "
               "the destructive one)",
    "uninstall": "When nothing else changed since install, the file comes back byte for byte; a file install created "
                 "goes, with its folder if that is left empty",
}


class _OneLineParser(argparse.ArgumentParser):
    """Usage problems as one line, exit status 2 (argparse's own prints the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def parser() -> argparse.ArgumentParser:
    top = _OneLineParser(prog="agentworld-mcp hook", description="add the guard's hook to a host's settings, or "
                                                                 "take it out")
    actions = top.add_subparsers(dest="action", required=True)
    for action, summary in (("install", "write the guard's command hook into a host's settings file, with this "
                                        "install's program, and try it there"),
                            ("uninstall", "take out exactly what `hook install` added to a host's settings file")):
        sub = actions.add_parser(action, help=summary, description=DESCRIPTIONS[action])
        sub.add_argument("--host", required=True, choices=list(HOSTS),
                         help="the agent host whose settings file to change")
        scope = sub.add_mutually_exclusive_group()
        scope.add_argument("--project", dest="user", action="store_false",
                           help="the project's settings file, in the current folder (the default)")
        scope.add_argument("--user", dest="user", action="store_true",
                           help="the user's settings file, under the home folder")
        sub.set_defaults(user=False)
    return top


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    host = HOSTS[args.host]
    path = host.settings_path(args.user, Path.cwd(), Path.home()).absolute()
    try:
        return install(host, path) if args.action == "install" else uninstall(host, path)
    except (SettingsError, OSError) as exc:
        print(f"agentworld-mcp: {exc}", file=sys.stderr)
        return 2


def program() -> list[str]:
    """This install's `agentworld-mcp`, as an absolute path (the venv's, uv's or pipx's), or this interpreter with
    `-m agentworld_mcp` when the program was started that way."""
    started = sys.argv[0] if sys.argv else ""
    if Path(started).name in ("agentworld-mcp", "agentworld-mcp.exe"):
        if os.sep in started or (os.altsep and os.altsep in started):
            return [os.path.abspath(started)]
        if found := shutil.which(started):
            return [os.path.abspath(found)]
    return [os.path.abspath(sys.executable), "-m", "agentworld_mcp"]


def install(host: Host, path: Path) -> int:
    command = hook_command(program(), host)
    raw, document = _read(path)
    start = document if raw is not None else dict(host.new_file)
    result = added(start, host, command, str(path))
    backup = _backup(path)
    if raw is not None and result == document:
        print(f"agentworld-mcp: {path} already runs the guard: {command}")
    else:
        if raw is None:
            with contextlib.suppress(FileNotFoundError):
                backup.unlink()  # one left by an earlier install of a file since removed: not this file's past
        elif not holds_ours(document, host):
            _write(backup, raw)  # the file as the user had it; an earlier install's entry is not their file
        _write(path, _text(result))
        events = ", ".join(event + (f" (matcher {matcher})" if matcher else "") for event, matcher in host.events)
        print(f"agentworld-mcp: the guard is in {path}, {events}: {command}")
        if backup.exists():
            print(f"  the file as it was: {backup}")
    return _try(host, command, path)


def uninstall(host: Host, path: Path) -> int:
    raw, document = _read(path)
    if raw is None or not holds_ours(document, host):
        print(f"agentworld-mcp: {path} {'does not exist' if raw is None else 'has no entry of the guard'}; "
              "nothing was changed")
        return 0
    command = installed_command(document, host) or ""
    backup = _backup(path)
    previous = _previous(backup, host, command, document)
    if previous is not None:
        _write(path, previous)
        backup.unlink()
        print(f"agentworld-mcp: {path} is back as it was before `hook install`")
    elif not backup.exists() and document == added(dict(host.new_file), host, command, str(path)):
        path.unlink()  # install created it, and nothing but ours is in it
        with contextlib.suppress(OSError):
            path.parent.rmdir()  # only if empty
        print(f"agentworld-mcp: removed {path}, which `hook install` had created")
    else:
        _write(path, _text(removed(document, host)))
        print(f"agentworld-mcp: took the guard's entry out of {path}; the rest of it was kept"
              + (f" (the file before `hook install`: {backup})" if backup.exists() else ""))
    return 0


def _previous(backup: Path, host: Host, command: str, document: dict[str, Any]) -> bytes | None:
    """The backup's bytes where the file is exactly what install made of it (nothing changed since)."""
    try:
        raw = backup.read_bytes()
        before = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except (OSError, ValueError):
        return None
    if isinstance(before, dict) and added(before, host, command, str(backup)) == document:
        return raw
    return None


def _backup(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def _read(path: Path) -> tuple[bytes | None, dict[str, Any]]:
    """The file's bytes and its document; (None, {}) where there is no file."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, {}
    except OSError as exc:
        raise SettingsError(f"{path} cannot be read ({exc.strerror}); nothing was written") from exc
    try:
        text = raw.decode("utf-8")
        document = json.loads(text) if text.strip() else {}
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{path} is not UTF-8 text; fix it or move it away: nothing was written") from exc
    except json.JSONDecodeError as exc:
        raise SettingsError(f"{path} is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); "
                            "fix it or move it away: nothing was written") from exc
    if not isinstance(document, dict):
        raise SettingsError(f"{path} holds a JSON {type(document).__name__}, not an object; nothing was written")
    return raw, document


def _text(document: dict[str, Any]) -> bytes:
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _write(path: Path, data: bytes) -> None:
    """Replace the file in one step (a link's target where the file is a link), keeping its permissions."""
    target = path.resolve() if path.is_symlink() else path
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.agentworld-tmp")
    temporary.write_bytes(data)
    if target.exists():
        shutil.copymode(target, temporary)
    os.replace(temporary, target)


def _try(host: Host, command: str, path: Path) -> int:
    """A harmless and a destructive shell command, as the host would send them, through the installed command."""
    shown = []
    decisions = {}
    for line in (HARMLESS, DESTRUCTIVE):
        decision, reason = _decide(host, command, line)
        decisions[line] = decision
        if decision in ("deny", "ask"):  # the rules that fired: the ids that close the reason's first line
            ids = re.search(r"\[([a-z0-9, -]+)\]\s*$", reason.split("\n", 1)[0])
            reason = ids.group(1) if ids else reason
        shown.append(f"`{line}` -> " + ("no decision (the host's own rules apply)" if decision == "none"
                                        else f"{decision}" + (f" ({reason[:200]})" if reason else "")))
    print("  tried through that command: " + "; ".join(shown))
    if decisions[DESTRUCTIVE] != "deny" or decisions[HARMLESS] == "deny":
        print(f"agentworld-mcp: the installed hook did not decide as it should; `agentworld-mcp hook uninstall "
              f"--host {host.name}` takes it out of {path}", file=sys.stderr)
        return 1
    return 0


def _decide(host: Host, command: str, line: str) -> tuple[str, str]:
    payload = json.dumps(host.payload(line, os.getcwd()))
    try:
        done = subprocess.run(command, shell=True, input=payload, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return "failed", str(exc)
    try:
        reply = json.loads(done.stdout)
    except ValueError:
        why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}, no reply"])[-1]
        return "failed", why
    return host.answer(reply) if isinstance(reply, dict) else ("failed", f"the reply is not an object: {done.stdout}")
