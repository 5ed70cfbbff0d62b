"""The guard's answer to the agent: one line of what would be lost and why, and a safer form where one exists.

Each fired rule names the effects that break it; several rules that fire on one effect (a `rm -rf ~` is outside
the workspace, irreversible and a tree) name it once. A rule that names no effect (a pattern, a rule on the
action's text, a part of the line that cannot be known) gives its own reason. The rules' ids close the line;
each rule's whole text stays in the verdict's `rule_reasons`.

`SAFER` is data: for an effect's kind, program and form, the command the program's own documentation gives to
see or keep what the destructive one would lose. tests/integration/test_guard_answer.py runs each row's
alternative through the hook and holds the decision written here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ...domains.shell import Effect
from ..constraints import CheckInput, Constraint, ConstraintResult, culprits


@dataclass(frozen=True)
class Safer:
    kind: str  # the effect kind it answers
    programs: frozenset[str]  # the programs it applies to; none: any (a set: no argv for the git-runs-nothing test)
    form: str  # a regex the effect's target must match ('' any)
    alternative: str  # what to run instead, as typed ({program}: the effect's program)
    why: str  # what makes it safer, from the program's documentation
    decision: Literal["none", "ask"]  # what the guard answers the alternative itself


SAFER = (
    Safer("git-force-push", frozenset({"git"}), r"\((force|\+[^)]*)\)$", "git push --force-with-lease",
          "rewrites the remote branch only if it is still where this clone last fetched it (git-push(1))", "ask"),
    Safer("git-discard", frozenset({"git"}), "", "git stash",
          "first, which keeps the changes for `git stash pop` to bring back (git-stash(1))", "none"),
    Safer("git-clean", frozenset({"git"}), "", "git clean -n",
          "(-n for -f, the other options kept) lists what would be deleted and deletes nothing", "none"),
    Safer("remote-destruction", frozenset({"terraform", "tofu"}), r"^(destroy|apply)\b", "{program} plan -destroy",
          "shows what would be destroyed and changes nothing", "none"),
    Safer("remote-destruction", frozenset({"kubectl"}), r"^delete\b", "kubectl delete ... --dry-run=client",
          "prints what would be deleted and deletes nothing", "none"),
    Safer("remote-destruction", frozenset({"helm"}), r"^(uninstall|delete|del|un)\b", "helm uninstall ... --dry-run",
          "simulates the uninstall and removes nothing", "none"),
    Safer("remote-destruction", frozenset(), r"\(no WHERE", "... WHERE <the rows meant>",
          "bounds the DELETE or UPDATE to the rows it names", "none"),
    Safer("deleted", frozenset({"rsync"}), "", "rsync --dry-run (-n) with the same arguments",
          "lists what would be deleted and copied, and changes nothing", "none"),
)


def safer_form(effect: Effect) -> Safer | None:
    """The table's row for this effect, if the program documents a safer form of it."""
    return next((row for row in SAFER if row.kind == effect.kind and re.search(row.form, effect.target)
                 and (effect.program in row.programs or not row.programs)), None)


def effect_line(effect: Effect) -> str:
    """`rm: deleted tree /root: /root is a folder ...`: the effect, then what the workspace or the program says."""
    named = " ".join(part for part in (f"{effect.kind}{' tree' if effect.tree else ''}", effect.path,
                                       f"({effect.target})" if effect.target else "") if part)
    return f"{effect.program}: {named}" + (f": {effect.fact}" if effect.fact else "")


def answer(stops: Sequence[tuple[Constraint, ConstraintResult]], check: CheckInput) -> str:
    """The reason a host shows: one line of each fact once, then the rule ids; a second line with safer forms."""
    facts: list[str] = []
    safer: list[str] = []
    for rule, result in stops:
        effects = culprits(rule, check) if result.status == "violated" else []
        for fact in [effect_line(effect) for effect in effects[:3]] or [result.reason]:
            if fact not in facts:
                facts.append(fact)
        for effect in effects:
            if (row := safer_form(effect)) is not None:
                text = f"`{row.alternative.format(program=effect.program)}`: {row.why}"
                if text not in safer:
                    safer.append(text)
    ids = list(dict.fromkeys(rule.id for rule, _ in stops))
    line = f"{'; '.join(facts)} [{', '.join(ids)}]"
    return line + (f"\nsafer: {'; '.join(safer)}" if safer else "")
