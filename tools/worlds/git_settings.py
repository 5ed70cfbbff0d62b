"""git's settings on this machine, read for a world that starts from a real folder, without running git.

The files git reads outside a repository (domains/shell/virtual/git_settings.py: /etc/gitconfig, the user's
~/.config/git/config and ~/.gitconfig, and the ignore and attributes files beside them) are read as text, bounded
and redacted as a snapshot's files are: a file over the size bound, binary, unreadable or holding a secret is
present with its content unknown, so git is not computed on a part of it. What is absent is recorded absent.

They are read only where this machine's git is known to read exactly these: a distribution's git (/usr/bin/git,
whose system file is /etc/gitconfig) on Linux, the world's home being this process's HOME, and no variable that
moves or adds settings (GIT_CONFIG_*, GIT_DIR and the like, an XDG_CONFIG_HOME other than ~/.config). Elsewhere
nothing is recorded and the world does not know git's settings: git stays the model's.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import sys
from collections.abc import Mapping

from ...domains.shell.virtual.git_settings import rule_files, setting_files
from ..data.redaction import Redactor
from ..limits import SnapshotBounds

_GIT = ("/usr/bin/git", "/bin/git")
# Variables that only reach git's transports (certificates, proxies, prompts for credentials, ssh).
_TRANSPORT = ("GIT_SSL_", "GIT_HTTP_", "GIT_PROXY_", "GIT_SSH", "GIT_ASKPASS", "GIT_TERMINAL_PROMPT", "GIT_CURL_")


def machine_problem(home: str, environ: Mapping[str, str], git: str | None) -> str | None:
    """Why this machine's git may read other settings than the files named (None where it reads those)."""
    if not sys.platform.startswith("linux") or git not in _GIT:
        return "git is not a Linux distribution's /usr/bin/git: where it reads its system settings is not known"
    if os.path.normpath(environ.get("HOME", "")) != home:
        return "the world's home is not this process's HOME"
    if any(name.startswith("GIT_") and not name.startswith(_TRANSPORT) for name in environ):
        return "a GIT_* variable may move or add git's settings"
    if environ.get("XDG_CONFIG_HOME", "") not in ("", posixpath.join(home, ".config")):
        return "XDG_CONFIG_HOME moves git's user settings"
    return None


def read_git_settings(home: str, bounds: SnapshotBounds = SnapshotBounds(),
                      environ: Mapping[str, str] | None = None, git: str | None = None) -> dict[str, str | None] | None:
    """Each settings file that is there (absolute path -> text; None: present, its content unknown), the absent
    ones left out; None where the machine's git may read others (machine_problem)."""
    environ = os.environ if environ is None else environ
    git = shutil.which("git", path=environ.get("PATH")) if git is None else git
    if machine_problem(home, environ, git):
        return None
    found: dict[str, str | None] = {}
    redactor = Redactor()
    for path in (*setting_files(home), *rule_files(home)):
        if not os.path.lexists(path):
            continue
        found[path] = _text(path, bounds, redactor)
    return found


def _text(path: str, bounds: SnapshotBounds, redactor: Redactor) -> str | None:
    """The file's text as git would read it (through a link, as git follows one), or None where it is no plain text
    within the bound, or held a secret."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > bounds.max_file_bytes:
            return None
        with open(path, "rb") as file:
            text = file.read(bounds.max_file_bytes + 1).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if "\0" in text or len(text.encode()) > bounds.max_file_bytes:
        return None
    redacted, secrets = redactor.redact(text)
    return None if secrets else redacted
