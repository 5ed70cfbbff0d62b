"""The guard's two tables, read from the text alone: which files hold secrets, and which programs
change the system (with the forms their manuals document as only reading)."""

from __future__ import annotations

import shlex

import pytest

from agentworld_mcp.domains.shell import analyze
from agentworld_mcp.domains.shell.inline_python import only_computes
from agentworld_mcp.domains.shell.secrets import glob_may_read_secret, secret_kind
from agentworld_mcp.domains.shell.system import SYSTEM_PROGRAMS

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
    opaque = analyze(f"python3 -c {shlex.quote(code)}", "/home/dev/project").opaque
    assert (not opaque) is computes
