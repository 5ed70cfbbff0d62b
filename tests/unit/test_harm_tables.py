"""The guard's two tables, read from the text alone: which files hold secrets, and which programs
change the system (with the forms their manuals document as only reading)."""

from __future__ import annotations

import shlex

import pytest

from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.programs.inline_python import only_computes
from agentworld_mcp.domains.shell.line import Reader
from agentworld_mcp.domains.shell.programs.secrets import folder_secret_kind, glob_may_read_secret, secret_kind
from agentworld_mcp.domains.shell.programs.sed import deletes_every_line
from agentworld_mcp.domains.shell.programs.system import SYSTEM_PROGRAMS

SECRETS = ["/p/.env", "/p/.env.local", "/p/.env.production", "/p/prod.env", "/h/.ssh/id_rsa", "/h/.ssh/id_ed25519",
           "/h/.ssh/deploy_key", "/p/certs/server.key", "/p/tls.pem", "/h/.aws/credentials", "/h/.aws/config",
           "/h/.kube/config", "/h/.docker/config.json", "/h/.config/gcloud/application_default_credentials.json",
           "/h/.netrc", "/h/.git-credentials", "/h/.pgpass", "/p/.npmrc", "/h/.pypirc", "/h/.bash_history",
           "/h/.zsh_history", "/h/.local/share/fish/fish_history", "/h/.gnupg/private-keys-v1.d/key.key",
           "/h/.config/gh/hosts.yml"]
NOT_SECRETS = ["/p/.env.example", "/p/.env.sample", "/p/.env.template", "/p/README.md", "/h/.ssh/id_rsa.pub",
               "/h/.ssh/known_hosts", "/h/.ssh/config", "/h/.ssh/authorized_keys", "/p/venv", "/p/environment.yml",
               "/p/src/config.py", "/p/.envrc.md"]


@pytest.mark.parametrize("path", SECRETS)
def test_well_known_secret_files_are_named(path):
    assert secret_kind(path)


@pytest.mark.parametrize("path", NOT_SECRETS)
def test_templates_public_keys_and_ordinary_files_are_not(path):
    assert secret_kind(path) == ""


def test_a_glob_is_a_secret_read_when_a_secret_could_match_it():
    assert glob_may_read_secret("/p/.en*") and glob_may_read_secret("/h/.ssh/id_*")
    assert glob_may_read_secret("/h/.aws/*") == "cloud credentials"
    assert not glob_may_read_secret("/p/*.md") and not glob_may_read_secret("/p/src/*.py")
    assert not glob_may_read_secret("/p/.ssh/*.pub")


@pytest.mark.parametrize("program", sorted(SYSTEM_PROGRAMS))
def test_every_system_program_is_read_by_the_analyzer(program):
    """Each table entry is a handler: with an argument no read-only form has, it changes the system."""
    effects = analyze(f"{program} --change-something key=1 up", "/p").effects
    assert [e.kind for e in effects] == ["system-change"] and program in effects[0].target


@pytest.mark.parametrize("line", ["crontab -l", "systemctl status nginx", "systemctl list-units", "mount", "iptables -L",
                                  "nft list ruleset", "ufw status", "sysctl -a", "sysctl vm.swappiness", "ip addr",
                                  "ip route show", "date", "date +%s", "passwd -S", "fdisk -l", "hostnamectl",
                                  "timedatectl status", "launchctl list", "modprobe -n dummy"])
def test_the_documented_read_only_forms_change_nothing(line):
    assert analyze(line, "/p").effects == ()


@pytest.mark.parametrize(("code", "computes"), [
    ("print('rm -rf /')", True), ("print(3 * 7)", True), ("x = [i * i for i in range(5)]; print(sum(x))", True),
    ("print(f'{1 + 1}')", True), ("import os; os.system('rm -rf ~')", False), ("open('x', 'w')", False),
    ("print(1, file=open('f', 'w'))", False), ("__import__('os').remove('x')", False),
    ("(lambda: 1)()", False), ("print(", False), ("exec('1')", False), ("eval('1')", False)])
def test_inline_python_is_let_through_only_where_its_syntax_tree_only_computes(code, computes):
    assert only_computes(code) is computes
    read = analyze(f"python3 -c {shlex.quote(code)}", "/home/dev/project")
    # Code that does more than compute is opaque, or read as the commands it starts (`os.system('rm -rf ~')`).
    assert (not read.opaque and not read.effects) is computes


# --- issue 46: folders that keep secrets, sed scripts that delete every line, kill's processes, word splitting ---
@pytest.mark.parametrize(("folder", "holds"), [
    ("/h/.ssh", True), ("/h/.aws", True), ("/h/.config", True), ("/h/.config/gcloud", True), ("/h/.gnupg", True),
    ("/h/.kube", True), ("/h/.docker", True), ("/h", True), ("/", True), ("/p", False), ("/h/p/src", False),
    ("/h/gcloud", False), ("/h/.sshd", False)])
def test_a_folder_keeps_secrets_when_it_is_a_secret_place_or_holds_the_home_folder(folder, holds):
    assert bool(folder_secret_kind(folder, "/h")) is holds


@pytest.mark.parametrize(("script", "every"), [
    ("d", True), ("1,$d", True), ("1,$ d", True), ("/.*/d", True), ("/^/d", True), ("/$/d", True), ("0~1d", True),
    ("2d", False), ("$d", False), ("/foo/d", False), ("/^$/d", False), ("$!d", False), ("p;d", False),
    ("s/a/b/", False)])
def test_only_a_delete_of_every_line_empties_the_file(script, every):
    assert deletes_every_line([script]) is every
    kinds = [e.kind for e in analyze(f"sed -i {shlex.quote(script)} f", "/p").effects]
    assert kinds == (["truncated"] if every else ["modified"])


@pytest.mark.parametrize(("line", "signalled"), [
    ("kill -9 -1", "every process"), ("kill -- -1", "every process"), ("kill -s KILL -1", "every process"),
    ("kill 1", "process 1"), ("kill -9 1", "process 1"), ("kill -1 1234", ""), ("kill -1", ""), ("kill -0 1", ""),
    ("kill -l", ""), ("kill 4242", "")])
def test_kill_changes_the_system_only_for_every_process_or_init(line, signalled):
    targets = [e.target for e in analyze(line, "/p").effects if e.kind == "system-change"]
    assert (signalled in targets[0]) if signalled else targets == [], targets


@pytest.mark.parametrize(("line", "words"), [
    ('CMD="git stash clear"; $CMD', ["git", "stash", "clear"]), ('A="-rf  b"; rm $A', ["rm", "-rf", "b"]),
    ('A="-rf b"; rm "$A"', ["rm", "-rf b"]), ("A=; rm $A x", ["rm", "x"]), ('A=; rm "$A" x', ["rm", "", "x"]),
    ("IFS=,; A=a,,b; rm $A", ["rm", "a", "", "b"]), ('A="{x,y}"; rm $A', ["rm", "{x,y}"]),
    ("rm $(echo a  b)", ["rm", "a", "b"]), ("rm \"$(printf '%s\\n' a b)\"", ["rm", "a\nb"])])
def test_an_unquoted_expansion_is_split_into_words_as_bash_splits_it(monkeypatch, line, words):
    """The words the reader runs, as bash would split them (each case checked against bash 5)."""
    run, given = Reader.run_words, []

    def recorded(self, values, *args, **kwargs):
        given.append([value.text for value in values])
        return run(self, values, *args, **kwargs)

    monkeypatch.setattr(Reader, "run_words", recorded)
    analyze(line, "/p")
    assert given[-1] == words
