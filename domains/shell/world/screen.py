"""A computed step's terminal screen: the screen so far, the command typed at its prompt, what it
printed, and the next prompt (moved to the new folder after a cd).

The prompt is the world's own: the state text's "The screen shows a fresh prompt: ..." sentence, else the
first prompt of the usual form a screen showed; a model's screen that ends with another prompt, or none, does
not change it. A prompt of the usual `user@host:folder$` form follows the shell's folder; any other prompt is
kept only while the folder stays the same. No prompt, no screen: the step is then the model's.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from ..reading.grammar import broken, parse_tree

_PROMPT = re.compile(r"^(?P<who>[^\s@:]+@[^\s:]+):(?P<where>\S*?)(?P<sign>[$#]) ?$")
_STATED_LINE = re.compile(r"^.*fresh prompt:\s*(?=\S+[$#] ?$)", re.MULTILINE)
_BARE_PROMPT = re.compile(r"\S*[$#]")  # a line that is a prompt alone, of any shape
_STATED = re.compile(r"fresh prompt:\s*(?P<prompt>\S.*?[$#]) ?\s*$", re.MULTILINE)


@dataclass(frozen=True)
class ShellStep:
    """A line the virtual shell ran (or whose effects are known), as a domain renders it."""

    line: str
    printed: str  # stdout, or stderr (a computed step prints on one of them only)
    exit_code: int
    cwd_before: str
    cwd_after: str
    home: str
    keeps_shell: bool = True  # the shell's folder and variables are as before


def current_prompt(previous: str, state: str, cwd: str, home: str) -> str | None:
    """The world's own prompt in `cwd`: the one its state states, else the first prompt of the usual
    `user@host:folder$` form a screen showed, moved to `cwd`; None where the world never showed one. What the
    last screen ends with does not decide it: a model's screen may end with another prompt, or none."""
    found = _STATED.search(state or "")
    shapes = [found.group("prompt")] if found else []
    shapes += [line.split(" ", 1)[0] for line in previous.splitlines() if _PROMPT.match(line.split(" ", 1)[0])]
    if not shapes:
        return None
    match = _PROMPT.match(shapes[0])
    return f"{match.group('who')}:{folder_shown(cwd, home)}{match.group('sign')}" if match else shapes[0]


def folder_shown(cwd: str, home: str) -> str:
    """How bash's `\\w` shows a folder: under the home with `~`."""
    if home and (cwd == home or cwd.startswith(home.rstrip("/") + "/")):
        return "~" + cwd[len(home.rstrip("/")):]
    return cwd


def prompt_folder(screen: str, home: str) -> str | None:
    """The folder the last prompt of a screen shows, in the usual `user@host:folder$` form (`~` read as the
    home); None where the screen ends with no such prompt or its folder is not spelled out whole."""
    last = screen.rstrip("\n").rsplit("\n", 1)[-1] if screen else ""
    match = _PROMPT.match(last.rstrip())
    if match is None:
        return None
    where = match.group("where")
    if where == "~" or where.startswith("~/"):
        return posixpath.normpath(home + where[1:]) if home else None
    return posixpath.normpath(where) if where.startswith("/") else None


def typed_as_one(line: str) -> bool:
    """Whether bash reads the whole line as one command before it runs any of it: each newline but the last is a
    continuation (inside a here-document, quotes or a compound command, after `|`, `&&` or a backslash), typed at
    the continuation prompt. A newline after a complete command runs it, and its output and a fresh prompt stand
    before the next line: one block of output cannot show that."""
    stripped = line.strip("\n")
    if "\n" not in stripped:
        return True
    root = parse_tree(stripped)
    if broken(root):
        return False
    parts = root.named_children
    return all(first.end_point[0] == second.start_point[0] for first, second in zip(parts, parts[1:]))


def computed_screen(previous: str, state: str, step: ShellStep) -> str | None:
    """The whole screen after the step, or None when the prompt cannot be known, or the line holds several
    commands on lines of their own (see `typed_as_one`)."""
    line, printed, cwd_before, cwd_after, home = step.line, step.printed, step.cwd_before, step.cwd_after, step.home
    if not typed_as_one(line):
        return None
    prompt = current_prompt(previous, state, cwd_before, home)
    if prompt is None:
        return None
    after = prompt
    if posixpath.normpath(cwd_after) != posixpath.normpath(cwd_before):
        shape = _PROMPT.match(prompt)
        if shape is None or shape.group("where") != folder_shown(cwd_before, home):
            return None
        after = f"{shape.group('who')}:{folder_shown(cwd_after, home)}{shape.group('sign')}" + \
            (" " if prompt.endswith(" ") else "")
    shown = _STATED_LINE.sub("", previous.rstrip("\n"))  # the state text's sentence is no terminal's line
    head, _, last = shown.rpartition("\n")
    if last.rstrip().endswith(prompt.rstrip()):
        before = shown  # (output without a final newline may stand before the prompt on its line)
    elif _BARE_PROMPT.fullmatch(last.rstrip()):
        before = f"{head}\n{prompt}" if head else prompt  # a prompt that is not the world's: the world's stands there
    else:
        before = f"{shown}\n{prompt}" if shown else prompt
    # Each line after the first is typed at bash's continuation prompt (PS2, "> " unless set otherwise).
    typed = before + ("" if before.endswith(" ") else " ") + line.replace("\n", "\n> ")
    return f"{typed}\n{printed}{after.rstrip()}"
