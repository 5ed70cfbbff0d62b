"""One simple command being read: its program and arguments, and where its findings go."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, runtime_checkable

from .effects import Condition, Effect, EffectKind, Opaque, OpaqueWhat, Requirement
from .words import Scope, Value
from .written import WrittenFiles



# Devices that are no file: nothing on disk is written to them or read from them (`> /dev/null`,
# `< /dev/urandom`); /dev/fd/N is a descriptor. Other devices (/dev/sda) hold data.
_NO_FILE = ("/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/random",
            "/dev/urandom")


def no_file(path: str) -> bool:
    return path in _NO_FILE or path.startswith("/dev/fd/")


class PathState(Protocol):
    """What a world knows of its files: True / False, or None where it does not know."""

    def exists(self, path: str) -> bool | None: ...

    def is_dir(self, path: str) -> bool | None: ...


@runtime_checkable
class ShellHistory(Protocol):
    """A PathState that also knows the shell's previous folder (a world's record): where `cd -` goes back to."""

    @property
    def previous_folder(self) -> str | None: ...  # None where it is unset or unknown


@runtime_checkable
class KeptFunctions(Protocol):
    """A PathState that also keeps the shell's functions (a world's record), as typed: a call is read through its
    body, as one the line itself defined."""

    functions: dict[str, str]


@runtime_checkable
class FileContents(Protocol):
    """A PathState that can also read a file (the guard's real workspace): SQL a client is given in a file
    is read by its meaning, never run."""

    def text_of(self, path: str) -> str | None: ...


@runtime_checkable
class Listings(Protocol):
    """A PathState that also knows folders in full and the variables its shell exports (a world's record): where
    Python finds the modules a run imports, and what its environment says (domains/shell/launchers/python_runs.py)."""

    def names_in(self, folder: str) -> list[str] | None: ...  # folders end in '/'; None: not known in full

    def exported_values(self) -> dict[str, str | None]: ...  # None: exported, its value unknown


class Reader(Protocol):
    """What a program's handler sees of the line's reader (domains/shell/line.py): where findings go, what
    the world knows, and how a command this one starts is read. Named here so that no handler imports the
    line walker, which imports the handlers."""

    state: PathState | None
    effects: list[Effect]
    opaque: list[Opaque]
    requirements: list[Requirement]
    reads: dict[int, list[str]]  # command -> the files whose content it reads
    written: WrittenFiles  # what the line itself has written into files so far (domains/shell/reading/written.py)
    aliases: dict[str, str | None]  # aliases the line defined (domains/shell/launchers/aliases.py)

    def add_effect(self, effect: Effect) -> None: ...

    def add_effect_exec_download(self, call: Call, host: str) -> None: ...

    def run_words(self, words: list[Value], scope: Scope, parent: int | None, stdin: Stdin, text: str) -> int: ...

    def run_code(self, code: str, scope: Scope, index: int | None = None, stdin: Stdin | None = None) -> None: ...


@dataclass(frozen=True)
class Stdin:
    """Where a command's standard input comes from."""

    source: str = ""  # "" (the terminal), "pipe", "file", "text" (a heredoc or here-string)
    text: str | None = None  # the literal text of a heredoc, a here-string, or a literal echo or printf piped in
    from_download: str = ""  # a pipe fed by a downloader: its host
    from_program: str = ""  # a pipe: the program that feeds it
    path: Value | None = None  # `< file`
    carries: tuple[str, ...] = ()  # a pipe: the files whose content earlier stages read and may pass on

    @property
    def piped(self) -> bool:
        return self.source == "pipe"


@dataclass
class Call:
    program: str  # the name as run, without its directory
    args: list[Value]
    scope: Scope
    index: int
    stdin: Stdin
    reader: Reader
    text: str  # the command as written
    settings: dict[str, str] = field(default_factory=dict)  # git: -c name=value given on the command line

    # --- values ---
    def literal(self, text: str, glob: bool = False) -> Value:
        return Value(text, literal=not glob, glob=glob, prefix=text.split("*")[0].split("?")[0] if glob else None)

    def joined(self, directory: Value, name: Value, keep_path: bool = False) -> Value:
        """`name` (its last part, as cp and mv place a source) inside `directory`."""
        part = name.text if keep_path else posixpath.basename(name.text.rstrip("/")) or name.text
        text = posixpath.join(directory.text, part)
        if directory.literal and name.literal:
            return Value(text)
        return Value(text, literal=False, glob=directory.glob or name.glob, unknown=directory.unknown or name.unknown,
                     prefix=directory.known_prefix if not directory.literal else directory.text + "/")

    def value_after(self, value: Value, strip: str, suffix: str = "") -> Value:
        text = value.text[len(strip):] if value.text.startswith(strip) else value.text
        prefix = value.prefix[len(strip):] if value.prefix and value.prefix.startswith(strip) else value.prefix
        return replace(value, text=text + suffix, prefix=prefix)

    # --- what the world knows ---
    def exists(self, value: Value) -> bool | None:
        state = self.reader.state
        if state is None or not value.literal or not self.scope.cwd_known:
            return None
        return state.exists(self.scope.path(value)[0])

    def text_of(self, value: Value) -> str | None:
        """What the file at `value` holds when this command runs: what the line itself wrote there, else what the
        world can read; None where neither tells."""
        path = self._known_path(value)
        if path is None:
            return None
        wrote, text = self.reader.written.lookup(path)
        if wrote:
            return text
        state = self.reader.state
        return state.text_of(path) if isinstance(state, FileContents) else None

    def written_text(self, value: Value) -> str | None:
        """What the line itself wrote into the file at `value` and spelled out; None for anything else."""
        path = self._known_path(value)
        return None if path is None else self.reader.written.lookup(path)[1]

    def _known_path(self, value: Value) -> str | None:
        """The absolute path `value` names, where the line spells it out and knows the folder it is relative to."""
        if not value.literal or not (self.scope.cwd_known or value.text.startswith("/")):
            return None
        return self.scope.path(value)[0]

    def is_dir(self, value: Value) -> bool | None:
        state = self.reader.state
        if value.literal and value.text.endswith("/"):
            return True
        if state is None or not value.literal or not self.scope.cwd_known:
            return None
        return state.is_dir(self.scope.path(value)[0])

    # --- findings ---
    def effect(self, kind: EffectKind, value: Value, tree: bool = False, forced: bool = False, pattern: bool = False,
               target: str = "") -> None:
        path, where = self.scope.path(value)
        if not self.scope.cwd_known and not value.text.startswith("/"):
            where = "unknown"
        self.reader.add_effect(Effect(kind, path, where, tree=tree, pattern=pattern or value.glob, forced=forced,
                                      target=target, program=self.program, command=self.index))
        if not value.literal and not value.glob:
            self.opaque("variable", value.unknown or value.text,
                        f"{self.program} acts on {value.text}, which holds {value.unknown or 'a part'} the line does "
                        "not set")
        elif value.glob:
            self.opaque("glob", value.text, f"{self.program} acts on whatever {value.text} matches")

    def write(self, value: Value, kind: EffectKind, tree: bool = False, pattern: bool = False) -> None:
        """A write that creates the path where the world knows it is absent."""
        if value.literal and value.text in ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty") or \
                value.text.startswith("/dev/fd/"):
            return
        if self.exists(value) is False:
            kind = "created"
        self.effect(kind, value, tree=tree, pattern=pattern)

    def create_parents(self, value: Value) -> None:
        """`mkdir -p`, `install -D`, tar members: the folders above `value` that the world knows are absent."""
        if not value.literal or self.reader.state is None:
            return
        path, _ = self.scope.path(value)
        missing = []
        parent = posixpath.dirname(path.rstrip("/"))
        while parent not in ("/", "") and self.reader.state.exists(parent) is False:
            missing.append(parent)
            parent = posixpath.dirname(parent)
        for folder in reversed(missing):
            self.effect("created", Value(folder))

    def repository(self) -> Value:
        """The work tree git acts on: the nearest folder up from here that holds `.git`, as far as the world knows."""
        folder = self.scope.cwd
        state = self.reader.state
        while state is not None and folder not in ("/", ""):
            if state.exists(posixpath.join(folder, ".git")):
                return Value(folder)
            folder = posixpath.dirname(folder)
        return Value(self.scope.cwd)

    def need_parent(self, value: Value, error: str) -> None:
        """A path about to be created needs its folder: bash and touch fail without it."""
        if not value.literal or "/" not in value.text.rstrip("/"):
            return
        path, _ = self.scope.path(value)
        if self.scope.cwd_known or value.text.startswith("/"):
            self.reader.requirements.append(Requirement(posixpath.dirname(path), value.text, self.program,
                                                        error.format(value.text), self.index))

    def need(self, value: Value, error: str, condition: Condition = "exists") -> None:
        if not value.literal or value.text in ("-", ""):
            return
        path, _ = self.scope.path(value)
        if not self.scope.cwd_known and not value.text.startswith("/"):
            return
        self.reader.requirements.append(Requirement(path, value.text, self.program, error.format(value.text),
                                                    self.index, condition))

    def opaque(self, what: OpaqueWhat, text: str, reason: str, risky: bool = False,
               bound: tuple[str, ...] | None = None) -> None:
        self.reader.opaque.append(Opaque(what, text[:200], reason, risky, self.index, bound))

    def network(self, kind: EffectKind, host: str, value: Value | None = None) -> None:
        if value is not None:
            path, where = self.scope.path(value)
        else:
            path, where = "", "unknown"
        self.reader.add_effect(Effect(kind, path, where, target=host, program=self.program, command=self.index))

    def privilege(self, reason: str) -> None:
        self.reader.add_effect(Effect("privilege", "", "unknown", target=reason, program=self.program,
                                      command=self.index))

    # --- commands this one runs ---
    def run(self, words: Sequence[Value], stdin: Stdin | None = None, scope: Scope | None = None,
            as_text: Callable[[], str] | None = None) -> None:
        """Another command this one starts (a wrapper's, find -exec's, xargs'), read like any other."""
        self.reader.run_words(list(words), scope or self.scope, self.index, stdin or self.stdin,
                              as_text() if as_text else " ".join(word.text for word in words))

    def run_script(self, code: str, scope: Scope | None = None, stdin: Stdin | None = None) -> None:
        """Shell code given as text (`sh -c`, `eval`): parsed and read like the line itself."""
        self.reader.run_code(code, (scope or self.scope).copy(), self.index, stdin)
