"""The readings behind wrappers and line-written files, without a workspace on disk: the Makefile reader
(domains/shell/launchers/makefile.py), what the line writes (domains/shell/reading/written.py), the commands
Python code starts (domains/shell/programs/inline_python.py), and the commands wrappers run, each read from the
line's text alone."""

from __future__ import annotations

import pytest

from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.programs.inline_python import Started, commands_started
from agentworld_mcp.domains.shell.launchers.makefile import read_makefile, steps

CWD, HOME = "/home/dev/project", "/home/dev"


class Files:
    """A world that knows these files' text and that nothing else exists."""

    def __init__(self, files: dict[str, str]):
        self.files = {f"{CWD}/{name}" if not name.startswith("/") else name: text for name, text in files.items()}

    def exists(self, path: str) -> bool:
        return path in self.files or any(name.startswith(path.rstrip("/") + "/") for name in self.files)

    def is_dir(self, path: str) -> bool:
        return any(name.startswith(path.rstrip("/") + "/") for name in self.files)

    def text_of(self, path: str) -> str | None:
        return self.files.get(path)


def _read(line: str, files: dict[str, str] | None = None):
    return analyze(line, CWD, home=HOME, state=Files(files or {}))


def _deleted(semantics) -> list[str]:
    return [effect.path for effect in semantics.effects if effect.kind == "deleted"]


def _lines(text: str, goal: str, **command_line: str) -> list[str]:
    makefile = read_makefile(text, lambda name: None, command_line)
    return [code for step in steps(makefile, goal) for _, code in step.lines]


# --- the Makefile reader -------------------------------------------------------------------------
def test_a_recipe_runs_after_its_prerequisites_each_once_with_prefixes_stripped():
    text = "all: b a\n\t@echo all\na: b\n\t-echo a\nb:\n\t+echo b\n\t@-echo b2\n"
    assert _lines(text, "all") == ["echo b", "echo b2", "echo a", "echo all"]


def test_the_default_goal_is_the_first_target_not_starting_with_a_dot():
    makefile = read_makefile(".PHONY: x\n%.o: %.c\n\tcc\nfirst second: dep\n\techo\n", lambda name: None)
    assert makefile.default_goal == "first"
    assert read_makefile(".DEFAULT_GOAL := second\nfirst:\nsecond:\n", lambda name: None).default_goal == "second"


@pytest.mark.parametrize(("text", "expected"), [
    ("V = a\nW := $(V) b\nV = c\nt:\n\techo $(V) $(W)\n", "echo c a b"),  # = is expanded where used, := at once
    ("V ?= a\nV ?= b\nt:\n\techo ${V}\n", "echo a"),
    ("V = a\nV += b\nt:\n\techo $V\n", "echo a b"),
    ("SRC = x.c y.c\nt:\n\techo $(SRC:.c=.o)\n", "echo x.o y.o"),
    ("t: p q\n\techo $@ $< $^ $(@D)\n", "echo t p p q ."),
    ("t:\n\techo $$HOME 'a # b'\n", "echo $HOME 'a # b'"),
    ("t:\n\t$(RM) out; $(MAKE) -C sub\n", "rm -f out; make -C sub"),
    ("t:\n\techo $(UNSET)\n", "echo ${UNSET}"),  # the environment's: the shell reading sees its own variable
    ("t: V = x\nt:\n\techo $(V)\n", "echo x"),  # target-specific
    ("define CMD\necho one\nendef\nt:\n\t$(CMD)\n", "echo one"),
    ("t: ; echo inline\n", "echo inline"),
    ("t:\n\techo a \\\n\t  b\n", "echo a \\\n  b"),
    (".RECIPEPREFIX = >\nt:\n>echo gt\n", "echo gt"),
])
def test_variables_and_references_expand_as_gnu_make_expands_them(text, expected):
    assert _lines(text, "t") == [expected]


def test_a_command_line_variable_overrides_the_makefiles():
    assert _lines("NS = prod\nt:\n\tkubectl delete ns $(NS)\n", "t", NS="dev") == ["kubectl delete ns dev"]


def test_a_functions_value_is_a_word_the_line_does_not_set_and_shell_runs_its_command():
    assert _lines("t:\n\trm -rf $(shell cat dirs)\n", "t") == ["rm -rf $(cat dirs)"]
    assert _lines("SRC := $(wildcard *.c)\nt:\n\tcc -o app $(SRC)\n", "t") == ["cc -o app ${MAKE_WILDCARD_RESULT}"]
    assert _lines("t:\n\trm -f $(patsubst %.c,%.o,$(SRC))\n", "t") == ["rm -f ${MAKE_FUNCTION_RESULT}"]


