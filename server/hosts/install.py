"""Each host's hook settings as data (where the file is, what the guard's entry looks like, what a test call sends
and how its answer reads), and the merge that puts the guard's entry into a settings document or takes it out.

The shapes are the hosts' documented ones (shared/notes/hosts.md, docs/guides/guard.md's "Each host's hooks"):

- Claude Code: `.claude/settings.json`, `{"hooks": {"PreToolUse": [{"matcher": M, "hooks": [{"type": "command",
  "command": C}]}]}}`;
- Cursor: `.cursor/hooks.json`, `{"version": 1, "hooks": {"beforeShellExecution": [{"command": C}], ...}}`;
- Gemini CLI: `.gemini/settings.json`, `{"hooks": {"BeforeTool": [{"matcher": M, "hooks": [...]}]}}`;
- Codex: `.codex/hooks.json`, Claude Code's shape (its hooks file is JSON; `config.toml` is left alone).

Nothing here reads or writes a file or prints: server/cli/hook_install.py does, with these.
"""

from __future__ import annotations

import copy
import os
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...tools.requests import GuardFormat

HARMLESS = "ls -la"
DESTRUCTIVE = "rm -rf /"


class SettingsError(ValueError):
    """A settings file the guard's entry cannot be merged into; the message is one line that names it."""


@dataclass(frozen=True)
class Host:
    name: str
    format: GuardFormat  # the hook command's --format
    project_file: str  # under the project folder
    user_file: str  # under the home folder (or `home_variable`'s folder)
    events: tuple[tuple[str, str | None], ...]  # each event the guard is added to, with its matcher (None: no matcher)
    grouped: bool  # Claude Code's nesting (event -> [{matcher, hooks: [handler]}]); else event -> [handler]
    new_file: dict[str, Any]  # what a settings file this install creates holds besides the hooks
    payload: Callable[[str, str], dict[str, Any]]  # (command, cwd) -> what the host sends before a shell command
    answer: Callable[[dict[str, Any]], tuple[str, str]]  # the hook's reply -> (decision, reason); "none": no decision
    home_variable: str | None = None  # an environment variable that moves the user's folder (Codex's CODEX_HOME)

    def settings_path(self, user: bool, project: Path, home: Path) -> Path:
        if not user:
            return project / self.project_file
        moved = os.environ.get(self.home_variable) if self.home_variable else None
        return Path(moved) / Path(self.user_file).name if moved else home / self.user_file

    def handler(self, command: str) -> dict[str, Any]:
        return {"type": "command", "command": command} if self.grouped else {"command": command}


def _claude_payload(command: str, cwd: str) -> dict[str, Any]:
    return {"session_id": "agentworld-install-check", "cwd": cwd, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}}


def _claude_answer(reply: dict[str, Any]) -> tuple[str, str]:
    output = reply.get("hookSpecificOutput") or {}
    return str(output.get("permissionDecision", "none")), str(output.get("permissionDecisionReason", ""))


HOSTS: dict[str, Host] = {host.name: host for host in (
    Host("claude-code", "claude-code", ".claude/settings.json", ".claude/settings.json",
         (("PreToolUse", "Bash|Write|Edit|MultiEdit|NotebookEdit|Read|mcp__.*"),), True, {}, _claude_payload,
         _claude_answer),
    Host("cursor", "cursor", ".cursor/hooks.json", ".cursor/hooks.json",
         (("beforeShellExecution", None), ("beforeMCPExecution", None)), False, {"version": 1},
         lambda command, cwd: {"command": command, "cwd": cwd, "conversation_id": "agentworld-install-check"},
         lambda reply: (str(reply.get("permission", "none")), str(reply.get("agent_message", "")))),
    Host("gemini", "gemini", ".gemini/settings.json", ".gemini/settings.json",
         (("BeforeTool", "run_shell_command|write_file|replace"),), True, {},
         lambda command, cwd: {"session_id": "agentworld-install-check", "cwd": cwd, "hook_event_name": "BeforeTool",
                               "tool_name": "run_shell_command", "tool_input": {"command": command}},
         lambda reply: (str(reply.get("decision", "none")), str(reply.get("reason", "")))),
    # Codex reads Claude Code's PreToolUse JSON and answers; its shell tool is `Bash` to hooks, its edits
    # `apply_patch` (the patch envelope as `command`).
    Host("codex", "claude-code", ".codex/hooks.json", ".codex/hooks.json", (("PreToolUse", "Bash|apply_patch"),), True,
         {}, _claude_payload, _claude_answer, home_variable="CODEX_HOME"),
)}


