"""A world's virtual shell: what the world knows of its files and shell, and the lines it can compute.

The knowledge is plain data (files with their content or "content unknown", folders with "listing
complete" or not, paths known to be gone, the working folder and variables). To compute a line, what
it can reach (the paths it names, all below them, the folders above) is loaded into `bashkit` (a bash
interpreter over an in-memory filesystem: nothing real is read, written or run), up to three times:
as known, and with every unknown filled in differently (each named path the world knows nothing of
exists, once as a file and once as a folder; every named folder whose listing is incomplete holds one
more entry; every file of unknown content holds other bytes). Only when the runs print the same, exit
the same and leave the same files is the result what the world determines; otherwise the line is the
model's. The line's programs and options must also be on the allowlist (allowlist.py, gate.py).
"""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass, field
from functools import cache

from bashkit import Bash, ExecutionProfile

from ..effects import Semantics
from ..grammar import node_text, parse_tree
from ..sed import sed_scripts
from ..state import doubted_commands
from .allowlist import proven_errors
from .gate import SED_SCRIPT, NotComputable, Reading, read_line

UNKNOWN_ENTRY = "zz-entry-unknown-to-the-world"  # the extra entry of a folder whose listing is incomplete
# Three fillings for a file whose content is unknown: different first bytes, lengths and line counts.
_UNKNOWN_CONTENT = (b"Content unknown to the world.\n", b"b\n\n", b"")
_SENTINEL = b"a path unknown to the world\n"
_SCRIPT_LINE = re.compile(r"^bash: line \d+: ", re.MULTILINE)
# Messages of the virtual shell that GNU words otherwise (found by the real-bash tests), and missing features.
_UNPROVEN = re.compile(r"not yet implemented|not supported|io error|^cp: cannot copy|^mv: cannot move", re.MULTILINE)
# Programs whose target may become a folder (a copied or moved tree, an unpacked archive, a link).
_MAY_MAKE_FOLDERS = frozenset({"cp", "mv", "rsync", "install", "ln", "tar", "unzip", "git", "scp", "7z"})
_CD = re.compile(r"(^|[\s;&|(])cd(\s|$)")
_SILENT_FAILURES = frozenset({"grep", "test", "[", "false"})  # they may exit non-zero and print nothing
MAX_OUTPUT = 64 * 1024  # a computed step prints at most this much; more is the model's to summarize
_TIMEOUT = 2.0
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


@dataclass
class Knowledge:
    """What a world knows: every path here exists; a path absent here is known absent only inside a
    folder whose listing is complete."""

    cwd: str
    home: str
    files: dict[str, bytes | None] = field(default_factory=dict)  # None: it exists, its content is unknown
    folders: dict[str, bool] = field(default_factory=dict)  # path -> its listing is complete
    variables: dict[str, str] = field(default_factory=dict)  # set by computed steps (exported: see `exported`)
    exported: set[str] = field(default_factory=set)
    oldpwd: str = ""
    absent: set[str] = field(default_factory=set)  # removed by a step the world saw: nothing is there or under it
    workspace: str = ""  # the folder the world started in: with the home and /tmp, where a computed line may act
    shell_changed: str = ""  # what changed the shell's own behaviour (`set -o noclobber`, a function): nothing is
    #                          computed after it, since the virtual shell does not follow it

    @property
    def region(self) -> tuple[str, ...]:
        """Where a computed line may read and write: elsewhere, who may do what is the system's business."""
        roots = sorted({self.home, self.workspace or self.cwd, "/tmp"} - {"/"})
        return tuple(root for root in roots if not any(root.startswith(other + "/") for other in roots))

    def status(self, path: str) -> str:
        """"present", "absent" (known so) or "unknown"."""
        if path in self.files or path in self.folders:
            return "present"
        parent = path
        while True:
            if parent in self.absent:
                return "absent"
            parent = posixpath.dirname(parent)
            if parent in self.files:
                return "absent"  # nothing lies under a file
            if parent in self.folders:
                return "absent" if self.folders[parent] else "unknown"
            if parent == "/":
                return "unknown"

    def add_folder(self, path: str, complete: bool) -> None:
        for ancestor in _ancestors(path):
            self.folders.setdefault(ancestor, False)
            self.files.pop(ancestor, None)
            self.absent.discard(ancestor)
        self.absent.discard(path)
        self.folders[path] = complete or self.folders.get(path, False)

    def forget_under(self, path: str) -> None:
        """`path` and everything under it are gone (a deletion the world learned of)."""
        for table in (self.files, self.folders):
            for known in [k for k in table if k == path or k.startswith(path.rstrip("/") + "/")]:
                del table[known]
        self.absent = {k for k in self.absent if not k.startswith(path.rstrip("/") + "/")}
        self.absent.add(path)

    def forget_all(self) -> None:
        """Something changed files the world cannot name: whether any file or folder is still there is
        unknown, except the folders the shell and the system stand on (their listings unknown too)."""
        keep = {self.cwd, self.home, self.workspace, *_system_folders()}
        keep |= {ancestor for path in list(keep) for ancestor in _ancestors(path)}
        self.files = {}
        self.folders = {path: False for path in self.folders if path in keep}
        self.absent.clear()


