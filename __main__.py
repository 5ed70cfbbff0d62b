"""`python -m agentworld_mcp`: the same entry point as the `agentworld-mcp` command."""

from agentworld_mcp.server.cli.entry import main

if __name__ == "__main__":
    raise SystemExit(main())
