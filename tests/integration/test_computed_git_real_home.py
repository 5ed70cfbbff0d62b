"""git computed for a real user, through the real server and a real MCP client over stdio: the server's HOME holds
an ordinary ~/.gitconfig (identity, init.defaultBranch, an alias, a credential helper); a world opened from a
folder in that home reads it (and the machine's /etc/gitconfig) without running git, and `git init -q`, `git add`,
`git commit -qm` and `git status` come back computed, with the screens real git gives in a copy of the folder under
the same HOME. (What a home whose settings the virtual git does not follow leaves to the model:
tests/unit/test_git_settings_reading.py.)"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from mcp import Client, StdioServerParameters

from agentworld_mcp.server.model_files import cache_dir

from ..tool_calls import call_ok

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("git") not in ("/usr/bin/git",
                                                                                                    "/bin/git"),
                                reason="needs a Linux distribution's git, whose settings files the world reads")
QUICK = {"temperature": 0, "max_tokens": 24}
GITCONFIG = """[user]
\tname = Dev Eloper
\temail = dev@example.com
[init]
\tdefaultBranch = main
[alias]
\tst = status -s
[credential]
\thelper = store
"""
LINES = ["git init -q", "echo hello > notes.txt", "git status", "git add notes.txt", "git commit -qm 'First notes'",
         "git status", "echo more >> notes.txt", "git status -s"]


def _environment(server_env, home, tmp_path) -> dict[str, str]:
    """The server's environment with HOME the temporary home (and no variable that moves git's settings)."""
    kept = {name: value for name, value in server_env.items()
            if not (name.startswith("GIT_") and not name.startswith("GIT_SSL_")) and name != "XDG_CONFIG_HOME"}
    return {**kept, "HOME": str(home), "AGENTWORLD_CACHE_DIR": str(cache_dir()),
            "AGENTWORLD_DATA_DIR": str(tmp_path / "data"), "AGENTWORLD_ALLOW_DIRS": str(home)}


def _real_git(folder, home, lines) -> list[str]:
    """What each line prints in a real bash in `folder`, git reading `home`'s settings and the system's."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C", "LC_ALL": "C"}
    return [(done := subprocess.run(["bash", "--noprofile", "--norc", "-c", line], cwd=folder, capture_output=True,
                                    text=True, env=env, check=False)).stdout + done.stderr for line in lines]


async def _steps(server_env, home, tmp_path, folder) -> list[dict]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "agentworld_mcp"],
                                   env=_environment(server_env, home, tmp_path))
    async with Client(params, mode="legacy", read_timeout_seconds=300) as client:
        world_id = (await call_ok(client, "world", {"operation": "open", "domain": "terminal",
                                                    "from_dir": str(folder)}))["world_id"]
        return [await call_ok(client, "simulate_action", {"world_id": world_id, "action": line, "commit": True,
                                                          **QUICK}) for line in LINES]


async def test_git_in_a_home_with_an_ordinary_gitconfig_is_computed(tmp_path, server_env):
    home = tmp_path / "home"
    (home / "project").mkdir(parents=True)
    (home / "project" / "README.md").write_text("# project\n")
    (home / ".gitconfig").write_text(GITCONFIG)
    real = home / "copy"
    shutil.copytree(home / "project", real)
    steps = await _steps(server_env, home, tmp_path, home / "project")
    assert [step["effects"]["source"] for step in steps] == ["computed"] * len(LINES)
    assert all(step["committed"] is True for step in steps)
    assert not (home / "project" / ".git").exists()  # nothing real was run or written
    for line, step, printed in zip(LINES, steps, _real_git(real, home, LINES), strict=True):
        assert f"$ {line}\n{printed}" in step["observation"], (line, step["observation"], printed)
    assert "On branch main" in steps[5]["observation"]
