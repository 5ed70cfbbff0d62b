"""The store's behaviour, the same on both engines: SQLite (the embedded default) and a real PostgreSQL (a
throwaway cluster, server/measure/postgres_cluster.py). The store owns every invariant: a world's steps are
appended in order with unique positions, a fork copies an exact prefix, a rewind truncates atomically, a
migration runs once; writers racing on one world never interleave, lose or repeat a step."""

from __future__ import annotations

import json
import threading
import time
import uuid

import psycopg
import pytest
from agentworld_mcp.tools.worlds.store import StepRow, Store, StoreConflict, StoreError
from agentworld_mcp.tools.worlds.stores import open_store


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, tmp_path):
    """A fresh store's address on each engine (PostgreSQL: a database of its own in the session's cluster)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/worlds.sqlite3"
    url = request.getfixturevalue("postgres_url")
    name = f"t_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture
def store(where):
    opened = open_store(where)
    yield opened
    opened.close()


def _step(position: int, source: str = "predicted", action: str = "") -> StepRow:
    return StepRow(position, action or f"echo {position}", f"{position}\n", None, {"success": True}, source, None, None,
                   reply=f"reply {position}", details={"usage": {"seconds": 0.5}})


def test_a_world_and_its_steps_come_back_as_written(store):
    world = store.create_world("terminal", "task", "state", [{"name": "t"}], origin={"host": "guard"})
    store.append_steps(world, [_step(1), _step(2, "real")])
    row = store.world(world)
    assert (row.domain, row.task, row.tools, row.origin, row.closed) == ("terminal", "task", [{"name": "t"}],
                                                                        {"host": "guard"}, False)
    steps = store.steps(world)
    assert [s.position for s in steps] == [1, 2] and steps[0] == _step(1) and steps[1].source == "real"
    assert [s.position for s in store.steps(world, up_to=1)] == [1]
    assert store.real_steps() == [(world, "terminal", {"host": "guard"}, "echo 2", "2\n")]
    assert [(r.id, n) for r, n in store.worlds(prefix=world[:4])] == [(world, 2)]


def test_steps_are_appended_in_order_or_not_at_all(store):
    world = store.create_world("terminal", "", "", None)
    store.append_steps(world, [_step(1)])
    for wrong in ([_step(1)], [_step(3)], [_step(2), _step(4)]):  # a repeat, a gap, a gap inside one append
        with pytest.raises(StoreConflict, match="moved on"):
            store.append_steps(world, wrong)
    assert [s.position for s in store.steps(world)] == [1]  # a refused append leaves nothing behind


def test_a_fork_copies_an_exact_prefix_and_a_rewind_truncates(store):
    world = store.create_world("terminal", "", "", None)
    store.append_steps(world, [_step(n) for n in range(1, 6)])
    fork = store.create_world("terminal", "", "", None, parent=(world, 3))
    store.copy_steps(world, fork, 3)
    assert store.steps(fork) == store.steps(world, 3) and [w.id for w in store.children(world)] == [fork]
    before = store.version(world)
    assert store.truncate(world, 2) == 3 and [s.position for s in store.steps(world)] == [1, 2]
    assert store.version(world) != before
    store.append_steps(world, [_step(3)])  # a rewound world goes on from its new end


def test_a_real_step_gains_its_prediction_and_a_step_can_be_replaced(store):
    world = store.create_world("terminal", "", "", None)
    store.append_steps(world, [_step(1, "real"), _step(2)])
    assert store.set_prediction(world, 1, "predicted", 0.75, "diff") and not store.set_prediction(world, 2, "p", 1, "")
    assert store.similarities(world) == [0.75]
    store.replace_step(world, _step(2, action="ls"))
    assert store.steps(world)[1].action == "ls"


def test_jobs_keep_their_progress_result_and_end(store):
    job = store.create_job("dry_run_plan")
    store.update_job(job, progress={"done": 1})
    store.update_job(job, result={"partial": True})
    assert store.job(job).progress == {"done": 1} and store.job(job).status == "running"
    store.finish_job(job, "completed", result={"steps": 3})
    finished = store.job(job)
    assert (finished.status, finished.result, finished.finished_at is not None) == ("completed", {"steps": 3}, True)
    running = store.create_job("simulate_action")
    store.settle_jobs_at_start(retention_seconds=3600)
    # A SQLite file's running jobs ran in an earlier process; on a shared store a live lease keeps a job running.
    assert store.job(running).status == ("running" if store.shared else "interrupted")
    assert store.job(job).status == "completed" and store.job("job_missing") is None


def test_a_jobs_lease_and_a_cancellation_asked_for_elsewhere(store, monkeypatch):
    import agentworld_mcp.tools.worlds.store as store_module

    live = store.create_job("dry_run_plan")
    assert abs(store.job(live).created_at - time.time()) < 5  # times keep their seconds (no single-precision float)
    assert store.renew_leases([live]) == set() and store.request_cancel(live)
    assert store.renew_leases([live]) == {live}  # the process running it learns at its next renewal
    assert store.interrupt_lapsed_jobs() == 0 and store.job(live).status == "running"
    monkeypatch.setattr(store_module, "JOB_LEASE_SECONDS", -1.0)  # a job whose server stopped renewing
    gone = store.create_job("dry_run_plan")
    assert store.interrupt_lapsed_jobs() == 1
    assert store.job(gone).status == "interrupted" and "stopped while this job ran" in store.job(gone).error
    store.finish_job(live, "cancelled")
    assert not store.request_cancel(live)  # only a running job can be asked to stop


def test_migrations_run_once_and_a_second_opening_finds_them_done(where, store):
    assert store.migrations() == [1, 2, 3, 4]
    again = open_store(where)
    try:
        assert again.migrations() == [1, 2, 3, 4]
    finally:
        again.close()


def _all_at_once(work, names: list[str]) -> None:
    """`work(name)` in a thread per name, all started before any is awaited."""
    threads = [threading.Thread(target=work, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)


def test_writers_racing_on_one_world_never_interleave_lose_or_repeat_a_step(where):
    """Four writers, each with its own connection, append to one world as fast as they can: each reads the
    world's end, appends after it, and on a conflict reads again. Every step is there once, in order."""
    first = open_store(where)
    world = first.create_world("terminal", "", "", None)
    written: list[str] = []
    lock = threading.Lock()

    def writer(name: str) -> None:
        store = open_store(where)
        try:
            for count in range(15):
                while True:
                    end = len(store.steps(world))
                    try:
                        store.append_steps(world, [_step(end + 1, action=f"{name} {count}")])
                        break
                    except StoreConflict:
                        continue
                with lock:
                    written.append(f"{name} {count}")
        finally:
            store.close()

    _all_at_once(writer, [f"w{n}" for n in range(4)])
    steps = first.steps(world)
    first.close()
    assert [s.position for s in steps] == list(range(1, 61))
    assert sorted(s.action for s in steps) == sorted(written) and len(set(written)) == 60


