"""The tools in process, with no MCP: Simulator, the Gym-style WorldModelEnv, and batch runs.
The package top (agentworld_mcp) re-exports the public names."""
