"""Computed screens against a real terminal: an interactive bash in a pseudo-terminal, typed at line by line, and
the screen the project renders for each computed line after the same screen so far. Output without a final
newline is followed by the prompt on its line once; no later screen repeats it. A line continued over several
(a here-document, a loop, a pipe) is typed at bash's continuation prompt, one physical line at a time.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.world.learning import learn_uncomputed
from agentworld_mcp.domains.shell.virtual.gate import NotComputable
from agentworld_mcp.domains.shell.world.screen import ShellStep, computed_screen, typed_as_one

from ..real_bash import laid_out
from ..shell_lines import scenario

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs a real bash")
STATE = "The screen shows a fresh prompt: dev@sandbox:~/project$"
_PROMPT_END = re.compile(r"dev@sandbox:[^\n$]*\$ $")
_PROMPT_OR_MORE_END = re.compile(r"(?:dev@sandbox:[^\n$]*\$ |(?:^|\n)> )$")  # PS2, bash's default, after a part


class Terminal:
    """`bash -i` in a pseudo-terminal with the prompt `dev@sandbox:\\w$ `: what a person at it sees."""

    def __init__(self, cwd: Path, home: Path):
        self.fd, child = pty.openpty()
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C", "LC_ALL": "C",
               "TERM": "dumb", "PS1": "dev@sandbox:\\w$ "}  # a literal $: root would get # from \\$
        self.process = subprocess.Popen(["bash", "--noprofile", "--norc", "--noediting", "-i"], cwd=cwd, env=env,
                                        stdin=child, stdout=child, stderr=child, start_new_session=True)
        os.close(child)
        self.screen = ""
        self._until_prompt()

    def type(self, line: str) -> str:
        """Type a line as a person does: one physical line at a time, each after bash's prompt for it (written at
        once, the terminal would echo them all before bash answers the first, and a wait for "a prompt" could stop
        between two of its commands)."""
        *parts, last = line.split("\n")
        for part in parts:
            self._type_part(part, _PROMPT_OR_MORE_END)
        self._type_part(last, _PROMPT_END)
        return self.screen

    def _type_part(self, part: str, prompt: re.Pattern[str]) -> None:
        mark = len(self.screen)
        os.write(self.fd, part.encode() + b"\n")
        self._until_prompt(mark, part, prompt)

    def _until_prompt(self, mark: int = 0, line: str = "", prompt: re.Pattern[str] = _PROMPT_END) -> None:
        """Read until the typed line's echo is followed by a fresh prompt."""
        deadline, ended = time.monotonic() + 10, False
        while not ((new := self.screen[mark:]).startswith(line + "\n") or not line) or \
                not prompt.search(new[len(line) + 1 if line else 0:]):
            if line and not ended and not select.select([self.fd], [], [], 3)[0]:
                # A program reads the terminal (`grep x $UNSET`): end its input as a person would, with Ctrl-D.
                os.write(self.fd, b"\x04")
                ended = True
                continue
            if time.monotonic() > deadline or not select.select([self.fd], [], [], 10)[0]:
                raise TimeoutError(f"no prompt came back: {self.screen[-300:]!r}")
            self.screen += os.read(self.fd, 65536).decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "")

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self.fd)


def test_each_computed_screen_is_the_terminals(tmp_path):
    """Generated scenarios, plus lines whose output has no final newline; every computed step's screen, rendered
    after the terminal's own screen so far, is what the terminal shows."""
    made = [scenario(seed) for seed in range(90)]  # about one line in four is computed
    made[0].lines = ["echo -n x", "echo y", "printf '%s' z", "pwd", "cd d", "printf 'a\\nb'", "cd ..", "echo done"]
    made[0].folders = ["d"]
    made[1].lines = ["cat > f.txt <<'EOF'\nb\na\nEOF", "cat <<'EOF' | sort\nb\na\nEOF", "for i in 1 2\ndo echo $i\ndone",
                     "cat f.txt |\nwc -l", 'echo "x\ny"', "cat >> f.txt <<EOF\n$HOME\nEOF", "wc -l \\\n  f.txt",
                     "echo a\necho b", "cat f.txt"]
    compared = several = 0
    for index, case in enumerate(made):
        home, project, shell = laid_out(case, tmp_path / str(index))
        terminal = Terminal(project, home)
        try:
            for line in case.lines:
                before, cwd = terminal.screen, shell.knowledge.cwd
                try:
                    outcome = shell.compute(line)
                except NotComputable:
                    outcome = None
                after = terminal.type(line)
                if outcome is None:
                    shown = after[len(before):]
                    real_cwd = terminal.type("pwd").rsplit("\n", 2)[-2]
                    learn_uncomputed(shell.knowledge, analyze(line, cwd, str(home)), cwd, real_cwd, shown, real=True)
                    continue
                shell.accept(outcome)
                step = ShellStep(line, outcome.stdout + outcome.stderr, outcome.exit_code, cwd, outcome.cwd, str(home))
                if not typed_as_one(line):  # commands on lines of their own: output between prompts, no screen
                    assert computed_screen(before.rstrip(" "), STATE, step) is None, (index, line)
                    continue
                several += "\n" in line.strip("\n")
                assert computed_screen(before.rstrip(" "), STATE, step) == after.rstrip(" "), (index, line)
                compared += 1
        finally:
            terminal.close()
    assert compared >= 40 and several >= 3  # here-documents and other lines continued at bash's `> ` among them
