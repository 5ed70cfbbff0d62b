"""A world's virtual shell: the lines it can compute from the exact facts of the world's record.

The record (domains/shell/world/knowledge.py) holds files with their content or "content unknown", folders with
"listing complete" or not, paths known to be gone, the working folder and variables. To compute a line, what
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
from dataclasses import dataclass, field, replace
from functools import cache

from bashkit import Bash, BuiltinContext, BuiltinResult, ExecutionProfile

from ..world.knowledge import Knowledge, ancestors, system_folders, under
from ..reading.location import Location
from . import anywhere
from .allowlist import PROGRAMS, proven_errors
from .gate import NotComputable, Reading, read_line
from .dot_entries import Unexpected, with_implied_entries
from .git import VirtualGit, home_problem
from .git_settings import SYSTEM_CONFIG
from .gnu_messages import JOIN_FAILED, gnu_wording, join_wording
from .jq import FAILING_UNLIKE_GNU
from ..programs.usage_errors import Undecided, invalid_option, usage_message
from .listings import problem_with_result, problem_with_world
from .outcome import Change, Outcome
from . import directory_stack
from .shell_state import PROVEN_OPTIONS, prelude as shell_prelude
from .text_tools import content_problem

UNKNOWN_ENTRY = "zz-entry-unknown-to-the-world"  # the extra entry of a folder whose listing is incomplete
# Three fillings for a file whose content is unknown: different first bytes, lengths and line counts.
_UNKNOWN_CONTENT = (b"Content unknown to the world.\n", b"b\n\n", b"")
_SENTINEL = b"a path unknown to the world\n"
_SCRIPT_LINE = re.compile(r"^bash: line \d+: ", re.MULTILINE)
# Messages of the virtual shell that GNU words otherwise (found by the real-bash tests), and missing features.
_UNPROVEN = re.compile(r"not yet implemented|not supported|io error|^cp: cannot copy|^mv: cannot move", re.MULTILINE)
# Programs and options that change files: the world's record of a file is then not what a later program reads.
_CHANGES_FILES = frozenset({"rm", "rmdir", "mv", "cp", "mkdir", "touch", "tee", "sed -i", "sort -o"})
# They may exit non-zero and print nothing (cmp -s; `!`, `[[`, `((`: the shell's constructs).
_SILENT_FAILURES = frozenset({"grep", "test", "[", "false", "cmp", "diff", "!", "[[", "((", "git commit"})
_READS_WORK_TREE = frozenset({"git status", "git add", "git commit", "git diff", "git switch", "git checkout",
                              "git restore", "git rm"})
# Builtins and keywords a function may shadow, beside the allowlist's programs: a line calling one runs the function.
_SHELL_WORDS = frozenset({"set", "declare", "typeset", "unset", "local", "return", "source", "exit", "read", "shift",
                          "eval", "exec", "command", "builtin", "type", "hash", "let", "printf", "echo", "cd", "pwd",
                          "test", "true", "false", "export", "trap", "alias", "shopt", "pushd", "popd", "dirs"})
MAX_OUTPUT = 64 * 1024  # a computed step prints at most this much; more is the model's to summarize
_TIMEOUT = 2.0


class VirtualShell:
    def __init__(self, knowledge: Knowledge, user: str = "dev", host: str = "sandbox", stand_in: bool = False):
        self.knowledge = knowledge
        self.user, self.host = user, host
        self.stand_in = stand_in  # the shell stands in a folder of anywhere.py's: where it is, is not known

    @classmethod
    def starting(cls, cwd: str, home: str, files: dict[str, bytes | None] | None = None,
                 folders: dict[str, bool] | None = None, complete: bool = False, user: str = "dev") -> VirtualShell:
        """A world in `cwd` that knows `files` and `folders` exactly; `complete`: the cwd's listing is all there
        is."""
        cwd = posixpath.normpath(cwd)
        return cls(exactly(Knowledge(Location(cwd), posixpath.normpath(home)), files, folders, complete), user)

    # --- computing ---------------------------------------------------------------------------
    def compute(self, line: str) -> Outcome:
        """The exact result of `line` from what the world knows, or NotComputable saying why it is the model's."""
        known = self.knowledge
        if not known.cwd_known:
            return self._found_again(line)
        if known.status(known.cwd) != "present" or known.cwd in known.files:
            raise NotComputable("the working folder is not one the world knows")
        if known.shell_changed:
            raise NotComputable(f"an earlier step changed the shell itself ({known.shell_changed!r}): options, "
                                "functions, aliases or its search path the virtual shell does not follow")
        if shadowing := sorted(name for name in known.functions if name in PROGRAMS or name in _SHELL_WORDS):
            raise NotComputable(f"a function named as a program or builtin ({shadowing[0]}): bash runs the function")
        reading = read_line(line, known.cwd, known.home, known.variables, known.oldpwd, known.last_status is not None,
                            known.entries, self._content, cwd_known=not self.stand_in, functions=known.functions,
                            stack=known.dirstack)
        if self.stand_in:
            anywhere.check_reading(known, reading)
        if "git" in reading.forms:
            self._check_git(reading)
        self._check_region(reading)
        if any(known.status(path) != "absent" for path in reading.missing_programs):
            raise NotComputable("a program named by a path the world does not know is absent: what it runs is not "
                                "among the world's facts")
        self._check_contents(reading)
        if any(path in known.folders for path in reading.outputs):
            raise NotComputable("output redirected into a folder: the virtual shell does not refuse it as bash does")
        if any(posixpath.dirname(path) not in known.folders for path in reading.outputs):
            raise NotComputable("output redirected into a folder the world does not know is there: where bash "
                                "fails to open it, the virtual shell still runs the command")
        # A glob's folder needs its listing complete, not known in full: its unsure names are tried below, as unknown.
        for folder in reading.glob_folders:
            if not known.folders.get(folder):
                raise NotComputable(f"a glob over {folder}, whose listing the world does not know in full")
        if problem := problem_with_world(reading.facts, known):
            raise NotComputable(problem)
        if reading.forms & directory_stack.BUILTINS and (problem := directory_stack.problem(
                known.dirstack or (), known.folders, known.files, reading.pushed, known.status)):
            raise NotComputable(problem)
        reach = _Reach.of(known, reading)
        # The named paths the world knows nothing of, and the unsure names in the folders the line reaches (`ls`
        # of a folder where `.git` may be): each is tried as absent, as a file and as a folder.
        # (With the folders it may cd into: `cd` alone names no word, yet enters HOME.)
        unknown = {path for path in (*reading.paths, *reading.cwds[1:]) if known.status(path) == "unknown"} | {
            path for path in known.maybe_there if under(path, reach.tops)}
        if not _plain_text(line.encode("utf-8", "surrogateescape")) or not all(
                _plain_text(known.files.get(path) or b"") for path in (*reach.above, *reach.below)):
            raise NotComputable(_NOT_PLAIN)
        runs = [self._run(line, variant, unknown, reading, reach)
                for variant in range(_variants(known, reading, unknown))]
        first = runs[0]
        if refused := next((run.git_refused for run in runs if run.git_refused), ""):
            raise NotComputable(refused)
        for other in runs[1:]:
            if other.printed != first.printed:
                raise NotComputable("its output depends on files the world does not know")
            if other.state != first.state or other.cwd != first.cwd or other.variables != first.variables or \
                    other.kept != runs[-1].kept or other.repositories != first.repositories or \
                    other.shell != first.shell or other.stack != first.stack:
                raise NotComputable("what it leaves depends on files the world does not know")
        stdout, stderr, code = first.printed
        stderr = self._gnu_stderr(stderr, reading, first)
        # The messages the line prints, those it sends to /dev/null too: each must be one proven to match GNU's
        # (a message worded otherwise may come with another status), even where no one sees it.
        shown = stderr
        for variant, run in enumerate(runs):
            if reading.hidden:
                witness = self._run(_showing_errors(line, reading.hidden), variant, unknown, reading, reach)
                if witness.printed[0] != run.printed[0] or witness.printed[2] != run.printed[2]:
                    raise NotComputable("it prints or exits otherwise when its error output is shown")
                shown = self._gnu_stderr(witness.printed[1], reading, first)
        if _UNPROVEN.search(shown) or _UNPROVEN.search(stderr):
            raise NotComputable("the virtual shell words this error otherwise than GNU, or lacks the feature")
        if code and not shown and not reading.forms & _SILENT_FAILURES:
            raise NotComputable("it fails without a message, which no program it runs does in GNU")
        if shown and not proven_errors(shown) or stderr and not proven_errors(stderr):
            raise NotComputable("its error message is not among the forms proven to read as GNU's")
        if stderr and reading.forms & FAILING_UNLIKE_GNU:
            raise NotComputable("jq's keys or length failed: jq 1.6 words these errors otherwise")
        if reading.piped and shown.count("\n") > 1:
            raise NotComputable("messages from a pipeline, whose stages run at once: their order is a race")
        if shown and reading.several:
            raise NotComputable("an error from a program given several operands: GNU goes on with the others")
        if stdout and stderr:
            raise NotComputable("it prints on both output streams: their order on the screen is unknown")
        if reading.calls and "bash: " in shown:
            raise NotComputable("the shell's own error inside a function: bash names the function's line there")
        if reading.sources and shown:
            raise NotComputable("an error in a line that sources a file: bash names the file and its line there")
        if problem := problem_with_result(reading.facts, stdout, stderr, reading.forms):
            raise NotComputable(problem)
        if len(stdout) + len(stderr) > MAX_OUTPUT:
            raise NotComputable("its output is longer than a computed step shows")
        after = self._knowledge_after(first, runs[-1].kept, reading)
        if not _plain_text((stdout + stderr).encode("utf-8", "surrogateescape")) or not all(
                _plain_text(content or b"") for path, content in after.files.items() if under(path, first.tops)):
            raise NotComputable(_NOT_PLAIN)
        return Outcome(line, stdout, stderr, code, first.cwd, _changes(known, after, unknown), after,
                       frozenset(reading.forms))

    def _gnu_stderr(self, stderr: str, reading: Reading, run: _Run) -> str:
        """A run's error output as a terminal shows it, in GNU's words where gnu_messages.py has them (not where it
        flows into stdout: there a message is data, and left as it is)."""
        stderr = _SCRIPT_LINE.sub("bash: ", stderr)  # an interactive shell names no line: "bash: cd: x: ..."
        if not stderr or reading.merges:
            return stderr
        known = self.knowledge
        # join alone, unredirected: the virtual shell's join fails as the shell's own error (no 2> hides it, and a
        # `> f` is not made)
        if reading.commands == 1 and reading.joined and not reading.hidden and not reading.outputs:
            if stderr == JOIN_FAILED and "!" in reading.forms:
                raise NotComputable("join failing under !: the virtual shell's join fails as the shell's own error, "
                                    "whose status ! does not turn")
            stderr = join_wording(stderr, reading.joined, lambda word: known.status(
                posixpath.normpath(posixpath.join(known.cwd, word))) == "absent")
        return gnu_wording(stderr, reading.typed, reading.cwds, lambda path: known.status(path) == "absent" and
                           path not in run.state[0] and path not in run.state[1])

    def _found_again(self, line: str) -> Outcome:
        """A line the shell starts with a `cd` into a folder the world knows, named whole (`cd ~/project && ls`),
        computed where the shell stands unknown: that cd does not depend on where it stood, and the shell is found
        again. Only where it came from (`cd -`) stays unknown."""
        known = self.knowledge
        target = _leading_cd(line, known.home)
        if target is None or target not in known.folders or known.status(target) != "present":
            return anywhere.compute_anywhere(
                known, lambda placed: VirtualShell(placed, self.user, self.host, stand_in=True).compute(line))
        if any("OLDPWD" in text or _CD_BACK.search(text) for text in (line, *known.functions.values())):
            raise NotComputable("OLDPWD read where the shell stands unknown: after its leading cd, the folder the "
                                "world does not know")
        placed = replace(known.exact_part(), location=known.location.moved_to(target), cwd_known=True, oldpwd=None)
        outcome = VirtualShell(placed, self.user, self.host).compute(line)
        if outcome.after.oldpwd == target:  # the leading cd's: bash's is the folder the world does not know
            outcome.after.oldpwd = None
        return outcome

    def accept(self, outcome: Outcome) -> None:
        self.knowledge.take_exact(outcome.after)

    def written(self, label: str, observation: str, writes: dict[str, bytes], failed: bool = False) -> Outcome:
        """A file tool's step (a coding agent's read, write or edit) that the domain computed from the
        knowledge: `writes` are the files' new contents."""
        after = self.knowledge.exact_part()
        for path, content in writes.items():
            after.files[path] = content
            after.absent.discard(path)
            after.maybe_there.discard(path)
        return Outcome(label, "", "", int(failed), self.knowledge.cwd, _changes(self.knowledge, after, set()), after,
                       observation=observation)

    def _content(self, path: str) -> bytes | None:
        """A file's bytes where the world knows them; nothing for a path known to be absent (bash fails to open it,
        and a loop it feeds never turns); None where the world does not know."""
        known = self.knowledge
        return known.files.get(path) if path in known.files else b"" if known.status(path) == "absent" else None

    def _check_region(self, reading: Reading) -> None:
        """Outside the home, the working folder and /tmp, who may read or write what is the system's business;
        and removing or moving one of those folders, or one the shell stands in, is the system's too."""
        roots = self.knowledge.region
        for path in (*reading.paths, *reading.glob_folders, *reading.cwds[self.stand_in:]):
            if not under(path, roots):
                raise NotComputable(f"{path} lies outside the home, the folder the world started in and /tmp")
        if reading.forms & {"rm", "rmdir", "mv"}:
            for path in reading.paths:
                if path in roots or under(reading.cwds[0], (path,)):
                    raise NotComputable(f"it may remove or move {path}, a folder the system or the shell holds")

    def _check_git(self, reading: Reading) -> None:
        """git runs at the top of a repository the world saw made (or makes one where none is), where the world knows
        git's settings and the virtual git follows them (git_settings.py); all the work tree is what the line reaches."""
        known = self.knowledge
        if reading.moves:
            raise NotComputable("a git command in a line that changes folders: which repository it reads depends on "
                                "the cd")
        if problem := home_problem(known, (*reading.paths, *reading.outputs, *reading.glob_folders)):
            raise NotComputable(problem)
        if reading.forms & _READS_WORK_TREE and (reading.outputs or reading.forms & _CHANGES_FILES):
            # Bash opens `> f` before git runs and a pipeline's stages run at once (`git status | tee f`): what
            # git finds in the work tree then depends on the order, which the virtual shell does not share.
            raise NotComputable("a git command that reads the work tree in a line that writes files")
        git_folder = posixpath.join(known.cwd, ".git")
        if known.cwd not in known.repositories and known.status(git_folder) != "absent":
            raise NotComputable("a git command where the world does not know the repository: its index and commits "
                                "are unknown")
        reading.paths.add(known.cwd)

    def _check_contents(self, reading: Reading) -> None:
        """What the world must know of a file before the line reads it (text_tools.needs_known_content): the
        record is of the file before the line, so a line that may change files first is refused."""
        known = self.knowledge
        if reading.forms & _CHANGES_FILES and reading.content_checks or any(
                path in reading.outputs for path, _ in reading.content_checks):
            raise NotComputable("it may change a file before a program checks what it reads")
        for path, check in reading.content_checks:
            if known.status(path) == "unknown":
                raise NotComputable(f"{path}: the world does not know whether it is there")
            if check == "no folder":
                if path in known.folders:
                    raise NotComputable("test -s or grep -s of a folder: GNU sizes, counts or lists it otherwise")
                continue
            if path in known.folders or path in known.files and known.files[path] is None:
                raise NotComputable(f"{path}: the world does not know what it holds")
            if path in known.files and (problem := content_problem(check, known.files[path] or b"")):
                raise NotComputable(problem)

    def _run(self, line: str, variant: int, unknown: set[str], reading: Reading, reach: _Reach) -> _Run:
        known = self.knowledge
        git = VirtualGit(known.repositories, known, {path for path, content in known.files.items()
                                                          if content is None}, _UNKNOWN_CONTENT[variant])
        bash = Bash(cwd=known.cwd, env={"HOME": known.home, "LANG": "C", "LC_ALL": "C",
                                         **{k: v for k, v in known.variables.items() if k in known.exported}},
                    username=self.user, hostname=self.host, profile=ExecutionProfile.Interactive,
                    timeout_seconds=_TIMEOUT,
                    custom_builtins={**({"git": git} if "git" in reading.forms else {}),
                                     **{program: _usage_error for program in reading.usage_errors}})
        fs = bash.fs()
        # Only what the line can reach is loaded: the paths it names, all below them, and the folders above.
        system = system_folders()
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
        stacked = bool(reading.forms & directory_stack.BUILTINS)
        if stacked and known.dirstack:  # rebuilt by cds and pushds, which leave OLDPWD as it is not
            for folder in known.dirstack:
                if not bash.exists(folder):
                    bash.mkdir(folder, recursive=True)
            bash.execute_sync(directory_stack.seeding(known.dirstack, known.cwd))
            bash.execute_sync("unset OLDPWD")
        if known.oldpwd:  # (None, unknown, is refused by the gate wherever a line reads it)
            bash.execute_sync(f"OLDPWD={shlex.quote(known.oldpwd)}")
        # The status of the line before, for `$?` at this one's start (the virtual shell starts each line afresh),
        # after the functions and options the world keeps (bashkit keeps no option from one script to the next).
        result = bash.execute_sync(shell_prelude(known.functions, known.options) + (
            f"(exit {known.last_status})\n{line}" if known.last_status is not None and "$?" in line else line))
        state = bash.shell_state()
        shell = _shell_after(bash, known, reading, state.variables)
        stack = directory_stack.after(bash.execute_sync("dirs -l -p").stdout) if stacked else known.dirstack
        stdout = result.stdout if reading.dots is None else _with_dots(bash, result.stdout, reading.dots, state.cwd)
        files, folders, kept = _walk(bash, reach, sentinels, variant)
        variables = {name: value for name, value in state.variables.items() if _user_variable(name, value)}
        exported = {name for name in state.env if name in variables}
        return _Run((stdout, result.stderr, result.exit_code), state.cwd, (files, folders),
                     (variables, frozenset(exported)), state.env.get("OLDPWD") or state.variables.get("OLDPWD", ""), reach.tops, kept,
                     git.repositories, git.refused, shell, stack)

    def _knowledge_after(self, run: _Run, kept: frozenset[str], reading: Reading) -> Knowledge:
        """What was known, with all at and below the line's named paths as the run left it (`kept`: the unknown
        paths the line left as they were, where a run filled them in)."""
        before = self.knowledge
        files, folders = run.state
        gone = {path for path in (*before.files, *before.folders)
                if under(path, run.tops) and path not in files and path not in folders}
        after = replace(before.exact_part(), location=before.location.moved_to(run.cwd),
                        files={k: v for k, v in before.files.items() if not under(k, run.tops)},
                        folders={k: v for k, v in before.folders.items() if not under(k, run.tops)},
                        variables=dict(run.variables[0]), exported=set(run.variables[1]),
                        # A line that moved nothing leaves OLDPWD as it was: unknown stays unknown, not unset.
                        oldpwd=None if reading.stacked else run.oldpwd if run.oldpwd or before.oldpwd is not None
                        else None,  # (after pushd or popd, bashkit's OLDPWD is not bash's)
                        absent={k for k in before.absent | gone if k not in files and k not in folders},
                        last_status=run.printed[2], functions=dict(run.shell[0]), options=run.shell[1],
                        dirstack=run.stack,
                        maybe_there={k for k in before.maybe_there if not under(k, run.tops) or k in kept})
        for path, content in files.items():
            after.files[path] = content
            after.absent.discard(path)
        for path in folders:
            # A folder the world had not seen was made by this line: it holds only what the line put there.
            after.folders[path] = before.folders.get(path, True)
            after.absent.discard(path)
        # A repository's record holds while its `.git` does and nothing but git touched it; `.git` itself stays
        # opaque to the file facts (its bytes are git's).
        after.repositories = {}
        for root, record in run.repositories.items():
            git_folder = posixpath.join(root, ".git")
            if git_folder in after.folders and not any(under(path, (git_folder,)) for path in reading.paths):
                after.forget_contents(git_folder)
                after.repositories[root] = record
        return after


