"""The git configuration outside a repository that the virtual git (git.py) honours, read from the world's record.

git reads, in order, the system's file (/etc/gitconfig), the user's XDG file (~/.config/git/config) and the
user's own (~/.gitconfig), a later value winning; then the repository's (.git/config, which the world's record of
a repository it saw made holds: knowledge.GitRepository.config). The world knows these files as it knows any file:
a snapshot of a real folder reads them from the real machine (tools/worlds/git_settings.py), a computed step may
write them, anything else makes them unknown. A world the model imagines has no system file (exactly(), in
shell.py). ~/.config/git/ignore and ~/.config/git/attributes, read by default beside them, must hold no rules.

Git is computed only where every setting these files make is one the virtual git is proven to honour
(tests/integration/test_computed_git_settings.py runs real git in a home holding them): the identity, the initial
branch's name, and settings the documentation gives to commands or cases the virtual git never runs (aliases, which
never hide a built-in command; remotes, credentials and transports; pulling, pushing, rebasing, merging; signing
keys when nothing signs; a driver that only an attributes file would name). Anything else (include, includeIf,
core.pager, core.excludesFile, color that is forced, diff and status settings, hooks, templates) is the model's.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..programs.git_config import ConfigUnreadable, boolean, entries
from ..world.knowledge import Knowledge, under
from .git_tree import Refused

SYSTEM_CONFIG = "/etc/gitconfig"  # where a distribution's git (/usr/bin/git) reads the system's settings
# A name or address git stores and uses as typed: no option-like start, no edge spaces, no "crud" alone.
IDENTITY = re.compile(r"(?=.*[A-Za-z0-9])[\w@+.][\w .@+-]*(?<! )")
BRANCH = re.compile(r"(?!HEAD$)[A-Za-z0-9][A-Za-z0-9_-]*(?:/[A-Za-z0-9][A-Za-z0-9_-]*)*")


def setting_files(home: str) -> tuple[str, ...]:
    """The files git reads its settings from, in the order it reads them (a later value wins)."""
    return SYSTEM_CONFIG, posixpath.join(home, ".config/git/config"), posixpath.join(home, ".gitconfig")


def rule_files(home: str) -> tuple[str, ...]:
    """The user's ignore and attributes files git reads by default (core.excludesFile, core.attributesFile)."""
    return posixpath.join(home, ".config/git/ignore"), posixpath.join(home, ".config/git/attributes")


def _boolean(value: str | None) -> bool:
    try:
        boolean(value)
    except ConfigUnreadable:
        return False
    return True


def _one_of(*words: str) -> Callable[[str | None], bool]:
    return lambda value: value is not None and value.lower() in words


def _any(value: str | None) -> bool:
    return True


# section -> name -> which values are honoured (section and name lower-cased, as git compares them).
_NAMED: dict[str, dict[str, Callable[[str | None], bool]]] = {
    "user": {"name": lambda value: bool(value and IDENTITY.fullmatch(value)),
             "email": lambda value: bool(value and IDENTITY.fullmatch(value)),
             "signingkey": _any, "useconfigonly": _boolean},  # (only a commit without an identity reads the last)
    "init": {"defaultbranch": lambda value: bool(value and BRANCH.fullmatch(value))},
    # The editor is not run for `commit -m`; modes are never changed by a computed step (a chmod drops the record);
    # the rest are the defaults on Linux (no conversion of line ends, names compared as bytes and quoted).
    "core": {"editor": _any, "filemode": _boolean, "symlinks": _boolean, "precomposeunicode": _boolean,
             "autocrlf": _one_of("false", "no", "off", "0"), "ignorecase": _one_of("false", "no", "off", "0"),
             "quotepath": _one_of("true", "yes", "on", "1"), "askpass": _any, "sshcommand": _any},
    # Colour only where output goes to a terminal (never in a pipe), and a terminal's screen is its text.
    "color": {name: _one_of("auto", "true", "false", "never", "yes", "no", "on", "off")
              for name in ("ui", "status", "diff", "branch", "interactive", "grep", "showbranch", "decorate")},
    "commit": {"gpgsign": _one_of("false", "no", "off", "0")},
    "push": {"default": _one_of("nothing", "matching", "simple", "upstream", "tracking", "current"),
             "autosetupremote": _boolean, "followtags": _boolean},
    "gpg": {"format": _one_of("openpgp", "x509", "ssh"), "program": _any},
    "rerere": {"enabled": _boolean, "autoupdate": _boolean},
}
# Sections whose every variable configures a command or a case the virtual git never runs.
_ELSEWHERE = frozenset({"alias", "credential", "http", "url", "pull", "fetch", "rebase", "difftool", "mergetool",
                        "help", "safe", "sendemail", "github", "gitlab", "lfs", "gui", "tag"})
