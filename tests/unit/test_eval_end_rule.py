"""`eval samples` ends a predicted observation where `simulate_action` ends it, so a sample measures the
screen the server returns, not text the model wrote past it."""

from __future__ import annotations

from agentworld_mcp.domains import load_domains
from agentworld_mcp.server.evals.one_step import _end_rule
from agentworld_mcp.server.evals.samples import BenchSample

PACKS = load_domains()
BEFORE = "dev@box:~/notes$ echo 'milk' > todo.txt\ndev@box:~/notes$"
AFTER = BEFORE + " cat todo.txt\nmilk\ndev@box:~/notes$"


def _sample(action: str, history: tuple[tuple[str, str], ...] = (("### Turn 1", BEFORE),), domain="terminal"):
    return BenchSample("s-2", domain, "system", history, "### Turn 2", AFTER, action)


def _stop(rule, reply: str) -> int | None:
    scanner = rule.scanner()
    for end in range(1, len(reply) + 1):
        stop = scanner.feed(reply[:end])
        if stop is not None:
            return stop.at
    return None


def test_a_terminal_sample_ends_at_the_prompt_after_its_command():
    rule = _end_rule(PACKS["terminal"], _sample("cat todo.txt"))
    leaked = AFTER + "\n\nAction:\n```\nrm todo.txt\n```\nObservation:\ndev@box:~/notes$ rm todo.txt"
    assert leaked[: _stop(rule, leaked)] == AFTER


def test_without_a_readable_action_a_terminal_reply_ends_at_the_models_own_stop():
    assert _end_rule(PACKS["terminal"], _sample("")) is None
    assert _end_rule(PACKS["terminal"], _sample('[{"keystrokes": 5}]')) is None  # not a valid action


def test_other_domains_end_by_their_own_structure():
    for name, pack in PACKS.items():
        if pack.observation_end != "shell-prompt":
            assert _end_rule(pack, _sample("x", domain=name)).structure == pack.observation_end
