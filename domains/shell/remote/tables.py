"""A remote program's table: its destructive forms, dry runs and value options, and the reading every
table's program shares (see the package's docstring)."""


from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..reading.call import Call
from ..reading.effects import Effect, Loss
from ..reading.options import Spec, parse
from ..reading.registry import handles
from ..reading.words import Value
from .safe import COMMAND_WORD, SAFE_OPTIONS, known_word, wholly_local
from .verbs import DESTROYS, READS, REVOKES

# Every program's own help, which reads nothing and changes nothing.
_HELP = frozenset({"-h", "--help", "-help", "help"})


@dataclass(frozen=True)
class Form:
    """A destructive form: the command words that name it, each a regular expression matched whole."""

    words: tuple[str, ...]
    why: str  # why it cannot be undone, for the agent
    needs: tuple[str, ...] = ()  # options of which one must be given (`sync --delete`, `rm -f`, `-X=DELETE`)
    anywhere: bool = False  # the words may follow other command words (gcloud's `... instances delete`)


@dataclass(frozen=True)
class Command:
    """A program's arguments split the way its parser splits them."""

    words: list[str]  # the command words: operands before the first option's value, in order
    options: dict[str, str]  # name (with its dashes) -> value ('' for a flag)
    dynamic_at: int | None = None  # the first command word that holds a part the line does not set


@dataclass(frozen=True)
class RemoteProgram:
    """One program's table."""

    holds: str  # what it acts on, for the reason: "a Kubernetes cluster's objects"
    forms: tuple[Form, ...]
    value_options: frozenset[str] = frozenset()  # options that take the next word as their value
    dry_runs: tuple[str, ...] = ()  # options documented to change nothing (`--dry-run`, `-n`)
    not_dry: tuple[str, ...] = ("none", "false")  # values that turn a dry-run option off (`--dry-run=none`)
    read_only: Callable[[Command], bool] = field(default=lambda command: False)  # other forms that only read
    # A command word that starts a program of its own, read with its own table (`docker compose`).
    sub_tables: dict[str, RemoteProgram] = field(default_factory=dict)
    # Reads the command it runs on another machine (`kubectl exec ... -- CMD`) from the arguments after its
    # global options (remote/elsewhere.py); False where this call runs none.
    runs_elsewhere: Callable[[Call, Sequence[Value]], bool] = field(default=lambda call, args: False)
    # Reads the request its generic API command sends (`gh api`, `az rest`: remote/api_commands.py); True where
    # this call is one.
    requests: Callable[[Call, Command], bool] = field(default=lambda call, command: False)


def split(args: Sequence[str], value_options: frozenset[str], literal: Sequence[bool] | None = None) -> Command:
    """`args` as a Go (cobra/pflag), Python (argparse) or C (getopt) command-line parser splits them:
    `--name=value`, a value option's next word, flags, and the command words in between."""
    words: list[str] = []
    options: dict[str, str] = {}
    dynamic_at: int | None = None
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            words.extend(args[index:])
            break
        if arg.startswith("-") and len(arg) > 1:
            name, eq, value = arg.partition("=")
            if not eq and name in value_options and index < len(args):
                value, index = args[index], index + 1
            options[name] = value
            continue
        words.append(arg)
        if literal is not None and not literal[index - 1] and dynamic_at is None:
            dynamic_at = len(words) - 1
    return Command(words, options, dynamic_at)


def dry_run(program: RemoteProgram, command: Command) -> bool:
    return any(_given(command, name) and command.options.get(name, "").lower() not in program.not_dry
               for name in program.dry_runs)


def destroys(program: RemoteProgram, command: Command) -> tuple[Form, list[str]] | None:
    """The destructive form this command is, with the command words it names, or None."""
    if _HELP & {*command.words, *command.options} or program.read_only(command) or dry_run(program, command):
        return None
    for form in program.forms:
        starts = range(len(command.words)) if form.anywhere else range(1)
        for start in starts:
            named = command.words[start:start + len(form.words)]
            if len(named) == len(form.words) and all(re.fullmatch(pattern, word)
                                                     for pattern, word in zip(form.words, named)):
                if not form.needs or any(_given(command, option) for option in form.needs):
                    return form, command.words[:start + len(form.words)]
    return None


def _given(command: Command, option: str) -> bool:
    """`option` given: a short one also inside a bundle (`-rd` gives `-d`); `NAME=VALUE` with that value."""
    name, eq, value = option.partition("=")
    if eq:
        return command.options.get(name, "").lower() == value.lower()
    if name in command.options:
        return True
    return len(name) == 2 and any(given[:1] == "-" and given[1:2] != "-" and name[1] in given[1:]
                                  for given in command.options)


