"""`agentworld-mcp hook --event pre|post [--format F] [--policy FILE] [--url URL]`, for hosts with command hooks.

With --url, the local policy's zero-token rules answer first; the server's policy decides what needs the
model (and records each real result). Give both the same policy file.

A host runs this before (and after) every tool call: it reads the hook's JSON on stdin, writes the
decision document on stdout and exits 0, whatever happens, since a failing hook lets the call
through anyway. It starts fast because it loads neither a model nor the MCP SDK: what rules
alone decide is decided here. A rule that needs the prediction, and recording reality after the
call, go to a running server's guard tool over HTTP (`--url`, with its token); without one, only
the zero-token rules apply, and the reply says so.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import types
from pathlib import Path
from typing import Any

# The CEL package imports its interactive command line (typer, rich, prompt_toolkit) with itself:
# about 0.15 s that a hook started before every shell command cannot spend. Only the engine is used.
sys.modules.setdefault("cel.cli", types.ModuleType("cel.cli"))
# Pydantic looks for plugins in every installed distribution's entry points when it builds its first model: about
# 0.01 s in a full environment, for plugins (logfire and the like) that a hook's few models never need.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

from ...domains import load_domains  # noqa: E402  (after the line above, on purpose)
from ...tools.constraints import preset_problem  # noqa: E402
from ...tools.guard.policy import (  # noqa: E402
    Decision,
    GuardVerdict,
    PolicyError,
    load_policy,
    parsed_call,
    policy_path,
    zero_token_check,
)
from ...tools.guard.workspace_loss import Workspace  # noqa: E402
from ...tools.requests import GuardRequest  # noqa: E402
from ..settings import load_settings  # noqa: E402
from .formats import FORMATS, render, request_from_payload  # noqa: E402


def main(argv: list[str], stdin: str | None = None) -> int:
    """Decide the hook call on standard input (or `stdin`, as the warm decider passes it on) and print the reply."""
    try:
        args = parser().parse_args(argv)
    except SystemExit as exc:  # --help is fine; a bad flag must not exit 2, which Claude Code reads as "block"
        if exc.code in (0, None):
            raise
        print("{}")
        return 0
    try:
        raw = sys.stdin.buffer.read().decode("utf-8", errors="replace") if stdin is None else stdin
        verdict = decide(args, raw)
    except Exception as exc:  # whatever it is, the host gets a decision the guard chose
        verdict = _trouble(args, f"internal error ({type(exc).__name__}: {exc})")
    print(json.dumps(render(args.format, verdict)))
    if verdict.decision == "none" and verdict.reason and args.format != "plain":
        print(f"agentworld guard: {verdict.reason}", file=sys.stderr)  # hosts show a hook's stderr in their logs
    return 0


def _trouble(args: argparse.Namespace, why: str, domain: str | None = None) -> GuardVerdict:
    """What the guard answers when it cannot decide: --on-failure before a call; after one, nothing to block."""
    decision: Decision = args.on_failure if args.event == "pre" else "none"
    return GuardVerdict(event=args.event, decision=decision, domain=domain,
                        reason=f"agentworld guard could not decide ({why})")


def decide(args: argparse.Namespace, raw: str) -> GuardVerdict:
    event = args.event
    try:
        payload = json.loads(raw)
        if not isinstance(payload, dict):
            raise ValueError("the hook's stdin must be one JSON object")
        request = request_from_payload(args.format, event, payload)
    except ValueError as exc:  # pydantic's errors are ValueErrors too
        return GuardVerdict(event=event, decision="none", reason=f"malformed hook payload: {str(exc).splitlines()[0]}")
    action, undecided = parsed_call(request)
    if action is None:
        assert undecided is not None  # no action to check comes with the verdict saying why
        return undecided
    try:
        settings = load_settings({})  # the server's own AGENTWORLD_* variables, read the same way
        policy_file = policy_path(Path(args.policy) if args.policy else settings.policy)
        # A policy names presets of every domain, so it is checked against all packs; else only the call's is loaded.
        domains = load_domains(settings.domains_dir, settings.override_domains, settings.upstream_prompts, preset_problem,
                               check_builtin=False, only=None if policy_file else action.domain)
        policy = load_policy(policy_file, domains)
        asked = None  # the rules' question on a call they could not judge, for the server's model to answer
        if event == "pre":
            checked = zero_token_check(policy, request, action, domains[action.domain], Workspace.local(request.cwd))
            judges = args.url and checked.undecided and policy.rules.model_judges_unknown
            asked = checked.verdict if judges else None
            if (checked.verdict is not None and asked is None) or not (checked.outcome_rules or asked):
                return checked.verdict or GuardVerdict(event=event, decision="none", domain=action.domain,
                                                       reason="no rule fired")
    except (PolicyError, ValueError, KeyError, OSError) as exc:
        return _trouble(args, f"the call could not be checked: {exc}", action.domain)
    if not args.url:
        needs = ("a rule needs the predicted outcome" if event == "pre" else "recording what happened needs it")
        return GuardVerdict(event=event, decision="none", domain=action.domain,
                            reason=f"{needs}, and no server was given: run one and pass --url")
    try:
        return _ask_server(args, request, asked.rule_reasons if asked else {})
    except Exception as exc:  # unreachable, refused, too slow: a decision the guard chose, never a traceback
        detail = str(exc).splitlines()[0] if str(exc) else ""
        why = f"the guard server at {args.url} did not answer: {type(exc).__name__}: {detail}"
    if asked is not None:  # what nobody could judge is asked about, whatever --on-failure says
        return asked.model_copy(update={"reason": f"{asked.reason}\nthe world model could not judge it ({why})"})
    return _trouble(args, why)


def _ask_server(args: argparse.Namespace, request: GuardRequest, undecided: dict[str, str]) -> GuardVerdict:
    """The running server's guard tool decides (its policy, its model); the verdict comes back as plain JSON.
    `undecided`: the rules this machine could not decide from the call alone, for the server's model to judge.
    Raises whatever kept the server from answering."""
    import anyio

    async def call() -> dict[str, Any]:
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        from ..surface.replies import reply_text

        token = args.auth_token or os.environ.get("AGENTWORLD_AUTH_TOKEN")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        arguments = {**request.model_dump(exclude_defaults=True), "event": request.event, "format": "plain",
                     "prechecked": request.event == "pre",  # this machine's workspace decided the zero-token rules
                     **({"undecided": undecided} if undecided else {})}
        with anyio.fail_after(args.timeout):
            async with create_mcp_http_client(headers=headers) as http:
                async with Client(streamable_http_client(args.url, http_client=http), mode="legacy") as client:
                    result = await client.call_tool("guard", arguments)
        if result.is_error:
            raise RuntimeError(reply_text(result) if result.content else "the guard tool failed")
        return json.loads(reply_text(result))

    return GuardVerdict.model_validate(anyio.run(call))


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agentworld-mcp hook", description=__doc__.split("\n\n")[0],
                                     epilog="`agentworld-mcp hook install --host HOST` writes this hook into a host's "
                                            "settings file, and `hook uninstall` takes it out (each has --help).")
    parser.add_argument("--event", choices=["pre", "post"], required=True, help="before the tool runs, or after")
    parser.add_argument("--format", choices=FORMATS, default="claude-code", help="the host's hook format (claude-code)")
    parser.add_argument("--policy", help="the guard's policy file (default: AGENTWORLD_POLICY, else .agentworld/policy.json)")
    parser.add_argument("--url", help="a running server's MCP endpoint, e.g. http://127.0.0.1:8765/mcp, for model work")
    parser.add_argument("--auth-token", help="its bearer token (prefer AGENTWORLD_AUTH_TOKEN)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for the server (30)")
    parser.add_argument("--on-failure", choices=["ask", "none"],
                        default=os.environ.get("AGENTWORLD_GUARD_ON_FAILURE", "none"),
                        help="the decision before a call when the guard cannot decide (none; AGENTWORLD_GUARD_ON_FAILURE)")
    return parser
