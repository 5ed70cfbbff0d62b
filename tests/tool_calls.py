"""Calling a tool through a real MCP client and reading what came back, the same way in every test."""

from __future__ import annotations


async def call_ok(client, tool: str, arguments: dict) -> dict:
    """The structured result of a call that must succeed."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return result.structured_content


async def call_error(client, tool: str, arguments: dict) -> str:
    """The message of a call that must be refused: one readable line for the agent, no traceback."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    text = result.content[0].text
    assert "Traceback" not in text
    return text
