"""Settings: what a child server process is given reads back as the same settings."""

from __future__ import annotations

import pytest

from agentworld_mcp.server.settings import load_settings, settings_env


def test_settings_given_to_a_child_process_read_back_the_same(monkeypatch):
    ours = load_settings({"n_ctx": 4096, "snapshot_mb": 0, "api_key": "k3y", "flash_attn": True,
                          "chat_template_vars": {"enable_thinking": False}, "base_url": "http://models:8080"})
    env = settings_env(ours)
    assert env["AGENTWORLD_API_KEY"] == "k3y" and env["AGENTWORLD_FLASH_ATTN"] == "true"
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert load_settings({}) == ours


@pytest.mark.parametrize("name", ["n_ctx", "snapshot_mb"])
def test_defaults_are_left_out(name):
    assert f"AGENTWORLD_{name.upper()}" not in settings_env(load_settings({name: None}))