def test_a_held_world_makes_other_processes_take_turns_for_a_whole_step(postgres_url):
    """Each writer holds the world, reads its end, takes its time (a prediction would) and appends: with the hold,
    none conflicts; the lock a holder takes never waits on the appends' own locks."""
    where = postgres_url
    first = open_store(where)
    world = first.create_world("terminal", "", "", None)
    conflicts: list[str] = []

    def stepper(name: str) -> None:
        store = open_store(where)
        try:
            for count in range(3):
                release = store.hold_world(world)
                try:
                    end = len(store.steps(world))
                    time.sleep(0.05)
                    store.append_steps(world, [_step(end + 1, action=f"{name} {count}")])
                except StoreConflict as conflict:
                    conflicts.append(str(conflict))
                finally:
                    release()
        finally:
            store.close()

    _all_at_once(stepper, [f"s{n}" for n in range(3)])
    assert not conflicts and [s.position for s in first.steps(world)] == list(range(1, 10))
    assert first.shared and not Store.shared
    first.close()


def test_an_address_that_cannot_hold_a_store_is_one_line(tmp_path):
    for where, says in (("sqlite:", "names no file"), ("postgresql://nobody@127.0.0.1:1/none", "cannot be reached")):
        with pytest.raises(StoreError, match=says) as raised:
            open_store(where)
        assert "\n" not in str(raised.value)
    assert isinstance(open_store(tmp_path / "plain.sqlite3"), Store)


def test_a_password_never_shows():
    with pytest.raises(StoreError) as raised:
        open_store("postgresql://user:s3cret@127.0.0.1:1/db")
    assert "s3cret" not in str(raised.value) and "***" in str(raised.value)


