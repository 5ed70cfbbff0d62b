"""Git sessions in a home whose git settings are drawn: the input of test_computed_git_settings.py.

Each session is a generated git session (tests/git_lines.py) whose first lines write the user's settings
(~/.gitconfig, ~/.config/git/config, sometimes ~/.config/git/ignore) with printf, so that real git reads the very
bytes the world knows. The settings are drawn from git-config(1): what the virtual git honours (identity,
init.defaultBranch, aliases, remotes, credentials, pulling and pushing, drivers, colour left to the terminal)
and what it must refuse (core.pager, forced colour, status and diff settings, includes, advice, odd values),
written in the syntax's forms (any case, subsections old and new, quotes, escapes, comments, continued lines,
bare booleans). Sessions sometimes drop the repository's own identity, so that the user's settings supply it,
and sometimes rewrite the settings between steps, or in the line that runs git.
"""

from __future__ import annotations

import random
import shlex

from .git_lines import scenario as git_scenario
from .shell_lines import Scenario

# (section, subsection or None, name, value; None: the bare name, the boolean true). No setting may make the real
# git wait at its terminal: an editor that returns at once, no prompt to correct a verb.
HONOURED = (
    ("user", None, "name", "Dev Eloper"), ("user", None, "email", "dev@example.com"), ("user", None, "name", "Dev"),
    ("user", None, "email", "d.e+git@host.example"), ("init", None, "defaultBranch", "main"),
    ("init", None, "defaultBranch", "trunk"), ("init", None, "defaultBranch", "feature/x-1"),
    ("init", None, "defaultBranch", "master"), ("alias", None, "st", "status -s"), ("alias", None, "status", "log"),
    ("alias", None, "ci", "!echo hi"), ("core", None, "editor", "true"), ("core", None, "autocrlf", "false"),
    ("core", None, "fileMode", "true"), ("core", None, "fileMode", None), ("core", None, "ignoreCase", "false"),
    ("core", None, "quotePath", "on"), ("color", None, "ui", "auto"), ("color", None, "ui", "true"),
    ("color", None, "status", "never"), ("push", None, "default", "simple"), ("push", None, "autoSetupRemote", "yes"),
    ("pull", None, "rebase", "true"), ("fetch", None, "prune", "true"), ("rebase", None, "autoStash", "1"),
    ("merge", None, "conflictStyle", "diff3"), ("credential", None, "helper", "store"),
    ("credential", "https://example.com", "username", "dev"), ("url", "git@github.com:", "insteadOf", "gh:"),
    ("http", None, "postBuffer", "524288000"), ("safe", None, "directory", "*"), ("gpg", None, "format", "ssh"),
    ("user", None, "signingKey", "~/.ssh/id.pub"), ("commit", None, "gpgSign", "false"),
    ("rerere", None, "enabled", "true"), ("help", None, "autocorrect", "0"),
    ("filter", "lfs", "clean", "git-lfs clean -- %f"), ("filter", "lfs", "required", "true"),
    ("filter", "lfs", "process", "git-lfs filter-process"), ("diff", "bin", "textconv", "hexdump -v -C"),
    ("merge", "ours", "driver", "true"), ("github", None, "user", "dev"), ("tag", None, "sort", "version:refname"),
)
REFUSED = (
    ("core", None, "pager", "cat"), ("core", None, "excludesFile", "~/.gitignore_global"),
    ("core", None, "autocrlf", "true"), ("color", None, "ui", "always"), ("color", None, "status", "always"),
    ("status", None, "short", "true"), ("status", None, "showUntrackedFiles", "no"), ("status", None, "branch", "1"),
    ("advice", None, "statusHints", "false"), ("include", None, "path", "~/.more"), ("diff", None, "renames", "copies"),
    ("init", None, "defaultBranch", "-x"), ("init", None, "defaultBranch", "HEAD"), ("init", None, "defaultBranch", ""),
    ("user", None, "name", " "), ("user", None, "email", ""), ("user", None, "name", None),
    ("push", None, "default", "everything"), ("core", None, "fileMode", "maybe"), ("commit", None, "gpgSign", "true"),
    ("init", None, "templateDir", "/nowhere"), ("core", None, "hooksPath", "/nowhere"),
    ("branch", "main", "remote", "origin"), ("color", "status", "added", "green"), ("column", None, "ui", "always"),
)
IGNORE_TEXTS = ("", "# nothing\n", "*.log\n")


