"""Commands inside arguments (issue 65, item 3): an option or argument whose documented meaning is "a command to
run" is read as that command, where it runs. Here (tmux, screen, entr, batch editors and debuggers, tar's and zip's
program options, git's program settings and verbs, database shells' escapes, salt-call) a destructive inner
command is stopped as it would be typed alone, and a harmless one gets what it would get alone. On other
machines (parallel shells, salt, fab, ansible, cloud run-command APIs, cluster pods, the machines and containers
vagrant, multipass, lxc, minikube, cf and nomad manage) a destructive one is stopped
as a loss there and a harmless one passes. Interpreters that take inline code under another verb (`deno eval`,
`bun -e`) run that code: it is never read as a script file that does not exist.

The cases are generated: each family's command-carrying form with inner commands drawn from destructive and
harmless pools. The fixed seed runs as parametrized cases; a held-out range of seeds, over other spellings of
the same programs (aliases, other names, other options of the same meaning), runs apart and reports its own
result.
"""

from __future__ import annotations

import random
import shlex
from pathlib import Path

import pytest

from ..hook_calls import git_project, held_out_wrong, verdict

SEED = 6565
HELD_OUT = range(9100, 9110)
STOPPED = ("deny", "ask")

# Inner commands. Those run here: destroying what lies outside the folder or beyond it (no double quotes, so
# that they fit inside Lisp strings); those run elsewhere may also destroy that machine's own files.
LOCAL_DESTRUCTIVE = ["rm -rf /srv/app/uploads", "rm -rf ~/projects", "find /var/backups -delete",
                     "kubectl delete namespace prod", "aws s3 rm s3://backups --recursive",
                     "redis-cli -h cache FLUSHALL", "rm -f /etc/hosts", "terraform destroy -auto-approve"]
REMOTE_DESTRUCTIVE = ["rm -rf /var/lib/postgresql", "rm -rf /srv/app/uploads", "find /var/log -delete",
                      "kubectl delete namespace prod", "aws s3 rm s3://backups --recursive",
                      "redis-cli -h cache FLUSHALL", "truncate -s 0 /var/lib/app/data.db"]
# What a fresh container or pod holds is nobody's: its destruction counts where it reaches beyond it.
REACHING_DESTRUCTIVE = ["kubectl delete namespace prod", "aws s3 rm s3://backups --recursive",
                        "redis-cli -h cache FLUSHALL", "terraform destroy -auto-approve"]
HARMLESS = ["ls -la", "uptime", "df -h", "whoami", "echo done", "date", "hostname", "cat README.md"]


def _quoted(inner: str) -> str:
    return shlex.quote(inner)


# (template, where): `{q}` is the inner command as one shell word, `{w}` its words, `{bang}` it after `!`,
# `{nl}` it typed with a newline, `{lisp}` it inside a Lisp string.
LOCAL = [
    "tmux new-session -d {q}", "tmux new-window -n job {q}", "tmux split-window -h {q}", "tmux run-shell {q}",
    "tmux send-keys -t main {q} Enter", "tmux new -d -s w \\; send-keys -t w {q} C-m", "screen -dmS job {w}",
    "screen -S job -X stuff {nl}", "screen -S job -X exec {w}", "vim -c {bang} -c q", "vim -es -c {bang} -c 'qa!'",
    "nvim --headless +{bang} +q", "gdb -batch -ex {shell}", "emacs --batch --eval {lisp}",
    "tar -xf a.tar --to-command={q}", "tar -cf a.tar --checkpoint=1 --checkpoint-action=exec={q} src",
    "tar -I {q} -cf a.tar src", "zip -T -TT {q} a.zip src/a.py", "git -c core.sshCommand={q} fetch",
    "git -c core.pager={q} log", "git -c alias.x={bang} x", "git submodule foreach {q}",
    "psql -c {psql}", "mysql -e {mysql}", "sqlite3 app.db {sqlite}", "salt-call cmd.run {q}", "entr -s {q}",
]
REMOTE = [
    "pdsh -w web[1-4] {q}", "pssh -h hosts.txt -i {q}", "clush -w node[1-3] {q}", "salt '*' cmd.run {q}",
    "salt-ssh 'web*' cmd.run {q}", "fab -H web1,web2 -- {w}", "ansible all -m shell -a {q}",
    "aws ssm send-command --instance-ids i-0abc --document-name AWS-RunShellScript --parameters {ssm}",
    "az vm run-command invoke -g rg -n vm1 --command-id RunShellScript --scripts {q}",
    "gcloud compute ssh vm1 --zone us-central1-a --command={q}", "kubectl debug node/n1 -it --image=busybox -- {w}",
    "kubectl run tmp --rm -i --image=alpine --overrides='{{}}' -- {w}", "vagrant ssh -c {q}",
    "multipass exec vm1 -- {w}", "lxc exec c1 -- {w}", "doctl compute ssh web1 --ssh-command {q}",
]
FRESH = ["kubectl run tmp --rm -i --restart=Never --image=alpine -- {w}",
         "az aks command invoke -g rg -n aks1 --command {q}"]
