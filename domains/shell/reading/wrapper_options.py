"""Reading a wrapper's own words up to the command it runs, for every program that runs another one: the
wrappers (nohup, time, env, timeout, sudo, flock, watch, ...), the package runners and environment wrappers
(npx, uv run, conda run, aws-vault exec, nix shell -c, ...) and the launchers that run a command elsewhere (ssh,
`kubectl exec`, `docker run`, `heroku run`, ...).

Each program is one `Wrapper` row, taken from its documentation: its options (options.py's `Spec`), the
operands it takes before the command (a lock file, a CPU mask, a host, a pod, a profile), the options whose
value is shell code or the folder the command runs in, the flags with which it runs no command. The rows live
with their families (launchers/wrappers.py, launchers/package_runners.py, launchers/environment_wrappers.py,
remote/elsewhere.py); `read_wrapper(args, row)` reads a call's arguments by its row, as getopt does, and gives
the command (its words, or shell code), the folder and the options given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from .options import Parsed, Spec, parse
from .words import Value

_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@dataclass(frozen=True)
class Wrapper:
    """What a program that runs another command reads before it (one row of its family's table)."""

    spec: Spec = field(default_factory=lambda: Spec(permute=False))  # its own options, read up to the command
    skip: int = 0  # operands before the command (`flock FILE`, `taskset MASK`, `ssh HOST`); without them, no command
    folder_operand: bool = False  # the first skipped operand is the folder the command runs in (`direnv exec DIR`)
    folder_options: tuple[str, ...] = ()  # options whose value is that folder (`env -C DIR`, `conda run --cwd DIR`)
    shell: tuple[str, ...] = ()  # options whose value is shell code (`su -c CMD`), or, with shell_flags, flags that
    shell_flags: bool = False  # make the command's words shell code (`pnpm exec --shell-mode`)
    code_words: tuple[str, ...] = ()  # a word right after the skipped operands whose next word is shell code
    always_shell: bool = False  # the command's words are joined into shell code (watch, ssh, retry, yarn exec)
    assignments: bool = False  # NAME=VALUE words before the command set its environment (`env A=1 CMD`)
    after_dashes: bool = False  # given `--`, its options permute and only the words after `--` are the command
    command_words: tuple[str, ...] = ()  # a word after which all the rest is the command (`nix shell ... -c CMD`)
    no_operand_command: bool = False  # its operands are never a command (su's user, nix-shell's files)
    no_command_with: tuple[str, ...] = ()  # options with which it runs no command (`command -v`, `ssh -G`)
    edits: tuple[str, ...] = ()  # options with which its operands are files it edits, and no command (`sudo -e`)
    writes: tuple[str, ...] = ()  # options whose value is a file it writes its own report to (`time -o FILE`)
    appends: tuple[str, ...] = ()  # flags with which it appends to that file (`time -a`)


@dataclass(frozen=True)
class Wrapped:
    """A call read by its row."""

    options: Parsed  # its own options (and, for `edits`, the files among its operands)
    skipped: list[Value]  # the operands before the command
    words: list[Value]  # the command: an argv, or, where `joined`, words joined into shell code
    joined: bool  # the words are shell code
    code: list[Value]  # shell code given as its own options' values (`su -c CMD`, `flock FILE -c CMD`)
    folder: Value | None  # the folder the command runs in, where it names one
    runs: bool  # False: it runs no command (a flag says so, or an operand it needs is missing)

    @property
    def script(self) -> str:
        """The words as shell code, joined with spaces."""
        return " ".join(word.text for word in self.words)


def read_wrapper(args: Sequence[Value], row: Wrapper) -> Wrapped:
    """`args` (a call's words after the program's name, or after its verb) read by `row`."""
    own, after_word = _split_at(args, row.command_words)
    dashes = row.after_dashes and any(arg.text == "--" for arg in own)
    p = parse(own, replace(row.spec, permute=True) if dashes else row.spec)
    before = p.operands[:len(p.operands) - len(p.rest)] if dashes else p.rest
    skipped = list(before[:row.skip])
    words = list(p.rest) if dashes else list(p.rest[row.skip:])
    code = [word for name in (() if row.shell_flags else row.shell) for word in p.words.get(name, [])]
    if words[:1] and words[0].literal and words[0].text in row.code_words:
        code, words = [*code, *words[1:2]], []
    if row.no_operand_command:
        words = []
    if after_word is not None:
        words = after_word
    while row.assignments and words and _ASSIGNMENT.match(words[0].text):
        words.pop(0)  # the command's environment
    folder = next((p.word(name) for name in reversed(row.folder_options) if p.has(name)), None)
    if row.folder_operand and skipped:
        folder = skipped[0]
    runs = len(skipped) == row.skip and not p.has(*row.no_command_with, *row.edits)
    return Wrapped(p, skipped, words if runs else [], row.always_shell or (row.shell_flags and p.has(*row.shell)),
                   code if runs else [], folder, runs)


def _split_at(args: Sequence[Value], command_words: tuple[str, ...]) -> tuple[list[Value], list[Value] | None]:
    """The wrapper's own words, and the command after a word that starts it (`nix shell PKGS -c CMD ARGS`)."""
    for at, word in enumerate(args):
        if word.literal and word.text in command_words:
            return list(args[:at]), list(args[at + 1:])
    return list(args), None
