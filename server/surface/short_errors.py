"""Tool errors an agent can read: one line per problem, never longer than a few lines.

Arguments that break a tool's input schema are refused by the SDK with pydantic's report, which
names its internal argument model and a documentation link on every line. That report becomes
`invalid arguments: field: problem (got value); ...`; anything that does not read as such a
report is left as it is.

Many messages quote what the caller sent (an unknown domain, a line that does not parse), and a
caller can send a megabyte. Rather than guard every message, the one place all tool errors pass
on their way out cuts the middle out of a long one, keeping its start (what was wrong) and its
end (what was expected)."""

from __future__ import annotations

import re
from typing import Any

LONGEST_ERROR = 1_000


_REPORT_HEAD = re.compile(r"\A(Error executing tool [^:]+): (\d+) validation errors? for \w+\n")
_REPORT_ITEM = re.compile(
    r"^(?P<field>\S[^\n]*)\n  (?P<problem>[^\n]*?) \[type=(?P<type>[\w.-]+)(?:, input_value=(?P<value>.*?), input_type=\w+)?\]"
    r"(?:\n    For further information visit \S+)?$",
    re.MULTILINE | re.DOTALL,
)


def readable_validation_error(text: str) -> str:
    head = _REPORT_HEAD.match(text)
    if head is None:
        return text
    items = [
        f"{m['field']}: {m['problem']}" + (f" (got {m['value']})" if m["value"] is not None and m["type"] != "missing" else "")
        for m in _REPORT_ITEM.finditer(text, head.end())
    ]
    if len(items) != int(head[2]):  # not the report this was written for: keep every word of it
        return text
    return f"{head[1]}: invalid arguments: " + "; ".join(items)


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
                {**block, "text": shortened(readable_validation_error(block["text"]))} if block.get("type") == "text" else block
                for block in result.get("content", [])
            ]
        return result
