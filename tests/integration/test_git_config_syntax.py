"""The reader of git's settings files (domains/shell/programs/git_config.py) against git itself: generated files,
in git-config(1)'s forms and just past them (bad headers, unknown escapes, unclosed quotes, names git refuses,
blanks and comments everywhere, continued lines, CRLF, a byte-order mark), are read by `git config --list -z`
and by the reader; every file git reads must give the same variables and values in order, and every file git
refuses must be refused."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from agentworld_mcp.domains.shell.programs.git_config import ConfigUnreadable, boolean, entries

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

HEADERS = ("[core]", "[Core]", "[a.B]", '[remote "o\\"x"]', '[sec "a\\tb"]', '[x "y" ]', "[ x]", "[]", "[a b]",
           '[a "b"', "[sec]x=1", '[s "Sub Case"]', "[a-b.c-d]", "[a_b]", '[s ""]', '[s "a\\\\b"]', "[s\t\"t\"]")
VARIABLES = ("name = value", "name=", "name", 'Name = "quoted # not comment"', "n = a ; c", "n = a\\tb",
             'n = "a\\nb"', "n = bad\\q", "n = x \\\n y", 'n = "unclosed', "1n = x", "n-1 = x", "n_1 = x", "n x",
             "n = a\tb", "n = v   ", "n = a  b", 'n = "  a  "', 'n = a"b"c', "n = é", "n=\\\\", 'n = "\\""',
             "n = x # c", "NAME=Mixed Case", "n = \\b", "n = a \\", "n = ;", 'n = ""', "n\t=\tv", "n =", "n # c")
NOISE = ("", "# comment", "; comment", "   ", "\t# indented")


def _file(rng: random.Random) -> str:
    lines = []
    if rng.random() < 0.9:
        lines.append(rng.choice(HEADERS[:3]))
    for _ in range(rng.randint(0, 6)):
        shape = rng.random()
        lines.append(rng.choice(HEADERS) if shape < 0.25 else rng.choice(NOISE) if shape < 0.4 else
                     rng.choice(["", "\t", "  "]) + rng.choice(VARIABLES))
    ending = rng.choice(["\n", "\r\n"])
    text = ending.join(lines) + (ending if rng.random() < 0.8 else "")
    return ("\ufeff" if rng.random() < 0.05 else "") + text


def _git_reads(path) -> list[tuple[str, str | None]] | None:
    done = subprocess.run(["git", "config", "-f", str(path), "--list", "-z"], capture_output=True, check=False,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(path.parent), "GIT_CONFIG_NOSYSTEM": "1"})
    if done.returncode:
        return None
    found = []
    for record in done.stdout.decode().split("\0")[:-1]:
        key, newline, value = record.partition("\n")
        found.append((key, value if newline else None))
    return found


def test_generated_settings_files_read_as_git_reads_them(tmp_path):
    rng, compared, refused = random.Random(66), 0, 0
    path = tmp_path / "config"
    for _ in range(400):
        text = _file(rng)
        path.write_bytes(text.encode())
        want = _git_reads(path)
        try:
            got = entries(text)
        except ConfigUnreadable:
            got = None
        assert got == want, (text, got, want)
        compared += 1
        refused += want is None
    assert compared == 400 and 40 < refused < 360  # both kinds are drawn often


@pytest.mark.parametrize(("value", "expected"), [(None, True), ("", False), ("Yes", True), ("off", False),
                                                   ("0", False), ("2", True), ("on", True)])
def test_booleans_as_git_config_reads_them(tmp_path, value, expected):
    path = tmp_path / "config"
    path.write_text("[s]\n\tb" + ("" if value is None else f" = {value}") + "\n")
    done = subprocess.run(["git", "config", "-f", str(path), "--type=bool", "s.b"], capture_output=True, text=True,
                          check=True, env={"PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1"})
    assert done.stdout.strip() == str(expected).lower() and boolean(value) is expected


def test_a_value_git_refuses_as_a_boolean_is_refused():
    with pytest.raises(ConfigUnreadable):
        boolean("maybe")
