"""`agentworld-mcp hook install|uninstall --host HOST`: the installed program writes each host's settings file into a
throwaway home and project folder, tries the hook through the command it wrote, and uninstall gives the file back
byte for byte; a file it cannot read is refused untouched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = Path(sys.executable).parent / "agentworld-mcp"  # the venv's own, as a user runs it
FILES = {"claude-code": ".claude/settings.json", "cursor": ".cursor/hooks.json", "gemini": ".gemini/settings.json",
         "codex": ".codex/hooks.json"}
EVENTS = {"claude-code": {"PreToolUse": "Bash|Write|Edit|MultiEdit|NotebookEdit|Read|mcp__.*"},
          "cursor": {"beforeShellExecution": None, "beforeMCPExecution": None},
          "gemini": {"BeforeTool": "run_shell_command|write_file|replace"}, "codex": {"PreToolUse": "Bash|apply_patch"}}
FORMATS = {"claude-code": "claude-code", "cursor": "cursor", "gemini": "gemini", "codex": "claude-code"}
# What each host sends before a shell command, and where its answer says "deny".
PAYLOADS = {"claude-code": lambda command: {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": "/tmp"},
            "cursor": lambda command: {"command": command, "cwd": "/tmp"},
            "gemini": lambda command: {"tool_name": "run_shell_command", "tool_input": {"command": command}},
            "codex": lambda command: {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": "/tmp"}}
DENIED = {"claude-code": lambda reply: reply["hookSpecificOutput"]["permissionDecision"] == "deny",
          "cursor": lambda reply: reply["permission"] == "deny", "gemini": lambda reply: reply["decision"] == "deny",
          "codex": lambda reply: reply["hookSpecificOutput"]["permissionDecision"] == "deny"}


@pytest.fixture
def places(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "CODEX_HOME"}
    return home, project, {**env, "HOME": str(home), "AGENTWORLD_HOOK_DAEMON": "0"}


def _run(places, *arguments: str, program: tuple[str, ...] = (str(PROGRAM),)) -> subprocess.CompletedProcess:
    _, project, env = places
    done = subprocess.run([*program, "hook", *arguments], cwd=project, env=env, capture_output=True, text=True,
                          timeout=300)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def _ours(host: str, command: str) -> list[dict]:
    """What install must have put in each event: the handler, with its matcher where the host nests them."""
    handler = {"type": "command", "command": command} if host != "cursor" else {"command": command}
    return [{"matcher": matcher, "hooks": [handler]} if host != "cursor" else handler
            for matcher in EVENTS[host].values()]


def _entries(document: dict, host: str) -> list[dict]:
    return [entry for event in EVENTS[host] for entry in document["hooks"][event]
            if " hook --event pre " in json.dumps(entry)]


@pytest.mark.parametrize("host", FILES)
@pytest.mark.parametrize("scope", ["--project", "--user"])
def test_install_writes_the_hosts_file_tries_it_and_uninstall_removes_what_it_created(places, host, scope):
    home, project, env = places
    path = (home if scope == "--user" else project) / FILES[host]
    installed = _run(places, "install", "--host", host, scope)
    assert installed.returncode == 0, installed.stderr
    command = f"{PROGRAM} hook --event pre --format {FORMATS[host]}"
    document = json.loads(path.read_text())
    assert _entries(document, host) == _ours(host, command)
    assert set(document["hooks"]) == set(EVENTS[host]) and document.get("version") == (1 if host == "cursor" else None)
    assert "`ls -la` -> no decision" in installed.stdout and "`rm -rf /` -> deny (" in installed.stdout
    assert not path.with_name(path.name + ".agentworld-backup").exists()  # there was nothing to keep

    # The command in the file, run as the host runs it (a shell), blocks what the host would send.
    hook = subprocess.run(command, shell=True, input=json.dumps(PAYLOADS[host]("rm -rf ~")), capture_output=True,
                          text=True, timeout=120, env=env)
    assert DENIED[host](json.loads(hook.stdout)), hook.stdout

    written = path.read_bytes()
    again = _run(places, "install", "--host", host, scope)
    assert again.returncode == 0 and "already runs the guard" in again.stdout
    assert path.read_bytes() == written  # once is enough: no second entry

    removed = _run(places, "uninstall", "--host", host, scope)
    assert removed.returncode == 0, removed.stderr
    assert not path.exists() and not path.parent.exists()  # the folder install made, left empty, goes too
    assert list(project.iterdir()) == [] and list(home.iterdir()) == []
    nothing = _run(places, "uninstall", "--host", host, scope)
    assert nothing.returncode == 0 and "nothing was changed" in nothing.stdout


def _existing(host: str) -> dict:
    """A user's settings: another hook in the same event, other events, other keys."""
    theirs = {"type": "command", "command": "/usr/local/bin/audit-log --pre"}
    nested = host != "cursor"
    first_event = next(iter(EVENTS[host]))
    return {**({"version": 1} if host == "cursor" else {"model": "opus", "permissions": {"allow": ["Bash(ls:*)"]}}),
            "hooks": {first_event: [{"matcher": "Bash", "hooks": [theirs]} if nested
                                    else {"command": theirs["command"]}],
                      "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]},
            "theme": "dark"}


@pytest.mark.parametrize("host", FILES)
def test_install_keeps_the_users_settings_and_uninstall_gives_the_file_back_byte_for_byte(places, host):
    _, project, _ = places
    path = project / FILES[host]
    path.parent.mkdir()
    original = (json.dumps(_existing(host), indent=4) + "\n\n").encode()  # their formatting, not ours
    path.write_bytes(original)
    path.chmod(0o640)

    assert _run(places, "install", "--host", host).returncode == 0
    document = json.loads(path.read_text())
    before = _existing(host)
    for event, entries in before["hooks"].items():
        assert document["hooks"][event][:len(entries)] == entries  # theirs first, untouched
    assert {key: value for key, value in document.items() if key != "hooks"} == \
        {key: value for key, value in before.items() if key != "hooks"}
    command = f"{PROGRAM} hook --event pre --format {FORMATS[host]}"
    assert _entries(document, host) == _ours(host, command)
    backup = path.with_name(path.name + ".agentworld-backup")
    assert backup.read_bytes() == original and path.stat().st_mode & 0o777 == 0o640

    written = path.read_bytes()
    assert _run(places, "install", "--host", host).returncode == 0
    assert path.read_bytes() == written and backup.read_bytes() == original

    assert _run(places, "uninstall", "--host", host).returncode == 0
    assert path.read_bytes() == original and not backup.exists()


def test_uninstall_after_the_user_changed_the_file_keeps_their_change_and_takes_out_only_the_guard(places):
    _, project, _ = places
    path = project / FILES["claude-code"]
    path.parent.mkdir()
    path.write_text(json.dumps(_existing("claude-code")))
    assert _run(places, "install", "--host", "claude-code").returncode == 0
    changed = json.loads(path.read_text()) | {"added_later": True}
    path.write_text(json.dumps(changed))
    assert _run(places, "uninstall", "--host", "claude-code").returncode == 0
    assert json.loads(path.read_text()) == _existing("claude-code") | {"added_later": True}


def test_an_install_elsewhere_replaces_the_entry_of_another_program_path(places):
    """A reinstall from another place (a venv, then uv tool) leaves one entry, with the new program."""
    _, project, _ = places
    path = project / FILES["gemini"]
    assert _run(places, "install", "--host", "gemini", program=(sys.executable, "-m", "agentworld_mcp")).returncode == 0
    assert _entries(json.loads(path.read_text()), "gemini") == \
        _ours("gemini", f"{sys.executable} -m agentworld_mcp hook --event pre --format gemini")
    assert _run(places, "install", "--host", "gemini").returncode == 0
    assert _entries(json.loads(path.read_text()), "gemini") == \
        _ours("gemini", f"{PROGRAM} hook --event pre --format gemini")
    assert _run(places, "uninstall", "--host", "gemini").returncode == 0
    assert not path.exists()


@pytest.mark.parametrize("content, readable", [(b'{"hooks": {"PreToolUse": [}', False), (b"[1, 2]", False),
                                               (b"\xff\xfe{", False), (b'{"hooks": []}', True)])
def test_a_settings_file_it_cannot_read_is_refused_in_one_line_and_left_as_it_is(places, content, readable):
    _, project, _ = places
    path = project / FILES["claude-code"]
    path.parent.mkdir()
    path.write_bytes(content)
    for action in ("install", "uninstall"):
        done = _run(places, action, "--host", "claude-code")
        if action == "uninstall" and readable:  # JSON it can read, with nothing of the guard's in it
            assert done.returncode == 0 and "nothing was changed" in done.stdout
        else:
            assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
            assert str(path) in done.stderr and done.stdout == ""
        assert path.read_bytes() == content and sorted(path.parent.iterdir()) == [path]


def test_an_unknown_host_is_one_line_and_exit_2(places):
    done = _run(places, "install", "--host", "vim")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "invalid choice: 'vim'" in done.stderr and "claude-code" in done.stderr
    assert list(places[1].iterdir()) == []


def test_the_guides_install_line_prints_what_the_guide_shows(places):
    """docs/guides/guard.md's "Start here": its install line, run in a fresh project, prints the text under it
    (with the guide's placeholders for the project folder and the program)."""
    from ..doc_examples import ROOT, blocks, shell_lines

    guide = blocks(ROOT / "docs" / "guides" / "guard.md")
    line = next(block for block in guide if block.language == "sh" and "hook install" in block.text)
    shown = next(block for block in guide if block.line > line.line and block.language == "text")
    words = shell_lines(line.text)[0].split()
    assert words[:2] == ["agentworld-mcp", "hook"]
    done = _run(places, *words[2:])
    assert done.returncode == 0, done.stderr
    printed = done.stdout.replace(str(places[1]), "/home/you/project").replace(str(PROGRAM),
                                                                               "/home/you/.local/bin/agentworld-mcp")
    assert printed == shown.text
