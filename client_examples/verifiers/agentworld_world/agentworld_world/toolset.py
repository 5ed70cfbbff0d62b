"""The policy's one tool, `act(action)`: a taskset-scoped MCP server that verifiers starts once per
eval (`python -m agentworld_world.toolset`) and every rollout's harness calls. Which world a call
steps comes from the calling rollout's state (verifiers routes each call to its rollout's state).
"""

from __future__ import annotations

import verifiers.v1 as vf

from agentworld_world.episode import WorldState, take_step


class WorldToolset(vf.Toolset[vf.SharedToolsetConfig, WorldState]):
    TOOL_PREFIX = None  # the policy sees `act`, not `world_toolset_act`

    @vf.tool
    async def act(self, action: str) -> str:
        """Take one action in the world (a shell command line in the terminal domain) and see what it does."""
        return await take_step(self.state, action)


if __name__ == "__main__":
    WorldToolset.run()