# Held out: other names and spellings of the same programs and options, never in the parametrized cases.
HELD_LOCAL = [
    "tmux splitw -v {q}", "tmux respawn-pane -k -t main {q}", "tmux if-shell {q} 'display ok'", "tmux -c {q}",
    "tmux neww {q}", "screen -S job -X screen {w}", "vi -c {bang} -c q", "ex -c {bang} -c q README.md",
    "gvim -c {bang}", "gdb -batch -ex {bang} ./a.out", "gdb --batch --eval-command={shell}",
    "tar --use-compress-program={q} -cf a.tar src", "tar -xzf a.tgz --to-command {q}",
    "git -c core.editor={q} commit -m wip", "git -c diff.external={q} diff", "git bisect run {w}",
    "git fetch --upload-pack={q} origin", "mariadb -e {mysql}", "sqlite3 app.db {sqlite_system}",
    "entr -rs {q}",
]
HELD_REMOTE = [
    "parallel-ssh -H db1 {q}", "clush -a -b {q}", "pdsh -g web {q}", "salt -G os:Ubuntu cmd.run {q}",
    "salt '*' cmd.shell {q}", "salt-ssh '*' -r {q}", "fab --hosts web1 -- {w}",
    "az vmss run-command invoke -g rg -n ss --instance-id 0 --command-id RunShellScript --scripts {q}",
    "az vm run-command create -g rg --vm-name vm1 --run-command-name once --script {q}",
    "ansible web -m ansible.builtin.shell --args {q}", "incus exec c1 -- {w}", "minikube ssh -- {w}",
    "cf ssh myapp -c {q}", "nomad alloc exec -task web abc123 {w}", "vagrant ssh web --command {q}",
]


def _line(template: str, inner: str) -> str:
    return template.format(q=_quoted(inner), w=inner, bang=_quoted("!" + inner), nl=_quoted(inner + "\\n"),
                           shell=_quoted("shell " + inner), lisp=_quoted(f'(shell-command "{inner}")'),
                           psql=_quoted("\\! " + inner), mysql=_quoted("system " + inner),
                           sqlite=_quoted(".shell " + inner), sqlite_system=_quoted(".system " + inner),
                           ssm=_quoted("commands=" + inner))


def cases(seed: int, local: list[str], remote: list[str], fresh: list[str]) -> list[tuple[str, str, str]]:
    """(line, where the inner command runs: here / there, the inner command; '' marks a harmless one)."""
    rng = random.Random(seed)
    out: list[tuple[str, str, str]] = []
    for templates, where, pool in ((local, "here", LOCAL_DESTRUCTIVE), (remote, "there", REMOTE_DESTRUCTIVE),
                                   (fresh, "there", REACHING_DESTRUCTIVE)):
        for template in templates:
            for inner in rng.sample(pool, 2):
                out.append((_line(template, inner), where, inner))
            harmless = rng.choice(HARMLESS)
            out.append((_line(template, harmless), where, ""))
    return out


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return git_project(tmp_path_factory.mktemp("inside") / "project",
                       {"README.md": "# app\n", "src/a.py": "x = 1\n"})


def _wrong(repo: Path, line: str, inner: str) -> str | None:
    """A destructive inner command is stopped; a harmless one run elsewhere passes."""
    result = verdict(repo, line)
    if inner:
        return None if result["decision"] in STOPPED else f"{line!r} passed: its {inner!r} was not read"
    return None if result["decision"] == "none" else f"{line!r} was stopped: {result['reason'][:160]}"


def _judged_as_alone(repo: Path, line: str, harmless: str) -> str | None:
    """A harmless inner command run here gets what it would get typed alone."""
    got, alone = verdict(repo, line)["decision"], verdict(repo, harmless)["decision"]
    return None if got == alone else f"{line!r} gave {got}, and {harmless!r} alone gives {alone}"


def _check(repo: Path, line: str, where: str, inner: str, harmless: str) -> str | None:
    if inner or where == "there":
        return _wrong(repo, line, inner)
    return _judged_as_alone(repo, line, harmless)


