"""The read-only resources of worlds: the list of recent worlds, and each world with its drift.

The world and job tools themselves are entries of the tool registry (tool_registry.py).
"""

import json

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError

from ...engine.errors import AgentWorldError
from ...tools.context import ToolContext
from ...tools.worlds.worlds import world_listing, world_view


def register_world_resources(server: MCPServer, ctx: ToolContext) -> None:
    @server.resource("world://list", name="worlds", mime_type="application/json")
    def list_worlds() -> str:
        """The most recent worlds with their step counts."""
        return json.dumps(world_listing(ctx) if ctx.store else [], indent=2)

    @server.resource("world://{world_id}", name="world", mime_type="application/json")
    def read_world(world_id: str) -> str:
        """One world: its history, where it forked from, and its drift from reality."""
        try:
            return world_view(ctx, world_id).model_dump_json(indent=2)
        except AgentWorldError as exc:
            raise ResourceError(str(exc)) from None