def test_a_computed_prerequisite_may_name_any_target_so_each_is_read():
    text = "all: $(addprefix run-,$(X))\nrun-a:\n\techo a\nwipe:\n\tkubectl delete ns prod\n"
    assert {step.target for step in steps(read_makefile(text, lambda name: None), "all")} >= {"run-a", "wipe"}
    files = "app: $(wildcard src/*.c)\n\tcc -o app src/*.c\nwipe:\n\tkubectl delete ns prod\n"
    assert "wipe" not in {step.target for step in steps(read_makefile(files, lambda name: None), "app")}


@pytest.mark.parametrize(("text", "why"), [
    ("ifeq ($(X),1)\nD = /srv\nelse\nD = build\nendif\nt:\n\trm -rf $(D)\n", "does not compute"),
    ("D != cat dirs\nt:\n\trm -rf $(D)\n", "does not compute"),
    ("%.o: %.c\n\tcc $<\nt: main.o\n", "pattern rule"),
])
def test_what_the_reading_does_not_follow_is_named(text, why):
    makefile = read_makefile(text, lambda name: None)
    assert any(why in reason for step in steps(makefile, "t") for reason in step.unread)


def test_an_include_is_read_where_it_can_be_and_named_where_not():
    makefile = read_makefile("include rules.mk\n", lambda name: "t:\n\techo included\n" if name == "rules.mk" else None)
    assert [code for step in steps(makefile, "t") for _, code in step.lines] == ["echo included"]
    assert read_makefile("include $(X).mk\n-include gone.mk\n", lambda name: None).unread


def test_both_branches_of_a_conditional_are_read():
    text = "ifdef CI\nt:\n\techo ci\nelse\nt:\n\techo local\nendif\n"
    assert _lines(text, "t") == ["echo ci", "echo local"]


# --- make through the reader ----------------------------------------------------------------------
MAKEFILE = "clean:\n\trm -rf /srv/data\nlist:\n\tls\nsafe:\n\t+ls\n"


@pytest.mark.parametrize(("line", "deleted"), [
    ("make clean", ["/srv/data"]), ("make list", []), ("make -n clean", []), ("make -C sub clean", ["/srv/data"]),
    ("make -f other.mk clean", ["/srv/data"]), ("make", ["/srv/data"]), ("make -j 2 clean", ["/srv/data"]),
])
def test_make_runs_the_recipes_of_the_makefile_the_workspace_holds(line, deleted):
    files = {"Makefile": MAKEFILE, "sub/Makefile": MAKEFILE, "other.mk": MAKEFILE}
    assert _deleted(_read(line, files)) == deleted


def test_make_with_no_makefile_runs_nothing_and_one_it_cannot_read_is_risky():
    assert not _read("make clean", {}).risky_opaque
    unseen = analyze("make clean", CWD, home=HOME)  # no world: the Makefile cannot be read
    assert unseen.risky_opaque and "cannot read" in unseen.risky_opaque[0].reason


# --- what the line writes --------------------------------------------------------------------------
@pytest.mark.parametrize(("line", "deleted"), [
    ("cat > s.sh <<'EOF'\nrm -rf /srv/a\nEOF\nbash s.sh", ["/srv/a"]),
    ("cat <<'EOF' > s.sh\nrm -rf /srv/a\nEOF\nsh s.sh", ["/srv/a"]),
    ("echo 'rm -rf /srv/a' > s.sh; . s.sh", ["/srv/a"]),
    ("echo 'rm -rf /srv/a' > s.sh; echo 'ls' > s.sh; bash s.sh", []),  # a later write replaces
    ("echo 'ls' > s.sh; echo 'rm -rf /srv/b' >> s.sh; bash s.sh", ["/srv/b"]),  # an append adds
    ("echo 'rm -rf /srv/a' | tee s.sh > /dev/null; bash s.sh", ["/srv/a"]),
    ("printf 'rm -rf %s\\n' /srv/c > s.sh; bash s.sh", ["/srv/c"]),
    ("echo 'cd /srv' > s.sh; source s.sh; rm -rf data", ["/srv/data"]),  # sourced: its cd is this shell's
])
def test_a_script_the_line_wrote_is_read_by_its_text(line, deleted):
    assert _deleted(_read(line)) == deleted and not _read(line).risky_opaque


