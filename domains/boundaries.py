"""Where a predicted observation ends: invariants of environments, enforced while the model writes.

A real environment stops answering once it has answered. A terminal shows the action's output
and then a fresh prompt, and nothing the agent did not type; a GUI observation is one
`<predicted_observation>` block; a JSON response is one JSON value; a shell tool prints one exit
status. In every domain an observation ends before the protocol's next turn begins. A model that
keeps writing past that point is inventing input, so generation stops there. The structures are
the same for every model: they are facts about environments, not tuning.

Independently of the domain, a reply that loops (the same block of lines over and over, or one
line that repeats a short unit) is stopped and flagged.

An `ObservationEnd` describes the rule for one request; `scanner()` makes the stateful reader a
backend feeds the reply text to as it grows. A scanner's `feed(text)` gets the whole reply so far
and returns a `Stop` once the observation has ended: the index in the reply where it ends and the
rule that ended it. Reasoning (a leading `<think>` block) is never scanned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Protocol

StopReason = Literal["shell-prompt", "closing-tag", "json-value", "exit-code", "next-turn", "repetition"]
Structure = Literal["shell-prompt", "closing-tag", "json-value", "exit-code", "turn"]
STRUCTURES: tuple[Structure, ...] = ("shell-prompt", "closing-tag", "json-value", "exit-code", "turn")

# What opens the protocol's next turn (domains/protocol.py writes these); an observation never holds one.
NEXT_TURN_MARKERS = ("### Turn ", "**Action:**")
_HEADING = "**Environment Observation:**"
_CLOSING_TAG = "</predicted_observation>"
# user@host:path$ (or #), optionally after a (venv) name, and bash's own bash-5.2$.
_PROMPT = re.compile(r"(?:\([^()\n]{1,40}\) )?(?:[\w.-]+@[\w.-]+:[^\n$#]*|bash-\d+(?:\.\d+)*)[$#](?= |$)")


def prompt_prefix(line: str) -> str:
    """The shell prompt a screen line starts with (`dev@sandbox:~/project$ `), or ''."""
    match = _PROMPT.match(line)
    return line[: match.end()] + " " if match else ""


_EXIT_CODE = re.compile(r"^\[exit code: -?\d+\][ \t]*$", re.MULTILINE)
_TMUX_KEY = re.compile(r"^(C-[a-z]|Enter|Escape|Tab)$")

# A loop: a block of up to MAX_BLOCK lines repeated back to back, covering LOOP_LINES lines and
# at least LOOP_REPEATS copies; or a line whose tail is one unit of at most MAX_UNIT characters
# repeated LOOP_LINES times over at least LOOP_CHARS (a fence or a word written until max_tokens).
# Real screens rarely repeat a line 16 times, or a unit past a terminal's width; when they do
# (`yes`), the prediction is still flagged rather than silently shortened.
MAX_BLOCK, LOOP_LINES, LOOP_REPEATS = 8, 16, 4
LOOP_CHARS, MAX_UNIT = 256, 64


@dataclass(frozen=True)
class Stop:
    at: int  # index in the reply where the observation ends
    reason: StopReason
    detail: str = ""  # for a repetition: what repeated


@dataclass(frozen=True)
class ObservationEnd:
    """The end rule of one predicted observation.

    `structure` is the domain's closing structure. For `shell-prompt`, `commands` are the lines
    the agent typed, one per Enter (None for a control key such as C-c: any echo), `pending` is
    typed text without a final Enter, and `previous_screen` the lines of the screen before the
    action, which a terminal observation shows again before the new part.
    """

    structure: Structure = "turn"
    commands: tuple[str | None, ...] = ()
    pending: str = ""
    previous_screen: tuple[str, ...] = ()

    def scanner(self, thinking_open: bool = False) -> ReplyScanner:
        """A reader for one reply. `thinking_open`: the prompt already opened a `<think>` block."""
        return ReplyScanner(self, thinking_open)


def observation_end(structure: Structure, typed: str = "", previous_screen: str = "") -> ObservationEnd:
    """The end rule of one action. For a terminal, `typed` is the action's keystrokes as one string
    and `previous_screen` the screen before it (the last observation, or a state that is a screen)."""
    if structure != "shell-prompt":
        return ObservationEnd(structure)
    commands: list[str | None] = []
    pending = ""
    for piece in re.split(r"(\n)", typed):
        if piece == "\n":
            commands.append(pending)
            pending = ""
        elif _TMUX_KEY.match(piece.strip()):  # a control key such as C-c also brings a new prompt
            commands.append(pending if piece.strip() == "Enter" else None)
            pending = ""
        else:
            pending += piece
    return ObservationEnd(structure, tuple(commands), pending, tuple(previous_screen.splitlines()))


def _words(text: str) -> str:
    return " ".join(text.split())


class _Part(Protocol):
    """One way an observation ends: `feed` gets the reply's body so far, returns where it ends."""

    def feed(self, body: str) -> Stop | None: ...