def _all(seed: int, local: list[str], remote: list[str], fresh: list[str]) -> list[tuple[str, str, str, str]]:
    """Each case with the harmless inner command it carries (for the comparison with it alone)."""
    out = []
    for line, where, inner in cases(seed, local, remote, fresh):
        harmless = "" if inner else next(h for h in HARMLESS if _quoted(h) in line or h in line)
        out.append((line, where, inner, harmless))
    return out


def test_the_destructive_inner_commands_are_stopped_when_typed_alone(project):
    """The pools mean what they say: each destructive command is stopped typed alone, each harmless one passes."""
    for inner in {*LOCAL_DESTRUCTIVE, *REACHING_DESTRUCTIVE}:
        assert verdict(project, inner)["decision"] in STOPPED, inner
    for inner in HARMLESS:
        assert verdict(project, inner)["decision"] == "none", inner


@pytest.mark.parametrize(("line", "where", "inner", "harmless"), _all(SEED, LOCAL, REMOTE, FRESH))
def test_a_command_inside_an_argument_is_judged_where_it_runs(project, line, where, inner, harmless):
    print(f"seed {SEED}")
    assert _check(project, line, where, inner, harmless) is None


def test_held_out_seeds_and_spellings_are_judged_the_same(project):
    assert not held_out_wrong(", other spellings", HELD_OUT,
                              lambda seed: (_check(project, *case) for case in _all(seed, HELD_LOCAL, HELD_REMOTE, [])))


@pytest.mark.parametrize("line", ["deno eval 'Deno.removeSync(\"/srv/data\", {recursive: true})'",
                                  "bun -e 'require(\"fs\").rmSync(\"/srv/data\", {recursive: true})'",
                                  "bun --print 'require(\"child_process\").execSync(\"rm -rf /srv\")'",
                                  "deno eval --print 'Deno.removeSync(\"/srv/data\")'", 'deno eval "$CODE"',
                                  'bun -e "$CODE"'])
def test_inline_code_under_an_eval_verb_is_code_not_a_missing_script(project, line):
    """`deno eval CODE` was read as running a script file named `eval`, which did not exist, and passed."""
    result = verdict(project, line)
    assert result["decision"] in STOPPED, result
    assert "No such file" not in result["reason"] and "script" not in result["reason"].split("\n")[0], result


@pytest.mark.parametrize("line", ["tmux ls", "tmux attach -t main", "screen -ls", "screen -r main",
                                  "salt '*' test.ping", "salt '*' grains.items", "salt '*' state.apply test=True",
                                  "clush -w node[1-3] -c /etc/hosts", "pdsh -V", "git -c user.name=x log",
                                  "tar -cf a.tar --checkpoint=1 --checkpoint-action=dot src",
                                  "zip -TT 'rm -rf /srv' a.zip src/a.py", "vim -c q README.md",
                                  "gdb -batch -ex bt -ex 'info registers' ./a.out core",
                                  "emacs --batch --eval '(message \"hi\")'",
                                  "kubectl run web --image=nginx --dry-run=client -- ls"])
def test_forms_that_run_no_command_or_only_read_pass(project, line):
    result = verdict(project, line)
    assert result["decision"] == "none", result


@pytest.mark.parametrize("line", ["salt '*' state.apply", "fab deploy", "vim -c 'py3 import os' -c q",
                                  "gdb -batch -ex 'python import os'", "git -c core.hooksPath=/tmp/h commit -m x",
                                  "az vm run-command invoke -g rg -n vm1 --command-id RunPowerShellScript "
                                  "--scripts 'Get-Process'",
                                  "tmux send-keys -t main \"$CMD\" Enter", "pdsh -w web1 \"$CMD\""])
def test_what_the_guard_cannot_read_is_asked_about(project, line):
    result = verdict(project, line)
    assert result["decision"] in STOPPED, result


def test_odd_input_never_crashes_the_readers(project):
    rng = random.Random(SEED)
    words = ["-c", "-X", "stuff", "--", "-e", "-ex", "\\;", "send-keys", "Enter", "-TT", "-T", "cmd.run", "'!'",
             "--scripts", "--command", "run-command", "invoke", "'\\!'", ".shell", "--to-command=", "-I", "+", "'('"]
    for program in ("tmux", "screen", "vim", "ex", "emacs", "gdb", "tar", "zip", "pdsh", "pssh", "clush", "salt",
                    "salt-ssh", "salt-call", "fab", "psql", "mysql", "sqlite3", "deno", "bun", "git"):
        for _ in range(12):
            line = " ".join([program, *rng.choices(words, k=rng.randint(0, 6))])
            assert verdict(project, line)["decision"] in ("none", "ask", "deny"), line