_CD_BACK = re.compile(r"\bcd\s+-(?![\w-])")
_LEADING_CD = re.compile(r"\s*cd\s+(?P<folder>~|~/[\w./-]*|/[\w./-]*)\s*(?:&&|;|$)")


def _leading_cd(line: str, home: str) -> str | None:
    """The folder a line's first command `cd`s into, where it is named whole (absolute, or under `~`)."""
    match = _LEADING_CD.match(line)
    if match is None:
        return None
    folder = match.group("folder")
    return posixpath.normpath(home + folder[1:] if folder.startswith("~") else folder)


def _with_dots(bash: Bash, stdout: str, dots: tuple[tuple[str, ...], bool, int], cwd: str) -> str:
    """`ls -a`'s stdout with the implied `.` and `..` (dot_entries.py), read in the folders ls listed (it ran last:
    they are as it saw them)."""
    def kind(path: str) -> str:
        return "" if not bash.exists(path) else "folder" if bash.stat(path)["file_type"] == "directory" else "file"

    def folders_at(path: str) -> int:
        return 1 + sum(folders_at(posixpath.join(path, entry["name"])) for entry in bash.read_dir(path)
                       if entry["metadata"]["file_type"] == "directory")

    named, recursive, _ = dots
    try:
        return with_implied_entries(stdout, list(named), recursive, cwd, kind, folders_at)
    except Unexpected as problem:
        raise NotComputable(f"ls -a: {problem}") from None


