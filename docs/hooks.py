"""MkDocs hook: a page's `<!-- reference: NAME -->` line becomes that reference, generated from the code
(agentworld_mcp.server.cli.reference), so the CLI, tool, setting and preset pages never drift from it."""

from __future__ import annotations

import re
from typing import Any

from agentworld_mcp.server.cli.reference import REFERENCES

_MARKER = re.compile(r"^<!-- reference: (\w+) -->$", re.MULTILINE)


def on_page_markdown(markdown: str, **_: Any) -> str:
    return _MARKER.sub(lambda found: REFERENCES[found.group(1)](), markdown)
