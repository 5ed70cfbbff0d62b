"""A world from a real folder knows git's settings files as the machine holds them (tools/worlds/git_settings.py),
bounded and redacted as a snapshot's files are, and the virtual git computes only where every setting is one it
follows (domains/shell/virtual/git_settings.py): an unknown, unreadable or unfollowed file leaves git to the model."""

from __future__ import annotations

import pytest

from agentworld_mcp.domains.shell.virtual.gate import NotComputable
from agentworld_mcp.domains.shell.virtual.git_settings import honoured
from agentworld_mcp.tools.limits import SnapshotBounds
from agentworld_mcp.tools.worlds.folder_snapshot import FolderSnapshot
from agentworld_mcp.tools.worlds.git_settings import read_git_settings

IDENTITY = "[user]\n\tname = Dev\n\temail = dev@example.com\n"


def _home(tmp_path, gitconfig: str | None = IDENTITY, xdg: str | None = None):
    home = tmp_path / "home"
    (home / "project").mkdir(parents=True)
    if gitconfig is not None:
        (home / ".gitconfig").write_text(gitconfig)
    if xdg is not None:
        (home / ".config" / "git").mkdir(parents=True)
        (home / ".config" / "git" / "config").write_text(xdg)
    return home


def _read(home, **environ):
    return read_git_settings(str(home), SnapshotBounds(max_file_bytes=4096),
                             {"HOME": str(home), "PATH": "/usr/bin", **environ}, "/usr/bin/git")


def _world(home, settings):
    """The world a snapshot of the home's empty project starts: its shell."""
    root = str(home / "project")
    return FolderSnapshot(root, str(home), "dev", folders={"": True}, git_settings=settings).shell()


def _git_status_after_init(shell) -> str:
    shell.accept(shell.compute("git init -q"))
    return shell.compute("git status").stdout


def test_the_users_settings_are_read_and_followed(tmp_path):
    home = _home(tmp_path, IDENTITY + "[init]\n\tdefaultBranch = trunk\n", xdg="[alias]\n\tst = status\n")
    settings = _read(home)
    assert settings is not None and settings[str(home / ".gitconfig")].startswith("[user]")
    settings.pop("/etc/gitconfig", None)  # (this machine's own, if any: the world is told there is none)
    assert _git_status_after_init(_world(home, settings)).startswith("On branch trunk\n")


def test_a_home_without_settings_is_known_to_hold_none(tmp_path):
    home = _home(tmp_path, gitconfig=None)
    settings = {path: text for path, text in (_read(home) or {}).items() if path != "/etc/gitconfig"}
    assert settings == {}
    assert _git_status_after_init(_world(home, settings)).startswith("On branch master\n")


@pytest.mark.parametrize("environ", [{"GIT_CONFIG_GLOBAL": "/elsewhere"}, {"GIT_DIR": "/x/.git"},
                                     {"XDG_CONFIG_HOME": "/elsewhere"}, {"GIT_CONFIG_COUNT": "1"}])
def test_variables_that_move_gits_settings_leave_them_unread(tmp_path, environ):
    assert _read(_home(tmp_path), **environ) is None


def test_transport_variables_do_not(tmp_path):
    assert _read(_home(tmp_path), GIT_SSL_CAINFO="/etc/ssl/certs/ca.crt") is not None


def test_another_git_or_another_home_leaves_them_unread(tmp_path):
    home = _home(tmp_path)
    assert read_git_settings(str(home), environ={"HOME": str(home)}, git="/usr/local/bin/git") is None
    assert read_git_settings(str(home), environ={"HOME": "/root"}, git="/usr/bin/git") is None


@pytest.mark.parametrize("text", [
    IDENTITY + "[credential]\n\tpassword = hunter2-not-a-word\n",  # a secret: redacted, so not read at all
    IDENTITY + "# " + "x" * 5000 + "\n",  # over the size bound
])
def test_a_file_held_back_is_present_with_its_content_unknown(tmp_path, text):
    home = _home(tmp_path, text)
    settings = _read(home)
    assert settings is not None and settings[str(home / ".gitconfig")] is None
    with pytest.raises(NotComputable, match="does not know what"):
        _world(home, settings).compute("git init -q")


@pytest.mark.parametrize("text", [
    IDENTITY + "[core]\n\tpager = less\n", IDENTITY + "[include]\n\tpath = ~/.more\n", "[user\n",
    IDENTITY + "[color]\n\tui = always\n", IDENTITY + "[init]\n\tdefaultBranch = -x\n",
    IDENTITY + '[includeIf "gitdir:~/work/"]\n\tpath = ~/.work\n', IDENTITY + "[status]\n\tshort = true\n"])
def test_settings_the_virtual_git_does_not_follow_leave_git_to_the_model(tmp_path, text):
    home = _home(tmp_path, text)
    with pytest.raises(NotComputable, match="git"):
        _world(home, _read(home)).compute("git init -q")


def test_a_snapshot_that_did_not_read_them_knows_nothing_of_them(tmp_path):
    home = _home(tmp_path, gitconfig=None)
    with pytest.raises(NotComputable, match="/etc/gitconfig"):  # not even the system's file is assumed absent
        _world(home, None).compute("git init -q")


def test_the_snapshot_keeps_what_it_read():
    snapshot = FolderSnapshot("/home/dev/p", "/home/dev", "dev", git_settings={"/home/dev/.gitconfig": IDENTITY})
    assert FolderSnapshot.from_json(snapshot.as_json()).git_settings == {"/home/dev/.gitconfig": IDENTITY}
    old = {key: value for key, value in snapshot.as_json().items() if key != "git_settings"}
    assert FolderSnapshot.from_json(old).git_settings is None  # a world stored before: its settings unknown


@pytest.mark.parametrize(("key", "followed"), [
    ("user.name", True), ("alias.st", True), ("credential.https://x.helper", True), ("filter.lfs.clean", True),
    ("core.pager", False), ("diff.renames", False), ("include.path", False), ("color.status.added", False),
    ("advice.statushints", False), ("core.excludesfile", False)])
def test_which_keys_are_followed(key, followed):
    assert (honoured(key) is None) is followed


def test_a_line_that_writes_the_settings_and_runs_git_is_the_models(tmp_path):
    home = _home(tmp_path)
    shell = _world(home, {path: text for path, text in _read(home).items() if path != "/etc/gitconfig"})
    with pytest.raises(NotComputable, match="names a file of git's settings"):
        shell.compute("echo '[core]' >> ~/.gitconfig && git init -q")
