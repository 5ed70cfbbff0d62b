"""The NeMo Gym session table's rules, without a model: idempotent seeds, closed ids stay closed, the limit,
a step in flight cancelled by its close, cookies only this server signed; and the collection's summary."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agentworld_mcp.server.api.nemo_gym_sessions import SessionRefused, SessionTable

EPISODE: Any = object()  # the table never looks inside an episode


def begun() -> Any:
    return EPISODE


def test_a_seed_repeated_for_the_same_episode_is_the_same_session_and_another_episode_is_refused():
    table = SessionTable(4)
    first, created = table.seed("s1", ("rollout-1", "task-1"), begun)
    again, created_again = table.seed("s1", ("rollout-1", "task-1"), lambda: pytest.fail("seeded twice"))
    assert created and not created_again and again is first and len(table) == 1
    with pytest.raises(SessionRefused) as refused:
        table.seed("s1", ("rollout-2", "task-1"), begun)
    assert refused.value.status == 409 and "another episode" in refused.value.detail


def test_closing_is_idempotent_and_a_closed_or_never_seeded_id_is_never_seeded_again():
    table = SessionTable(4)
    table.seed("s1", "identity", begun)
    assert table.close("s1") and table.close("s1") and table.close("never-seeded")
    assert table.get("s1") is None and len(table) == 0
    for late in ("s1", "never-seeded"):
        with pytest.raises(SessionRefused) as refused:
            table.seed(late, "identity", begun)
        assert refused.value.status == 409


def test_a_close_naming_another_episode_closes_nothing():
    table = SessionTable(4)
    table.seed("s1", ("rollout-1", "task-1"), begun)
    assert not table.close("s1", lambda bound: bound[0] == "rollout-2")
    assert table.get("s1") is not None


def test_the_limit_refuses_one_more_session_until_one_closes():
    table = SessionTable(2)
    table.seed("a", None, begun)
    table.seed("b", None, begun)
    with pytest.raises(SessionRefused) as refused:
        table.seed("c", None, begun)
    assert refused.value.status == 503
    table.close("a")
    assert table.seed("c", None, begun)[1]


async def test_closing_cancels_the_step_in_flight():
    table = SessionTable(2)
    session, _ = table.seed("s1", None, begun)
    step = asyncio.ensure_future(asyncio.sleep(60))
    session.running.add(step)
    table.close("s1")
    with pytest.raises(asyncio.CancelledError):
        await step
    assert session.closed


def test_a_cookie_names_its_session_only_when_this_table_signed_it():
    table, other = SessionTable(1), SessionTable(1)
    cookie = table.cookie("rollout.with.dots")
    assert table.id_from_cookie(cookie) == "rollout.with.dots"
    assert other.id_from_cookie(cookie) is None  # another server's key
    assert table.id_from_cookie("rollout.with.dots.0000") is None
    assert table.id_from_cookie("") is None and table.id_from_cookie(None) is None and table.id_from_cookie("x") is None


def test_aggregate_metrics_average_the_reward_and_each_component_overall_and_per_task():
    from agentworld_mcp.server.api.nemo_gym_metrics import aggregated

    answers = [{"_ng_task_index": 0, "reward": 2.0, "reward_components": {"files": 1.0, "commands": 1.0}},
               {"_ng_task_index": 0, "reward": 1.0, "reward_components": {"files": 0.0, "commands": 1.0}},
               {"_ng_task_index": 1, "reward": 0.5, "reward_components": {"commands": 0.5}},
               {"reward": "not a number", "reward_components": {"flag": True}}]
    metrics = aggregated(answers)
    assert metrics["key_metrics"] == {"mean/reward": pytest.approx(3.5 / 3), "mean/files": 0.5,
                                      "mean/commands": pytest.approx(2.5 / 3)}
    assert metrics["agent_metrics"]["rollouts"] == 4
    assert metrics["group_level_metrics"] == [
        {"_ng_task_index": 0, "rollouts": 2, "mean/reward": 1.5, "mean/files": 0.5, "mean/commands": 1.0},
        {"_ng_task_index": 1, "rollouts": 1, "mean/reward": 0.5, "mean/commands": 0.5}]
    assert aggregated([]) == {"group_level_metrics": [], "agent_metrics": {"rollouts": 0}, "key_metrics": {}}
