"""A world's known files, through the real server and the default model: effects come from the
command, and a step that needs a file the world knows is gone is predicted to fail, with the
program's own error line, however the model answered."""

from __future__ import annotations

from mcp import Client

from client_examples.dry_run_demo import COMPUTED

from ..tool_calls import call_ok

QUICK = {"temperature": 0, "max_tokens": 48}
WORKSPACE = "Working folder: /home/dev/project"


def _shows(observation: str, line: str) -> bool:
    return line in observation.splitlines()


async def test_the_demo_plan_predicts_removing_a_missing_file_fails(mcp_server):
    async with Client(mcp_server, mode="legacy") as client:
        plan = await call_ok(client, "dry_run_plan", {"domain": "terminal", "steps": COMPUTED, **QUICK})
    last = plan["steps"][-1]
    assert last["action"].endswith('notes/missing.txt\\n", "duration": 1}]')
    prediction = last["prediction"]
    error = "rm: cannot remove 'notes/missing.txt': No such file or directory"
    assert prediction["effects"]["success"] is False and prediction["effects"]["error"] == error
    assert _shows(prediction["observation"], error)
    created = {change["entity"] for step in plan["steps"] for change in step["prediction"]["effects"]["changed"]}
    assert {"/home/dev/project/notes", "/home/dev/project/notes/todo.txt"} <= created


async def test_a_file_removed_in_a_world_stays_removed(mcp_server):
    async with Client(mcp_server, mode="legacy") as client:
        world = await call_ok(client, "world", {"operation": "open", "domain": "terminal", "state": WORKSPACE})
        step = {"world_id": world["world_id"], "commit": True, **QUICK}
        removed = await call_ok(client, "simulate_action", {**step, "action": "rm a.txt"})
        read = await call_ok(client, "simulate_action", {**step, "action": "cat a.txt"})
    assert removed["effects"]["source"] == "command"
    assert [(c["entity"], c["change"], c["kind"]) for c in removed["effects"]["changed"]] == [
        ("/home/dev/project/a.txt", "deleted", "deleted")]
    error = "cat: a.txt: No such file or directory"
    assert read["effects"]["success"] is False and _shows(read["observation"], error)
    assert read["effects"]["changed"] == []


async def test_a_deletion_recorded_from_reality_is_known_too(mcp_server):
    async with Client(mcp_server, mode="legacy") as client:
        world = await call_ok(client, "world", {"operation": "open", "domain": "terminal", "state": WORKSPACE})
        world_id = world["world_id"]
        await call_ok(client, "world", {"operation": "record", "world_id": world_id, "action": "rm a.txt",
                                        "observation": "dev@sandbox:~/project$ rm a.txt\ndev@sandbox:~/project$"})
        moved = await call_ok(client, "simulate_action", {"world_id": world_id, "action": "mv a.txt b.txt", **QUICK})
        kept = await call_ok(client, "simulate_action", {"world_id": world_id, "action": "rm -f a.txt", **QUICK})
    assert moved["effects"]["success"] is False
    assert _shows(moved["observation"], "mv: cannot stat 'a.txt': No such file or directory")
    assert moved["effects"]["changed"] == []
    assert "cannot remove" not in kept["observation"]  # rm -f never complains about a missing file
    assert not any("world's known files" in warning for warning in kept["warnings"])


async def test_state_check_off_leaves_the_prediction_alone_and_warn_only_warns(tool_context):
    import dataclasses

    from agentworld_mcp.tools.requests import SimulateRequest
    from agentworld_mcp.tools.simulation.simulate import simulate_action

    history = [{"action": "rm a.txt", "observation": "dev@sandbox:~/project$ rm a.txt\ndev@sandbox:~/project$"}]
    request = SimulateRequest(domain="terminal", action="cat a.txt", history=history, state=WORKSPACE, **QUICK)
    ctx = dataclasses.replace(tool_context, state_check="correct", jobs=None)
    corrected = await simulate_action(ctx, request)
    assert _shows(corrected.observation, "cat: a.txt: No such file or directory")
    if corrected.usage.reasked:  # two observation replies and the effects reply, each counted once
        assert corrected.usage.completion_tokens >= corrected.usage.effects_tokens + 2
        assert corrected.usage.stopped_at is None or isinstance(corrected.usage.stopped_at, str)
    for mode in ("off", "warn"):
        ctx = dataclasses.replace(tool_context, state_check=mode, jobs=None)
        prediction = await simulate_action(ctx, request)
        assert prediction.usage.reasked is False
        told = any("world's known files" in warning for warning in prediction.warnings)
        shown = _shows(prediction.observation, "cat: a.txt: No such file or directory")
        if mode == "off":
            assert not told
        else:
            assert told or shown  # warned, unless the model got it right by itself
            assert "was corrected" not in " ".join(prediction.warnings)
