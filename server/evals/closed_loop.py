"""The closed-loop proof of computed steps: everyday sessions run in a real bash and in a world, side by side.

Each session (server/evals/everyday.py) runs line by line in a real `bash --noprofile --norc` in a throwaway
folder, and through the terminal world's Tracker as a rollout would: the world starts from a snapshot of
the same folder (as `from_dir` opens one), each step is computed when the world's virtual shell can, and
otherwise it is "predicted" by a model that says NONSENSE (junk text, an error that did not happen, another
command's output, nothing): the world learns from that screen as it would from a bad model. A computed step
whose stdout, stderr, exit status, working folder or written files differ from real bash is WRONG; the goal
is none, however bad the model, with as many steps computed as possible.
"""

from __future__ import annotations

import random
import re
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ...domains import DomainPack
from ...domains.shell.reading.location import Location
from ...domains.shell.virtual.gate import NotComputable
from ...domains.shell.virtual.shell import Outcome
from ...domains.shell.world.screen import typed_as_one
from ...tools.worlds.folder_snapshot import take_snapshot
from ...tools.worlds.tracking import Tracker
from .everyday import Session
from .gnu_bash import GnuBash

_QUOTED = re.compile(r"\(?'[^']*'\)?|\(?\"[^\"]*\"\)?")
# Refusals because the world does not know enough, not because of the line's own form.
_FOR_WANT_OF_FACTS = re.compile(r"the world does not know|not known exactly|not one the world knows")
_PATH = re.compile(r"(?<![\w.])/[\w./-]+")
_JUNK_WORDS = ("ok", "done", "foo", "error", "main.py", "total 0", "42", "lorem", "ipsum", "drwxr-xr-x", "README.md")


@dataclass(frozen=True)
class Wrong:
    seed: int
    lines: tuple[str, ...]  # the session up to and including the wrong step
    computed: tuple[str, str, int, str]  # stdout, stderr, exit status, working folder
    real: tuple[str, str, int, str]
    files: str = ""  # a written file that differs, if that is what is wrong

    def report(self) -> str:
        where = f"file {self.files}" if self.files else f"computed {self.computed!r}, bash {self.real!r}"
        return f"seed {self.seed}, lines {list(self.lines)!r}: {where}"


