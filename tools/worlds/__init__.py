"""Worlds and what they know: the store (worlds, steps, jobs), a world's replayed state and its tracker,
the virtual shell's computed steps, the consistency ledger, and snapshots of a real folder read through
git without running anything. It may import the tools' shared modules and tools/data, never the
simulation or the guard."""
