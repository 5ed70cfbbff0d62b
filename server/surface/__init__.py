"""The MCP surface: registration of the tool registry's entries and the resources, the SDK's
signatures and replies, client log messages, and serving over HTTP. Only this room speaks MCP."""
