"""Computed steps without a model: routing, the screen, replay, folder snapshots, and commits never dropped."""

from __future__ import annotations

import pytest
from agentworld_mcp.domains import Turn
from agentworld_mcp.domains.shell.virtual.gate import NotComputable
from agentworld_mcp.domains.shell.world.screen import ShellStep, computed_screen
from agentworld_mcp.domains.shell.virtual.shell import VirtualShell
from agentworld_mcp.server.runtime import load_domain_packs
from agentworld_mcp.server.settings import load_settings
from agentworld_mcp.tools.worlds.tracking import Tracker
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..shell_lines import scenario

PROJECT, HOME = "/home/dev/project", "/home/dev"
FRESH = "Working folder: /home/dev/project\nThe screen shows a fresh prompt: dev@sandbox:~/project$"


@pytest.fixture(scope="module")
def terminal():
    return load_domain_packs(load_settings({}))["terminal"]


def _empty() -> VirtualShell:
    return VirtualShell.starting(PROJECT, HOME, complete=True)


# --- routing -------------------------------------------------------------------------------------
def test_a_fresh_world_leaves_files_it_never_saw_to_the_model_and_computes_what_it_wrote():
    fresh = VirtualShell.starting(PROJECT, HOME)  # nothing known of the folder's files
    for line in ("cat notes.txt", "echo hi > a; cat a"):  # `a` may be a folder there: then the write fails
        with pytest.raises(NotComputable):
            fresh.compute(line)
    listed = _empty()  # the folder known in full: nothing else is there
    outcome = listed.compute("echo hi > a; cat a")
    assert (outcome.stdout, outcome.exit_code) == ("hi\n", 0)
    listed.accept(outcome)
    assert listed.compute("cat a").stdout == "hi\n"


@pytest.mark.parametrize("line", ["mkdir app", "rm -f x", "cp a x", "touch x; cat x", "cat *.txt", "echo b > b"])
def test_what_an_unknown_path_could_change_is_never_computed(line):
    fresh = VirtualShell.starting(PROJECT, HOME, {f"{PROJECT}/a": b"a\n"})  # `a` known, the rest of the folder not
    assert fresh.compute("cat a").stdout == "a\n"
    with pytest.raises(NotComputable):
        fresh.compute(line)


def test_a_deleted_file_stays_deleted():
    shell = _empty()
    for line in ("echo x > f", "rm f"):
        shell.accept(shell.compute(line))
    outcome = shell.compute("cat f")
    assert (outcome.stderr, outcome.exit_code) == ("cat: f: No such file or directory\n", 1)


def test_cd_export_and_variables_carry_over_between_steps():
    shell = _empty()
    for line in ("mkdir d", "cd d", "export GREETING=hi", "NAME=dev"):
        shell.accept(shell.compute(line))
    assert shell.compute("pwd").stdout == f"{PROJECT}/d\n"
    assert shell.compute('echo "$GREETING $NAME"').stdout == "hi dev\n"


@pytest.mark.parametrize("line", ["echo $UNSET_VARIABLE", "echo $?", "cat /etc/passwd", "ls -l", "python3 x.py",
                                  "rmdir .", "rm -r ..", "mv . x"])
def test_what_the_world_cannot_know_goes_to_the_model(line):
    with pytest.raises(NotComputable):
        _empty().compute(line)


def test_a_step_the_model_predicted_makes_exact_only_what_the_world_already_decides(terminal):
    def predicted(tracker, line):
        tracker.advance(terminal.normalize_action(line), f"dev@sandbox:~/project$ {line}\ndev@sandbox:~/project$",
                        real=False)

    def computes(tracker, line):
        return tracker.compute(terminal.normalize_action(line)) is not None

    known_empty = Tracker.replay(terminal, FRESH, [], computed=True, start=_empty())
    predicted(known_empty, "mkdir app")  # nothing was there, and the folder it goes in is: an empty folder now
    assert computes(known_empty, "touch app/main.py; cat app/main.py")
    fresh = Tracker.replay(terminal, FRESH, [], computed=True)
    predicted(fresh, "mkdir app")  # app may have been there, full, or a file: the model's word is no fact
    assert not computes(fresh, "touch app/main.py; cat app/main.py")
    predicted(known_empty, "mkdir -p lib; npm ci")  # could change anything
    assert not computes(known_empty, "cat app/main.py")