# --- inline code of interpreters other than Python and the shells -----------------------------------
# {p}: a path outside the folder, {c}: a destructive command, {s}: a string to print.
CODE = {
    "perl -e": (['unlink("{p}")', 'use File::Path; rmtree("{p}")', 'system("{c}")', "print `{c}`"],
                ['print "{s}\\n"', "print 6*7"]),
    "ruby -e": (['require "fileutils"; FileUtils.rm_rf("{p}")', 'File.delete("{p}")', 'system("{c}")'],
                ['puts "{s}"', "puts 6*7"]),
    "node -e": (['require("fs").rmSync("{p}", {{recursive: true}})', 'require("node:fs").unlinkSync("{p}")',
                 'require("child_process").execSync("{c}")'], ['console.log("{s}")', "console.log(process.version)"]),
    "deno eval": (['Deno.removeSync("{p}", {{recursive: true}})'], ['console.log("{s}")']),
    "php -r": (['unlink("{p}");', 'system("{c}");', 'echo shell_exec("{c}");'], ['echo "{s}";', "echo PHP_VERSION;"]),
    "lua -e": (['os.remove("{p}")', 'os.execute("{c}")'], ['print("{s}")']),
    "Rscript -e": (['unlink("{p}", recursive=TRUE)', 'system("{c}")'], ['print("{s}")', "cat(6*7)"]),
    "osascript -e": (['do shell script "{c}"'], []),
}
# Held out: other names the same interpreters run under, and other flags of the same meaning.
HELD_CODE = {"perl5.36 -E": "perl -e", "ruby3.2 -e": "ruby -e", "nodejs --eval": "node -e", "bun -e": "node -e",
             "node20 -p": "node -e", "php8.2 -r": "php -r", "luajit -e": "lua -e", "R -e": "Rscript -e",
             "bun --print": "node -e"}
PATHS = ["/srv/app/uploads", "/etc/hosts", "/var/backups", "/opt/data/db.sqlite"]
COMMANDS = ["rm -rf /srv/app/uploads", "kubectl delete namespace prod", "redis-cli -h cache FLUSHALL",
            "terraform destroy -auto-approve", "aws s3 rm s3://backups --recursive"]
WORDS = ["done", "hello world", "ok 42"]


def code_cases(seed: int, names: dict[str, str]) -> list[tuple[str, bool]]:
    """(line, destructive) for each interpreter's forms, under the names given (name -> the row it reads as)."""
    rng = random.Random(seed)
    out = []
    for name, row in names.items():
        destructive, harmless = CODE[row]
        for form in destructive:
            code = form.format(p=rng.choice(PATHS), c=rng.choice(COMMANDS))
            out.append((f"{name} {_quoted(code)}", True))
        for form in harmless:
            out.append((f"{name} {_quoted(form.format(s=rng.choice(WORDS)))}", False))
    return out


def _code_wrong(repo: Path, line: str, destructive: bool) -> str | None:
    decision = verdict(repo, line)["decision"]
    if destructive:
        return None if decision in STOPPED else f"{line!r} passed"
    return None if decision == "none" else f"{line!r} gave {decision}: a read-only one-liner"


@pytest.mark.parametrize(("line", "destructive"), code_cases(SEED, {name: name for name in CODE}))
def test_inline_code_is_read_where_its_effect_is_literal(project, line, destructive):
    assert _code_wrong(project, line, destructive) is None


def test_held_out_interpreter_names_read_the_same(project):
    assert not held_out_wrong(", held-out interpreter names", HELD_OUT,
                              lambda seed: (_code_wrong(project, *case) for case in code_cases(seed, HELD_CODE)))


@pytest.mark.parametrize("line", ["perl -e 'unlink glob(\"*.log\")'", "node -e 'require(\"./setup\")'",
                                  "ruby -e 'eval(ARGV[0])'", "php -r 'eval($argv[1]);'",
                                  "node -e 'console.log(`${process.exit(1)}`)'", "ruby -e 'puts \"#{`id`}\"; exit!'",
                                  "perl -e 'print $ENV{HOME}; kill 9, 1'", "lua -e 'os.remove(arg[1])'",
                                  "osascript -e 'tell application \"Finder\" to delete every item'"])
def test_inline_code_the_guard_cannot_prove_harmless_is_asked_about(project, line):
    assert verdict(project, line)["decision"] in STOPPED, line
