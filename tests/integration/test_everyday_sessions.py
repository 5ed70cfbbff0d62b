"""The closed-loop proof on everyday agent sessions nobody tuned the virtual shell on (issue 57), and on coding-agent
sessions written from how coding agents work (server/evals/coding.py, issue 66).

Generated sessions (server/evals/everyday.py, server/evals/coding.py) run in a real GNU bash and through the terminal world's
Tracker, every uncomputed step answered by a model that says nonsense (server/evals/closed_loop.py): no
computed step may differ from bash, and the computed share may not fall below today's floor. The share itself,
and the largest families of refused steps, are printed: they are the figures to widen.

AGENTWORLD_SESSIONS_SEED (default CI_SEED; `random` draws one, and a failure names it) and
AGENTWORLD_SESSIONS_SECONDS (default 60) choose the sessions: a run is a prefix of its seed's sessions.
"""

from __future__ import annotations

import os
import random
import shutil
import time

import pytest
from agentworld_mcp.server.evals.closed_loop import Tally, replay
from agentworld_mcp.server.evals import coding
from agentworld_mcp.server.evals.everyday import Session, session
from agentworld_mcp.server.runtime import load_domain_packs
from agentworld_mcp.server.settings import load_settings

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs a real bash")
CI_SEED = 57
# Under the share computed on CI_SEED's sessions (2026-12-06: 86.4% of 18,624 steps in 60 s here; a slower machine
# runs fewer sessions): a change that computes less fails. Raise it as the allowlist widens.
SHARE_FLOOR = 0.8
# The same for the coding-agent sessions (2026-12-07: 32.3% of the first 30 development seeds' 1,435 steps): they
# were written apart from the virtual shell, and most of what they are refused for is the shell's own state and git.
CODING_SHARE_FLOOR = 0.28


@pytest.fixture(scope="module")
def terminal():
    return load_domain_packs(load_settings({}))["terminal"]


@pytest.mark.parametrize("generator, floor, seconds", [(session, SHARE_FLOOR, 60), (coding.session,
                                                                                     CODING_SHARE_FLOOR, 45)],
                         ids=["everyday", "coding"])
def test_generated_sessions_compute_nothing_wrong_in_a_closed_loop_with_a_nonsense_model(tmp_path, terminal,
                                                                                         generator, floor, seconds):
    chosen = os.environ.get("AGENTWORLD_SESSIONS_SEED", str(CI_SEED))
    seed = random.SystemRandom().randrange(2**32) if chosen == "random" else int(chosen)
    deadline = time.monotonic() + float(os.environ.get("AGENTWORLD_SESSIONS_SECONDS", str(seconds)))
    tally = Tally()
    while time.monotonic() < deadline:
        drawn = (seed * 1_000_003 + tally.sessions) % coding.HELD_OUT.start  # held-out seeds are never tested on
        replay(generator(drawn), terminal, tmp_path / str(tally.sessions), tally=tally)
    summary = f"seed {seed} (AGENTWORLD_SESSIONS_SEED={seed} replays it): {tally.summary()}"
    print(summary)
    assert not tally.wrong, summary + "\nwrong computed steps:\n" + "\n".join(w.report() for w in tally.wrong[:20])
    if chosen == str(CI_SEED):
        assert tally.share >= floor, summary


@pytest.mark.parametrize("files, lines", [
    # `cd -` is the model's; the world went on computing in the folder it had left.
    ({}, ["mkdir d", "cd d", "cd -", "pwd"]),
    # After a step it cannot follow (`sl`: command not found), `cd nowhere` is the model's; a screen without cd's own
    # error made the world stand in a folder that does not exist.
    ({}, ["sl", "cd nowhere", "pwd"]),
    # The same for `rm notes` of a folder: bash refuses it ("Is a directory"), the world took it as gone.
    ({"notes/a.txt": "x\n"}, ["sl", "rm notes", "cat notes/a.txt"]),
], ids=["cd-back", "cd-missing", "rm-folder"])
def test_a_step_the_world_could_not_follow_leaves_it_unsure(tmp_path, terminal, files, lines):
    """Found by the sessions above, each with a nonsense screen for the step the model answers (wrong before
    main's 23096f9 and 7910667: a predicted step makes exact only what the world's facts decide)."""
    tally = replay(Session(0, "", files, lines), terminal, tmp_path)
    assert not tally.wrong, tally.wrong[0].report()


def test_a_coding_seed_names_its_session_and_sessions_vary_through_every_phase():
    assert coding.session(7) == coding.session(7)
    drawn = [coding.session(seed) for seed in range(40)]
    assert len({tuple(made.lines) for made in drawn}) == 40
    assert all(any(line.startswith("git init") for line in made.lines) for made in drawn)
    assert sum(any("<<'EOF'" in line for line in made.lines) for made in drawn) == 40  # the reproduction script
    assert sum(any(line.startswith(("git switch", "git checkout")) for line in made.lines) for made in drawn) > 15


def test_a_seed_names_its_session_and_sessions_vary():
    assert session(7) == session(7)
    drawn = [session(seed) for seed in range(40)]
    assert len({tuple(made.lines) for made in drawn}) == 40
    assert len({made.task for made in drawn}) > 20
    assert all(len(made.lines) >= 8 for made in drawn)
