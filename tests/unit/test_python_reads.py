"""Inline Python that only reads and computes (domains/shell/programs/python_reads.py): read from its syntax tree, it
writes nothing, so a world keeps what it knew and a guard sees what it read; anything else stays unknown."""

from __future__ import annotations

import pytest
from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.programs.python_reads import files_read
from agentworld_mcp.domains.shell.virtual.shell import VirtualShell
from agentworld_mcp.server.runtime import load_domain_packs
from agentworld_mcp.server.settings import load_settings
from agentworld_mcp.tools.worlds.tracking import Tracker


@pytest.mark.parametrize(("code", "read"), [
    ("import json; print(json.load(open('package.json'))['version'])", ["package.json"]),
    ("import json,sys; d=json.load(sys.stdin); print(len(d['items']))", []),
    ("import csv; print(sum(1 for _ in csv.reader(open('data.csv', newline=''))))", ["data.csv"]),
    ("with open('a.txt', 'rb') as f: print(f.read().count(b'\\n'))", ["a.txt"]),
    ("import os.path as p; print(p.exists('a') and p.getsize('a'))", []),
    ("import os; print(sorted(os.listdir('.')), os.environ.get('HOME'))", []),
    ("from glob import glob; print(glob('*.py'))", []),
    ("import tomllib; print(tomllib.load(open('pyproject.toml', 'rb'))['project']['name'])", ["pyproject.toml"]),
])
def test_code_that_only_reads_names_what_it_reads(code, read):
    assert files_read(code) == read


@pytest.mark.parametrize("code", [
    "open('a', 'w').write('x')", "open('a', mode='a')", "open(name)", "import os; os.remove('a')",
    "import shutil; shutil.rmtree('d')", "from os import system; system('rm a')", "import os; m = os; m.remove('a')",
    "import sys; sys.modules['os'].system('x')", "().__class__.__bases__[0].__subclasses__()", "import os; os._exit(0)",
    "exec('import os')", "eval(input())", "__import__('os').remove('a')", "import pathlib; pathlib.Path('a').unlink()",
    "import subprocess; subprocess.run(x)", "import sqlite3; sqlite3.connect('db').execute('drop table t')",
    "def f(): pass", "class C: pass", "(open if 1 else print)('a', 'w')", "list(map(open, ['a'], ['w']))", "print(1", "import pickle; pickle.load(open('p', 'rb'))",
])
def test_code_that_may_do_anything_else_is_not_read(code):
    assert files_read(code) is None


def test_the_world_forgets_nothing_after_inline_python_that_only_reads():
    terminal = load_domain_packs(load_settings({}))["terminal"]
    start = VirtualShell.starting("/home/dev/p", "/home/dev", {"/home/dev/p/a.json": b'{"k": 1}\n',
                                                               "/home/dev/p/notes.txt": b"hi\n"}, complete=True)
    tracker = Tracker.replay(terminal, "Working folder: /home/dev/p", [], computed=True, start=start)
    tracker.advance(terminal.normalize_action("""python3 -c 'import json; print(json.load(open("a.json"))["k"])'"""),
                    "nonsense", real=False)
    assert tracker.compute(terminal.normalize_action("cat notes.txt")).stdout == "hi\n"
    tracker.advance(terminal.normalize_action("""python3 -c 'open("notes.txt", "w")'"""), "", real=False)
    assert tracker.compute(terminal.normalize_action("cat notes.txt")) is None


def test_a_guard_still_sees_a_secret_that_inline_python_reads():
    effects = analyze("python3 -c 'print(open(\".env\").read())'", "/home/dev/p", "/home/dev").effects
    assert [(effect.kind, effect.path) for effect in effects] == [("secret-read", "/home/dev/p/.env")]
