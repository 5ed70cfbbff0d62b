"""The virtual shell's refusal: a line, or a part of it, that is the world model's."""

from __future__ import annotations


class NotComputable(Exception):
    """The line, or a part of it, is the world model's: the message says which part and why."""
