"""Simulation: one action predicted in a world (simulate), a plan rolled forward (plan), the checks on a
prediction, the situation a step is predicted in, and hindsight over recorded steps. It may import the
tools' shared modules, tools/worlds and tools/data, never the guard."""
