"""Computed steps through the real server and a real MCP client over stdio: a plan from an empty folder
is computed whole (zero tokens, the screens real bash gives), a committed step is never dropped in
silence, and a folder outside what the client may see is refused."""

from __future__ import annotations

import json
import subprocess

from mcp import Client, StdioServerParameters, types

from ..tool_calls import call_error, call_ok

QUICK = {"temperature": 0, "max_tokens": 24}
DEMO = ["mkdir site", "echo '<h1>Hello</h1>' > site/index.html", "cat site/index.html", "wc -c site/index.html"]


def _params(server_argv, env):
    return StdioServerParameters(command=server_argv[0], args=server_argv[1:], env=env)


def _real_bash(folder, lines) -> list[str]:
    """What each line prints in a real bash in `folder` (stdout and stderr, as the screen shows them)."""
    printed = []
    for line in lines:
        done = subprocess.run(["bash", "--noprofile", "--norc", "-c", line], cwd=folder, capture_output=True, text=True,
                              env={"PATH": "/usr/bin:/bin", "LANG": "C", "LC_ALL": "C"}, check=False)
        printed.append(done.stdout + done.stderr)
    return printed


async def test_the_demo_plan_from_an_empty_folder_is_computed_whole_with_the_screens_of_real_bash(
        tmp_path, server_argv, server_env):
    simulated, real = tmp_path / "simulated", tmp_path / "real"
    simulated.mkdir()
    real.mkdir()
    env = {**server_env, "AGENTWORLD_DATA_DIR": str(tmp_path / "data"), "AGENTWORLD_ALLOW_DIRS": str(tmp_path)}
    async with Client(_params(server_argv, env), mode="legacy", read_timeout_seconds=300) as client:
        plan = await call_ok(client, "dry_run_plan", {"domain": "terminal", "from_dir": str(simulated), "steps": DEMO,
                                                      **QUICK})
        status = json.loads((await client.read_resource("status://server")).contents[0].text)
    assert plan["verdict"]["status"] == "completed"
    assert [step["prediction"]["effects"]["source"] for step in plan["steps"]] == ["computed"] * len(DEMO)
    assert plan["usage"]["completion_tokens"] == 0 and plan["usage"]["prompt_tokens"] == 0
    assert status["steps"]["computed"] >= len(DEMO)
    screen = plan["steps"][-1]["prediction"]["observation"]
    for line, printed in zip(DEMO, _real_bash(real, DEMO), strict=True):
        assert f"$ {line}\n{printed}" in screen
    assert list(simulated.iterdir()) == []  # nothing real was written
    assert plan["steps"][0]["prediction"]["effects"]["changed"] == [
        {"entity": f"{simulated}/site", "change": "created", "kind": "created", "tree": None, "pattern": None}]


async def test_a_committed_step_is_kept_or_reported_and_the_next_step_builds_on_it(tmp_path, server_argv, server_env):
    env = {**server_env, "AGENTWORLD_DATA_DIR": str(tmp_path)}
    async with Client(_params(server_argv, env), mode="legacy", read_timeout_seconds=300) as client:
        world_id = (await call_ok(client, "world", {
            "operation": "open", "domain": "terminal",
            "state": "Working folder: /home/dev/site\n/home/dev/site is empty.\n"
                     "The screen shows a fresh prompt: dev@sandbox:~/site$"}))["world_id"]
        first = await call_ok(client, "simulate_action", {"world_id": world_id, "action": "mkdir app", "commit": True,
                                                          **QUICK})
        view = await call_ok(client, "world", {"operation": "get", "world_id": world_id})
        if first["committed"] is False:  # reported, with its reason, and the world is unchanged
            assert any(w.startswith("not committed") for w in first["warnings"]) and view["steps"] == []
            return
        assert first["committed"] is True and len(view["steps"]) == 1
        second = await call_ok(client, "simulate_action", {"world_id": world_id, "action": "touch app/main.py",
                                                           "commit": True, **QUICK})
    # The world knows app/ now (an empty folder the step made in a folder known to be empty): the next step is
    # computed on it, not "corrected" into a failure.
    assert second["effects"]["source"] == "computed" and second["effects"]["success"] is True