def scenario(seed: int) -> Scenario:
    made = git_scenario(seed)
    rng = random.Random(f"settings {seed}")
    if rng.random() < 0.6:  # the identity from the user's settings alone
        made.lines = [line for line in made.lines if not line.startswith("git config user.")]
    written = []
    for where in rng.sample(["~/.gitconfig", "~/.config/git/config"], rng.randint(1, 2)):
        written.append(writing(settings_text(rng), where))
    if rng.random() < 0.15:
        written.append(writing(rng.choice(IGNORE_TEXTS), "~/.config/git/ignore"))
    if any("~/.config/" in line for line in written):
        written.insert(0, "mkdir -p ~/.config/git")
    if rng.random() < 0.15:
        made.files[".gitattributes"] = rng.choice([b"*.txt filter=lfs\n", b"*.md diff=bin\n", b"# none\n"])
    lines = written + made.lines
    if rng.random() < 0.3:  # settings rewritten between steps, or by the line that runs git
        at = rng.randint(len(written), len(lines))
        change = writing(settings_text(rng), rng.choice(["~/.gitconfig", "~/.config/git/config"]), append=True)
        lines.insert(at, rng.choice([change, f"{change} && git status", f"{change}; git init -q", "rm -f ~/.gitconfig",
                                     "rm -rf ~/.config && git status -s"]))
    made.lines = lines
    return made


def settings_text(rng: random.Random) -> str:
    """A settings file: entries drawn (mostly honoured), grouped under headers written in git's various forms."""
    chosen = rng.sample(HONOURED, rng.randint(0, 6))
    if rng.random() < 0.4:  # the initial branch's name shows in every long status
        chosen.append(rng.choice([entry for entry in HONOURED if entry[2] == "defaultBranch"]))
    if rng.random() < 0.25:
        chosen.append(rng.choice(REFUSED))
    rng.shuffle(chosen)
    text = "# drawn settings\n" if rng.random() < 0.3 else ""
    for section, subsection, name, value in chosen:
        text += header(rng, section, subsection) + variable(rng, name, value)
    return text


def header(rng: random.Random, section: str, subsection: str | None) -> str:
    section = rng.choice([section, section.lower(), section.upper()])
    if subsection is None:
        shown = f"[{section}]"
    elif rng.random() < 0.2 and subsection.isalnum():
        shown = f"[{section}.{subsection.lower()}]"  # the older form: the subsection lower-cased
    else:
        shown = f'[{section} "{subsection}"]'
    return shown + rng.choice(["\n", " ; a comment\n", "\n\n", "\t# note\n"])


def variable(rng: random.Random, name: str, value: str | None) -> str:
    name = rng.choice([name, name.lower(), name.upper()])
    indent = rng.choice(["\t", "  ", ""])
    if value is None:
        return f"{indent}{name}\n"
    shape = rng.random()
    if shape < 0.15 and " " in value:
        shown = f'"{value}"'
    elif shape < 0.25 and " " in value:
        left, _, right = value.partition(" ")
        shown = f"{left} \\\n{right}"  # a continued line (the space before the backslash is the value's)
    elif shape < 0.35:
        shown = f"{value} # why"
    elif shape < 0.4 and '"' not in value:
        shown = '"' + value.replace("\\", "\\\\") + '"'
    else:
        shown = value
    equals, trailing = rng.choice([" = ", "=", " =  "]), rng.choice(["", "  ", "\t"])
    return f"{indent}{name}{equals}{shown}{trailing}\n"


def writing(text: str, where: str, append: bool = False) -> str:
    """The printf line that writes `text` to `where` (bytes as they are: its format escapes \\, % and controls)."""
    form = text.replace("\\", "\\\\").replace("%", "%%").replace("\n", "\\n").replace("\t", "\\t")
    return f"printf {shlex.quote(form)} {'>>' if append else '>'} {where}"
