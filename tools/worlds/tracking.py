"""A rollout's record of its world (domains/shell/world/knowledge.py), replayed from its steps, and the ledger of
deletions that consistency warnings read.

Replayed from the world's initial state and every step (recorded reality and committed predictions
alike), then advanced by each new prediction of a plan. Where the domain runs shell lines, the world's
virtual shell computes a step from the record's exact facts: a computed step runs again on replay (it is
deterministic); any other step teaches the record only what its semantics say (domains/shell/world/learning.py).
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...domains import DomainPack, Turn
from ...domains.effects import first_error_line
from ...domains.shell import Location, Requirement, Semantics, stated_location
from ...domains.shell.world.knowledge import Knowledge, under
from ...domains.shell.world.learning import learn_step
from ...domains.shell.virtual.gate import NotComputable
from ...domains.shell.virtual.shell import Outcome, VirtualShell, exactly
from .consistency import EntityLedger
from .state_check import new_part

log = logging.getLogger(__name__)


@dataclass
class Tracker:
    pack: DomainPack
    knowledge: Knowledge | None  # None: the domain says nothing of what its actions do
    ledger: EntityLedger = field(default_factory=EntityLedger)
    steps: int = 0
    shell: VirtualShell | None = None  # computes from the knowledge's exact facts; None: nothing is computed
    last_observation: str = ""  # what the last step showed (a screen repeats it: only what follows is new)
    compute_failure: str = ""  # why the virtual shell failed on the last line it was asked (a fault, not a refusal)

    @classmethod
    def replay(cls, pack: DomainPack, state: str, turns: Sequence[Turn],
               real: Sequence[bool] | None = None, effects: Sequence[dict | None] | None = None,
               computed: bool = False, start: VirtualShell | None = None) -> Tracker:
        """The world after `turns`, from the state text (or the domain's initial state when it is empty).
        `computed`: keep exact facts and compute from them (from `start`, a snapshot's, when the world has one)."""
        knowledge = shell = None
        if pack.semantics is not None:
            default = pack.location or Location("/")
            location = stated_location(state, default) if state else default
            paths = pack.initial_paths if not state else ()
            if computed and (pack.shell_line is not None or pack.computed_file_call is not None):
                shell = start or VirtualShell(_starting_exactly(location, paths, bool(state) and
                                                                states_empty(state, location.cwd)))
                knowledge = shell.knowledge
                # A snapshot's shell stands where the real folder is, whatever the state text could be read as.
                knowledge.location = Location(knowledge.cwd, location.home) if start is not None else location
                if state and start is None:
                    knowledge.oldpwd = None  # a caller's state text tells nothing of the shell's past (`cd -`)
                knowledge.imply_start(paths)
            else:
                knowledge = Knowledge.starting(location, paths)
        tracker = cls(pack, knowledge, shell=shell)
        tracker.advance_all(turns, real, effects)
        return tracker

    def advance_all(self, turns: Sequence[Turn], real: Sequence[bool] | None = None,
                    effects: Sequence[dict | None] | None = None) -> None:
        for index, turn in enumerate(turns):
            self.advance(turn.action, turn.observation, real[index] if real else turn.real,
                         effects[index] if effects else None)

    def copy(self) -> Tracker:
        """An independent copy (the pack is shared: it never changes)."""
        return copy.deepcopy(self, {id(self.pack): self.pack})

    @property
    def location(self) -> Location | None:
        return self.knowledge.location if self.knowledge else None

    def semantics(self, action: str) -> Semantics | None:
        """What `action` does from where the world stands, knowing its files."""
        if self.knowledge is None or self.pack.semantics is None:
            return None
        return self.pack.semantics(action, self.knowledge.location, self.knowledge)

    def note(self) -> str:
        """What the world's steps taught it about its files (nothing before the first step: the
        state text already says what the world starts from)."""
        return self.knowledge.note() if self.knowledge and self.steps else ""

    def missing(self, semantics: Semantics | None) -> list[Requirement]:
        """What the action needs that the world knows is not so (an operand gone, a folder already there):
        the command fails, with these error lines."""
        if semantics is None or self.knowledge is None:
            return []
        return [r for r in semantics.requirements if self.knowledge.holds(r) is False and
                not _changed_before(semantics, r)]

    def compute(self, action: str) -> Outcome | None:
        """The exact outcome of `action` from what the world knows, or None when it is the model's."""
        if self.shell is None:
            return None
        line = self.pack.shell_line(action) if self.pack.shell_line else None
        self.compute_failure = ""
        try:
            if line is not None:
                return self.shell.compute(line)
            if self.pack.computed_file_call is not None:
                done = self.pack.computed_file_call(action, self.shell.knowledge)
                if done is not None:
                    observation, writes, failed = done
                    return self.shell.written(action, observation, writes, failed)
        except NotComputable:
            return None
        except Exception as error:  # noqa: BLE001 - a fault of the virtual shell never fails the call
            # The line is the model's; the world forgets what it knew, since the fault may stem from it.
            log.warning("the virtual shell failed on %r: %s", action, error, exc_info=True)
            self.compute_failure = f"{type(error).__name__}: {error}"
            self.shell.knowledge.forget_all()
        return None

    def advance(self, action: str, observation: str, real: bool, effects: dict | None = None,
                outcome: Outcome | None = None) -> Semantics | None:
        """One more step happened with this screen; returns its effects as they happened. `outcome`: the
        step was computed (on replay, a step whose effects say so is computed again)."""
        self.steps += 1
        planned = self.semantics(action)
        if self.shell is not None and outcome is None:
            computed = self.compute(action)
            # A computed step computes again on replay. What the world's exact facts decide also holds whoever drew
            # the screen: a command typed over several lines (a here-document), or one run where the world does not
            # know which folder the shell stands in, whose screen the model drew, still leaves exact facts, where it
            # leaves the shell itself as it was.
            if real or (effects or {}).get("source") == "computed" or computed is not None and self._screenless(
                    action, computed):
                outcome = computed
            if outcome is not None and real and not self.shows(outcome, observation):
                # Reality went otherwise: the world was not as it knew, so none of what it knew exactly is kept
                # (the model is still told it, as implied facts).
                outcome = None
                self.shell.knowledge.forget_all()
        happened = None
        if self.knowledge is not None:
            happened = learn_step(self.knowledge, planned, observation, real,
                                  exact=self.shell is not None and outcome is None)
        if outcome is not None and self.shell is not None:
            self.shell.accept(outcome)
        if happened is not None:  # the command's own effects, not a model's account of them
            effects = {"changed": [{"entity": e.path, "change": _ledger_kind(e.kind)} for e in happened.files()
                                   if not e.pattern]}
        self.ledger.apply(self.steps, effects)
        self.last_observation = observation
        return happened

    def _screenless(self, action: str, outcome: Outcome) -> bool:
        line = self.pack.shell_line(action) if self.pack.shell_line is not None else None
        known = self.shell.knowledge if self.shell is not None else None
        # Typed over several lines, or where the shell stands in a folder the world does not know exactly (its prompt
        # shows it): the screen is the model's, the outcome exact where it leaves the shell as it was.
        return line is not None and known is not None and ("\n" in line.strip() or not outcome.cwd_known) and \
            outcome.cwd == known.cwd and outcome.after.variables == known.variables

    def shows(self, outcome: Outcome, observation: str) -> bool:
        """Whether a real step's observation is what the computed outcome says: its output, and an error
        exactly when it failed."""
        new = new_part(observation, self.last_observation)
        printed = (outcome.observation or outcome.stdout + outcome.stderr).strip()
        # An error the screen shows: one the domain's markers know, or the very message the computation printed.
        failed = first_error_line(new, self.pack.error_markers) is not None or bool(
            outcome.stderr.strip() and outcome.stderr.strip() in new)
        return printed in new and failed == (outcome.exit_code != 0)


def _changed_before(semantics: Semantics, requirement: Requirement) -> bool:
    """Whether a command before the one that needs `requirement`'s path changes it, or what is above or below it
    (`mkdir -p app/src && cd app`): what the world knew of it before the line no longer decides."""
    return any(effect.command < requirement.command and effect.path and (
        under(requirement.path, (effect.path,)) or under(effect.path, (requirement.path,)))
        for effect in semantics.files())


def _starting_exactly(location: Location, paths: Sequence[str], empty: bool = False) -> Knowledge:
    """The domain's own start, exactly: the paths its initial state names exist (contents unknown), and its
    folder holds nothing else; a state text of the caller's says nothing of the folder's files unless it says
    the folder is empty (`empty`)."""
    files: dict[str, bytes | None] = {path: None for path in paths if not path.endswith("/")}
    folders = {path.rstrip("/"): False for path in paths if path.endswith("/")}
    return exactly(Knowledge(location, location.home or location.cwd), files, folders, complete=bool(paths) or empty)


def states_empty(state: str, cwd: str) -> bool:
    """Whether a state text says in so many words that the working folder holds nothing: `PATH, which is
    empty`, `PATH is empty` or `PATH contains: nothing` (what a snapshot of an empty folder writes)."""
    folder = re.escape(cwd.rstrip("/") or "/")
    return re.search(rf"{folder}/?(?:,? which)? is empty\b|{folder}/? contains: nothing\b", state) is not None


def _ledger_kind(kind: str) -> str:
    return "deleted" if kind in ("deleted", "moved-from") else "created" if kind in ("created", "moved-to") else "modified"