async def test_a_folder_outside_what_the_client_may_see_is_refused(tmp_path, server_argv, server_env):
    env = {**server_env, "AGENTWORLD_DATA_DIR": str(tmp_path / "data")}
    async with Client(_params(server_argv, env), mode="legacy", read_timeout_seconds=300) as client:
        error = await call_error(client, "world", {"operation": "open", "domain": "terminal", "from_dir": "/etc"})
    assert "outside the folders this client may snapshot" in error and "--allow-dir" in error


async def test_the_guards_session_world_starts_from_the_hooks_folder(tmp_path, server_argv, server_env):
    project = tmp_path / "project"
    project.mkdir()
    (project / "README.md").write_text("hello\n")
    env = {**server_env, "AGENTWORLD_DATA_DIR": str(tmp_path / "data"), "AGENTWORLD_EFFECTS": "parser"}
    call = {"event": "pre", "tool_name": "Bash", "tool_input": json.dumps({"command": "cat README.md"}),
            "session_id": "snapshot-session", "cwd": str(project)}
    async with Client(_params(server_argv, env), mode="legacy", read_timeout_seconds=300) as client:
        decision = await client.call_tool("guard", call)
        status = json.loads((await client.read_resource("status://server")).contents[0].text)
    assert not decision.is_error
    # The session's world read the folder once; the pre call's outcome was computed from it, no model asked.
    assert status["steps"]["computed"] == 1 and status["steps"]["predicted"] == 0 and status["completed"] == 0


async def test_a_folder_inside_the_clients_declared_roots_may_be_snapshot(tmp_path, server_argv, server_env):
    inside = tmp_path / "root" / "project"
    inside.mkdir(parents=True)
    (inside / "notes.txt").write_text("from the root\n")

    async def roots(_context):
        return types.ListRootsResult(roots=[types.Root(uri=(tmp_path / "root").as_uri(), name="work")])

    env = {**server_env, "AGENTWORLD_DATA_DIR": str(tmp_path / "data")}
    async with Client(_params(server_argv, env), mode="legacy", read_timeout_seconds=300,
                      list_roots_callback=roots) as client:
        step = await call_ok(client, "simulate_action", {"domain": "terminal", "from_dir": str(inside),
                                                         "action": "cat notes.txt", **QUICK})
        outside = await call_error(client, "simulate_action", {"domain": "terminal", "from_dir": str(tmp_path),
                                                               "action": "pwd", **QUICK})
    assert step["effects"]["source"] == "computed" and step["observation"].endswith("from the root\n" +
                                                                                    step["observation"].rsplit("\n", 1)[-1])
    assert "outside the folders this client may snapshot" in outside


async def test_lines_that_once_crashed_the_call_return_a_result(tmp_path, server_argv, server_env):
    """A path under a file (`cat f/g`) made the world record the file as a folder too, and a sed script was read
    as such a path: every later line naming the file failed the tool call. Each call now returns a result,
    and the file is still the file it was."""
    project = tmp_path / "project"
    project.mkdir()
    env = {**server_env, "AGENTWORLD_DATA_DIR": str(tmp_path / "data"), "AGENTWORLD_ALLOW_DIRS": str(tmp_path)}
    async with Client(_params(server_argv, env), mode="legacy", read_timeout_seconds=300) as client:
        world_id = (await call_ok(client, "world", {"operation": "open", "domain": "terminal",
                                                    "from_dir": str(project)}))["world_id"]
        results = [await call_ok(client, "simulate_action", {"world_id": world_id, "action": line, "commit": True,
                                                             **QUICK})
                   for line in ("echo x > f", "cat f/g", "cat f", "echo 1 > s", "sed 's/[0-9]\\+/N/g' s", "cat s")]
    assert all(result["committed"] in (True, False) for result in results)
    assert results[2]["effects"]["source"] == "computed" and "\nx\n" in results[2]["observation"]
    assert results[5]["effects"]["source"] == "computed" and "\n1\n" in results[5]["observation"]
