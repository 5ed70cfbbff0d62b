"""The unknown judged by the world model's predicted effects (tools/guard/unknown_judged.py), and which questions a
prediction may answer at all (tools/guard/policy.py): only what a part of the call does, never a known effect's
place or cost."""

from __future__ import annotations

import itertools

import pytest

from agentworld_mcp.domains import load_domains
from agentworld_mcp.server.settings import load_settings
from agentworld_mcp.tools.constraints import preset_problem
from agentworld_mcp.tools.guard.policy import GuardPolicy, GuardVerdict, parsed_call, zero_token_check
from agentworld_mcp.tools.guard.workspace_loss import Workspace
from agentworld_mcp.tools.requests import GuardRequest
from agentworld_mcp.tools.guard.unknown_judged import judged, predicted_effects
from agentworld_mcp.tools.results import Change, Effects, Prediction, Usage

from ..hook_calls import git_project, verdict

ASKED = GuardVerdict(event="pre", decision="ask", domain="terminal", rules=["no-remote-destruction"],
                     rule_reasons={"no-remote-destruction": "zorctl reimage prod: unknown verb"},
                     reason="zorctl reimage prod: the guard does not know what 'reimage' does [no-remote-destruction]")
CHANGES = ("created", "modified", "deleted")


@pytest.mark.parametrize("changes", [combo for size in range(4) for combo in itertools.combinations(CHANGES, size)])
def test_a_predicted_deletion_denies_a_change_asks_and_a_read_or_creation_passes(changes):
    effects = Effects(success=True, source="model",
                      changed=[Change(entity=f"/srv/{kind}", change=kind) for kind in changes])
    verdict = judged(ASKED, effects)
    expected = "deny" if "deleted" in changes else "ask" if "modified" in changes else "none"
    assert verdict.decision == expected
    first, second = verdict.reason.split("\n")
    assert first.startswith("the world model predicts this") and second == (
        "the rules alone could not tell: " + ASKED.reason)
    if expected == "none":
        assert verdict.rules == [] and first.endswith("so it passes")
    else:  # the ids close the first line, marked as a prediction; the entity that decided is named
        assert verdict.rules == ASKED.rules and first.endswith("[no-remote-destruction; predicted]")
        assert f"/srv/{'deleted' if expected == 'deny' else 'modified'}" in first


@pytest.mark.parametrize("success", [False, None])
def test_no_change_without_a_predicted_success_is_no_evidence_and_the_question_stands(success):
    verdict = judged(ASKED, Effects(success=success, source="model", changed=[]))
    assert verdict.decision == "ask" and verdict.rules == ASKED.rules
    assert verdict.reason.startswith(ASKED.reason) and "the question stands" in verdict.reason


def test_no_structured_prediction_leaves_the_question_standing():
    verdict = judged(ASKED, None)
    assert verdict.decision == "ask" and verdict.rules == ASKED.rules
    assert verdict.reason.startswith(ASKED.reason) and "no effects to judge by" in verdict.reason


def test_many_deleted_entities_are_named_up_to_three_and_counted():
    effects = Effects(success=True, source="model", changed=[Change(entity=f"t{i}", change="deleted") for i in range(5)])
    assert "deletes t0, t1, t2 and 2 more [" in judged(ASKED, effects).reason


def _prediction(effects: Effects, model: Effects | None, parse_error: str | None = None) -> Prediction:
    made = Prediction(observation="$ ", effects=effects, parse_error=parse_error, truncated=False,
                      usage=Usage.nothing(), model=None)
    made._model_effects = model
    return made


def test_the_judged_effects_are_the_models_own_answer_or_a_computed_steps_exact_ones():
    model = Effects(success=True, source="model", changed=[Change(entity="prod", change="deleted")])
    command = Effects(success=True, source="command", changed=[])  # the semantics could not tell
    computed = Effects(success=True, source="computed", changed=[Change(entity="/p/a", change="created")])
    assert predicted_effects(_prediction(command, model)) is model
    assert predicted_effects(_prediction(computed, None)) is computed
    assert predicted_effects(_prediction(command, None)) is None
    assert predicted_effects(_prediction(command, model, parse_error="no prompt")) is None


@pytest.mark.parametrize("command, judgeable", [
    ("zorquibctl reimage prod", True),  # a verb no table reads
    ("$CLEANER -rf .", True),  # a program the text does not name
    ("psql -c 'FROBNICATE x'", True),  # SQL that does not parse
    ("rm notes.txt", False),  # a known deletion of untracked work: its cost is known, no prediction may pass it
    ("ls | xargs rm", False),  # a known deletion whose paths the text does not spell out
])
def test_only_what_a_part_of_the_call_does_goes_to_the_model(tmp_path, command, judgeable):
    repo = git_project(tmp_path / "p", {"a.txt": "kept\n"}, {"notes.txt": "untracked work\n"})
    settings = load_settings({})
    domains = load_domains(settings.domains_dir, settings.override_domains, settings.upstream_prompts,
                           preset_problem, check_builtin=False, only="terminal")
    request = GuardRequest(event="pre", tool_name="Bash", tool_input={"command": command}, cwd=str(repo))
    action, _ = parsed_call(request)
    assert action is not None
    checked = zero_token_check(GuardPolicy(), request, action, domains["terminal"], Workspace.local(str(repo)))
    assert checked.verdict is not None and checked.verdict.decision == "ask"
    assert checked.undecided is judgeable
    assert verdict(repo, command)["decision"] == "ask"  # without a model: asked either way
