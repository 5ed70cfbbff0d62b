"""How one step teaches a world's record (knowledge.py): its semantics, its screen, or its computed outcome.

Implied facts follow each step's own semantics (what the command does when it succeeds; the commands whose
error line the screen shows did not succeed) and what a real screen shows (a plain listing names what
exists). Exact facts change only by what is certain: a computed step's outcome replaces them; any other
step makes what it may have touched unknown (`rm a b` with `a` missing removes `b`, or not).
"""

from __future__ import annotations

import posixpath
import re

from .effects import WRITE_KINDS, Semantics
from .grammar import node_text, parse_tree
from .knowledge import Knowledge
from .sed import sed_scripts
from .virtual.gate import SED_SCRIPT

_ENTRY = re.compile(r"[^\s]+")
# Programs whose target may become a folder (a copied or moved tree, an unpacked archive, a link).
_MAY_MAKE_FOLDERS = frozenset({"cp", "mv", "rsync", "install", "ln", "tar", "unzip", "git", "scp", "7z"})
_CD = re.compile(r"(^|[\s;&|(])cd(\s|$)")
# A line that changes how later lines behave (options, functions, aliases, the search path, the umask, the
# locale, a sourced or evaluated script): the world's shell is then no longer the one the tests prove.
# Each is read at a command's start only: `find . -name x` or `grep alias f` change nothing.
_CHANGES_SHELL = re.compile(
    r"(?:^|[;&|(]|\b(?:then|do|else))\s*(?:set\s+[-+]|shopt\b|umask\b|alias\b|unalias\b|enable\b|hash\b|"
    r"trap\b|source\b|\.\s|eval\b|exec\b|function\s|unset\s+-f|(?:(?:export|declare|typeset)\s+(?:-\w+\s+)?)?"
    r"(?:PATH|IFS|CDPATH|GLOBIGNORE|HOME|LC_\w+|LANG|LANGUAGE|POSIXLY_CORRECT|SHELLOPTS|BASHOPTS|TZ)\+?=)|"
    r"(?:^|[;&|(]\s*)[\w-]+\s*\(\)\s*[{(]")
_CHANGES_STATE = re.compile(r"\b(export|unset|declare|typeset|local|readonly|source|read|mapfile|readarray|eval|"
                            r"set|shopt|alias|cd|pushd|popd)\b|(^|[\s;&|(])\.\s|[A-Za-z_][A-Za-z0-9_]*\+?=")
_ERRORS_HIDDEN = re.compile(r"2>|&>|>&")
_SHELL_ERROR = re.compile(r"(?<![\w./-])bash: ")  # an ambiguous or failed redirection: its command did not run


def learn_step(known: Knowledge, semantics: Semantics | None, observation: str, real: bool,
               exact: bool) -> Semantics | None:
    """One step whose screen is `observation` happened; returns its effects as they happened. `exact`: the
    step was not computed in a world that keeps exact facts, so what it may have touched becomes unknown (a
    computed step's exact facts come from its outcome instead)."""
    if semantics is None:
        return None
    failed = failed_commands(semantics, observation)
    if exact:
        # The exact facts first: where they are made unknown, they move down to implied facts (`forget_all`),
        # and this step's own implied facts must land on top of those, not under them.
        learn_uncomputed(known, semantics, known.cwd, _cwd_after(semantics, failed, known.cwd), observation)
    return imply(known, semantics, observation, real, failed)


def imply(known: Knowledge, semantics: Semantics | None, observation: str, real: bool,
          failed: list[int] | None = None) -> Semantics | None:
    """The step's implied facts, and where the shell stands after it; returns its effects as they happened.
    `failed`: the commands whose error line the screen shows, where the caller found them already."""
    if semantics is None:
        return None
    failed = failed_commands(semantics, observation) if failed is None else failed
    happened = semantics.without(*failed)
    _imply_effects(known, happened)
    if happened.opaque or any(effect.pattern or effect.where == "unknown" for effect in happened.files()):
        known.unsure()
    if real and not failed:
        _learn_from_screen(known, semantics, observation)
    if (after := _cwd_after(semantics, failed, known.cwd)) != known.cwd:
        known.cwd = after
    return happened


