"""What a client can learn without reading docs: the domains, each domain's formats, and a prompt
that teaches an agent to look before it leaps."""

from __future__ import annotations

import json

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.types import Completion, PromptReference, ResourceTemplateReference

from ...tools.context import ToolContext

_DOMAIN_ARGUMENTS = {"name", "domain"}


def register_discovery(server: MCPServer, ctx: ToolContext) -> None:
    @server.resource("domains://list", name="domains", mime_type="application/json")
    def list_domains() -> str:
        """Every loaded domain with its one-line summary; read domains://{name} for the details."""
        return json.dumps(
            [
                {"name": p.name, "title": p.title, "summary": p.summary, "uri": f"domains://{p.name}", "source": p.source}
                for p in ctx.domains.values()
            ],
            indent=2,
        )

    @server.resource("domains://{name}", name="domain", mime_type="application/json")
    def describe_domain(name: str) -> str:
        """One domain: action and observation formats, an example action and trajectory, initial state."""
        pack = ctx.domains.get(name)
        if pack is None:
            raise ResourceError(f"unknown domain {name!r}; known domains: {', '.join(sorted(ctx.domains))}")
        return json.dumps(pack.describe(), indent=2, ensure_ascii=False)

    @server.completion()
    async def complete(ref, argument, context) -> Completion | None:
        if not isinstance(ref, (ResourceTemplateReference, PromptReference)) or argument.name not in _DOMAIN_ARGUMENTS:
            return None
        names = sorted(name for name in ctx.domains if name.startswith(argument.value))
        return Completion(values=names, total=len(names), has_more=False)

    @server.prompt(name="look_before_you_leap", title="Look before you leap")
    def look_before_you_leap(domain: str = "terminal", goal: str = "") -> str:
        """How to rehearse risky actions with the world model before executing them."""
        pack = ctx.domains.get(domain)
        if pack is None:
            raise ValueError(f"unknown domain {domain!r}; known domains: {', '.join(sorted(ctx.domains))}")
        goal_line = f"Your goal: {goal}\n\n" if goal else ""
        return (
            f"{goal_line}Before you take an action in the {pack.title} environment that could change or destroy "
            "something, rehearse it with the agentworld-mcp tools; they predict, they never execute.\n"
            f"1. Write the action as the domain expects: {pack.action_format} For example: {pack.action_example}\n"
            "2. For one step, call simulate_action(domain, action, history, state). For several steps, call "
            "dry_run_plan(domain, steps) with stop_on_error=true.\n"
            "3. Read `observation` and `effects` (success, error, changed). If the prediction shows a failure, "
            "a deletion or a change you did not intend, revise the plan and rehearse again.\n"
            "4. Pass what really happened as `history` on the next call, so the simulation stays anchored to reality.\n"
            "5. Treat predictions as a rehearsal, not as the truth: the world model can be wrong, most of all about "
            "details it cannot know (file contents, ids, prices). Verify after acting."
        )