def _verb_unknown(program: RemoteProgram, command: Command) -> bool:
    """Whether a word the line does not set sits where a destructive form's words could be (`kubectl $VERB`); an
    operand after the verb (`kubectl get $NAME`, `gcloud compute instances describe $NAME`) is no verb."""
    if command.dynamic_at is None or READS & set(command.words[:command.dynamic_at]):
        return False  # no unknown word, or a read verb comes before it (`gcloud ... describe $NAME`)
    reach = max((len(form.words) for form in program.forms if not form.anywhere), default=0)
    return any(form.anywhere for form in program.forms) or command.dynamic_at < reach


def destruction(call: Call, what: str, why: str, loss: Loss = "") -> None:
    """A `remote-destruction` effect: `what` names the form and its target, `why` says what is lost for
    good (or, with loss `unknown`, why it cannot be known)."""
    call.reader.add_effect(Effect("remote-destruction", "", "unknown", target=what[:160], fact=why,
                                  program=call.program, command=call.index, loss=loss))


def read_table(call: Call, program: RemoteProgram) -> None:
    """The handler every table's program shares."""
    texts, literal = [arg.text for arg in call.args], [arg.literal for arg in call.args]
    command = split(texts, program.value_options, literal)
    within: list[str] = []
    args: Sequence[Value] = call.args
    if command.words and command.words[0] in program.sub_tables:
        within, at = command.words[:1], texts.index(command.words[0])
        program = program.sub_tables[command.words[0]]
        args = call.args[at + 1:]
        command = split(texts[at + 1:], program.value_options, literal[at + 1:])
    if program.runs_elsewhere(call, parse(args, Spec.taking(program.value_options)).rest):
        return
    if program.requests(call, command):
        return
    found = destroys(program, command)
    if found is not None:
        form, named = found
        target = command.words[len(named):len(named) + 3]
        destruction(call, " ".join([*within, *named, *target]), f"{form.why} ({program.holds})")
    elif _verb_unknown(program, command) and not dry_run(program, command):
        shown = " ".join(command.words[:3])
        destruction(call, shown, f"a command word is only known when it runs; {call.program} may destroy "
                                 f"{program.holds}", loss="unknown")
    elif not (_HELP & {*command.words, *command.options} or program.read_only(command) or dry_run(program, command)
              or _SAFE_OPTIONS & set(command.options)):
        name = " ".join((call.program, *within))
        words = _leading_words(command.words)
        if words and not wholly_local(name) and known_word(name, words, _TABLED_KNOWN | _form_verbs(program)) is None:
            unknown_verb(call, name, words, f"the table of {name} does not list it")


# Options every CLI documents to change nothing (remote/safe.py's SAFE_OPTIONS, spelled with their dashes).
_SAFE_OPTIONS = frozenset(f"--{name}" for name in SAFE_OPTIONS)
# A tabled program's destroy verbs its forms did not take (`docker rm` without -f): the table has judged them.
_TABLED_KNOWN = DESTROYS | REVOKES


def _leading_words(words: list[str]) -> list[str]:
    """The command path: the leading words shaped as CLIs spell subcommands, up to the first argument or 4."""
    leading = []
    for word in words[:4]:
        if not COMMAND_WORD.fullmatch(word):
            break
        leading.append(word)
    return leading


def _form_verbs(program: RemoteProgram) -> frozenset[str]:
    """The verbs the table's forms end in (`s3 sync` needs --delete, `apply` needs --prune): the table has judged
    them, and what its forms do not take is no loss."""
    return frozenset(word for form in program.forms for word in form.words[-1].split("|")
                     if re.fullmatch(r"[a-z][a-z0-9:-]*", word))


def unknown_verb(call: Call, program: str, words: list[str], why: str) -> None:
    """A verb the guard does not know, of a program that reaches beyond the folder: asked about (loss unknown),
    naming the program, the word read and that the guard does not know what it does."""
    shown = " ".join(words[:3])
    destruction(call, f"{program} {shown}", f"{why}, and the guard does not know what '{shown}' does: it is no "
                f"read, plan, dry run, help or creation it knows, and may change or destroy what {program} reaches "
                f"beyond the folder", loss="unknown")


TABLES: dict[str, RemoteProgram] = {}  # every program read by a table, by its name


def register(tables: dict[str, RemoteProgram]) -> None:
    for name, table in tables.items():
        TABLES[name] = table
        handles(name)(_reader_of(table))


def _reader_of(table: RemoteProgram) -> Callable[[Call], None]:
    return lambda call: read_table(call, table)

