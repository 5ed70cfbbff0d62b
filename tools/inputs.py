"""Checking what a calling agent sends, before any model work: every problem is an InputError."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..domains import ActionError, DomainPack, Turn
from ..engine.errors import InputError
from .context import ToolContext
from .tool_definitions import ToolSet, parse_tool_definitions


@dataclass(frozen=True)
class Scene:
    """A validated world to act in: the domain, the task and state, and the simulated tools (mcp)."""

    pack: DomainPack
    task: str = ""
    state: str = ""
    tools: ToolSet | None = None

    @property
    def tool_definitions(self) -> str:
        return self.tools.prompt_text() if self.tools else ""

    def reply_schema(self, action: str) -> dict[str, Any] | None:
        """The schema a reply to this validated action is generated under: set where the called tool
        publishes an output schema, so a predicted result follows it by construction."""
        return self.tools.reply_schema(json.loads(action)["name"]) if self.tools else None


def check_world_arguments(
    ctx: ToolContext, domain: str, world_id: str, commit: bool, given: Sequence[Any], what: str
) -> None:
    """A call names a domain or a world; a world brings its own history, state, task and tools."""
    if world_id and any(given):
        raise InputError("with world_id, the world supplies history, state, task, tools and its starting folder: "
                         "leave them out")
    if not world_id and not domain:
        raise InputError(f"say where to simulate: pass domain (one of {', '.join(sorted(ctx.domains))}) or world_id")
    if commit and not world_id:
        raise InputError(f"commit appends {what} to a world: pass world_id too")


def validated_scene(ctx: ToolContext, domain: str, state: str = "", task: str = "", tools: Any = None) -> Scene:
    pack = ctx.domain(domain)
    limits = ctx.limits
    for name, text in (("state", state), ("task", task)):
        if len(text) > limits.max_state_chars:
            raise InputError(f"{name} is {len(text)} characters; the limit is {limits.max_state_chars}")
    tool_set = None
    if pack.takes_tool_definitions:
        if not tools:
            raise InputError(
                f"domain {domain!r} simulates an MCP server and needs its tool definitions: pass `tools`, "
                "the `tools` array of that server's tools/list result"
            )
        tool_set = parse_tool_definitions(tools, limits.max_state_chars)
    elif tools:
        raise InputError(f"`tools` is for domains that simulate a tool server (such as mcp), not {domain!r}")
    return Scene(pack, task, state, tool_set)


def normalized_action(ctx: ToolContext, pack: DomainPack, action: str, where: str = "action") -> str:
    """The pack's canonical form of `action`, within the size limit."""
    if len(action) > ctx.limits.max_action_chars:
        raise InputError(f"{where} is {len(action)} characters; the limit is {ctx.limits.max_action_chars}")
    try:
        return pack.normalize_action(action)
    except ActionError as exc:
        raise InputError(f"{where}: {exc}") from None


def validated_action(ctx: ToolContext, scene: Scene, action: str, where: str = "action") -> str:
    """An action about to be simulated: canonical, and a call the simulated server accepts (mcp)."""
    normalized = normalized_action(ctx, scene.pack, action, where)
    if scene.tools is not None:
        scene.tools.check_call(normalized, where)
    return normalized


def validated_history(ctx: ToolContext, pack: DomainPack | None, history: Sequence[dict]) -> list[Turn]:
    """Past turns: actions normalized like new ones (they already ran, so no tool check); no pack
    keeps them as given."""
    limits = ctx.limits
    if len(history) > limits.max_history_turns:
        raise InputError(f"history has {len(history)} turns; the limit is {limits.max_history_turns}")
    turns, total = [], 0
    for index, item in enumerate(history):
        if not isinstance(item, dict) or not isinstance(item.get("action"), str) or not isinstance(
            item.get("observation"), str
        ):
            raise InputError(f"history[{index}] must be an object with string fields 'action' and 'observation'")
        total += len(item["action"]) + len(item["observation"])
        source = item.get("source", "real")
        if source not in ("real", "predicted"):
            raise InputError(f"history[{index}].source must be 'real' (what happened) or 'predicted' (what the world "
                             f"predicted), not {source!r}")
        action = normalized_action(ctx, pack, item["action"], f"history[{index}].action") if pack else item["action"]
        turns.append(Turn(action, item["observation"], real=source == "real"))
    if total > limits.max_history_chars:
        raise InputError(
            f"history holds {total} characters; the limit is {limits.max_history_chars}: drop the oldest turns"
        )
    return turns