def test_a_predicted_cd_moves_the_exact_shell_only_into_a_folder_the_world_knows(terminal):
    tracker = Tracker.replay(terminal, FRESH, [], computed=True, start=_empty())
    for line in ("mkdir lib", "cd lib"):
        tracker.advance(terminal.normalize_action(line), "", real=False)
    assert tracker.compute(terminal.normalize_action("pwd")).stdout == f"{PROJECT}/lib\n"
    tracker.advance(terminal.normalize_action("npm ci"), "", real=False)  # lib's listing: unknown now
    tracker.advance(terminal.normalize_action("cd build"), "", real=False)  # may fail: build was never seen
    assert tracker.knowledge.cwd == f"{PROJECT}/lib/build"  # the prediction, told to the model as implied
    assert tracker.compute(terminal.normalize_action("pwd")) is None
    tracker.advance(terminal.normalize_action("cd build"), "dev@sandbox:~/project/lib$ cd build\n"
                    "bash: cd: build: No such file or directory\ndev@sandbox:~/project/lib$", real=True)
    assert tracker.compute(terminal.normalize_action("pwd")).stdout == f"{PROJECT}/lib\n"  # reality says where


@pytest.mark.parametrize(("line", "stays"), [
    ("cd gone", True), ("cd lib/none", True), ("cd ~/build && ls && cd -", True), ("cd ~/build; ls; cd -", True),
    ("pushd ~/build >/dev/null && ls && popd >/dev/null", True), ("pushd lib; pushd ..; popd; popd; popd", True),
    ("cd ~/build", False), ("cd ~/build && make && cd -", False), ("popd", True),
    ("cd gone || cd lib", "/lib"), ("cd ~/build 2>/dev/null || cd lib", False), ("cd $D && cd -", False)])
def test_a_predicted_move_the_exact_facts_decide_leaves_the_shell_where_they_say(terminal, line, stays):
    """A cd or pushd into a path the world knows is absent fails; one into a folder it does not know, followed both
    ways (moves.py), goes back where it came from either way, or may leave it elsewhere."""
    tracker = Tracker.replay(terminal, FRESH, [], computed=True, start=_empty())
    for typed in ("mkdir lib", "rm -rf gone"):
        tracker.shell.accept(tracker.shell.compute(typed))
    tracker.advance(terminal.normalize_action(line), "", real=False)
    assert tracker.knowledge.cwd_known is bool(stays)
    if stays:
        assert tracker.compute(terminal.normalize_action("pwd")).stdout == f"{PROJECT}{'' if stays is True else stays}\n"
        assert tracker.knowledge.dirstack == ()


def test_where_the_shell_stands_unknown_a_line_that_cannot_depend_on_it_is_still_exact(terminal):
    tracker = Tracker.replay(terminal, FRESH, [], computed=True, start=_empty())
    for line in ("mkdir lib", "echo x > lib/f"):
        tracker.shell.accept(tracker.shell.compute(line))
    tracker.advance(terminal.normalize_action("cd $(ls -d l*)"), "", real=False)  # where it went: unknown
    assert not tracker.knowledge.cwd_known
    outcome = tracker.compute(terminal.normalize_action("cat ~/project/lib/f"))
    assert outcome.stdout == "x\n" and not outcome.cwd_known  # its prompt is the model's to draw
    for line in ("pwd", "echo $PWD", "cat lib/f", "ls", "cd -", "rm -r ~/project/lib"):
        assert tracker.compute(terminal.normalize_action(line)) is None, line
    # The model drew the screen (nonsense here); the world keeps the exact outcome, and still does not know where.
    tracker.advance(terminal.normalize_action("echo hi > ~/project/note"), "ok", real=False)
    assert tracker.compute(terminal.normalize_action("cat ~/project/note")).stdout == "hi\n"
    tracker.advance(terminal.normalize_action("cd -"), "", real=False)  # the folder before: unknown too
    assert not tracker.knowledge.cwd_known
    found = tracker.compute(terminal.normalize_action("cd ~/project/lib"))  # a folder named whole: found again
    assert found.cwd_known and found.cwd == f"{PROJECT}/lib"
    tracker.advance(terminal.normalize_action("cd ~/project/lib"), "", real=False, outcome=found)
    assert tracker.compute(terminal.normalize_action("pwd")).stdout == f"{PROJECT}/lib\n"
    assert tracker.compute(terminal.normalize_action("cd -")) is None  # it came from the folder no one knows