@dataclass(frozen=True)
class Change:
    path: str
    change: str  # created | modified | deleted
    kind: str  # file | folder


@dataclass(frozen=True)
class Outcome:
    """A computed step: exactly what bash prints and does here, and the knowledge it leaves."""

    line: str
    stdout: str
    stderr: str
    exit_code: int
    cwd: str  # where the shell stands after it
    changes: tuple[Change, ...]
    after: Knowledge
    forms: frozenset[str] = frozenset()  # the allowlist entries it used
    observation: str | None = None  # a file tool's step: the domain's own observation, rendered already


class VirtualShell:
    def __init__(self, knowledge: Knowledge, user: str = "dev", host: str = "sandbox"):
        self.knowledge = knowledge
        self.user, self.host = user, host

    @classmethod
    def starting(cls, cwd: str, home: str, files: dict[str, bytes | None] | None = None,
                 folders: dict[str, bool] | None = None, complete: bool = False, user: str = "dev") -> VirtualShell:
        """A world in `cwd` that knows `files` and `folders`; `complete`: the cwd's listing is all there is."""
        knowledge = Knowledge(posixpath.normpath(cwd), posixpath.normpath(home), workspace=posixpath.normpath(cwd))
        for folder in _system_folders():
            knowledge.add_folder(folder, False)
        knowledge.add_folder(knowledge.home, False)
        knowledge.add_folder(knowledge.cwd, complete)
        for path, whole in (folders or {}).items():
            knowledge.add_folder(path, whole)
        for path, content in (files or {}).items():
            knowledge.add_folder(posixpath.dirname(path), knowledge.folders.get(posixpath.dirname(path), False))
            knowledge.files[path] = content
        return cls(knowledge, user)

    # --- computing ---------------------------------------------------------------------------
    def compute(self, line: str) -> Outcome:
        """The exact result of `line` from what the world knows, or NotComputable saying why it is the model's."""
        known = self.knowledge
        if known.status(known.cwd) != "present" or known.cwd in known.files:
            raise NotComputable("the working folder is not one the world knows")
        if known.shell_changed:
            raise NotComputable(f"an earlier step changed the shell itself ({known.shell_changed!r}): options, "
                                "functions, aliases or its search path the virtual shell does not follow")
        reading = read_line(line, known.cwd, known.home, known.variables)
        self._check_region(reading)
        if any(path in known.folders for path in reading.outputs):
            raise NotComputable("output redirected into a folder: the virtual shell does not refuse it as bash does")
        if any(posixpath.dirname(path) not in known.folders for path in reading.outputs):
            raise NotComputable("output redirected into a folder the world does not know is there: where bash "
                                "fails to open it, the virtual shell still runs the command")
        unknown = {path for path in reading.paths if known.status(path) == "unknown"}
        for folder in reading.glob_folders:
            if not known.folders.get(folder):
                raise NotComputable(f"a glob over {folder}, whose listing the world does not know in full")
        reach = _Reach.of(known, reading)
        if not _plain_text(line.encode("utf-8", "surrogateescape")) or not all(
                _plain_text(known.files.get(path) or b"") for path in (*reach.above, *reach.below)):
            raise NotComputable(_NOT_PLAIN)
        runs = [self._run(line, variant, unknown, reading, reach)
                for variant in range(_variants(known, reading, unknown))]
        first = runs[0]
        for other in runs[1:]:
            if other.printed != first.printed:
                raise NotComputable("its output depends on files the world does not know")
            if other.state != first.state or other.cwd != first.cwd or other.variables != first.variables:
                raise NotComputable("what it leaves depends on files the world does not know")
        stdout, stderr, code = first.printed
        stderr = _SCRIPT_LINE.sub("bash: ", stderr)  # an interactive shell names no line: "bash: cd: x: ..."
        if _UNPROVEN.search(stderr):
            raise NotComputable("the virtual shell words this error otherwise than GNU, or lacks the feature")
        if code and not stderr and not reading.forms & _SILENT_FAILURES:
            raise NotComputable("it fails without a message, which no program it runs does in GNU")
        if stderr and not proven_errors(stderr):
            raise NotComputable("its error message is not among the forms proven to read as GNU's")
        if stderr and reading.several:
            raise NotComputable("an error from a program given several operands: GNU goes on with the others")
        if stdout and stderr:
            raise NotComputable("it prints on both output streams: their order on the screen is unknown")
        if len(stdout) + len(stderr) > MAX_OUTPUT:
            raise NotComputable("its output is longer than a computed step shows")
        after = self._knowledge_after(first)
        if not _plain_text((stdout + stderr).encode("utf-8", "surrogateescape")) or not all(
                _plain_text(content or b"") for path, content in after.files.items() if _under(path, first.tops)):
            raise NotComputable(_NOT_PLAIN)
        return Outcome(line, stdout, stderr, code, first.cwd, _changes(known, after, unknown), after,
                       frozenset(reading.forms))

    def accept(self, outcome: Outcome) -> None:
        self.knowledge = outcome.after

    def written(self, label: str, observation: str, writes: dict[str, bytes], failed: bool = False) -> Outcome:
        """A file tool's step (a coding agent's read, write or edit) that the domain computed from the
        knowledge: `writes` are the files' new contents."""
        after = Knowledge(self.knowledge.cwd, self.knowledge.home, dict(self.knowledge.files),
                          dict(self.knowledge.folders), dict(self.knowledge.variables), set(self.knowledge.exported),
                          self.knowledge.oldpwd, set(self.knowledge.absent), self.knowledge.workspace,
                          self.knowledge.shell_changed)
        for path, content in writes.items():
            after.files[path] = content
            after.absent.discard(path)
        return Outcome(label, "", "", int(failed), self.knowledge.cwd, _changes(self.knowledge, after, set()), after,
                       observation=observation)

    def _check_region(self, reading: Reading) -> None:
        """Outside the home, the working folder and /tmp, who may read or write what is the system's business;
        and removing or moving one of those folders, or one the shell stands in, is the system's too."""
        roots = self.knowledge.region
        for path in (*reading.paths, *reading.glob_folders, *reading.cwds):
            if not _under(path, roots):
                raise NotComputable(f"{path} lies outside the home, the folder the world started in and /tmp")
        if reading.forms & {"rm", "rmdir", "mv"}:
            for path in reading.paths:
                if path in roots or reading.cwds[0].startswith(path.rstrip("/") + "/"):
                    raise NotComputable(f"it may remove or move {path}, a folder the system or the shell holds")

    def _run(self, line: str, variant: int, unknown: set[str], reading: Reading, reach: _Reach) -> _Run:
        known = self.knowledge
        bash = Bash(cwd=known.cwd, env={"HOME": known.home, "LANG": "C", "LC_ALL": "C",
                                         **{k: v for k, v in known.variables.items() if k in known.exported}},
                    username=self.user, hostname=self.host, profile=ExecutionProfile.Interactive,
                    timeout_seconds=_TIMEOUT)
        fs = bash.fs()
        # Only what the line can reach is loaded: the paths it names, all below them, and the folders above.
        system = _system_folders()
        for path in (*reach.above, *sorted(path for path in reach.below if path in known.folders)):
            if path in known.folders and path not in system:
                bash.mkdir(path, recursive=True)
        for path in (*reach.above, *reach.below):  # above: a file where a folder would be, nothing below it
            if path in known.files:
                content = known.files[path]
                fs.write_file(path, content if content is not None else _UNKNOWN_CONTENT[variant])
        sentinels: set[str] = set()
        if variant:
            for folder in reach.below:
                if known.folders.get(folder) is False:
                    entry = posixpath.join(folder, UNKNOWN_ENTRY)
                    fs.write_file(entry, _SENTINEL)
                    sentinels.add(entry)
            for path in sorted(unknown, key=len):
                if known.status(path) != "unknown" or bash.exists(path):
                    continue
                try:
                    bash.mkdir(posixpath.dirname(path), recursive=True)
                except RuntimeError:
                    continue  # under a file filling: nothing lies below a file
                if variant == 2:  # a path only written into may be a folder too: then the write fails
                    bash.mkdir(path, recursive=True)
                else:
                    fs.write_file(path, _SENTINEL)
                sentinels.add(path)
        prelude = "; ".join(f"{name}={shlex.quote(value)}" for name, value in sorted(known.variables.items())
                            if name not in known.exported)
        if prelude:
            bash.execute_sync(prelude)
        if known.oldpwd:
            bash.execute_sync(f"OLDPWD={shlex.quote(known.oldpwd)}")
        result = bash.execute_sync(line)
        state = bash.shell_state()
        files, folders = _walk(bash, reach, sentinels, variant)
        variables = {name: value for name, value in state.variables.items() if _user_variable(name, value)}
        exported = {name for name in state.env if name in variables}
        return _Run((result.stdout, result.stderr, result.exit_code), state.cwd, (files, folders),
                     (variables, frozenset(exported)), state.env.get("OLDPWD", ""), reach.tops)

    def _knowledge_after(self, run: _Run) -> Knowledge:
        """What was known, with all at and below the line's named paths as the run left it."""
        before = self.knowledge
        files, folders = run.state
        gone = {path for path in (*before.files, *before.folders)
                if _under(path, run.tops) and path not in files and path not in folders}
        after = Knowledge(run.cwd, before.home, {k: v for k, v in before.files.items() if not _under(k, run.tops)},
                          {k: v for k, v in before.folders.items() if not _under(k, run.tops)},
                          dict(run.variables[0]), set(run.variables[1]), run.oldpwd,
                          {k for k in before.absent | gone if k not in files and k not in folders}, before.workspace,
                          before.shell_changed)
        for path, content in files.items():
            after.files[path] = content
            after.absent.discard(path)
        for path in folders:
            # A folder the world had not seen was made by this line: it holds only what the line put there.
            after.folders[path] = before.folders.get(path, True)
            after.absent.discard(path)
        return after

    # --- learning from steps it did not compute ------------------------------------------------
    def learn(self, semantics: Semantics | None, cwd: str, shown: str = "") -> None:
        """A step the model predicted or reality showed (`shown`: what its screen showed, where `cwd` is the
        folder the shell stands in after it): what its semantics say it did, no more. A command that may have
        done only part of its work, or none (`doubted_commands`: `rm a b` with `a` missing removes `b`),
        leaves what it names unknown."""
        known = self.knowledge
        if semantics is None:
            return
        doubted = doubted_commands(semantics, shown)
        if (semantics.cwd_after or known.cwd) != cwd or doubted and _CD.search(semantics.line):
            known.forget_all()  # its paths were read from a folder the shell may not have been in
        for effect in semantics.of_commands(*doubted).files():
            if not effect.path or effect.pattern or effect.where == "unknown":
                known.forget_all()
            else:
                _make_unknown(known, posixpath.normpath(effect.path))
        semantics = semantics.without(*doubted)
        if semantics.opaque or any(e.pattern or e.where == "unknown" or not e.path for e in semantics.files()):
            known.forget_all()
        targets, unbounded = _redirects_and_unbounded_words(semantics.line, known.cwd)
        if unbounded:
            # What a glob gave a program (`uniq *.txt` writes its second match), or a sed script's `w` wrote,
            # is not known.
            known.forget_all()
        for path in targets:
            _make_unknown(known, path)  # written or not (a failed redirection writes nothing): unknown
        for effect in semantics.files():
            if not effect.path or effect.pattern or effect.where == "unknown":
                continue
            path = posixpath.normpath(effect.path)
            if effect.kind in ("deleted", "moved-from"):
                known.forget_under(path)
            elif effect.kind == "created" and effect.program == "mkdir":
                status = known.status(path)
                if not effect.forced and known.status(posixpath.dirname(path)) != "present":
                    _make_unknown(known, path)  # without -p it needs its parent: made or not, unknown
                elif status != "present":  # a new folder is empty; `mkdir -p` may have met a full one
                    known.add_folder(path, not effect.forced or status == "absent")
            elif effect.kind == "permissions":
                continue
            elif effect.kind == "moved-to" or effect.program in _MAY_MAKE_FOLDERS:
                _make_unknown(known, path)  # a file or a folder, the semantics do not say: unknown
            elif effect.tree:
                known.forget_under(path)
                known.add_folder(path, False)
            else:  # written: most likely a file now, but a failed write leaves no trace to tell
                _make_unknown(known, path)
        if (changed := _CHANGES_SHELL.search(semantics.line)) is not None:
            known.shell_changed = known.shell_changed or changed.group(0).strip()
        if _CHANGES_STATE.search(semantics.line):
            known.variables.clear()
            known.exported.clear()
        if cwd and cwd != known.cwd:
            known.oldpwd, known.cwd = known.cwd, posixpath.normpath(cwd)
            if known.status(known.cwd) != "present":
                known.add_folder(known.cwd, False)


