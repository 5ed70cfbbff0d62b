"""The package's public surface: what `import agentworld_mcp` offers, pinned, and light to import."""

from __future__ import annotations

import json
import subprocess
import sys

import agentworld_mcp

PUBLIC = ["AgentWorldError", "ConfigurationError", "EngineError", "InputError", "Simulator", "WorldModelEnv",
          "WorldModelVectorEnv", "__version__", "trl_environment"]


def test_the_public_surface_is_pinned_and_every_name_resolves():
    assert sorted(agentworld_mcp.__all__) == sorted(PUBLIC)
    for name in PUBLIC:
        assert getattr(agentworld_mcp, name) is not None
    assert issubclass(agentworld_mcp.InputError, agentworld_mcp.AgentWorldError)
    assert issubclass(agentworld_mcp.EngineError, agentworld_mcp.AgentWorldError)
    assert agentworld_mcp.Simulator.__module__ == "agentworld_mcp.server.api.python_api"


def test_every_public_member_says_what_it_does():
    """The Python API page is generated from the docstrings: a public class, function, method or property
    without one would show as a bare signature."""
    import inspect

    bare = []
    for name in PUBLIC:
        item = getattr(agentworld_mcp, name)
        if not (inspect.isclass(item) or inspect.isfunction(item)):
            continue
        if not inspect.getdoc(item):
            bare.append(name)
        members = vars(item).items() if inspect.isclass(item) else ()
        for member_name, member in members:
            if member_name.startswith("_") and member_name != "__init__":
                continue
            if isinstance(member, (classmethod, staticmethod)):
                member = member.__func__
            if (inspect.isfunction(member) or isinstance(member, property)) and not member.__doc__:
                bare.append(f"{name}.{member_name}")
    assert bare == []


def test_the_engine_exports_each_name_it_loads_on_first_use():
    from agentworld_mcp import engine

    assert sorted(engine.__all__) == sorted(engine._HOMES)
    assert all(getattr(engine, name) is not None for name in engine.__all__)


def test_importing_the_package_loads_no_server_sdk_or_model():
    code = ("import sys, json, agentworld_mcp; agentworld_mcp.InputError; "
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
    loaded = set(json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                           check=True).stdout))
    assert not loaded & {"mcp", "llama_cpp", "gymnasium", "asyncio"}


def test_the_environments_import_and_construct_without_gymnasium():
    # The base install has no gymnasium: the environments are then plain classes with the same methods.
    code = ("import sys; sys.modules['gymnasium'] = None; "
            "from agentworld_mcp import Simulator, WorldModelEnv, WorldModelVectorEnv; "
            "sim = Simulator(); WorldModelEnv(sim, 'terminal'); WorldModelVectorEnv(sim, 'terminal', num_envs=2); "
            "print(WorldModelEnv.__mro__[1].__name__, WorldModelVectorEnv.__mro__[1].__name__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["object", "object"]