def test_cd_back_in_a_fresh_shell_fails_and_a_stated_world_does_not_know_its_past(terminal):
    fresh = Tracker.replay(terminal, FRESH, [], computed=True, start=_empty())
    outcome = fresh.compute(terminal.normalize_action("cd -"))
    assert (outcome.stderr, outcome.exit_code, outcome.cwd) == ("bash: cd: OLDPWD not set\n", 1, PROJECT)
    assert Tracker.replay(terminal, FRESH, [], computed=True).compute(terminal.normalize_action("cd -")) is None


def test_a_predicted_removal_is_exact_only_where_the_program_cannot_fail(terminal):
    tracker = Tracker.replay(terminal, FRESH, [], computed=True, start=_empty())
    for line in ("mkdir d", "echo x > d/f", "echo y > g"):
        tracker.shell.accept(tracker.shell.compute(line))
    for line in ("rm d", "rm g"):  # rm refuses a folder without -r; a file goes
        tracker.advance(terminal.normalize_action(line), "", real=False)
    assert tracker.compute(terminal.normalize_action("cat d/f")).stdout == "x\n"
    assert tracker.compute(terminal.normalize_action("cat g")).stderr == "cat: g: No such file or directory\n"
    tracker.advance(terminal.normalize_action("rmdir d"), "", real=False)  # not empty: rmdir refuses
    assert tracker.compute(terminal.normalize_action("cat d/f")).stdout == "x\n"


def test_a_real_step_that_went_otherwise_than_computed_teaches_only_its_semantics(terminal):
    tracker = Tracker.replay(terminal, FRESH, [], computed=True, start=_empty())
    write = terminal.normalize_action("echo hi > a")
    tracker.advance(write, "dev@sandbox:~/project$ echo hi > a\nbash: a: Permission denied\ndev@sandbox:~/project$",
                    real=True)
    assert tracker.compute(terminal.normalize_action("cat a")) is None  # what `a` holds, reality did not say
    agreed = Tracker.replay(terminal, FRESH, [], computed=True, start=_empty())
    agreed.advance(write, "dev@sandbox:~/project$ echo hi > a\ndev@sandbox:~/project$", real=True)
    assert agreed.compute(terminal.normalize_action("cat a")).stdout == "hi\n"


def test_what_a_predicted_move_made_is_unknown_not_a_file(terminal):
    tracker = Tracker.replay(terminal, FRESH, [], computed=True)
    for line in ("mkdir src", "mv src lib"):  # the model predicted both; lib is the folder src was
        tracker.advance(terminal.normalize_action(line), f"dev@sandbox:~/project$ {line}\ndev@sandbox:~/project$",
                        real=False)
    assert tracker.compute(terminal.normalize_action("cd lib")) is None
    assert tracker.compute(terminal.normalize_action("cat lib")) is None


# --- the screen ------------------------------------------------------------------------------------
def test_the_screen_is_the_prompt_the_line_its_output_and_the_next_prompt():
    first = computed_screen("", FRESH, ShellStep("echo hi", "hi\n", 0, PROJECT, PROJECT, HOME))
    assert first == "dev@sandbox:~/project$ echo hi\nhi\ndev@sandbox:~/project$"
    moved = computed_screen(first, FRESH, ShellStep("cd /tmp", "", 0, PROJECT, "/tmp", HOME))
    assert moved == first + " cd /tmp\ndev@sandbox:/tmp$"