_NOT_PLAIN = ("it reads or makes bytes other than printable ASCII, tabs and newlines: how the C locale's programs "
              "treat them (characters, words, NUL) is not proven in the virtual shell")
_PLAIN = frozenset(range(0x20, 0x7f)) | {0x09, 0x0a}


def _plain_text(data: bytes) -> bool:
    """Printable ASCII, tabs and newlines only: the bytes whose treatment the differential test proves."""
    return not data.translate(None, bytes(_PLAIN))


@dataclass(frozen=True)
class _Run:
    printed: tuple[str, str, int]
    cwd: str
    state: tuple[dict[str, bytes | None], frozenset[str]]
    variables: tuple[dict[str, str], frozenset[str]]
    oldpwd: str
    tops: tuple[str, ...]  # the outermost paths the line names: all it can read or change is at or below them


def _variants(known: Knowledge, reading: Reading, unknown: set[str]) -> int:
    """How many runs tell whether the unknown matters: one when the line names nothing the world does not know,
    three when it names unknown paths (tried as files and as folders), two otherwise."""
    if unknown:
        return 3
    named = (*reading.paths, *reading.glob_folders)
    touches_unknown = any(not complete and _named(folder, reading) for folder, complete in known.folders.items()) or \
        any(content is None and _under(path, named) for path, content in known.files.items())
    return 2 if touches_unknown else 1


