"""Shared fixtures: the real default model, loaded once, behind the real engine and MCP server.

Tests live in three tiers, one folder each, and each test is marked with its folder's name:
unit (no model, no processes), integration (the real model and server, real processes) and e2e
(third-party programs). `pytest -m unit` is the quick loop; the model loads only when a test asks.
"""

from __future__ import annotations

import os
import sys
import tempfile

import pytest

from agentworld_mcp.server.surface.app import create_server
from agentworld_mcp.server.runtime import build_context, open_store, resolve_model
from agentworld_mcp.server.settings import load_settings

# Small enough to keep the suite quick on 2 cores, large enough for a few turns of history.
TEST_N_CTX = 4096
# Worlds and jobs of the test run live in a throwaway folder, never in the user's data directory;
# set before any test builds settings, and inherited by the servers tests start.
os.environ["AGENTWORLD_DATA_DIR"] = tempfile.mkdtemp(prefix="agentworld-test-data-")
# A loaded 2-core machine can push a call past the 50 s default budget, which would turn a plain
# result into a job handle; tests of budgets pass budget_seconds themselves.
os.environ["AGENTWORLD_BUDGET_SECONDS"] = "900"
# The run's one store gathers real steps from many unrelated tests (recorded reality, the guard's
# sessions); shown as examples, they would change predictions that other tests assert on. The
# retrieval tests turn it on for stores of their own.
os.environ["AGENTWORLD_RETRIEVAL"] = "off"
# Each `agentworld-mcp hook` process the tests start decides in its own process: a warm decider (server/hosts/warm.py)
# would outlive the run. tests/integration/test_hook_warm.py starts and stops its own.
os.environ["AGENTWORLD_HOOK_DAEMON"] = "0"


TIERS = ("unit", "integration", "e2e")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        tier = next((part for part in item.path.parts[::-1] if part in TIERS), None)
        if tier is None:
            raise pytest.UsageError(f"{item.nodeid}: a test belongs in tests/unit, tests/integration or tests/e2e")
        item.add_marker(tier)


@pytest.fixture(scope="session")
def settings():
    return load_settings({"n_ctx": TEST_N_CTX})


@pytest.fixture(scope="session")
def model_info(settings):
    return resolve_model(settings)


@pytest.fixture(scope="session")
async def tool_context(settings, model_info):
    ctx = build_context(settings, model_info, store=open_store(settings))
    ctx.engine.start()
    await ctx.engine.wait_ready()
    yield ctx
    ctx.engine.close()


@pytest.fixture(scope="session")
def mcp_server(tool_context):
    return create_server(tool_context)


@pytest.fixture
def server_env():
    """The environment a stdio child gets: ours (the SDK passes only a handful of variables)."""
    return {**os.environ, "AGENTWORLD_N_CTX": str(TEST_N_CTX)}


@pytest.fixture
def server_argv():
    return [sys.executable, "-m", "agentworld_mcp"]


@pytest.fixture(scope="session")
def postgres_url():
    """A throwaway PostgreSQL cluster for the session (server/measure/postgres_cluster.py); in CI its absence fails
    the run."""
    from agentworld_mcp.server.measure.postgres_cluster import cluster, unavailable

    why = unavailable()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    with cluster() as url:
        yield url
