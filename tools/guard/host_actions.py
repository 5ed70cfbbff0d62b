"""An agent host's tool call as one of this server's domain actions, and its real output as an observation.

Hosts name their tools differently (Claude Code's Bash, Cursor's Shell, Gemini's run_shell_command)
but mean the same few things: run a command, write a file, edit a file, call an MCP tool, fetch
or search the web. A tool that is none of these maps to nothing, and the guard makes no decision.

Every edit tool a host ships is one of them (the hosts' tool references): Claude Code's Write, Edit, MultiEdit
(a list of edits to one file; an empty first `old_string` creates it) and NotebookEdit (one cell of a notebook,
by its id); Gemini CLI's write_file and replace; Codex's apply_patch (a patch envelope naming the files it adds,
updates, moves and deletes, which Codex sends to hooks as `command`). Cursor's agent edits reach no hook before
they run (its hooks are beforeShellExecution, beforeMCPExecution and beforeReadFile).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ...domains.shell.programs.patch_envelope import patch_sections

_SHELL = {"bash", "shell", "run_shell_command", "exec_command", "terminal"}
_WRITE = {"write", "write_file", "create_file"}
_EDIT = {"edit", "replace", "str_replace", "edit_file", "search_replace"}
_MULTI_EDIT = {"multiedit", "multi_edit"}
_NOTEBOOK_EDIT = {"notebookedit", "notebook_edit", "edit_notebook"}
_PATCH = {"apply_patch", "applypatch"}
_PATCH_KEYS = ("command", "input", "patch", "patchText")  # where hosts put the envelope
_READ = {"read", "read_file", "view"}
_FETCH = {"webfetch", "web_fetch"}
_SEARCH = {"websearch", "web_search", "google_web_search"}
_MCP_TOOL = re.compile(r"mcp__(?P<server>[^_].*?)__(?P<tool>.+)")
_MAX_OBSERVATION_CHARS = 20_000


@dataclass(frozen=True)
class HostAction:
    domain: str
    action: str  # in the domain's action format
    kind: str  # shell, write, edit, read, mcp, fetch, search
    mcp_server: str = ""  # kind mcp: the server, whose tools the mcp domain needs


def host_action(tool_name: str, tool_input: dict[str, Any], reads: bool = False) -> HostAction | None:
    """The call as a domain action. `reads`: a file read counts too (the guard checks what is read;
    imported sessions leave reads out, as they change nothing)."""
    name = tool_name.strip()
    lowered = name.lower()
    if match := _MCP_TOOL.fullmatch(name):
        call = {"name": match["tool"], "arguments": tool_input}
        return HostAction("mcp", json.dumps(call, ensure_ascii=False), "mcp", match["server"])
    path = str(tool_input.get("file_path") or tool_input.get("path") or tool_input.get("target_file")
               or tool_input.get("notebook_path") or "")
    if lowered in _PATCH:
        patch = next((value for key in _PATCH_KEYS if isinstance(value := tool_input.get(key), str)), "")
        # A patch that names no file (no Add, Update or Delete section) acts on nothing: no action to check.
        return HostAction("swe", _swe("apply_patch", patch=patch), "edit") if patch_sections(patch) else None
    if lowered in _SHELL and isinstance(tool_input.get("command"), str):
        return HostAction("terminal", tool_input["command"], "shell")
    if lowered in _WRITE and path:
        return HostAction("swe", _swe("write_file", path=path, content=str(tool_input.get("content", ""))), "write")
    if lowered in _EDIT and path:
        old = tool_input.get("old_string", tool_input.get("old", ""))
        new = tool_input.get("new_string", tool_input.get("new", ""))
        return HostAction("swe", _swe("edit_file", path=path, old=str(old), new=str(new)), "edit")
    if lowered in _MULTI_EDIT and path:
        return _multi_edit(path, tool_input.get("edits"))
    if lowered in _NOTEBOOK_EDIT and path:
        # The cell is reached by its id, not by text: the edit's `old` names it, and the rules read the notebook's path.
        cell = str(tool_input.get("cell_id") or tool_input.get("cell_number") or "the first cell")
        new = "" if tool_input.get("edit_mode") == "delete" else str(tool_input.get("new_source", ""))
        return HostAction("swe", _swe("edit_file", path=path, old=f"cell {cell}", new=new), "edit")
    if reads and lowered in _READ and path:
        return HostAction("swe", _swe("read_file", path=path), "read")
    if lowered in _FETCH and isinstance(tool_input.get("url"), str):
        goal = str(tool_input.get("prompt", tool_input.get("goal", "")))
        return HostAction("search", _swe("web_extractor", url=tool_input["url"], goal=goal), "fetch")
    if lowered in _SEARCH and isinstance(tool_input.get("query"), str):
        return HostAction("search", _swe("web_search", queries=[tool_input["query"]]), "search")
    return None


def _multi_edit(path: str, edits: Any) -> HostAction:
    """MultiEdit's edits all change one file, which is what the rules read; the world sees the first edit. An empty
    first `old_string` makes a new file of its `new_string` (Claude Code's MultiEdit documentation)."""
    first = next((edit for edit in edits if isinstance(edit, dict)), {}) if isinstance(edits, list) else {}
    old, new = str(first.get("old_string", "")), str(first.get("new_string", ""))
    if not old:
        return HostAction("swe", _swe("write_file", path=path, content=new), "write")
    return HostAction("swe", _swe("edit_file", path=path, old=old, new=new), "edit")


def open_tool(name: str) -> dict[str, Any]:
    """An MCP tool known only by the call a host made to it: any arguments are accepted."""
    return {"name": name, "description": "", "inputSchema": {"type": "object"}}


def observation_from_response(action: HostAction, response: Any) -> str:
    """The host's record of the real outcome, in the domain's observation format as far as it can be told."""
    if action.kind == "shell":
        if isinstance(response, dict):
            output = "".join(str(response.get(key) or "") for key in ("stdout", "stderr", "output"))
            exit_code = response.get("exit_code", response.get("exitCode"))
        else:
            output, exit_code = str(response or ""), None
        screen = f"$ {action.action}\n{output.rstrip()}\n" + (f"[exit code: {exit_code}]\n" if exit_code is not None else "")
        running = isinstance(response, dict) and response.get("running")  # the command has not given the prompt back
        return _cut(screen if running else screen + "$ ")
    if isinstance(response, str):
        return _cut(response)
    return _cut(json.dumps(response, ensure_ascii=False, indent=1))


def _swe(tool: str, **arguments: Any) -> str:
    return f"{tool} {json.dumps(arguments, ensure_ascii=False)}"


def _cut(text: str) -> str:
    return text if len(text) <= _MAX_OBSERVATION_CHARS else text[:_MAX_OBSERVATION_CHARS] + "\n[... cut]"