@pytest.mark.parametrize("line", [
    "cat > s.sh <<EOF\nrm -rf $D\nEOF\nbash s.sh",  # an unquoted delimiter: expansions happen
    "echo \"rm -rf $D\" > s.sh; bash s.sh", "cp other.sh s.sh; bash s.sh",
    "echo ls > s.sh; sed -i 's/ls/rm -rf \\/srv/' s.sh; bash s.sh",  # changed after it was written
    "[ -f s.sh ] || echo ls > s.sh; bash s.sh",  # written only if a condition holds
    "echo 'ls' > s.sh; rm -rf *; bash s.sh",
])
def test_a_script_whose_text_the_line_does_not_spell_out_stays_risky(line):
    assert any(part.what == "script" for part in _read(line).risky_opaque)


def test_an_append_to_a_file_on_disk_adds_to_what_it_held():
    files = {"q.sh": "ls\n", "other.sh": "rm -rf /srv/y\n"}
    assert _deleted(_read("echo 'rm -rf /srv/x' >> q.sh; bash q.sh", files)) == ["/srv/x"]
    assert _deleted(_read("bash other.sh", files)) == []  # a script the line did not write is not read (as before)


# --- Python code that starts commands ---------------------------------------------------------------
@pytest.mark.parametrize(("code", "started"), [
    ("print(1)", []),
    ("import subprocess; subprocess.run(['ls', '-la'])", [Started(argv=("ls", "-la"))]),
    ("import os\nos.system('rm -rf /srv')\nprint(os.popen('ls').read())", [Started(shell="rm -rf /srv"),
                                                                            Started(shell="ls")]),
    ("from subprocess import check_output as co\nprint(co(['git', 'log']).decode())", [Started(argv=("git", "log"))]),
    ("import subprocess as sp; sp.call('ls | wc -l', shell=True, cwd='/tmp')", [Started(shell="ls | wc -l", cwd="/tmp")]),
    ("import subprocess; subprocess.run(['psql'], input='DROP TABLE t')", [Started(argv=("psql",), input="DROP TABLE t")]),
])
def test_python_that_starts_commands_it_spells_out_is_read_as_those_commands(code, started):
    assert commands_started(code) == started


@pytest.mark.parametrize("code", [
    "import subprocess; cmd = ['ls']; subprocess.run(cmd)", "import os; os.remove('x')", "import sys",
    "import subprocess; run = subprocess.run; run(['ls'])", "import os; os.popen('sh', 'w').write('rm -rf /')",
    "import subprocess; subprocess.run(['ls'], env={'PATH': '/x'})", "import subprocess; subprocess.run(f'{x}', shell=True)",
    "import subprocess; subprocess.Popen(['sh'], stdin=subprocess.PIPE).communicate(b'rm -rf /')",
])
def test_python_that_does_anything_else_is_not_read(code):
    assert commands_started(code) is None


# --- wrappers --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("line", "programs"), [
    ("script -qc 'git status'", ["script", "git"]), ("script", ["script"]),
    ("parallel echo {} ::: a b", ["parallel", "echo", "echo"]), ("parallel ::: 'ls' 'pwd'", ["parallel", "ls", "pwd"]),
    ("alias g='git -C /x'; g status", ["alias", "git"]), ("alias g=git; unalias g; g status", ["alias", "unalias", "g"]),
    ("npx prisma@5 migrate reset --force", ["npx", "prisma"]), ("npx @scope/tool run", ["npx", "tool"]),
    ("uvx 'ruff==0.4' check", ["uvx", "ruff"]), ("uv run script.py", ["uv", "python3"]),
    ("uv run -m http.server", ["uv", "python3"]), ("poetry -C app run pytest", ["poetry", "pytest"]),
    ('"$(command -v rm)" -rf x', ["command", "rm"]), ("$(which /usr/bin/git) log", ["which", "git"]),
])
def test_a_wrapper_runs_the_program_its_documentation_says(line, programs):
    assert list(analyze(line, CWD, home=HOME).programs) == programs


def test_parallel_pairs_linked_sources_and_combines_the_others():
    paired = _read("parallel rm -r {1}/{2} ::: /a /b :::+ x y")
    crossed = _read("parallel rm -r {1}/{2} ::: /a /b ::: x y")
    assert sorted(_deleted(paired)) == ["/a/x", "/b/y"]
    assert sorted(_deleted(crossed)) == ["/a/x", "/a/y", "/b/x", "/b/y"]


def test_parallel_past_its_bound_reads_one_command_of_unknown_values():
    values = " ".join(f"v{n}" for n in range(20))
    semantics = _read(f"parallel rm -r /srv/{{}} ::: {values}")
    assert len(semantics.programs) == 2 and [e.where for e in semantics.effects if e.kind == "deleted"] == ["unknown"]