def _cwd_after(semantics: Semantics, failed: list[int], cwd: str) -> str:
    """Where the shell stands after the step: where its `cd` went, unless a command of it failed."""
    return semantics.cwd_after if semantics.cwd_after and not failed else cwd


def _imply_effects(known: Knowledge, semantics: Semantics) -> None:
    for effect in semantics.effects:
        if not effect.path:
            continue
        if effect.pattern:
            if effect.kind in ("deleted", "moved-from", "git-clean", "git-discard"):
                known.forget_implied_matching(effect.path)
            continue
        if effect.kind in ("deleted", "moved-from"):
            known.mark(effect.path, "absent")
        elif effect.kind in ("git-clean", "git-discard", "modified") and effect.tree:
            known.forget_implied_under(posixpath.normpath(effect.path), contents_unknown=True)
        elif effect.kind == "created" and effect.program == "mkdir":
            if not effect.forced or known.exists(effect.path) is False:  # mkdir -p may meet a full folder
                known.listed.add(posixpath.normpath(effect.path))  # a new folder is empty: anything else is absent
            known.mark(effect.path, "dir")
        elif effect.kind in WRITE_KINDS:  # the path exists after any of these
            known.mark(effect.path, "exists" if effect.tree else "file")


def _learn_from_screen(known: Knowledge, semantics: Semantics, observation: str) -> None:
    """A plain `ls [DIR]` that printed names: those names exist."""
    if semantics.programs != ("ls",):
        return
    line = semantics.line.strip()
    words = line.split()
    if any(word.startswith("-") and set(word[1:]) - set("1aAFp") for word in words[1:]):
        return  # long listings, recursion, sorting by other keys: not read here
    operands = [word for word in words[1:] if not word.startswith("-")]
    if len(operands) > 1 or any(ch in line for ch in "*?[{$`|;&<>\"'\\"):
        return
    directory = posixpath.normpath(posixpath.join(semantics.cwd, operands[0])) if operands else semantics.cwd
    printed = _printed_lines(observation, line)
    if printed is None:
        return
    known.learn_listing(directory, (name for text in printed for name in _ENTRY.findall(text)))


def learn_uncomputed(known: Knowledge, semantics: Semantics | None, cwd_before: str, cwd: str, shown: str = "") -> None:
    """The exact facts after a step the model predicted or reality showed, not computed, which left the shell
    in `cwd` (`shown`: what its screen showed): what its semantics say it did, no more. A command that may have
    done only part of its work, or none (`doubted_commands`), leaves what it names unknown."""
    if semantics is None:
        return
    if cwd and cwd != known.cwd:
        known.cwd = posixpath.normpath(cwd)
    cwd = known.cwd
    doubted = doubted_commands(semantics, shown)
    if (semantics.cwd_after or cwd_before) != cwd or doubted and _CD.search(semantics.line):
        known.forget_all()  # its paths were read from a folder the shell may not have been in
    for effect in semantics.of_commands(*doubted).files():
        if not effect.path or effect.pattern or effect.where == "unknown":
            known.forget_all()
        else:
            known.make_unknown(posixpath.normpath(effect.path))
    semantics = semantics.without(*doubted)
    if semantics.opaque or any(e.pattern or e.where == "unknown" or not e.path for e in semantics.files()):
        known.forget_all()
    targets, unbounded = _redirects_and_unbounded_words(semantics.line, cwd_before)
    if unbounded:
        # What a glob gave a program (`uniq *.txt` writes its second match), or a sed script's `w` wrote,
        # is not known.
        known.forget_all()
    for path in targets:
        known.make_unknown(path)  # written or not (a failed redirection writes nothing): unknown
    for effect in semantics.files():
        if not effect.path or effect.pattern or effect.where == "unknown":
            continue
        path = posixpath.normpath(effect.path)
        if effect.kind in ("deleted", "moved-from"):
            known.forget_under(path)
        elif effect.kind == "created" and effect.program == "mkdir":
            status = known.status(path)
            if not effect.forced and known.status(posixpath.dirname(path)) != "present":
                known.make_unknown(path)  # without -p it needs its parent: made or not, unknown
            elif status != "present":  # a new folder is empty; `mkdir -p` may have met a full one
                known.add_folder(path, not effect.forced or status == "absent")
        elif effect.kind == "permissions":
            continue
        elif effect.kind == "moved-to" or effect.program in _MAY_MAKE_FOLDERS:
            known.make_unknown(path)  # a file or a folder, the semantics do not say: unknown
        elif effect.tree:
            known.forget_under(path)
            known.add_folder(path, False)
        else:  # written: most likely a file now, but a failed write leaves no trace to tell
            known.make_unknown(path)
    if (changed := _CHANGES_SHELL.search(semantics.line)) is not None:
        known.shell_changed = known.shell_changed or changed.group(0).strip()
    if _CHANGES_STATE.search(semantics.line):
        known.variables.clear()
        known.exported.clear()
    if cwd != cwd_before:
        known.oldpwd = cwd_before
        if known.status(cwd) != "present":
            known.add_folder(cwd, False)