# Drivers: run only for paths an attributes file gives them (`*.bin filter=lfs`).
_DRIVERS = frozenset({"filter", "diff", "merge"})


def honoured(key: str) -> str | None:
    """None where the virtual git honours what `key` may hold, else why not (a setting's value is checked apart)."""
    section, _, rest = key.partition(".")
    subsection, _, name = rest.rpartition(".")
    if section in _DRIVERS and subsection:
        return None
    if section == "merge" or section in _ELSEWHERE:
        return None
    if name in _NAMED.get(section, {}) and not subsection:
        return None
    return f"git configured with {key[:60]}: the virtual git does not follow it"


@dataclass(frozen=True)
class UserSettings:
    """What the files outside the repository set that the virtual git reads: each variable's last value."""

    values: dict[str, str | None] = field(default_factory=dict)

    @property
    def default_branch(self) -> str:
        return self.values.get("init.defaultbranch") or "master"

    @property
    def drivers(self) -> bool:
        """Whether a driver is configured: an attributes file that names it would run it."""
        return any(key.partition(".")[0] in _DRIVERS and key.count(".") >= 2 for key in self.values)


def read_settings(known: Knowledge) -> UserSettings:
    """The settings that apply, or Refused where a file is unknown, unreadable, or sets what is not honoured."""
    values: dict[str, str | None] = {}
    for path in setting_files(known.home):
        status = known.status(path)
        if status == "absent":
            continue
        content = known.files.get(path)
        if status == "unknown" or content is None:
            raise Refused(f"git where the world does not know what {path} holds")
        try:
            found = entries(content.decode("utf-8"))
        except (ConfigUnreadable, UnicodeDecodeError) as error:
            raise Refused(f"git with {path} that git may refuse to read ({error})") from None
        for key, value in found:
            if problem := honoured(key):
                raise Refused(problem)
            checks = _NAMED.get(key.partition(".")[0], {})
            name = key.rpartition(".")[2]
            if name in checks and key.count(".") == 1 and not checks[name](value):
                raise Refused(f"git configured with {key} = {str(value)[:30]!r}: a value not proven")
            values[key] = value
    for path in rule_files(known.home):
        if known.status(path) == "absent":
            continue
        content = known.files.get(path)
        if content is None or any(line.strip() and not line.lstrip().startswith(b"#")
                                  for line in content.split(b"\n")):
            raise Refused(f"git with rules in {path}, or ones the world does not know")
    return UserSettings(values)


def settings_problem(known: Knowledge, named: Iterable[str]) -> str | None:
    """Why git is not computed in this world's surroundings: settings not known or not honoured, a variable that
    changes where git looks, or a line that names a settings file (git may read it before or after the change)."""
    if any(name.startswith("GIT_") or name == "XDG_CONFIG_HOME" for name in known.exported):
        return "git with a GIT_* or XDG_CONFIG_HOME variable exported: it changes where git looks and what it reads"
    files = (*setting_files(known.home), *rule_files(known.home))
    if any(under(path, (posixpath.normpath(name),)) for name in named for path in files):
        return "git in a line that names a file of git's settings"
    try:
        read_settings(known)
    except Refused as refusal:
        return str(refusal)
    return None