def hook_command(program: list[str], host: Host) -> str:
    """The command line the host runs: this install's program, then the hook's own arguments."""
    return shlex.join([*program, *_arguments(host)])


def _arguments(host: Host) -> list[str]:
    return ["hook", "--event", "pre", "--format", host.format]


def is_ours(handler: Any, host: Host) -> bool:
    """A handler this installer writes for `host`, from this install or another one (another program path): its
    command is `agentworld-mcp` (or `python -m agentworld_mcp`) followed by exactly the arguments install writes.
    A hook the user wrote by hand (another event, `--url`) is theirs."""
    if not isinstance(handler, dict) or not isinstance(handler.get("command"), str):
        return False
    if host.grouped and handler.get("type") != "command":
        return False
    try:
        words = shlex.split(handler["command"])
    except ValueError:
        return False
    arguments = _arguments(host)
    if len(words) < len(arguments) + 1 or words[-len(arguments):] != arguments:
        return False
    program = words[:-len(arguments)]
    return (len(program) == 1 and Path(program[0]).name in ("agentworld-mcp", "agentworld-mcp.exe")) or \
        (len(program) == 3 and program[1:] == ["-m", "agentworld_mcp"])


def holds_ours(document: dict[str, Any], host: Host) -> bool:
    return any(_found(document, host))


def _hooks_table(document: dict[str, Any], where: str) -> dict[str, Any]:
    hooks = document.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError(f"{where}: its \"hooks\" is a {type(hooks).__name__}, not an object")
    return hooks


def added(document: dict[str, Any], host: Host, command: str, where: str) -> dict[str, Any]:
    """`document` with the guard's entry in each of the host's events, once: an entry already there is kept, one of
    another install (another program path) is replaced; everything else stays as it was, in its order."""
    if _entries_are(document, host, command):
        return copy.deepcopy(document)
    result = removed(document, host)
    hooks = _hooks_table(result, where)
    for event, matcher in host.events:
        entries = hooks.setdefault(event, [])
        if not isinstance(entries, list):
            raise SettingsError(f"{where}: its hooks' \"{event}\" is a {type(entries).__name__}, not a list")
        handler = host.handler(command)
        entries.append({"matcher": matcher, "hooks": [handler]} if host.grouped and matcher is not None
                       else {"hooks": [handler]} if host.grouped else handler)
    return result


def _entries_are(document: dict[str, Any], host: Host, command: str) -> bool:
    """Every event holds exactly one entry of ours, and it is this command with this matcher."""
    found = list(_found(document, host))
    return sorted(event for event, *_ in found) == sorted(event for event, _ in host.events) and all(
        handler == host.handler(command)
        and (not host.grouped or (entry.get("matcher") == matcher and len(entry["hooks"]) == 1))
        for _, matcher, entry, handler in found)


def _found(document: dict[str, Any], host: Host) -> Iterator[tuple[str, str | None, Any, Any]]:
    """Each handler of ours in the host's events: the event, the matcher install gives it, its entry, itself."""
    hooks = document.get("hooks")
    for event, matcher in host.events:
        entries = hooks.get(event) if isinstance(hooks, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            for handler in _handlers(entry, host):
                if is_ours(handler, host):
                    yield event, matcher, entry, handler


def _handlers(entry: Any, host: Host) -> list[Any]:
    if not host.grouped:
        return [entry]
    hooks = entry.get("hooks") if isinstance(entry, dict) else None
    return hooks if isinstance(hooks, list) else []


def removed(document: dict[str, Any], host: Host) -> dict[str, Any]:
    """`document` without any entry of ours in the host's events. A group, an event's list or the hooks table that
    only ours filled goes with it; one that was empty before stays."""
    result = copy.deepcopy(document)
    hooks = result.get("hooks")
    if not isinstance(hooks, dict):
        return result
    for event, _ in host.events:
        entries = hooks.get(event)
        if not isinstance(entries, list):
            continue
        kept = []
        for entry in entries:
            if not host.grouped:
                if not is_ours(entry, host):
                    kept.append(entry)
                continue
            handlers = _handlers(entry, host)
            left = [handler for handler in handlers if not is_ours(handler, host)]
            if len(left) == len(handlers):
                kept.append(entry)
            elif left:
                kept.append({**entry, "hooks": left})
        if len(kept) != len(entries):
            if kept:
                hooks[event] = kept
            else:
                del hooks[event]
                if not hooks:
                    del result["hooks"]
    return result


def installed_command(document: dict[str, Any], host: Host) -> str | None:
    """The command of the first entry of ours in `document`, whichever install wrote it."""
    return next((str(handler["command"]) for *_, handler in _found(document, host)), None)