@dataclass(frozen=True)
class _Reach:
    """What a line can read or change: the outermost paths it names (`tops`), what the world knows at or
    below them, and the folders above them and the working folder (outermost first, the cwd with them)."""

    tops: tuple[str, ...]
    below: tuple[str, ...]
    above: tuple[str, ...]

    @classmethod
    def of(cls, known: Knowledge, reading: Reading) -> _Reach:
        tops: list[str] = []
        for path in sorted({*reading.paths, *reading.glob_folders}, key=len):
            if not _under(path, tops):
                tops.append(path)
        cwd = known.cwd
        found = {cwd, *(ancestor for path in (*tops, cwd) for ancestor in _ancestors(path))} - {"/"}
        above = sorted(found - set(tops), key=len) + [cwd] * (cwd in tops)
        below = tuple(path for path in (*known.folders, *known.files) if _under(path, tops))
        return cls(tuple(tops), below, tuple(above))


def _under(path: str, tops) -> bool:
    return any(path == top or path.startswith(top.rstrip("/") + "/") for top in tops)


def _named(folder: str, reading: Reading) -> bool:
    """Whether a line that names these paths may look inside `folder` (it names it, or a folder above it)."""
    return _under(folder, (*reading.paths, *reading.glob_folders))


def _walk(bash: Bash, reach: _Reach, sentinels: set[str], variant: int
          ) -> tuple[dict[str, bytes | None], frozenset[str]]:
    """Files (content, None where it is the variant's unknown filling) and folders at and below the line's
    named paths, and which of the folders above them exist, less the fillings."""
    files: dict[str, bytes | None] = {}
    folders: set[str] = {path for path in reach.above if bash.exists(path) and path not in sentinels
                         and bash.stat(path)["file_type"] == "directory"}  # a file above a named path is no folder
    fs = bash.fs()
    pending: list[tuple[str, bool]] = [(top, bash.stat(top)["file_type"] == "directory") for top in reach.tops
                                       if bash.exists(top)]
    while pending:
        path, is_folder = pending.pop()
        if is_folder:
            if path in sentinels and not bash.read_dir(path):
                continue  # a filling folder left empty stands for the unknown it was
            folders.add(path)
            pending += [(posixpath.join(path, entry["name"]), entry["metadata"]["file_type"] == "directory")
                        for entry in bash.read_dir(path)]
            continue
        content = bytes(fs.read_file(path))
        if not (path in sentinels and content == _SENTINEL):
            files[path] = None if content == _UNKNOWN_CONTENT[variant] else content
    return files, frozenset(folders)


