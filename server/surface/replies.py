"""How every tool answers: a short text for the model to read, the full result as structured content."""

from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel


def reply(result: BaseModel, summary: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=summary)], structured_content=result.model_dump(mode="json"))
