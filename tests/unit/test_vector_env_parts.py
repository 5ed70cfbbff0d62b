"""The vector env's pure parts: per-env reset options and Gymnasium's vector info form."""

from __future__ import annotations

import numpy as np
from agentworld_mcp.server.api.vector_env import _add_info, _option_for

TOOLS = [{"name": "a", "inputSchema": {"type": "object"}}]


def test_a_list_of_one_value_per_env_is_spread_and_anything_else_is_shared():
    options = {"task": ["t0", "t1"], "state": "shared$", "tools": TOOLS}
    assert _option_for(options, 1, 2) == {"task": "t1", "state": "shared$", "tools": TOOLS}
    per_env_tools = {"tools": [TOOLS, []]}  # a list of tool lists: one per env
    assert _option_for(per_env_tools, 0, 2) == {"tools": TOOLS}
    two_tools = {"tools": [TOOLS[0], {"name": "b", "inputSchema": {"type": "object"}}]}  # one tool list for all
    assert _option_for(two_tools, 1, 2) == two_tools


def test_infos_are_arrays_with_a_mask_of_the_envs_that_have_them():
    infos: dict = {}
    _add_info(infos, {"step": 3, "error": "bad", "effects": {"success": True}}, 1, 3)
    _add_info(infos, {"step": 1, "error": None, "effects": {}}, 0, 3)
    assert infos["step"].dtype == np.int_ and list(infos["step"]) == [1, 3, 0]
    assert list(infos["_step"]) == [True, True, False]
    assert list(infos["error"]) == [None, "bad", None]
    assert list(infos["effects"]["success"]) == [False, True, False] and list(infos["effects"]["_success"]) == [
        False, True, False]
    assert list(infos["_effects"]) == [True, True, False]  # env 0's effects were empty, yet it has the key


def test_envs_that_disagree_on_a_value_s_type_share_an_array_of_objects():
    """One env's step is computed (an exit code), another's is the model's (none): no value is lost or cast."""
    infos: dict = {}
    _add_info(infos, {"exit_code": 0, "reward": 1}, 0, 3)
    _add_info(infos, {"exit_code": None, "reward": 0.5}, 1, 3)
    _add_info(infos, {"exit_code": 2, "reward": 0}, 2, 3)
    assert list(infos["exit_code"]) == [0, None, 2] and list(infos["_exit_code"]) == [True, True, True]
    assert list(infos["reward"]) == [1, 0.5, 0]  # 0.5 kept, not cut to 0 by the first env's int
