"""Waiting in a test for something another thread or process does, with a bound instead of a sleep."""

from __future__ import annotations

import asyncio


async def until(condition, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not reached")
