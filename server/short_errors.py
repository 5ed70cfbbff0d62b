"""Tool errors an agent can read: never longer than a few lines, whatever the input was.

Many messages quote what the caller sent (an unknown domain, a line that does not parse), and a
caller can send a megabyte. Rather than guard every message, the one place all tool errors pass
on their way out cuts the middle out of a long one, keeping its start (what was wrong) and its
end (what was expected)."""

from __future__ import annotations

from typing import Any

LONGEST_ERROR = 1_000


def shortened(text: str, limit: int = LONGEST_ERROR) -> str:
    if len(text) <= limit:
        return text
    keep = (limit - 40) // 2
    return f"{text[:keep]} …[{len(text) - 2 * keep} characters cut]… {text[-keep:]}"


class ShortToolErrors:
    """Server middleware: shortens the text of every tool error result. The chain below it hands
    back the result as it goes on the wire (a dict in the protocol's own spelling)."""

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        result = await call_next(ctx)
        if ctx.method == "tools/call" and isinstance(result, dict) and result.get("isError"):
            result["content"] = [
                {**block, "text": shortened(block["text"])} if block.get("type") == "text" else block
                for block in result.get("content", [])
            ]
        return result