def _usage_error(context: BuiltinContext) -> BuiltinResult:
    """A program the gate found given an option GNU's does not have: GNU's message and status, nothing done."""
    try:
        letter = invalid_option(context.name, list(context.argv))
    except Undecided:
        letter = None
    if letter is None:  # not the words the gate read: a message no proven form matches, and the line is refused
        return BuiltinResult(stderr=f"{context.name}: run otherwise than the gate read it\n", exit_code=125)
    message, status = usage_message(context.name, letter)
    return BuiltinResult(stderr=message, exit_code=status)


def _showing_errors(line: str, hidden: list[tuple[int, int, str]]) -> str:
    """The line with its redirections of error output to /dev/null taken out (`&>` keeps stdout's)."""
    data = line.encode("utf-8", "surrogateescape")
    for start, end, kept in sorted(hidden, reverse=True):
        data = data[:start] + b" " + kept.encode() + b" " + data[end:]
    return data.decode("utf-8", "surrogateescape")


def exactly(known: Knowledge, files: dict[str, bytes | None] | None = None, folders: dict[str, bool] | None = None,
            complete: bool = False) -> Knowledge:
    """`known` with the exact facts of a world's start: the system's folders, the home, the working folder
    (`complete`: its listing is all there is), and the `files` and `folders` its start names."""
    for folder in system_folders():
        known.add_folder(folder, False)
    known.add_folder(known.home, False)
    known.absent.add(SYSTEM_CONFIG)  # a machine the world imagines has no system-wide git settings (git_settings.py)
    known.add_folder(known.cwd, complete)
    for path, whole in (folders or {}).items():
        known.add_folder(path, whole)
    for path, content in (files or {}).items():
        known.add_folder(posixpath.dirname(path), known.folders.get(posixpath.dirname(path), False))
        known.files[path] = content
    return known


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
    kept: frozenset[str] = frozenset()  # the fillings of unknown paths the line left as they were
    repositories: dict = field(default_factory=dict)  # the git records as the run left them (git.py)
    git_refused: str = ""  # why the virtual git left a command of the line to the model
    shell: tuple[tuple[tuple[str, str], ...], frozenset[str]] = ((), frozenset())  # functions, options after it
    stack: tuple[str, ...] | None = ()  # pushd's directory stack below its top after it (directory_stack.py)