async def test_two_servers_over_stdio_share_one_postgresql_store(postgres_url, server_argv, server_env):
    """Two real server processes on one store: a world opened and stepped through one is seen, and stepped on,
    through the other, and the first sees that step; each says which store it serves from."""
    from mcp import Client, StdioServerParameters

    from ..tool_calls import call_ok

    env = {**server_env, "AGENTWORLD_STORE": postgres_url}
    params = StdioServerParameters(command=server_argv[0], args=server_argv[1:], env=env)
    async with Client(params, mode="legacy", read_timeout_seconds=300) as first, \
            Client(params, mode="legacy", read_timeout_seconds=300) as second:
        world = (await call_ok(first, "world", {"operation": "open", "domain": "terminal",
                                                "state": "Working folder: /home/dev/site\n/home/dev/site is empty\n"
                                                         "The screen shows a fresh prompt: dev@sandbox:~/site$"}))["world_id"]
        await call_ok(first, "world", {"operation": "record", "world_id": world, "action": "mkdir app",
                                       "observation": "dev@sandbox:~/site$ mkdir app\ndev@sandbox:~/site$ "})
        seen = await call_ok(second, "world", {"operation": "get", "world_id": world})
        assert len(seen["steps"]) == 1 and "mkdir app" in seen["steps"][0]["action"]
        recorded = await call_ok(second, "world", {"operation": "record", "world_id": world, "action": "touch app/a",
                                                   "observation": "dev@sandbox:~/site$ touch app/a\ndev@sandbox:~/site$ "})
        assert recorded["recorded"]["step"] == 2  # the second server went on from the step the first one kept
        after = await call_ok(first, "world", {"operation": "get", "world_id": world})
        assert [("mkdir app" in step["action"], "touch app/a" in step["action"]) for step in after["steps"]] == [
            (True, False), (False, True)]
        status = json.loads((await second.read_resource("status://server")).contents[0].text)
    assert status["store"] == postgres_url and status["replica"].endswith(f":{status['process_id']}")


async def test_a_job_started_on_one_server_is_followed_and_cancelled_on_another(postgres_url, server_argv, server_env):
    """A plan that outlives its budget on the first server becomes a job in the shared store: the second server
    reads its progress and cancels it, and the first stops it within about a second."""
    from mcp import Client, StdioServerParameters

    from ..tool_calls import call_ok

    env = {**server_env, "AGENTWORLD_STORE": postgres_url, "AGENTWORLD_COMPUTED": "off"}  # every step the model's
    params = StdioServerParameters(command=server_argv[0], args=server_argv[1:], env=env)
    plan = {"domain": "terminal", "steps": ["ls -la /"] * 12, "max_tokens": 400, "budget_seconds": 1}
    async with Client(params, mode="legacy", read_timeout_seconds=300) as first, \
            Client(params, mode="legacy", read_timeout_seconds=300) as second:
        job_id = (await call_ok(first, "dry_run_plan", plan))["job_id"]
        assert job_id
        followed = await call_ok(second, "job", {"job_id": job_id})
        assert followed["status"] == "running" and followed["tool"] == "dry_run_plan"
        cancelled = await call_ok(second, "job", {"job_id": job_id, "cancel": True})
        assert cancelled["status"] == "cancelled", cancelled
        seen_by_first = await call_ok(first, "job", {"job_id": job_id})
    assert seen_by_first["status"] == "cancelled"


async def test_a_server_killed_mid_job_loses_nothing_acknowledged_and_its_job_is_interrupted(
        postgres_url, server_argv, server_env):
    """kill -9 one server while its job runs and a world it stepped is stored: the other server keeps serving the
    world whole, and marks the job interrupted once its lease lapses (no renewal for JOB_LEASE_SECONDS)."""
    import os
    import signal

    import anyio
    from mcp import Client, StdioServerParameters

    from agentworld_mcp.tools.worlds.store import JOB_LEASE_SECONDS

    from ..tool_calls import call_ok

    env = {**server_env, "AGENTWORLD_STORE": postgres_url, "AGENTWORLD_COMPUTED": "off"}
    params = StdioServerParameters(command=server_argv[0], args=server_argv[1:], env=env)
    plan = {"domain": "terminal", "steps": ["ls -la /"] * 12, "max_tokens": 400, "budget_seconds": 1}
    async with Client(params, mode="legacy", read_timeout_seconds=300) as survivor:
        async with Client(params, mode="legacy", read_timeout_seconds=300) as doomed:
            world = (await call_ok(doomed, "world", {"operation": "open", "domain": "terminal"}))["world_id"]
            await call_ok(doomed, "world", {"operation": "record", "world_id": world, "action": "pwd",
                                            "observation": "$ pwd\n/home/dev\n$ "})
            # A plan committing into the world is in flight when the server dies.
            committing = {key: value for key, value in plan.items() if key != "domain"}
            job_id = (await call_ok(doomed, "dry_run_plan", {**committing, "world_id": world, "commit": True}))["job_id"]
            process_id = json.loads((await doomed.read_resource("status://server")).contents[0].text)["process_id"]
            os.kill(process_id, signal.SIGKILL)
        assert (await call_ok(survivor, "job", {"job_id": job_id}))["status"] == "running"  # its lease still runs
        await anyio.sleep(JOB_LEASE_SECONDS + 1)
        job = await call_ok(survivor, "job", {"job_id": job_id})
        view = await call_ok(survivor, "world", {"operation": "get", "world_id": world})
    assert job["status"] == "interrupted" and "stopped while this job ran" in job["error"]
    assert [step["step"] for step in view["steps"]] == [1] and "pwd" in view["steps"][0]["action"]  # nothing half
