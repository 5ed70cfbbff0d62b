"""server.json, the project's MCP registry entry: valid by the registry's published schema (2025-12-11) and its
publishing rules, as skillsaw checks them (skillsaw bundles the released schemas the registry publishes at
static.modelcontextprotocol.io), and true to the package it names."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from agentworld_mcp.server.settings import ENV_PREFIX, OTHER_VARIABLES, Settings

REPO = Path(__file__).resolve().parents[2]
ENTRY = json.loads((REPO / "server.json").read_text(encoding="utf-8"))
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
SKILLSAW = Path(sys.executable).parent / "skillsaw"


def test_the_registry_s_own_rules_pass(tmp_path):
    shutil.copy(REPO / "server.json", tmp_path / "server.json")
    done = subprocess.run([str(SKILLSAW), "lint", "--type", "mcp-registry", "--rule", "mcp-registry-server-json-valid",
                           "--strict", "--no-progress", "--format", "json", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    report = json.loads(done.stdout)
    assert report["stats"]["rules_run"] == 1 and report["violations"] == [] and done.returncode == 0


def test_a_rule_breach_is_caught(tmp_path):
    """The check can fail: a range where the registry wants one exact version."""
    broken = json.loads(json.dumps(ENTRY))
    broken["packages"][0]["version"] = ">=0.1"
    (tmp_path / "server.json").write_text(json.dumps(broken))
    done = subprocess.run([str(SKILLSAW), "lint", "--type", "mcp-registry", "--rule", "mcp-registry-server-json-valid",
                           "--no-progress", "--format", "json", str(tmp_path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0 and json.loads(done.stdout)["violations"]


def test_the_entry_names_this_package_as_it_really_is():
    assert ENTRY["version"] == PROJECT["version"]
    (package,) = ENTRY["packages"]
    assert package["registryType"] == "pypi" and package["identifier"] == PROJECT["name"]
    assert package["version"] == PROJECT["version"] and package["transport"] == {"type": "stdio"}
    settings = {ENV_PREFIX + name.upper() for name in Settings.model_fields} | set(OTHER_VARIABLES)
    assert {variable["name"] for variable in package["environmentVariables"]} <= settings


def test_the_readme_carries_the_line_that_proves_the_name_on_pypi():
    """The registry checks a PyPI package's ownership by this line in its published README."""
    assert f"mcp-name: {ENTRY['name']}" in (REPO / "README.md").read_text(encoding="utf-8")
    assert "me.agentworld/agentworld-mcp" not in ENTRY["name"]