@pytest.mark.parametrize("model_screen", [
    "dev@sandbox:~/project$ make\nbuilding...\n",  # no prompt after its output
    "dev@sandbox:~/project$ make\nbuilding...\n$ ",  # a bare prompt
    "dev@sandbox:~/project$ make\nbuilding...\nroot@box:/srv# ",  # another shell's prompt
])
def test_a_computed_screen_continues_the_worlds_own_prompt_whatever_a_model_screen_ended_with(model_screen):
    screen = computed_screen(model_screen, FRESH, ShellStep("echo hi", "hi\n", 0, PROJECT, PROJECT, HOME))
    assert screen == "dev@sandbox:~/project$ make\nbuilding...\ndev@sandbox:~/project$ echo hi\nhi\n" \
        "dev@sandbox:~/project$"


def test_no_prompt_no_screen():
    assert computed_screen("", "a state without a prompt", ShellStep("echo hi", "hi\n", 0, PROJECT, PROJECT, HOME)) is None


# --- replay ------------------------------------------------------------------------------------------
_LINES = ["echo a > f", "echo b >> f", "mkdir d", "cp f d/g", "rm f", "cd d", "cd ..", "mv d e", "rm -r e",
          "X=1", "export Y=2", "cat f", "touch t", "rmdir d", "sort f > s", "python3 x.py", "ls"]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(_LINES), max_size=8))
def test_replaying_a_world_from_its_steps_rebuilds_the_same_virtual_shell(terminal, lines):
    live = Tracker.replay(terminal, FRESH, [], computed=True)
    turns, effects = [], []
    for line in lines:
        action = terminal.normalize_action(line)
        outcome = live.compute(action)
        observation = "" if outcome is None else outcome.stdout + outcome.stderr
        live.advance(action, observation, real=False, effects={"source": "computed"} if outcome else None,
                     outcome=outcome)
        turns.append(Turn(action, observation))
        effects.append({"source": "computed"} if outcome else None)
        # A computed step never contradicts what the world takes to be so.
        if outcome is not None and live.knowledge is not None:
            for path in outcome.after.files:
                assert live.knowledge.exists(path) is not False
    replayed = Tracker.replay(terminal, FRESH, turns, [False] * len(turns), effects, computed=True)
    assert replayed.shell is not None and live.shell is not None
    assert replayed.shell.knowledge == live.shell.knowledge


# --- the coding agent's tools (swe) -----------------------------------------------------------------
def test_a_coding_agents_file_tools_and_bash_compute_on_what_the_world_wrote():
    swe = load_domain_packs(load_settings({}))["swe"]
    tracker = Tracker.replay(swe, "", [], computed=True)
    steps = [
        ('write_file {"path": "notes/todo.md", "content": "a\\nb\\n"}', None),  # notes/ is not known: the model's
        ('write_file {"path": "todo.md", "content": "one\\ntwo\\nthree\\n"}', "Wrote 14 bytes to todo.md"),
        ('read_file {"path": "todo.md", "start_line": 2}', "2\ttwo\n3\tthree"),
        ('edit_file {"path": "todo.md", "old": "two", "new": "2\\n2b"}',
         "Edited todo.md: replaced 1 occurrence.\n2\t2\n3\t2b"),
        ('edit_file {"path": "todo.md", "old": "nothing", "new": "x"}', "Error: old text not found in todo.md"),
        ('bash {"command": "wc -l todo.md"}', "4 todo.md\n[exit code: 0]"),
        # The domain's state lists the repository's files: any other is known absent.
        ('bash {"command": "cat gone.md"}', "cat: gone.md: No such file or directory\n[exit code: 1]"),
        ('bash {"command": "cd /tmp && pwd"}', None),  # each call starts in the root: a cd is the model's
        ('read_file {"path": "pyproject.toml"}', None),  # listed by the state, content unknown
    ]
    for action, expected in steps:
        outcome = tracker.compute(swe.normalize_action(action))
        shown = None
        if outcome is not None:
            shown = outcome.observation
            if shown is None and swe.computed_screen is not None:
                shown = swe.computed_screen("", "", ShellStep(outcome.line, outcome.stdout + outcome.stderr,
                                                              outcome.exit_code, "/", outcome.cwd, "/",
                                                              outcome.cwd == tracker.shell.knowledge.cwd))
            tracker.advance(swe.normalize_action(action), shown or "", real=False, outcome=outcome)
        assert shown == expected, action