@dataclass
class Tally:
    sessions: int = 0
    steps: int = 0
    computed: int = 0
    # Computed steps whose screen one block of output cannot draw (commands on lines of their own, each followed by
    # its output and a prompt), or whose prompt shows a folder the world does not know exactly: their effects and
    # output are exact, their screen is the model's.
    screenless: int = 0
    wrong: list[Wrong] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)  # a refusal family -> the first line refused so
    # The refusals for want of facts an earlier uncomputed step took away, by that step's own refusal family
    # (the last one before): what computing that family would also win back.
    knock_on: Counter[str] = field(default_factory=Counter)
    compute_seconds: list[float] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.computed / self.steps if self.steps else 0.0

    @property
    def exact_share(self) -> float:
        """The steps computed screen and all."""
        return (self.computed - self.screenless) / self.steps if self.steps else 0.0

    def summary(self, top: int = 12) -> str:
        lines = [(f"{self.sessions} sessions, {self.steps} steps, {self.computed} computed ({self.share:.1%}; with "
                  f"their screens {self.exact_share:.1%}, the rest several commands on lines of their own or where the "
                  f"shell's folder is unknown), {len(self.wrong)} wrong")]
        lines += [f"  {count:>5}  {reason}  (e.g. {self.examples[reason][:60]!r})"
                  for reason, count in self.refusals.most_common(top)]
        if self.knock_on and top:
            lines.append("  refused for want of facts, after an earlier step refused as:")
            lines += [f"  {count:>5}  {reason}" for reason, count in self.knock_on.most_common(top // 2)]
        return "\n".join(lines)


def refusal_family(reason: str) -> str:
    """A refusal's reason without the line's own words or paths, so that like refusals count together."""
    return _PATH.sub("PATH", _QUOTED.sub("…", reason)).strip()[:100]


def nonsense(draw: random.Random, outputs: list[str]) -> str:
    """What a model that says nonsense shows for a step."""
    choice = draw.randrange(5)
    if choice == 0 and outputs:
        return draw.choice(outputs)  # another command's output
    if choice == 1:
        return f"bash: {draw.choice(_JUNK_WORDS)}: {draw.choice(('command not found', 'No such file or directory'))}\n"
    if choice == 2:
        return ""
    return "".join(" ".join(draw.choices(_JUNK_WORDS, k=draw.randint(1, 5))) + "\n" for _ in range(draw.randint(1, 4)))


def _screen(line: str, printed: str) -> str:
    prompt = "dev@sandbox:~/project$"
    return f"{prompt} {line}\n{printed}{prompt}"


def lay_out(session: Session, root: Path) -> tuple[Path, Path]:
    """The session's home and project folder under `root`, with the project's starting files."""
    home = root / "home" / "dev"
    project = home / "project"
    project.mkdir(parents=True)
    for name, text in session.files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    return home, project


def world_of(pack: DomainPack, project: Path, home: Path) -> Tracker:
    """The world of the folder as `from_dir` opens one: a snapshot of it, with the session's own home."""
    snapshot = take_snapshot(str(project))
    snapshot.home = str(home)  # not this process's home
    # git there reads no settings: GnuBash sets GIT_CONFIG_NOSYSTEM, and `lay_out`'s home holds none.
    snapshot.git_settings = {}
    tracker = Tracker.replay(pack, snapshot.state_text(), [], computed=True, start=snapshot.shell())
    assert tracker.knowledge is not None and tracker.shell is not None
    tracker.knowledge.location = Location(str(project), str(home))
    # `lay_out` made the home: it holds the project and nothing else (no git configuration, no dotfiles).
    tracker.knowledge.add_folder(str(home), True)
    return tracker


def replay(session: Session, pack: DomainPack, root: Path, nonsense_seed: int | None = None,
           tally: Tally | None = None) -> Tally:
    """One session in a real bash under `root` and in a world of the terminal `pack`; adds to `tally`."""
    tally = tally if tally is not None else Tally()
    home, project = lay_out(session, root)
    tracker = world_of(pack, project, home)
    draw = random.Random(session.seed if nonsense_seed is None else nonsense_seed)
    bash, outputs, cause = GnuBash(project, home, root / "scratch"), [], ""
    stood = str(project)  # where the real shell stands before each line
    tally.sessions += 1
    try:
        for index, line in enumerate(session.lines):
            tally.steps += 1
            action = pack.normalize_action(line)
            began = time.perf_counter()
            outcome = tracker.compute(action)
            spent = time.perf_counter() - began
            stdout, stderr, code, cwd = bash.run(line)
            outputs.append(stdout + stderr)
            stood, before = cwd, stood
            if outcome is None:
                family = refusal_family(_refused_because(tracker, pack, action))
                tally.refusals[family] += 1
                tally.examples.setdefault(family, line)
                if _FOR_WANT_OF_FACTS.search(family):
                    tally.knock_on[cause or "(none before)"] += 1
                else:
                    cause = family
                tracker.advance(action, _screen(line, nonsense(draw, outputs[:-1])), real=False)
                continue
            tally.computed += 1
            tally.screenless += not typed_as_one(line) or not outcome.cwd_known
            tally.compute_seconds.append(spent)
            wrong = _wrong(session, index, outcome, (stdout, stderr, code, cwd), before)
            if wrong is not None:
                tally.wrong.append(wrong)
                return tally  # what follows builds on a world already wrong
            tracker.advance(action, _screen(line, stdout + stderr), real=False,
                            outcome=outcome)
    finally:
        bash.close()
        shutil.rmtree(root, ignore_errors=True)
    return tally


def _refused_because(tracker: Tracker, pack: DomainPack, action: str) -> str:
    """Why the world did not compute the step (the virtual shell is asked again, for its reason)."""
    if tracker.compute_failure:
        return f"the virtual shell failed: {tracker.compute_failure}"
    line = pack.shell_line(action) if pack.shell_line is not None else None
    if line is None:
        return "not one typed line (a heredoc or several lines)"
    assert tracker.shell is not None
    try:
        tracker.shell.compute(line)
    except NotComputable as refusal:
        return str(refusal)
    return "computed on the second asking"


def _wrong(session: Session, index: int, outcome: Outcome, real: tuple[str, str, int, str], stood: str
           ) -> Wrong | None:
    """`stood`: where the real shell stood before the line (where an outcome whose folder the world does not know
    exactly says it stays)."""
    computed = (outcome.stdout, outcome.stderr, outcome.exit_code, outcome.cwd if outcome.cwd_known else stood)
    lines = tuple(session.lines[: index + 1])
    if computed != real:
        return Wrong(session.seed, lines, computed, real)
    for change in outcome.changes:
        path = Path(change.path)
        written = outcome.after.files.get(change.path)
        if change.change == "deleted" and path.exists():
            return Wrong(session.seed, lines, computed, real, f"{path} deleted by the world, still there")
        if change.change != "deleted" and change.kind == "file" and written is not None and \
                (not path.is_file() or path.read_bytes() != written):
            return Wrong(session.seed, lines, computed, real, f"{path} written otherwise than bash wrote it")
    return None