def failed_commands(semantics: Semantics, observation: str) -> list[int]:
    """The simple commands whose own error line (for a missing operand) the screen shows."""
    shown = observation.splitlines()
    return sorted({r.command for r in semantics.requirements if any(r.error in line for line in shown)})


def doubted_commands(semantics: Semantics, observation: str) -> list[int]:
    """The simple commands that may have done only part of their work, or none: those `failed_commands`
    finds, those whose program printed an error line of its own (`rm: cannot remove 'd': Is a directory`),
    those that run only if another succeeded or failed or inside a branch (`if`, `case`), and all of them where
    errors were sent away."""
    commands = {effect.command for effect in semantics.effects}
    if _ERRORS_HIDDEN.search(semantics.line) or "||" in semantics.line or _SHELL_ERROR.search(observation):
        return sorted(commands)  # an error sent away, or a command run only if another failed: any may not have run
    # Not anchored to a line's start: output without a final newline runs into the error line on a screen.
    complaining = {effect.command for effect in semantics.effects if effect.program and re.search(
        rf"(?<![\w./-]){re.escape(effect.program)}: ", observation)}
    conditional = {command for command in commands if semantics.depends_on.get(command)} | {
        effect.command for effect in semantics.effects if effect.maybe}  # inside an if or case: may not have run
    return sorted(complaining | conditional | set(failed_commands(semantics, observation)))


def _printed_lines(observation: str, command: str) -> list[str] | None:
    lines = observation.splitlines()
    echoed = [index for index, text in enumerate(lines) if text.rstrip().endswith(command)]
    if not echoed:
        return None
    after = lines[echoed[-1] + 1:]
    while after and re.search(r"[$#]\s*$", after[-1]):
        after.pop()  # the next prompt
    if any("exit code" in text or "No such file" in text or "cannot access" in text for text in after):
        return None
    return after


def _redirects_and_unbounded_words(line: str, cwd: str) -> tuple[list[str], bool]:
    """Read from the line's syntax tree: the files it redirects output into (any command's, builtins' too), and
    whether a word reaches files the line does not name (a glob, or a sed script beyond p, d, q, =, s and y:
    `w`, `r` and `e` reach files that are not operands)."""
    targets, unbounded = [], False
    pending = [parse_tree(line)]
    while pending:
        node = pending.pop()
        pending.extend(node.named_children)
        unbounded = unbounded or (node.type == "word" and any(char in node_text(node) for char in "*?["))
        if node.type == "file_redirect" and (destination := node.child_by_field_name("destination")) is not None:
            operator = "".join(node_text(child) for child in node.children if not child.is_named)
            word = node_text(destination).strip("'\"")
            if ">" in operator and word and not word.startswith(("$", "/dev/")) and not word.isdigit():
                targets.append(posixpath.normpath(posixpath.join(cwd, word)))
        name = node.child_by_field_name("name") if node.type == "command" else None
        if name is not None and node_text(name) == "sed":
            words = [node_text(child).strip("'\"") for child in node.children_by_field_name("argument")]
            unbounded = unbounded or any(not SED_SCRIPT.fullmatch(script) for script in sed_scripts(words))
    return targets, unbounded
