"""How every tool answers: a short text for the model to read, the full result as structured content."""

from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel


def reply(result: BaseModel, summary: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=summary)], structured_content=result.model_dump(mode="json"))


def reply_text(result: CallToolResult) -> str:
    """A reply's text as a client reads it: its first content block, which every reply here makes a text block."""
    if not result.content:
        raise TypeError("the reply has no content block")
    block = result.content[0]
    if not isinstance(block, TextContent):
        raise TypeError(f"the reply's first content block is {block.type}, not text")
    return block.text
