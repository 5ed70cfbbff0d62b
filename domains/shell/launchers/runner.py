"""How a program that starts another one reads its own words up to that command: package runners
(package_runners.py) and environment wrappers (environment_wrappers.py)."""

from __future__ import annotations

from dataclasses import dataclass

from ..reading.options import Spec


@dataclass(frozen=True)
class Runner:
    spec: Spec  # its own options, read up to the command
    shell: tuple[str, ...] = ()  # options whose value is shell code (`npx -c CMD`), or, as flags, make the command so
    shell_flags: bool = False  # `shell` names flags: the command's words are joined into shell code
    always_shell: bool = False  # the command's words are shell code (yarn exec)
    packages: tuple[str, ...] = ()  # options naming the package that holds the command (then the command is a name)
    python: bool = False  # a `.py` file, `-m MODULE` or `-` runs with Python (uv run)
    scripts: str = ""  # a project file whose [scripts] table names commands first (pipenv's Pipfile)
    skip: int = 0  # operands before the command: a profile, a namespace, a folder (`aws-vault exec PROFILE CMD`)
    folder_operand: bool = False  # the first skipped operand is the folder the command runs in (`direnv exec DIR`)
    folder_options: tuple[str, ...] = ()  # options whose value is the folder the command runs in (`conda run --cwd`)
    after_dashes: bool = False  # only the words after `--` are the command: operands before it are tools or services
    command_words: tuple[str, ...] = ()  # a word after which all the rest is the command (`nix shell ... -c CMD`)
    no_operand_command: bool = False  # its operands are never a command (nix-shell's files); only `shell` code runs
    no_command_with: tuple[str, ...] = ()  # options with which it runs no command (`envchain --set`)
