"""The twin: a stand-in for a real MCP server (real_server), its modes (twin), the translation
between tool results and observations (observations), its MCP surface and its command."""
