"""A world's file tree and working folder, replayed from its steps, with no model."""

from __future__ import annotations

from agentworld_mcp.domains import Turn, builtin_domains
from agentworld_mcp.domains.shell import Location, analyze
from agentworld_mcp.domains.shell.world.knowledge import Knowledge
from agentworld_mcp.domains.shell.world.learning import imply
from agentworld_mcp.tools.worlds.tracking import Tracker

PACKS = builtin_domains()
TERMINAL = PACKS["terminal"]
WORKSPACE = "Working folder: /home/dev/project"


def _replay(*steps: tuple[str, str], state: str = WORKSPACE, pack=TERMINAL) -> Tracker:
    return Tracker.replay(pack, state, [Turn(pack.normalize_action(action), screen) for action, screen in steps])


def test_a_real_listing_says_what_exists_and_so_what_does_not():
    tracker = _replay(("ls", "$ ls\nnotes.txt  build\n$ "))
    tree = tracker.knowledge
    assert tree.exists("/home/dev/project/notes.txt") is True and tree.exists("/home/dev/project/build") is True
    assert tree.exists("/home/dev/project/missing.txt") is False  # a plain ls shows every visible entry
    assert tree.exists("/home/dev/project/.env") is None  # but not the hidden ones
    assert tree.exists("/home/dev/project/build/app.o") is None


def test_effects_apply_unless_the_screen_shows_the_commands_own_error():
    tracker = _replay(("touch a.txt b.txt", ""), ("rm a.txt", "$ rm a.txt\n$ "),
                      ("mv c.txt d.txt", "$ mv c.txt d.txt\nmv: cannot stat 'c.txt': No such file or directory\n$ "))
    tree = tracker.knowledge
    assert tree.exists("/home/dev/project/a.txt") is False and tree.exists("/home/dev/project/b.txt") is True
    assert tree.exists("/home/dev/project/d.txt") is None  # the move failed: nothing is known of d.txt
    missing = tracker.missing(tracker.semantics(TERMINAL.normalize_action("cat a.txt")))
    assert [r.error for r in missing] == ["cat: a.txt: No such file or directory"]
    assert tracker.missing(tracker.semantics(TERMINAL.normalize_action("rm -f a.txt"))) == []


def test_the_shell_moves_with_cd_and_the_workspace_stays():
    tracker = _replay(("mkdir site && cd site", ""))
    assert tracker.location.cwd == "/home/dev/project/site" and tracker.location.root == "/home/dev/project"
    semantics = tracker.semantics(TERMINAL.normalize_action("rm -r ../../other"))
    assert [(e.path, e.where) for e in semantics.effects] == [("/home/dev/other", "outside")]
    assert tracker.missing(tracker.semantics(TERMINAL.normalize_action("cat index.html")))  # a new folder is empty
    unsure = _replay(("mkdir -p site", ""))  # -p may have met a folder that was there, full
    assert unsure.missing(unsure.semantics(TERMINAL.normalize_action("cat site/index.html"))) == []


def test_a_deletion_in_recorded_reality_warns_when_a_prediction_shows_the_file_again():
    tracker = _replay(("rm notes.txt", "$ rm notes.txt\n$ "))
    warnings = tracker.ledger.warnings({"changed": []}, "notes.txt  todo.txt", "ls", TERMINAL.error_markers)
    assert warnings and "notes.txt" in warnings[0]


def test_the_known_state_note_names_what_exists_and_what_is_gone():
    tracker = _replay(("ls", "$ ls\na.txt  b.txt\n$ "), ("rm a.txt", ""))
    assert tracker.note() == "Known in /home/dev/project:\nexists: b.txt\ndoes not exist: a.txt"
    assert _replay().note() == ""  # before any step the state text already says what there is


def test_a_domains_initial_files_start_the_tree():
    tracker = _replay(state="")
    assert tracker.location == Location("/home/dev/project", "/home/dev")
    assert tracker.knowledge.exists("/home/dev/project/README.md") is True
    assert tracker.knowledge.exists("/home/dev/project/nothing.txt") is False


