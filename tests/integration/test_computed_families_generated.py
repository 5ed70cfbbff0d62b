"""Each family of computed lines proven by its own generator: the scenarios of a tests/*_lines.py module, with the
near misses just outside what is computed, run line by line in the virtual shell and in a real bash (and the real
program) by the shared engine (tests/differential.py); every line the virtual shell computes must print, exit,
move and leave files exactly as bash does. A family proven both ways also runs with each line the virtual shell
leaves to the model answered by a model that says nonsense, learned as a prediction.

AGENTWORLD_DIFF_SEED (default: the family's seed; `random` draws one) and AGENTWORLD_DIFF_SECONDS (default: the
family's time), as in test_computed_generated.py.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from ..anywhere_lines import anywhere_scenario
from ..differential import explore
from ..jq_lines import jq_scenario
from ..listing_lines import scenario as listing_scenario
from ..shell_lines import Scenario, construct_scenario, shell_state_scenario, stack_scenario, text_scenario


@dataclass(frozen=True)
class Family:
    label: str
    make: Callable[[int], Scenario]
    seed: int
    seconds: float
    both_ways: bool  # also with nonsense predicted between the computed lines
    needs: tuple[str, ...] = ("bash",)
    first: int | None = None  # a held-out range's first seed (explore's `first`), in place of the seed's scenarios


FAMILIES = [
    # The shell's constructs (constructs.py: if, for, while, case, groups, subshells, !, [ ], [[ ]], (( )), $?,
    # here documents, cd -) and the expansions the word reader evaluates (tests/shell_lines.py `construct`).
    Family("constructs", construct_scenario, 2026, 20, both_ways=True),
    # Lines after a step that moves the shell where the world cannot follow (anywhere.py): lines that name paths
    # whole are computed, those that read the folder's name or name paths relative to it are not, and lines that
    # find the shell again (tests/anywhere_lines.py). With real steps between, the real prompt says where it is.
    Family("lines after a move the world cannot follow", anywhere_scenario, 2026, 20, both_ways=True),
    # The shell's own state (shell_state.py): functions and pipefail left by one line, run under by the next; and
    # the same generator from a held-out seed, never looked at while the virtual shell was extended for it.
    Family("the shell's own state", shell_state_scenario, 2066, 20, both_ways=True),
    Family("the shell's own state, held-out seeds", shell_state_scenario, 2066, 10, both_ways=True, first=660_000_000),
    # pushd, popd and dirs, and the directory stack the world keeps between lines (tests/shell_lines.py
    # `stack_scenario`); and from a held-out seed, never looked at while the virtual shell was extended for it.
    Family("the directory stack", stack_scenario, 2067, 15, both_ways=True),
    Family("the directory stack, held-out seeds", stack_scenario, 2067, 8, both_ways=True, first=670_000_000),
    # jq over folders of generated JSON documents, against Debian's jq 1.6 (tests/jq_lines.py).
    Family("jq", jq_scenario, 2031, 20, both_ways=True, needs=("bash", "jq")),
    # The text tools and their widened options over plain text files: sorted and not, tabs, fields, base64
    # (tests/shell_lines.py `text_scenario`).
    Family("text tools", text_scenario, 2027, 20, both_ways=False),
    # Listings, finds, comparisons and path tools (tests/listing_lines.py).
    Family("listings", listing_scenario, 2026, 60, both_ways=False),
]
CASES = [(family, predicted) for family in FAMILIES for predicted in ((False, True) if family.both_ways else (False,))]


@pytest.mark.parametrize(("family", "predicted"), CASES, ids=[
    f"{family.label}, {'nonsense predicted' if predicted else 'real steps'} between" for family, predicted in CASES])
def test_generated_lines_compute_as_real_bash(tmp_path, family: Family, predicted: bool):
    if missing := [program for program in family.needs if shutil.which(program) is None]:
        pytest.skip(f"needs a real {' and '.join(missing)}")
    explore(family.make, tmp_path, family.label, family.seed, family.seconds, predicted, first=family.first)
