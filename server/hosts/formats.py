"""Each host's hook format, both ways: its payload as a guard request, the guard's verdict as its answer.

One translator per host and nothing else: no decision is made here. The payload shapes are the
hosts' documented ones (shared/notes/hosts.md). A decision a host cannot express is answered
with the nearest one that grants no more: Gemini CLI has no "ask", so it gets "deny" with the
reason that the user should approve.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ...tools.guard.policy import GuardVerdict
from ...tools.requests import GuardEvent, GuardFormat, GuardRequest

FORMATS: tuple[GuardFormat, ...] = ("claude-code", "cursor", "gemini", "plain")


def request_from_payload(format: GuardFormat, event: GuardEvent, payload: dict[str, Any]) -> GuardRequest:
    """A hook's stdin JSON as the guard tool's arguments; raises ValueError (pydantic's) if it cannot be one."""
    if format == "cursor":
        return _cursor(event, payload)
    if format == "gemini":
        return GuardRequest(event=event, format="gemini", tool_name=str(payload.get("tool_name", "")),
                            tool_input=payload.get("tool_input"), session_id=str(payload.get("session_id", "")),
                            cwd=str(payload.get("cwd", "")), tool_response=_gemini_response(payload.get("tool_response")))
    response = payload.get("tool_response")
    if response is None and payload.get("error"):  # PostToolUseFailure: what failed is the real outcome
        response = {"stderr": str(payload["error"])}
    return GuardRequest(event=event, format=format, tool_name=_text(payload, "tool_name"),
                        tool_input=payload.get("tool_input"), command=_text(payload, "command"),
                        session_id=_text(payload, "session_id"), cwd=_text(payload, "cwd"), tool_response=response)


def _text(payload: dict[str, Any], key: str) -> str:
    value = payload.get(key)
    return "" if value is None else str(value)


def _cursor(event: GuardEvent, payload: dict[str, Any]) -> GuardRequest:
    session = _text(payload, "conversation_id") or _text(payload, "session_id")
    cwd = _text(payload, "cwd") or str((payload.get("workspace_roots") or [""])[0] or "")
    if "command" in payload and "tool_name" not in payload:  # before/afterShellExecution
        output = payload.get("output")
        return GuardRequest(event=event, format="cursor", tool_name="Shell", command=str(payload["command"]),
                            session_id=session, cwd=cwd, tool_response={"stdout": output} if output is not None else None)
    result = payload.get("result_json")
    # before/afterMCPExecution name the tool bare and the server by its url or command: as an mcp__ name.
    server = _server_name(payload.get("url") or payload.get("command") or "")
    tool = _text(payload, "tool_name")
    return GuardRequest(event=event, format="cursor", tool_name=f"mcp__{server}__{tool}" if tool else "",
                        tool_input=payload.get("tool_input"), session_id=session, cwd=cwd,
                        tool_response=json.loads(result) if isinstance(result, str) and result[:1] in "{[" else result)


def _server_name(where: Any) -> str:
    """A short name for an MCP server given as a URL or a command line: its host, or its program."""
    text = str(where).strip()
    if "://" in text:
        return re.sub(r"[^A-Za-z0-9-]", "-", text.split("://", 1)[1].split("/", 1)[0].split(":")[0]) or "server"
    program = text.split()[-1] if text.split() else "server"
    return re.sub(r"[^A-Za-z0-9-]", "-", program.rsplit("/", 1)[-1]) or "server"


def _gemini_response(response: Any) -> Any:
    if isinstance(response, dict):  # {llmContent, returnDisplay, error?}: what the model saw is the output
        return {"stdout": str(response.get("llmContent") or response.get("returnDisplay") or ""),
                "stderr": str(response.get("error") or "")}
    return response


def render(format: GuardFormat, verdict: GuardVerdict) -> dict[str, Any]:
    """The host's decision document; `{}` is no decision (the host's own permission rules apply)."""
    if format == "plain":
        return verdict.model_dump()
    if verdict.event == "post" or verdict.decision == "none":
        return {}
    if format == "cursor":
        return {"permission": verdict.decision, "user_message": verdict.reason, "agent_message": verdict.reason}
    if format == "gemini":
        reason = verdict.reason if verdict.decision == "deny" else f"needs the user's approval: {verdict.reason}"
        return {"decision": "deny", "reason": reason}
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": verdict.decision,
                                   "permissionDecisionReason": verdict.reason}}
