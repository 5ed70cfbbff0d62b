"""Real steps as examples: the index holds only train sessions' real steps, finds the ones most like
an action, caps what it adds, and a turn shows its examples the same way when it is history."""

from __future__ import annotations

from agentworld_mcp.domains import Turn
from agentworld_mcp.domains.protocol import render_messages
from agentworld_mcp.tools.data.retrieval import RealStepIndex, render
from agentworld_mcp.tools.data.session_split import split_of
from agentworld_mcp.tools.worlds.store import StepRow, Store


def _session(side: str, start: int = 0) -> str:
    """A session id that lands on `side` of the default split."""
    return next(f"s{index}" for index in range(start, 10_000) if split_of(f"s{index}") == side)


def _world(store: Store, session: str, steps: list[tuple[str, str]], source: str = "real") -> None:
    world_id = store.create_world("terminal", "", "", None, world_id=f"import-claude-code-{session}-terminal",
                                  origin={"host": "claude-code", "session": session})
    store.append_steps(world_id, [StepRow(position, action, observation, None, None, source, None, None)
                                  for position, (action, observation) in enumerate(steps, 1)])


def test_only_real_steps_of_train_sessions_are_examples(tmp_path):
    store = Store(tmp_path / "worlds.sqlite3")
    train, test = _session("train"), _session("test")
    _world(store, train, [("git status", "On branch main\nnothing to commit"), ("ls -la src", "main.py"),
                          ("git status", "On branch main\nnothing to commit")])
    _world(store, test, [("git status --short", "M app.py")])
    _world(store, _session("train", start=int(train[1:]) + 1), [("git stash list", "(predicted)")], source="predicted")
    index = RealStepIndex(store)
    assert index.size() == 3
    found = index.nearest("terminal", "git status --short")
    assert [example.action for example in found] == ["git status"]  # one per distinct action; the test session's never
    assert index.nearest("terminal", "docker compose up") == [] and index.nearest("swe", "git status") == []
    store.close()


def test_among_equally_like_steps_those_after_a_like_action_come_first(tmp_path):
    """The state an action meets decides its outcome: `cat notes.txt` fails after `rm notes.txt`."""
    store = Store(tmp_path / "worlds.sqlite3")
    wrote = _session("train")
    removed = _session("train", start=int(wrote[1:]) + 1)
    _world(store, wrote, [("echo milk > notes.txt", ""), ("cat notes.txt", "milk")])
    _world(store, removed, [("rm notes.txt", ""), ("cat notes.txt", "cat: notes.txt: No such file or directory")])
    index = RealStepIndex(store)
    for before, shown in (("rm notes.txt", "No such file"), ("echo bread > notes.txt", "milk")):
        [found] = index.nearest("terminal", "cat notes.txt", k=1, before=before)
        assert shown in found.observation, before
    assert index.nearest("terminal", "rm notes.txt", k=1)[0].before == ""  # a world's first step follows nothing
    store.close()


def test_what_an_example_adds_is_capped():
    from agentworld_mcp.tools.data.retrieval import RealExample

    shown = render([RealExample("cat big.log", "x" * 5000)], max_chars=600)
    assert len(shown) < 700 and shown.endswith("[... cut]")


def test_a_turn_shows_its_examples_the_same_way_as_history(tmp_path):
    from agentworld_mcp.domains import load_domains

    terminal = load_domains()["terminal"]
    examples = "Action:\n```\ngit status\n```\nObservation:\nOn branch main"
    step1 = render_messages(terminal, [], "git status --short", examples=examples)
    assert "**Real steps like this one, recorded in this environment:**\n" + examples in step1[-1]["content"]
    step2 = render_messages(terminal, [Turn("git status --short", "M app.py", examples=examples)], "pwd")
    assert step2[:2] == step1  # the cached prompt is extended, never re-read


def test_a_benchmark_sample_knows_its_action_and_shows_examples_where_a_prediction_does():
    from agentworld_mcp.server.evals.samples import BenchSample, _action_in

    ours = "### Turn 2\n\n**Action:**\n```\ngit status\n```"
    theirs = 'Action:\n[{"keystrokes": "ls\\n", "duration": 1}]'
    assert _action_in(ours) == "git status" and _action_in(theirs) == '[{"keystrokes": "ls\\n", "duration": 1}]'
    sample = BenchSample("terminal/x", "terminal", "system", (), ours, "truth", "git status")
    shown = sample.with_examples("Action:\n```\ngit status\n```\nObservation:\nOn branch main").message
    assert shown.index("**Real steps like this one") < shown.index("**Action:**\n```\ngit status")
    assert sample.with_examples("") is sample