class ReplyScanner:
    """Follows one growing reply; `feed` returns a Stop once the observation has ended."""

    def __init__(self, rule: ObservationEnd, thinking_open: bool):
        self._rule = rule
        self._thinking = True if thinking_open else None  # None: not known yet
        self._body_start: int | None = None
        structures: dict[str, _Part | None] = {
            "shell-prompt": _ShellPrompt(rule),
            "closing-tag": _ClosingTag(),
            "json-value": _JsonValue(),
            "exit-code": _ExitCode(),
            "turn": None,
        }
        self._structure = structures[rule.structure]
        self._turns: _Part = _NextTurn()
        self._loops: _Part = _Repetition()
        self.stop: Stop | None = None

    def feed(self, reply: str) -> Stop | None:
        if self.stop is not None:
            return self.stop
        start = self._find_body(reply)
        if start is None:
            return None
        body = reply[start:]
        for part in (self._turns, self._structure, self._loops):
            found = part.feed(body) if part is not None else None
            if found is not None:
                self.stop = Stop(start + found.at, found.reason, found.detail)
                return self.stop
        return None

    def _find_body(self, reply: str) -> int | None:
        """Where the observation starts: after the think block, if the reply has one."""
        if self._body_start is not None:
            return self._body_start
        if self._thinking is None:
            head = reply.lstrip()
            if len(head) < len("<think>") and "<think>".startswith(head):
                return None
            self._thinking = head.startswith("<think>")
        if not self._thinking:
            self._body_start = 0
        elif (closed := reply.find("</think>")) >= 0:
            self._body_start = closed + len("</think>")
        return self._body_start


class _NextTurn:
    """The protocol's next turn, or a second observation heading: the model is writing the agent's part."""

    def __init__(self) -> None:
        self._checked = 0

    def feed(self, body: str) -> Stop | None:
        start = max(0, self._checked - len(_HEADING))
        self._checked = len(body)
        hits = [i for marker in NEXT_TURN_MARKERS if (i := body.find(marker, start)) >= 0]
        first_heading = body.find(_HEADING)
        if first_heading >= 0 and (again := body.find(_HEADING, max(start, first_heading + 1))) >= 0:
            hits.append(again)
        if not hits:
            return None
        at = min(hits)
        return Stop(len(body[:at].rstrip()), "next-turn")


class _ClosingTag:
    def __init__(self) -> None:
        self._checked = 0

    def feed(self, body: str) -> Stop | None:
        closed = body.find(_CLOSING_TAG, max(0, self._checked - len(_CLOSING_TAG)))
        self._checked = len(body)
        return Stop(closed + len(_CLOSING_TAG), "closing-tag") if closed >= 0 else None


class _ExitCode:
    """A shell tool prints one exit status, last."""

    def __init__(self) -> None:
        self._line_start = 0  # the first line that may still hold it

    def feed(self, body: str) -> Stop | None:
        found = _EXIT_CODE.search(body, self._line_start)
        if found is not None:
            return Stop(found.end(), "exit-code")
        self._line_start = body.rfind("\n") + 1
        return None


class _JsonValue:
    """A response that starts as JSON (optionally in a code fence) ends with that one value."""

    def __init__(self) -> None:
        self._depth = 0
        self._in_string = self._escaped = False
        self._position: int | None = None  # where scanning resumes; None: not started
        self._fenced = False
        self._closed_at: int | None = None

    def feed(self, body: str) -> Stop | None:
        if self._position is None and not self._begin(body):
            return None
        if self._closed_at is None:
            self._scan(body)
        if self._closed_at is None:
            return None
        if not self._fenced:
            return Stop(self._closed_at, "json-value")
        fence = body.find("```", self._closed_at)
        return Stop(fence + 3, "json-value") if fence >= 0 else None

    def _begin(self, body: str) -> bool:
        head = body.lstrip()
        if _HEADING.startswith(head) or "```".startswith(head):
            return False  # the heading or a fence may still be on its way
        if head.startswith(_HEADING):
            head = head[len(_HEADING) :].lstrip()
        if head.startswith("```"):
            if "\n" not in head:
                return False
            self._fenced = True
            head = head.split("\n", 1)[1].lstrip()
        if not head:
            return False
        if head[0] not in "{[":
            self._position = -1  # not JSON: this rule never applies
            return False
        self._position = len(body) - len(head)
        return True

    def _scan(self, body: str) -> None:
        if self._position is None or self._position < 0:
            return
        for index in range(self._position, len(body)):
            char = body[index]
            if self._in_string:
                if self._escaped:
                    self._escaped = False
                elif char == "\\":
                    self._escaped = True
                elif char == '"':
                    self._in_string = False
            elif char == '"':
                self._in_string = True
            elif char in "{[":
                self._depth += 1
            elif char in "}]":
                self._depth -= 1
                if self._depth == 0:
                    self._closed_at = index + 1
                    return
        self._position = len(body)


