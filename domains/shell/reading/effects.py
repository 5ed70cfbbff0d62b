"""What a command line does, as typed values: effects, the parts nobody can know, and what must exist.

Every value here is derived from the command's own text and the programs' documented behaviour;
nothing is run and nothing is asked of a model. A part that cannot be known from the text (an
interpreter's code, a variable from the environment, arguments read from stdin) is an `Opaque`,
named as such, never guessed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

# File effects: what happens to a path when the command succeeds.
FILE_KINDS = ("created", "appended", "modified", "overwritten", "truncated", "deleted", "permissions",
              "moved-from", "moved-to")
# Git effects: work that git itself says cannot be undone from the repository.
GIT_KINDS = ("git-discard",         # uncommitted changes in the work tree are replaced (reset --hard, checkout -- p)
             "git-clean",           # untracked files are deleted (clean -f)
             "git-force-push",      # a remote branch is rewritten or deleted (push -f, +ref, --mirror, :ref)
             "git-branch-delete",   # a local branch is deleted (branch -d/-D)
             "git-stash-drop",      # stashed changes are dropped (stash drop/clear)
             "git-history-rewrite",  # every commit is rewritten (filter-branch, filter-repo)
             "git-ref-move")  # a ref is deleted, or set where its old commit may no longer be reachable
EffectKind = Literal[
    "created", "appended", "modified", "overwritten", "truncated", "deleted", "permissions", "moved-from", "moved-to",
    "git-discard", "git-clean", "git-force-push", "git-branch-delete", "git-stash-drop", "git-history-rewrite",
    "git-ref-move", "download", "upload", "exec-download", "privilege",
    "remote-destruction",  # state elsewhere (a cluster, a cloud account, a database) is destroyed (domains/shell/remote)
    "secret-read",  # the content of a file that holds secrets is read (domains/shell/programs/secrets.py)
    "system-change",  # the system rather than files changes: services, schedules, disks, users (programs/system.py)
]
Where = Literal["inside", "outside", "unknown"]
# Kinds that change what a path holds (the guard's "overwrite" rules read these).
WRITE_KINDS = ("created", "appended", "modified", "overwritten", "truncated", "moved-to", "permissions")
# The target of a tree deletion whose folder an earlier command of the same line made (mkdir, mktemp -d) and
# into which nothing was moved: the workspace decides whether it was absent before (tools/guard/workspace_loss.py).
MADE_BY_LINE = "made by this line"
# What a real workspace says an effect would lose (tools/guard/workspace_loss.py); '' where nobody looked.
Loss = Literal["", "none", "recoverable", "irreversible", "unknown"]


@dataclass(frozen=True)
class Effect:
    kind: EffectKind
    path: str = ""  # resolved, absolute; '' where the effect is not on a path (a remote host, a branch)
    where: Where = "unknown"  # relative to the workspace; unknown when the path holds an unknown part
    tree: bool = False  # the effect covers the whole directory tree at `path`
    pattern: bool = False  # `path` is a glob: the effect is on whatever it matches
    forced: bool = False  # git: the forced form (branch -D, push --force); rm: -f
    target: str = ""  # git: the branch, stash or remote; network: the host
    program: str = ""  # the program whose effect this is
    command: int = 0  # which simple command of the line (0-based), for `Semantics.depends_on`
    maybe: bool = False  # inside a branch the text does not decide (`a || b`, if, case, loops)
    loss: Loss = ""  # what the real workspace says the effect loses, where it was looked at
    fact: str = ""  # the fact found on disk that decides `loss`, for the reason shown to the agent

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


OpaqueWhat = Literal["code", "script", "program", "variable", "stdin-arguments", "glob", "interactive", "unparsable",
                     "function"]


@dataclass(frozen=True)
class Opaque:
    """A part of the line whose effect the text does not tell."""

    what: OpaqueWhat
    text: str  # the part as written
    reason: str  # one line for the agent: what is unknown and why
    risky: bool = False  # it could delete or overwrite files: rules over effects cannot be decided
    command: int = 0
    # Where a reading bounds what it may write (a Python run whose code the world knows, launchers/python_runs.py):
    # the paths, each with all under it, and folders that may gain names (ending in '/'); None where nothing bounds it.
    # No rule reads it: it is the world's.
    bound: tuple[str, ...] | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {name: value for name, value in asdict(self).items() if name != "bound"}


Condition = Literal["exists", "absent", "empty"]


@dataclass(frozen=True)
class Requirement:
    """What a command needs of a path, and the error line the program itself prints when it is not so."""

    path: str
    operand: str  # as typed
    program: str
    error: str  # e.g. "cat: x: No such file or directory"
    command: int = 0
    condition: Condition = "exists"  # absent: mkdir without -p; empty: rmdir


@dataclass(frozen=True)
class Semantics:
    line: str
    cwd: str  # where the line starts
    workspace: str
    effects: tuple[Effect, ...] = ()
    opaque: tuple[Opaque, ...] = ()
    requirements: tuple[Requirement, ...] = ()
    programs: tuple[str, ...] = ()  # every simple command's program, in order ('' where unknown)
    cwd_after: str = ""  # the working directory when the line is done (top-level cd)
    depends_on: dict[int, frozenset[int]] = field(default_factory=dict)  # command -> commands that must succeed first
    functions: frozenset[str] = frozenset()  # the functions called whose bodies were read (their effects are here)

    @property
    def risky_opaque(self) -> tuple[Opaque, ...]:
        return tuple(part for part in self.opaque if part.risky)

    def files(self) -> tuple[Effect, ...]:
        return tuple(effect for effect in self.effects if effect.kind in FILE_KINDS)

    def as_variables(self) -> dict[str, Any]:
        """The form CEL rules read as `semantics`."""
        return {
            "effects": [effect.as_dict() for effect in self.effects],
            "opaque": [part.as_dict() for part in self.opaque],
            "programs": list(self.programs),
            "cwd": self.cwd,
            "workspace": self.workspace,
        }

    def worst_case(self) -> dict[str, Any]:
        """The variables with every unknown made as bad as it could be: an effect whose place is unknown
        is outside, and a risky opaque part deletes a tree and overwrites a file outside."""
        effects = [{**effect.as_dict(), "where": "outside" if effect.where == "unknown" else effect.where,
                    "loss": "irreversible" if effect.loss == "unknown" else effect.loss} for effect in self.effects]
        for part in self.risky_opaque:
            for kind in ("deleted", "overwritten"):
                effects.append(Effect(kind, "", "outside", tree=kind == "deleted", program=part.text[:60],
                                      command=part.command, loss="irreversible").as_dict())
        return {**self.as_variables(), "effects": effects}

    def of_commands(self, *commands: int) -> Semantics:
        """The effects of these simple commands alone (a failed command's: it may have done part of them)."""
        return replace(self, effects=tuple(e for e in self.effects if e.command in commands))

    def without(self, *failed: int) -> Semantics:
        """The effects if these simple commands fail: they, and whatever runs only after one of them
        (or after a command that itself did not run) succeeded, do nothing."""
        dropped = set(failed)
        while grown := {index for index, needs in self.depends_on.items() if needs & dropped} - dropped:
            dropped |= grown
        return Semantics(
            self.line, self.cwd, self.workspace,
            tuple(e for e in self.effects if e.command not in dropped),
            tuple(o for o in self.opaque if o.command not in dropped),
            tuple(r for r in self.requirements if r.command not in dropped),
            self.programs, self.cwd_after, self.depends_on, self.functions,
        )