def test_swe_file_tools_have_the_same_effects_as_commands():
    swe = PACKS["swe"]
    tracker = _replay(("bash {\"command\": \"rm src/old.py\"}", ""), state="Working folder: /workspace/app", pack=swe)
    edit = tracker.semantics(swe.normalize_action('edit_file {"path": "src/old.py", "old": "a", "new": "b"}'))
    assert [(e.kind, e.path) for e in edit.effects] == [("modified", "/workspace/app/src/old.py")]
    assert [r.path for r in tracker.missing(edit)] == ["/workspace/app/src/old.py"]
    write = tracker.semantics(swe.normalize_action('write_file {"path": "/etc/motd", "content": "x"}'))
    assert [(e.kind, e.where) for e in write.effects] == [("overwritten", "outside")]


def test_a_pattern_deletion_forgets_what_it_may_have_removed():
    tree = Knowledge.starting(Location("/w"))
    tree.mark("/w/a.tmp", "file")
    tree.mark("/w/keep.txt", "file")
    imply(tree, analyze("rm *.tmp", "/w", state=tree), "", real=True)
    assert tree.exists("/w/a.tmp") is None and tree.exists("/w/keep.txt") is True


def test_a_failed_command_takes_every_later_step_of_its_chain_with_it():
    semantics = analyze("rm gone && touch b && touch c; touch d", "/w")
    left = semantics.without(0)
    assert [e.path for e in left.effects] == ["/w/d"]  # b waited on rm, c on b; d runs regardless


# --- one record, two levels: what the exact facts may and may not answer -----------------------------------
def test_a_snapshots_shell_stands_in_the_real_folder_even_where_the_state_text_cannot_say_it():
    from agentworld_mcp.domains.shell.virtual.shell import VirtualShell

    root = "/home/dev/My App"  # a space: the state text's `Working folder:` line does not parse it
    start = VirtualShell.starting(root, "/home/dev", {f"{root}/a.txt": b"hi\n"}, complete=True)
    tracker = Tracker.replay(TERMINAL, f"Working folder: {root}\n", [], computed=True, start=start)
    assert tracker.compute(TERMINAL.normalize_action("pwd")).stdout == f"{root}\n"


def test_a_step_that_makes_the_exact_facts_unknown_keeps_its_own_implied_effects():
    tracker = Tracker.replay(TERMINAL, "", [], computed=True)  # the domain's own start, known exactly
    tracker.advance(TERMINAL.normalize_action("rm -rf *"), "$ rm -rf *\n$ ", real=False)
    assert "README.md" not in tracker.note()  # what the glob removed is not told as still there
    assert tracker.missing(tracker.semantics(TERMINAL.normalize_action("mkdir tests"))) == []


def test_the_virtual_shells_own_folders_are_no_facts_of_the_world():
    tracker = Tracker.replay(TERMINAL, "", [], computed=True)
    outside = tracker.semantics(TERMINAL.normalize_action("mkdir /home/user /root /proc/x"))
    assert tracker.missing(outside) == []  # bashkit has them; the world says nothing of them
    assert tracker.knowledge.exists("/home/dev/project/README.md") is True  # inside, the exact facts answer


def test_the_note_never_names_the_working_folder_itself():
    tracker = _replay(("touch a", "$ touch a\n$ "), state="Working folder: /")
    assert tracker.note() == "Known in /:\nexists: a"


def test_reality_that_contradicts_a_computed_answer_takes_the_exact_facts_behind_it_away():
    from agentworld_mcp.domains.shell.virtual.shell import VirtualShell

    root = "/home/dev/project"
    start = VirtualShell.starting(root, "/home/dev", {f"{root}/a": b"old\n"}, complete=True)
    tracker = Tracker.replay(TERMINAL, f"Working folder: {root}", [], computed=True, start=start)
    read = TERMINAL.normalize_action("cat a")
    assert tracker.compute(read).stdout == "old\n"
    tracker.advance(read, "$ cat a\nnew\n$ ", real=True)  # the real file said otherwise
    assert tracker.compute(read) is None  # the model's to predict now, never the stale "old"