def test_a_fault_inside_the_virtual_shell_makes_the_line_the_models_and_is_reported(terminal, monkeypatch):
    tracker = Tracker.replay(terminal, FRESH, [], computed=True)
    tracker.advance(terminal.normalize_action("echo hi > a"), "", real=False)

    def broken(self, line):
        raise RuntimeError("io error: is a directory")

    monkeypatch.setattr(VirtualShell, "compute", broken)
    assert tracker.compute(terminal.normalize_action("cat a")) is None
    assert tracker.compute_failure == "RuntimeError: io error: is a directory"
    monkeypatch.undo()
    assert tracker.compute(terminal.normalize_action("pwd")) is not None and tracker.compute_failure == ""


def test_a_file_is_never_taken_for_the_folder_above_a_path_named_under_it():
    """`cat f/g` with f a file used to record f as a folder too; every later line naming f then crashed."""
    shell = _empty()
    for line in ("echo x > f", "cat f/g"):
        try:
            shell.accept(shell.compute(line))
        except NotComputable:
            pass
    assert f"{PROJECT}/f" not in shell.knowledge.folders
    assert shell.compute("cat f").stdout == "x\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_no_generated_line_makes_the_tracker_raise(terminal, seed):
    """Generated lines and file states (tests/shell_lines.py), each computed or learned as a predicted step:
    nothing escapes but a result or None."""
    made = scenario(seed)
    files = {f"{PROJECT}/{name}": content for name, content in made.files.items()}
    folders = {f"{PROJECT}/{folder}": True for folder in made.folders}
    start = VirtualShell.starting(PROJECT, HOME, files, folders, complete=True)
    tracker = Tracker.replay(terminal, FRESH, [], computed=True, start=start)
    for line in made.lines:
        action = terminal.normalize_action(line)
        outcome = tracker.compute(action)
        assert tracker.compute_failure == "", (line, tracker.compute_failure)
        tracker.advance(action, f"dev@sandbox:~/project$ {line}\ndev@sandbox:~/project$", real=False,
                        outcome=outcome)


@pytest.mark.parametrize(("line", "stops"), [("set -o noclobber", True), ("cat() { echo fake; }", True),
                                             ("export PATH=/nowhere", True), ("alias rm='rm -i'", True),
                                             ("find . -name '*.py'", False), ("grep alias notes.txt", False)])
def test_a_step_that_changes_the_shell_itself_stops_computing(terminal, line, stops):
    tracker = Tracker.replay(terminal, FRESH, [], computed=True, start=_empty())
    tracker.advance(terminal.normalize_action(line), f"dev@sandbox:~/project$ {line}\ndev@sandbox:~/project$",
                    real=False)
    assert (tracker.compute(terminal.normalize_action("pwd")) is None) == stops


def test_a_predicted_cd_back_follows_the_previous_folder_the_world_knows(terminal):
    back = Tracker.replay(terminal, FRESH, [], computed=True, start=_empty())
    for line in ("mkdir lib", "cd lib"):
        back.shell.accept(back.shell.compute(line))
    back.advance(terminal.normalize_action("cd -"), "", real=False)
    assert back.compute(terminal.normalize_action("pwd")).stdout == f"{PROJECT}\n"


def test_a_cd_into_a_folder_named_whole_finds_the_shell_again(terminal):
    start = VirtualShell.starting(PROJECT, HOME, folders={f"{PROJECT}/lib": False})  # what else is there: unknown
    tracker = Tracker.replay(terminal, FRESH, [], computed=True, start=start)
    tracker.advance(terminal.normalize_action("cd build"), "", real=False)  # where it stands is now unknown
    assert tracker.compute(terminal.normalize_action("pwd")) is None
    for line in ("cd lib", "cd - && cd /home/dev/project"):  # relative, or back to where it came from: unknown
        assert tracker.compute(terminal.normalize_action(line)) is None
    found = tracker.compute(terminal.normalize_action("cd ~/project/lib && pwd"))
    assert found.stdout == f"{PROJECT}/lib\n" and found.after.oldpwd is None
    tracker.advance(terminal.normalize_action("cd ~/project/lib && pwd"), "", real=False, outcome=found)
    assert tracker.compute(terminal.normalize_action("cd -")) is None  # the folder it left is still unknown
    assert tracker.compute(terminal.normalize_action("cd .. && pwd")).stdout == f"{PROJECT}\n"


