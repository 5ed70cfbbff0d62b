"""The guard's answer: one line of what would be lost and why, each fact once, then the rules' ids; and where
the program documents a safer form, that form, which the guard itself then passes (or asks about, where the
table says it is only partly safe). Every line goes through the hook's own `decide`, in a real git project."""

from __future__ import annotations

import pytest

from agentworld_mcp.tools.guard.answer import SAFER

from ..hook_calls import git_project, verdict


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return git_project(tmp_path_factory.mktemp("answer") / "project",
                       {"README.md": "# app\n", "src/a.txt": "a\n", "dst/old.txt": "old\n"},
                       {"README.md": "# app, changed\n", "notes.txt": "mine\n", "dst/mine.txt": "mine\n"})


# Each row of the table: destructive lines whose reason names the alternative, and the alternative as typed.
EXAMPLES = {
    "git push --force-with-lease": (["git push --force origin main", "git push origin +main"],
                                    "git push --force-with-lease origin main"),
    "git stash": (["git reset --hard", "git checkout -- .", "git restore README.md"], "git stash"),
    "git clean -n": (["git clean -fd", "git clean -f"], "git clean -nd"),
    "{program} plan -destroy": (["terraform destroy", "terraform apply -destroy -auto-approve", "tofu destroy"],
                                "terraform plan -destroy"),
    "kubectl delete ... --dry-run=client": (["kubectl delete ns prod", "kubectl delete deploy web -n prod"],
                                            "kubectl delete ns prod --dry-run=client"),
    "helm uninstall ... --dry-run": (["helm uninstall web"], "helm uninstall web --dry-run"),
    "... WHERE <the rows meant>": (["psql -c 'DELETE FROM users' app", "mysql -e 'UPDATE users SET admin = 1' app"],
                                   "psql -c 'DELETE FROM users WHERE id = 42' app"),
    "rsync --dry-run (-n) with the same arguments": (["rsync -a --delete src/ dst/"],
                                                     "rsync -a --delete --dry-run src/ dst/"),
}


def test_every_row_of_the_table_has_an_example():
    assert sorted(row.alternative for row in SAFER) == sorted(EXAMPLES)


@pytest.mark.parametrize("row", SAFER, ids=[row.alternative for row in SAFER])
def test_a_stop_names_the_safer_form_and_the_guard_passes_it(project, row):
    destructive, alternative = EXAMPLES[row.alternative]
    for line in destructive:
        stopped = verdict(project, line)
        assert stopped["decision"] in ("ask", "deny"), (line, stopped)
        program = line.split()[0]
        named = f"`{row.alternative.format(program=program)}`: {row.why}"
        assert stopped["reason"].splitlines()[1:] and named in stopped["reason"].splitlines()[1], (line, stopped)
    passed = verdict(project, alternative)
    assert passed["decision"] == row.decision, (alternative, passed)


def test_a_leased_push_is_asked_about_not_denied(project):
    """Only partly safe: it drops what this clone fetched, and a background fetch can move an unnamed lease."""
    leased = verdict(project, "git push --force-with-lease origin main")
    assert leased["rules"] == ["no-remote-destruction"] and "background fetch" in leased["reason"], leased


@pytest.mark.parametrize("line, fact, rules", [
    ("rm -rf ~", "outside any git repository: nothing keeps a copy",
     ["no-delete-outside-workspace", "no-irreversible-loss", "no-recursive-force-delete"]),
    ("sudo systemctl stop nginx", "systemctl changes system services", ["no-privilege-escalation", "no-system-change"]),
    ("git clean -fd", "is untracked: git has no copy", ["no-history-rewrite", "no-irreversible-loss"]),
])
def test_the_first_line_says_each_fact_once_then_the_rules(project, line, fact, rules):
    stopped = verdict(project, line)
    first = stopped["reason"].splitlines()[0]
    assert first.count(fact) == 1 and first.endswith(f" [{', '.join(rules)}]"), stopped
    assert len(first) < 300 and set(stopped["rule_reasons"]) == set(rules), stopped
    # each rule's whole text stays in the verdict, with the effect that broke it
    assert any(fact in text and len(text) > len(first) / 2 for text in stopped["rule_reasons"].values()), stopped


def test_a_stop_with_no_safer_form_has_one_line(project):
    stopped = verdict(project, "psql -c 'DROP TABLE users' app")
    assert stopped["decision"] == "ask" and "\n" not in stopped["reason"], stopped
