"""Every edit tool a host ships is checked as Write and Edit are (tools/guard/host_actions.py): Claude Code's MultiEdit
and NotebookEdit, Codex's apply_patch (a deleted file or a move over changed work is a loss), and the hooks that
install writes reach them. An MCP server's file tools (the reference filesystem server's write_file, edit_file,
move_file) get the irreversible-loss rule: they keep no checkpoint, as the host's own tools do.
"""

from __future__ import annotations

import re

import pytest

from agentworld_mcp.server.hosts.install import HOSTS
from agentworld_mcp.tools.guard.host_actions import host_action

from ..hook_calls import git_project, verdict

LOSS = "no-irreversible-loss"


@pytest.fixture()
def project(tmp_path):
    return git_project(tmp_path / "project", {"clean.py": "x = 1\n", "notes.md": "n\n", "book.ipynb": "{}\n",
                                              "docs/old.md": "old\n"},
                       {"changed.py": "draft\n", "clean.py": "x = 1\n", "untracked.md": "mine\n"})


def _patch(*sections: str) -> str:
    return "\n".join(["*** Begin Patch", *sections, "*** End Patch"])


@pytest.mark.parametrize(("patch", "rule"), [
    (_patch("*** Delete File: untracked.md"), LOSS),  # git holds no copy
    (_patch("*** Delete File: changed.py"), LOSS),
    (_patch("*** Update File: notes.md", "*** Move to: changed.py", "@@", "-n", "+m"), LOSS),  # moved over work
    (_patch("*** Add File: untracked.md", "+over"), LOSS),  # an added file over one that is there
    (_patch("*** Add File: /etc/motd", "+hi"), "no-overwrite-outside-workspace"),
    (_patch("*** Delete File: /srv/app/config.yml"), "no-delete-outside-workspace"),
])
def test_an_apply_patch_that_loses_work_is_stopped(project, patch, rule):
    for key in ("command", "input"):  # Codex's hook sends `command`; its rollouts keep the tool's `input`
        result = verdict(project, {key: patch}, "apply_patch")
        assert result["decision"] != "none" and rule in result["rules"], (patch, result)


@pytest.mark.parametrize("patch", [
    _patch("*** Delete File: clean.py"),  # committed and unchanged: git checkout brings it back
    _patch("*** Add File: src/new.py", "+x = 2"),
    _patch("*** Update File: changed.py", "@@", "-draft", "+final"),  # an edit in place, as the host's Edit
    _patch("*** Update File: notes.md", "*** Move to: docs/notes.md", "@@", "-n", "+m"),
])
def test_an_apply_patch_that_keeps_everything_passes(project, patch):
    result = verdict(project, {"command": patch}, "apply_patch")
    assert result["decision"] == "none", result


def test_a_patch_naming_no_file_is_no_action():
    assert host_action("apply_patch", {"command": "*** Begin Patch\n*** End Patch"}) is None


@pytest.mark.parametrize(("tool", "tool_input", "rule"), [
    ("MultiEdit", {"file_path": "/etc/hosts", "edits": [{"old_string": "a", "new_string": "b"},
                                                        {"old_string": "c", "new_string": "d"}]},
     "no-overwrite-outside-workspace"),
    ("MultiEdit", {"file_path": "/etc/cron.d/job", "edits": [{"old_string": "", "new_string": "* * * * * x"}]},
     "no-overwrite-outside-workspace"),  # an empty first old_string creates the file
    ("NotebookEdit", {"notebook_path": "/srv/shared/analysis.ipynb", "cell_id": "c1", "new_source": "x = 1"},
     "no-overwrite-outside-workspace"),
    ("NotebookEdit", {"notebook_path": "/srv/shared/analysis.ipynb", "cell_id": "c1", "edit_mode": "delete"},
     "no-overwrite-outside-workspace"),
])
def test_claude_codes_other_edit_tools_are_checked_like_edit(project, tool, tool_input, rule):
    result = verdict(project, tool_input, tool)
    assert result["decision"] != "none" and rule in result["rules"], result


def test_claude_codes_other_edit_tools_inside_the_folder_pass(project):
    for tool, tool_input in (
            ("MultiEdit", {"file_path": str(project / "changed.py"), "edits": [{"old_string": "draft",
                                                                                "new_string": "done"}]}),
            ("NotebookEdit", {"notebook_path": str(project / "book.ipynb"), "cell_id": "c0", "new_source": "1"})):
        result = verdict(project, tool_input, tool)
        assert result["decision"] == "none", (tool, result)
        assert host_action(tool, tool_input) is not None


def test_the_hooks_install_writes_reach_every_edit_tool():
    """Each host's matcher (a regex on the tool's whole name) covers its edit tools, so the guard is asked."""
    edit_tools = {"claude-code": ["Write", "Edit", "MultiEdit", "NotebookEdit"], "codex": ["apply_patch"],
                  "gemini": ["write_file", "replace"]}
    for host, tools in edit_tools.items():
        matchers = [matcher for _, matcher in HOSTS[host].events if matcher]
        for tool in tools:
            assert any(re.fullmatch(matcher, tool) for matcher in matchers), (host, tool)


@pytest.mark.parametrize(("tool", "arguments"), [
    ("mcp__filesystem__write_file", {"path": "untracked.md", "content": "over"}),
    ("mcp__filesystem__write_file", {"path": "changed.py", "content": "over"}),
    ("mcp__filesystem__move_file", {"source": "notes.md", "destination": "changed.py"}),
    ("mcp__files__delete_file", {"path": "untracked.md"}),
])
def test_an_mcp_file_tool_that_loses_work_is_asked_about(project, tool, arguments):
    result = verdict(project, arguments, tool)  # (a tool named to delete is denied by no-destructive-tools too)
    assert result["decision"] in ("ask", "deny") and LOSS in result["rules"], result
    assert "untracked" in result["reason"] or "uncommitted" in result["reason"], result["reason"]


@pytest.mark.parametrize(("tool", "arguments"), [
    ("mcp__filesystem__write_file", {"path": "clean.py", "content": "x = 2\n"}),  # git keeps the old text
    ("mcp__filesystem__write_file", {"path": "src/brand_new.py", "content": "x = 1\n"}),
    ("mcp__filesystem__edit_file", {"path": "changed.py", "edits": [{"oldText": "draft", "newText": "done"}]}),
    ("mcp__filesystem__move_file", {"source": "notes.md", "destination": "docs/notes.md"}),
])
def test_an_mcp_file_tool_that_keeps_everything_passes(project, tool, arguments):
    assert verdict(project, arguments, tool)["decision"] == "none"
