"""Each host's hook format, both ways: its payload as a guard request, the guard's verdict as its answer.

One translator per host and nothing else: no decision is made here. The payload shapes are the
hosts' documented ones (shared/notes/hosts.md). A decision a host cannot express is answered
with the nearest one that grants no more: Gemini CLI has no "ask", so it gets "deny" with the
reason that the user should approve.
"""

from __future__ import annotations

import json
from typing import Any

from ...tools.guard_policy import GuardVerdict
from ...tools.requests import GuardRequest

FORMATS = ("claude-code", "cursor", "gemini", "plain")


def request_from_payload(format: str, event: str, payload: dict[str, Any]) -> GuardRequest:
    """A hook's stdin JSON as the guard tool's arguments; raises ValueError (pydantic's) if it cannot be one."""
    if format == "cursor":
        return _cursor(event, payload)
    if format == "gemini":
        return GuardRequest(event=event, format="gemini", tool_name=str(payload.get("tool_name", "")),
                            tool_input=payload.get("tool_input"), session_id=str(payload.get("session_id", "")),
                            cwd=str(payload.get("cwd", "")), tool_response=_gemini_response(payload.get("tool_response")))
    return GuardRequest(event=event, format=format, tool_name=str(payload.get("tool_name", "")),
                        tool_input=payload.get("tool_input"), command=str(payload.get("command", "")),
                        session_id=str(payload.get("session_id", "")), cwd=str(payload.get("cwd", "")),
                        tool_response=payload.get("tool_response"))


def _cursor(event: str, payload: dict[str, Any]) -> GuardRequest:
    session = str(payload.get("conversation_id", payload.get("session_id", "")))
    cwd = str(payload.get("cwd", (payload.get("workspace_roots") or [""])[0]))
    if "command" in payload and "tool_name" not in payload:  # before/afterShellExecution
        output = payload.get("output")
        return GuardRequest(event=event, format="cursor", tool_name="Shell", command=str(payload["command"]),
                            session_id=session, cwd=cwd, tool_response={"stdout": output} if output is not None else None)
    result = payload.get("result_json")
    return GuardRequest(event=event, format="cursor", tool_name=str(payload.get("tool_name", "")),
                        tool_input=payload.get("tool_input"), session_id=session, cwd=cwd,
                        tool_response=json.loads(result) if isinstance(result, str) and result[:1] in "{[" else result)


def _gemini_response(response: Any) -> Any:
    if isinstance(response, dict):  # {llmContent, returnDisplay, error?}: what the model saw is the output
        return {"stdout": str(response.get("llmContent") or response.get("returnDisplay") or ""),
                "stderr": str(response.get("error") or "")}
    return response


def render(format: str, verdict: GuardVerdict) -> dict[str, Any]:
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