def test_a_name_a_predicted_step_may_have_made_leaves_the_rest_of_the_listing_known(terminal):
    tracker = Tracker.replay(terminal, FRESH, [], computed=True, start=VirtualShell.starting(
        PROJECT, HOME, {f"{PROJECT}/notes.txt": b"hi\n"}, complete=True))
    tracker.advance(terminal.normalize_action("git init -q"), "", real=False)  # .git: there or not, unknown
    assert f"{PROJECT}/.git" in tracker.knowledge.maybe_there
    assert tracker.compute(terminal.normalize_action("cat notes.txt")).stdout == "hi\n"
    assert tracker.compute(terminal.normalize_action("mkdir app && ls")).stdout == "app\nnotes.txt\n"  # ls skips .git
    assert tracker.compute(terminal.normalize_action("ls -A")) is None  # .git would show
    assert tracker.compute(terminal.normalize_action("cat .git/HEAD")) is None
    removed = tracker.compute(terminal.normalize_action("rm -rf .git"))
    assert removed is not None and f"{PROJECT}/.git" not in removed.after.maybe_there
    tracker.advance(terminal.normalize_action("rm -rf .git"), "", real=False, outcome=removed)
    assert tracker.compute(terminal.normalize_action("ls -A")).stdout == "notes.txt\n"


@pytest.mark.parametrize(("line", "changed"), [
    ("unset PKG; echo ${PKG:-none}", False), ("unset -v count", False), ("unset -f other", False),
    ("unset PKG X", False), ("unset count", True), ("unset -f count", True), ("unset $X", True),
    ("eval unset count", True), ("command unset count", True), ("declare -f count", True),
    ("if true; then unset count; fi", True)])
def test_a_predicted_unset_changes_the_shell_only_where_it_may_remove_a_kept_function(terminal, line, changed):
    """bash(1): `unset NAME` unsets a variable, and a function only where no variable has the name; `-v` never a
    function; `-f` only the function named."""
    tracker = Tracker.replay(terminal, FRESH, [], computed=True, start=_empty())
    tracker.shell.accept(tracker.shell.compute("count() { echo c; }"))
    tracker.advance(terminal.normalize_action(line), "", real=False)
    assert bool(tracker.knowledge.shell_changed) is changed


def test_the_directory_stack_is_kept_between_lines_and_replayed():
    """pushd, popd and dirs run over the stack the world keeps (directory_stack.py); OLDPWD after them is not
    bashkit's to say, and a stack the world does not know refuses them."""
    shell = VirtualShell.starting(PROJECT, HOME, {f"{PROJECT}/src/a.py": b"x\n"}, {f"{PROJECT}/src": True}, True)
    printed = []
    for line in ("pushd src", "dirs -v", "pushd ..", "popd", "popd", "popd"):
        outcome = shell.compute(line)
        shell.accept(outcome)
        printed.append((outcome.stdout, outcome.stderr, outcome.exit_code))
    assert printed == [("~/project/src ~/project\n", "", 0), (" 0  ~/project/src\n 1  ~/project\n", "", 0),
                       ("~/project ~/project/src ~/project\n", "", 0), ("~/project/src ~/project\n", "", 0),
                       ("~/project\n", "", 0), ("", "bash: popd: directory stack empty\n", 1)]
    assert shell.knowledge.dirstack == () and shell.knowledge.oldpwd is None
    for line in ("echo $OLDPWD", "cd -", "pushd src/a.py", "pushd -n src", "popd +1", "pushd src | cat"):
        with pytest.raises(NotComputable):
            shell.compute(line)
    shell.knowledge.dirstack = None
    with pytest.raises(NotComputable):
        shell.compute("dirs")