def _shell_after(bash: Bash, known: Knowledge, reading: Reading, variables
                 ) -> tuple[tuple[tuple[str, str], ...], frozenset[str]]:
    """The functions (name, definition as typed) and proven options the line leaves: those it defined and the run
    defined (bash's `declare -F` names them), the kept ones; pipefail where the run left it on."""
    functions = dict(known.functions)
    if reading.defines:
        declared = {line.split()[-1] for line in bash.execute_sync("declare -F").stdout.splitlines() if line.strip()}
        functions |= {name: source for name, source in reading.defines.items() if name in declared}
    options = frozenset(option for option in PROVEN_OPTIONS if variables.get(f"SHOPT_{option}") == "1")
    return tuple(sorted(functions.items())), options


def _variants(known: Knowledge, reading: Reading, unknown: set[str]) -> int:
    """How many runs tell whether the unknown matters: one when the line names nothing the world does not know,
    three when it names unknown paths (tried as files and as folders), two otherwise."""
    if unknown:
        return 3
    named = (*reading.paths, *reading.glob_folders)
    touches_unknown = any(not complete and _named(folder, reading) for folder, complete in known.folders.items()) or \
        any(content is None and under(path, named) for path, content in known.files.items())
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
            if not under(path, tops):
                tops.append(path)
        cwd = known.cwd
        # Each folder the line may cd to stands with the working folder: `cd` alone names no word, yet enters HOME.
        found = {cwd, *reading.cwds, *(ancestor for path in (*tops, cwd, *reading.cwds) for ancestor in ancestors(path))
                 } - {"/"}
        above = sorted(found - set(tops), key=len) + [cwd] * (cwd in tops)
        below = tuple(path for path in (*known.folders, *known.files) if under(path, tops))
        return cls(tuple(tops), below, tuple(above))


