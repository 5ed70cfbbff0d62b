"""No exact fact outlives a step the model predicted that may have touched it (issue 66): generated sessions
(tests/forget_lines.py) of git's verbs that rewrite the work tree, links made and written through, and programs
that take their files from their input, in which any step may be the model's (answered with nonsense), run beside
a real bash with the real git (its home bare, GIT_CONFIG_NOSYSTEM=1). Every step the virtual shell computes must
print, exit, move and leave files as there.

The seeds: CI_SEED's sessions for 45 s, then a held-out range (seeds nobody looked at while writing the rules) for
25 s, reported apart; AGENTWORLD_DIFF_SEED and AGENTWORLD_DIFF_SECONDS as in test_computed_generated.py.
"""

from __future__ import annotations

import shutil

import pytest

from ..differential import explore
from ..forget_lines import session

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None,
                                reason="needs a real bash and git")
CI_SEED = 66
HELD_OUT = 7_000_000  # the first seed of the held-out range


def test_fixed_seeds_compute_nothing_a_predicted_step_may_have_changed(tmp_path):
    explore(session, tmp_path, "sessions that rewrite files", CI_SEED, 45, predicted=True, bare_home=True)


def test_held_out_seeds_compute_nothing_a_predicted_step_may_have_changed(tmp_path):
    explore(session, tmp_path, "held-out sessions that rewrite files", CI_SEED, 25, predicted=True, bare_home=True,
            first=HELD_OUT)


@pytest.mark.parametrize("line", ["node -v", "npm --version", "python3 -V", "go version"])
def test_a_predicted_step_that_prints_a_version_forgets_nothing(line):
    """What it may write is nothing (each program's documented version option): the file known before stays known,
    and the next `cat` is computed. (The generated sessions above prove the same steps against real bash.)"""
    from agentworld_mcp.domains.shell import analyze
    from agentworld_mcp.domains.shell.virtual.shell import VirtualShell
    from agentworld_mcp.domains.shell.world.learning import learn_step

    shell = VirtualShell.starting("/home/dev/p", "/home/dev", files={"/home/dev/p/a.txt": b"one\n"}, complete=True)
    learn_step(shell.knowledge, analyze(line, "/home/dev/p", "/home/dev"), "v9.9.9\n", real=False, exact=True)
    assert shell.compute("cat a.txt").stdout == "one\n"
    learn_step(shell.knowledge, analyze(f"{line} > a.txt", "/home/dev/p", "/home/dev"), "", real=False, exact=True)
    assert "/home/dev/p/a.txt" not in shell.knowledge.files  # redirected, it writes: forgotten
