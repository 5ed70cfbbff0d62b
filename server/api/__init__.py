"""The tools in process, with no MCP: Simulator, the Gymnasium environments (single, vector, TRL) and batch runs.
The package top (agentworld_mcp) re-exports the public names."""
