"""Retrieval on the real default model: a prediction is shown the store's real steps most like its
action, says so in usage, and a world that showed them still extends its cached prompt exactly."""

from __future__ import annotations

from agentworld_mcp import Simulator
from agentworld_mcp.tools.data.session_split import split_of
from agentworld_mcp.tools.worlds.store import StepRow, Store

from ..conftest import TEST_N_CTX

QUICK = {"temperature": 0, "max_tokens": 16}


def _recorded(data_dir) -> None:
    """One real session on the train side of the split, as `import` would leave it."""
    session = next(f"s{index}" for index in range(1000) if split_of(f"s{index}") == "train")
    store = Store(data_dir / "worlds.sqlite3")
    world_id = store.create_world("terminal", "", "", None, world_id=f"import-claude-code-{session}-terminal",
                                  origin={"host": "claude-code", "session": session})
    store.append_steps(world_id, [StepRow(1, "git status", "$ git status\nOn branch main\nnothing to commit\n$ ",
                                          None, None, "real", None, None)])
    store.close()


def test_predictions_are_shown_real_steps_and_worlds_still_extend_their_prompt(tmp_path):
    _recorded(tmp_path)
    with Simulator(data_dir=tmp_path, n_ctx=TEST_N_CTX, effects="parser", retrieval="on") as sim:
        one_off = sim.simulate_sync("terminal", "git status --short", **QUICK)
        assert one_off.usage.retrieved_steps == 1 and 0 < one_off.usage.retrieved_chars < 1000
        assert sim.simulate_sync("terminal", "docker ps", **QUICK).usage.retrieved_steps == 0  # nothing like it

        world = sim.world_sync("open", domain="terminal").world_id
        first = sim.simulate_sync(None, "git status -s", world_id=world, commit=True, **QUICK)
        second = sim.simulate_sync(None, "git status", world_id=world, commit=True, **QUICK)
        assert first.usage.retrieved_steps == 1 and second.usage.retrieved_steps == 1
        # The first step's whole prompt, examples included, is reused: its turn rendered the same way as history.
        assert second.usage.reused_prompt_tokens >= first.usage.prompt_tokens
    with Simulator(data_dir=tmp_path, n_ctx=TEST_N_CTX, effects="parser", retrieval="off") as sim:
        assert sim.simulate_sync("terminal", "git status --short", **QUICK).usage.retrieved_steps == 0