def _changes(before: Knowledge, after: Knowledge, unknown: set[str]) -> tuple[Change, ...]:
    found = []
    for path in sorted(set(after.files) | set(after.folders) | set(before.files) | set(before.folders)):
        kind = "folder" if path in after.folders or path in before.folders else "file"
        was = path in before.files or path in before.folders
        now = path in after.files or path in after.folders
        if now and not was:
            found.append(Change(path, "modified" if path in unknown else "created", kind))
        elif was and not now:
            found.append(Change(path, "deleted", kind))
        elif now and path in after.files and after.files.get(path) != before.files.get(path, b""):
            found.append(Change(path, "modified", kind))
    return tuple(found)


def _make_unknown(known: Knowledge, path: str) -> None:
    """Whether `path` exists, and what it holds, becomes unknown, with the listing of the nearest folder above it
    the world knows (`mkdir -p a/b` may have made `a` too)."""
    known.forget_under(path)
    known.absent.discard(path)
    for ancestor in _ancestors(path):
        known.absent.discard(ancestor)
        if ancestor in known.folders:
            known.folders[ancestor] = False
            break


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


@cache
def _system_folders() -> tuple[str, ...]:
    """The folders every virtual shell starts with (its /tmp, /etc, /usr/bin, ...): they exist, no more is known."""
    bash = Bash()
    found, pending = [], ["/"]
    while pending:
        folder = pending.pop()
        found.append(folder)
        pending.extend(posixpath.join(folder, e["name"]) for e in bash.read_dir(folder)
                       if e["metadata"]["file_type"] == "directory" and folder != "/proc")
    return tuple(sorted(found))


@cache
def _default_variables() -> dict[str, str]:
    return dict(Bash(cwd="/", env={"HOME": "/", "LANG": "C", "LC_ALL": "C"}).shell_state().variables)


def _user_variable(name: str, value: str) -> bool:
    defaults = _default_variables()
    return name not in ("PWD", "OLDPWD", "HOME", "LANG", "LC_ALL", "_", "USER", "HOSTNAME") and \
        defaults.get(name) != value


def _ancestors(path: str) -> list[str]:
    found = []
    while path not in ("/", ""):
        path = posixpath.dirname(path)
        found.append(path)
    return found