def test_a_path_an_earlier_command_of_the_line_makes_is_no_missing_operand():
    tracker = _replay(("ls", "$ ls\nnotes.txt\n$ "))  # site is known absent
    for line in ("mkdir site && cd site", "mkdir -p site/src; cd site", "touch site.txt; cat site.txt"):
        assert tracker.missing(tracker.semantics(TERMINAL.normalize_action(line))) == [], line
    assert [r.path for r in tracker.missing(tracker.semantics(TERMINAL.normalize_action("cd site; mkdir site")))] == [
        "/home/dev/project/site"]  # needed before it is made


def test_a_program_read_for_what_it_destroys_not_for_all_it_writes_makes_the_worlds_files_unknown():
    from agentworld_mcp.domains.shell.virtual.shell import VirtualShell

    for line, keeps in (("npm ci", False), ("sqlite3 app.db 'insert into t values (1)'", False),
                        ("terraform init", False), ("jq .name package.json", True), ("du -sh .", True)):
        start = VirtualShell.starting("/home/dev/p", "/home/dev", {"/home/dev/p/app.db": b"db\n"}, complete=True)
        tracker = Tracker.replay(TERMINAL, WORKSPACE, [], computed=True, start=start)
        tracker.advance(TERMINAL.normalize_action(line), "", real=False)
        assert (tracker.compute(TERMINAL.normalize_action("cat app.db")) is not None) is keeps, line
        assert (tracker.compute(TERMINAL.normalize_action("ls")) is not None) is keeps, line  # node_modules, .terraform


def test_a_step_forgets_only_what_it_may_have_touched():
    from agentworld_mcp.domains.shell.virtual.shell import VirtualShell

    for line, keeps in (("gti status", True), ("sl", True), ("pyhton3 app.py", True), ("exit-now", False),
                        ("python3 --version > /dev/null && echo have-python", True), ("python3 -v", False),
                        ("wc -l src/*.py", True), ("uniq *.txt", False), ("cat $UNSET", True)):
        start = VirtualShell.starting("/home/dev/p", "/home/dev", {"/home/dev/p/notes": b"n\n"}, complete=True)
        tracker = Tracker.replay(TERMINAL, WORKSPACE, [], computed=True, start=start)
        tracker.advance(TERMINAL.normalize_action(line), "nonsense", real=False)
        assert (tracker.compute(TERMINAL.normalize_action("cat notes")) is not None) is keeps, line


def test_a_script_the_world_holds_is_read_by_what_it_says():
    from agentworld_mcp.domains.shell.virtual.shell import VirtualShell

    files = {"/home/dev/p/notes": b"n\n", "/home/dev/p/check.py": b"import json\nprint(json.load(open('a.json')))\n",
             "/home/dev/p/gen.py": b"open('notes', 'w').write('x')\n"}
    for line, keeps in (("python3 check.py", True), ("python3 missing.py", True), ("python3 gen.py", False)):
        start = VirtualShell.starting("/home/dev/p", "/home/dev", files, complete=True)
        tracker = Tracker.replay(TERMINAL, WORKSPACE, [], computed=True, start=start)
        tracker.advance(TERMINAL.normalize_action(line), "nonsense", real=False)
        assert (tracker.compute(TERMINAL.normalize_action("cat notes")) is not None) is keeps, line


def test_a_relative_path_is_unknown_to_the_facts_not_a_hang():
    """The facts hold absolute paths: a relative one (a screen misread as a folder) is unknown, at once."""
    known = Knowledge(Location("/home/dev/project"), "/home/dev")
    known.add_folder("/home/dev/project", complete=True)
    assert known.status("cat: out/h: No such file or directory") == "unknown"
    assert known.status("") == "unknown" and known.status("/home/dev/project/x") == "absent"