def _named(folder: str, reading: Reading) -> bool:
    """Whether a line that names these paths may look inside `folder` (it names it, or a folder above it)."""
    return under(folder, (*reading.paths, *reading.glob_folders))


def _walk(bash: Bash, reach: _Reach, sentinels: set[str], variant: int
          ) -> tuple[dict[str, bytes | None], frozenset[str], frozenset[str]]:
    """Files (content, None where it is the variant's unknown filling) and folders at and below the line's
    named paths, and which of the folders above them exist, less the fillings; and the fillings the line left
    as they were."""
    files: dict[str, bytes | None] = {}
    folders: set[str] = {path for path in reach.above if bash.exists(path) and path not in sentinels
                         and bash.stat(path)["file_type"] == "directory"}  # a file above a named path is no folder
    kept: set[str] = set()
    fs = bash.fs()
    pending: list[tuple[str, bool]] = [(top, bash.stat(top)["file_type"] == "directory") for top in reach.tops
                                       if bash.exists(top)]
    while pending:
        path, is_folder = pending.pop()
        if is_folder:
            if path in sentinels and not bash.read_dir(path):
                kept.add(path)
                continue  # a filling folder left empty stands for the unknown it was
            folders.add(path)
            pending += [(posixpath.join(path, entry["name"]), entry["metadata"]["file_type"] == "directory")
                        for entry in bash.read_dir(path)]
            continue
        content = bytes(fs.read_file(path))
        if path in sentinels and content == _SENTINEL:
            kept.add(path)
        else:
            files[path] = None if content == _UNKNOWN_CONTENT[variant] else content
    return files, frozenset(folders), frozenset(kept)


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


@cache
def _default_variables() -> dict[str, str]:
    return dict(Bash(cwd="/", env={"HOME": "/", "LANG": "C", "LC_ALL": "C"}).shell_state().variables)


def _user_variable(name: str, value: str) -> bool:
    defaults = _default_variables()
    return name not in ("PWD", "OLDPWD", "HOME", "LANG", "LC_ALL", "_", "USER", "HOSTNAME") and \
        not name.startswith("SHOPT_") and \
        defaults.get(name) != value