class _ShellPrompt:
    """A terminal screen ends at the prompt that follows the output of the agent's last command.

    The screen first shows earlier lines again (the previous screen, perhaps scrolled); the new
    part begins at the first line that differs. There, each prompt line must echo the next command
    the agent typed; a prompt that shows anything else is input the agent did not give, and the
    screen ends at that prompt. Once every command is echoed, the next prompt ends the screen.
    """

    def __init__(self, rule: ObservationEnd):
        self._commands = [None if c is None else _words(c) for c in rule.commands]
        self._pending = _words(rule.pending)
        self._previous = [line.rstrip() for line in rule.previous_screen]
        # Commands the previous screen shows were typed by the agent before: not invented input.
        self._earlier = {_words(line[m.end() :]) for line in self._previous if (m := _PROMPT.match(line))}
        self._echoed = 0
        self._line_start = 0  # start of the first line not yet judged
        self._old_at: int | None = None  # index in the previous screen of the next expected old line
        self._new = not self._previous

    def feed(self, body: str) -> Stop | None:
        while True:
            end = body.find("\n", self._line_start)
            line = body[self._line_start : end if end >= 0 else len(body)]
            stop = self._judge(line, complete=end >= 0)
            if stop is not None:
                return Stop(self._line_start + stop, "shell-prompt")
            if end < 0:
                return None
            self._line_start = end + 1

    def _judge(self, line: str, complete: bool) -> int | None:
        """Where in `line` the screen ends, if it does; also advances the old/new state on whole lines."""
        if not self._new and self._still_old(line, complete):
            return None
        prompt = _PROMPT.match(line)
        if prompt is None:
            return None
        typed = _words(line[prompt.end() :])
        if self._echoed < len(self._commands):
            expected = self._commands[self._echoed]
            if expected is None or (typed == expected and complete):
                self._echoed += complete
                return None
            if not typed or expected.startswith(typed):
                return None  # a bare prompt before the echo, or the echo still being written
            if self._echoed == 0 and any(earlier.startswith(typed) for earlier in self._earlier):
                return None  # an earlier line shown again, not quite as before
            return prompt.end()  # a command the agent did not type
        if self._pending and (not typed or self._pending.startswith(typed)) and not complete:
            return None  # text typed without Enter, still being echoed
        if self._pending and typed == self._pending:
            return prompt.end() + len(line[prompt.end() :]) if complete else None
        return prompt.end()

    def _still_old(self, line: str, complete: bool) -> bool:
        """True while the screen repeats the previous one; False (for good) once it shows something new."""
        text = line.rstrip()
        if self._old_at is None:
            candidates = [i for i, old in enumerate(self._previous) if (old == text if complete else old.startswith(text))]
            if candidates and complete:
                self._old_at = candidates[0] + 1
                return True
            if candidates and not complete:
                return True  # undecided until the line is whole
        elif self._old_at < len(self._previous):
            expected = self._previous[self._old_at]
            if (complete and expected == text) or (not complete and expected.startswith(text)):
                self._old_at += complete
                return True
        self._new = True
        return False


class _Repetition:
    """A reply that loops: a block of lines repeated back to back, or a long line repeating a unit."""

    def __init__(self) -> None:
        self._lines: list[tuple[str, int]] = []  # complete lines and the index just past each
        self._scanned = 0

    def feed(self, body: str) -> Stop | None:
        while (end := body.find("\n", self._scanned)) >= 0:
            self._lines.append((body[self._scanned : end].rstrip(), end))
            self._scanned = end + 1
            found = self._block_loop()
            if found is not None:
                return found
        return self._line_loop(body)

    def _block_loop(self) -> Stop | None:
        lines = self._lines
        for block in range(1, MAX_BLOCK + 1):
            repeats = max(LOOP_REPEATS, -(-LOOP_LINES // block))
            span = block * repeats
            if len(lines) < span:
                continue
            tail = [text for text, _ in lines[-span:]]
            if all(tail[i] == tail[i % block] for i in range(span)):
                first_copy_end = lines[-span + block - 1][1]
                unit = "\\n".join(tail[:block])[:80]
                return Stop(first_copy_end, "repetition", f"{repeats} copies of {block} line(s): {unit!r}")
        return None

    def _line_loop(self, body: str) -> Stop | None:
        line = body[self._scanned :]
        for unit in range(1, MAX_UNIT + 1):
            span = max(LOOP_CHARS, unit * LOOP_LINES)
            if len(line) < span:
                return None  # longer units need longer spans
            tail = line[-span:]
            if tail[unit:] == tail[:-unit]:  # the tail has period `unit`
                at = self._scanned + line.find(tail[:unit] * 2) + unit
                return Stop(at, "repetition", f"a line repeating {tail[:unit][:40]!r}")
        return None
