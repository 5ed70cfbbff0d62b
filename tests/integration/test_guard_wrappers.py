"""Wrappers and what the line writes, judged through the hook's own `decide` as Claude Code sends a Bash call,
in a real project: a git repository with a Makefile of several targets (one only lists, one destroys a
cluster's namespace through a prerequisite, one through a sub-make), a Pipfile, and a folder outside it with
a Makefile of its own.

A wrapper's command is read as the command it runs (script -c, GNU parallel, aliases, make's recipes, package
runners, a program looked up by `command -v`), and a file the same line writes with text it spells out is read
by that text when the line then runs it (a script, SQL, Python). Mentions stay mentions.
"""

from __future__ import annotations

import subprocess

import pytest

from ..hook_calls import verdict

REMOTE, TREE, OUTSIDE = "no-remote-destruction", "no-recursive-force-delete", "no-delete-outside-workspace"

MAKEFILE = """\
# The project's tasks
NS ?= prod
KUBECTL := kubectl
.PHONY: all list deploy-clean check wipe-ns nested via-shell unknown-var included patterned env-dir

all: list

list:
\t@echo listing
\tls -la

check:
\t-ls build

deploy-clean: check
\t@$(KUBECTL) delete ns $(NS)

wipe-ns:
\t+$(KUBECTL) delete ns staging

nested:
\t$(MAKE) -C sub clean

via-shell:
\trm -rf $(shell cat dirs.txt)

env-dir:
\trm -rf $(TARGET_DIR)

%.o: %.c
\t$(CC) -c $< -o $@

patterned: main.o
"""
SUB_MAKEFILE = "clean:\n\tkubectl delete ns prod\n\nlist:\n\tls\n"
OTHER_MAKEFILE = "wipe:\n\trm -rf /srv/data\n"
PACKAGE_JSON = """{"name": "app", "packageManager": "yarn@4.1.0", "scripts": {
  "nuke": "kubectl delete ns prod", "db:reset": "prisma migrate reset --force", "test": "jest", "build": "tsc",
  "predeploy": "kubectl delete ns staging", "deploy": "echo deploying", "lint": "eslint ."}}"""
# a project that turns pnpm's pre/post scripts on in its .npmrc
PNPM_HOOKS = """{"scripts": {"prebuild": "rm -rf /srv/data", "build": "tsc"}}"""


def _git(folder, *args: str) -> None:
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("wrappers")
    repo, other = root / "project", root / "other"
    for folder in ("sub", "broken", "pnpm-hooks"):
        (repo / folder).mkdir(parents=True)
    other.mkdir()
    _git(root, "init", "-q", "-b", "main", str(repo))
    files = {"Makefile": MAKEFILE, "sub/Makefile": SUB_MAKEFILE, "tasks.mk": "drop:\n\tpsql -c 'DROP TABLE users'\n",
             "Pipfile": '[scripts]\nreset = "kubectl delete ns prod"\ntest = "pytest -q"\n', "notes.txt": "plan\n",
             "package.json": PACKAGE_JSON, "broken/package.json": "{not json", "pnpm-hooks/package.json": PNPM_HOOKS,
             "pnpm-hooks/.npmrc": "enable-pre-post-scripts=true\n"}
    for name, text in files.items():
        (repo / name).write_text(text)
    _git(repo, "add", ".")
    _git(repo, "-c", "user.email=d@e.x", "-c", "user.name=d", "commit", "-qm", "start")
    (other / "Makefile").write_text(OTHER_MAKEFILE)
    return repo, other


def _verdict(project, line: str) -> dict:
    repo, other = project
    return verdict(repo, line.replace("OTHER", str(other)))


# (rule that must stop it, line)
STOPPED = [
    # script(1), GNU parallel, aliases
    (TREE, "script -qc 'rm -rf /srv/data'"), (TREE, "script -q -c 'rm -rf /srv/data' /dev/null"),
    (TREE, "script --command 'rm -rf /srv/data' log.txt"), (TREE, "script -q /dev/null rm -rf /srv/data"),
    (TREE, "parallel rm -rf ::: /srv/a /srv/b"), (TREE, "parallel 'rm -rf {}' ::: /srv/a"),
    (REMOTE, "parallel kubectl delete ns {1} ::: prod staging"), (REMOTE, "parallel -j 4 kubectl delete ns ::: prod"),
    (TREE, "parallel rm -rf {} :::: dirs.txt"), (REMOTE, "parallel ::: 'kubectl delete ns prod' 'ls'"),
    (TREE, "parallel --xargs rm -rf ::: /srv/a /srv/b"), (TREE, "ls | xargs -i rm -rf /srv/{}"), (TREE, "parallel rm -rf ::: $DIRS"),
    (REMOTE, "alias k=kubectl; k delete ns prod"), (TREE, "alias rmr='rm -rf'; rmr /srv/data"),
    (REMOTE, "alias k=kubectl\nk delete ns prod"), (REMOTE, "alias k='kubectl '; alias d=delete; k d ns prod"),
    (TREE, "alias s='sudo '; alias r='rm -rf'; s r /srv/data"), (TREE, "f() { rm -rf /srv/data; }; f"),
    # make: a recipe, through prerequisites, `+` lines and $(MAKE) under -n, sub-makes, -f, --file=, -C
    (REMOTE, "make deploy-clean"), (REMOTE, "make -k -j 4 deploy-clean"), (REMOTE, "make NS=staging deploy-clean"),
    (REMOTE, "make -n wipe-ns"), (REMOTE, "make nested"),
    (REMOTE, "make -C sub clean"), (REMOTE, "cd sub && make"), (REMOTE, "make -f tasks.mk drop"),
    (REMOTE, "make --file=tasks.mk"), (TREE, "make -C OTHER wipe"),
    (TREE, "make via-shell"),  # $(shell cat dirs.txt) is the shell's $(cat dirs.txt): rm -rf of what it prints
    # package runners: the program they start, with its arguments
    (REMOTE, "npx kubectl delete ns prod"), (REMOTE, "npx --yes kubectl@1.30 delete ns prod"),
    (REMOTE, "npx -p kubernetes-cli kubectl delete ns prod"), (REMOTE, "npx -c 'kubectl delete ns prod'"),
    (REMOTE, "npm exec -- kubectl delete ns prod"), (REMOTE, "pnpm dlx kubectl delete ns prod"),
    (REMOTE, "yarn dlx kubectl delete ns prod"), (REMOTE, "bunx kubectl delete ns prod"),
    (REMOTE, "uvx --from awscli aws s3 rb s3://b --force"), (REMOTE, "uv tool run --from awscli aws s3 rb s3://b --force"),
    (REMOTE, "pipx run --spec awscli aws s3 rb s3://b --force"), (REMOTE, "uv run kubectl delete ns prod"),
    (REMOTE, "uv --directory sub run kubectl delete ns prod"), (REMOTE, "poetry run kubectl delete ns prod"),
    (REMOTE, "pipenv run kubectl delete ns prod"), (REMOTE, "pipenv run reset"),
    (REMOTE, "bundle exec kubectl delete ns prod"),
    # package.json scripts, with npm's pre scripts, arguments after the name, and binaries of yarn and pnpm
    (REMOTE, "npm run nuke"), (REMOTE, "npm run-script nuke"), (REMOTE, "npm run db:reset"), (REMOTE, "pnpm nuke"),
    (REMOTE, "pnpm run nuke"), (REMOTE, "yarn nuke"), (REMOTE, "yarn run nuke"), (REMOTE, "bun run nuke"),
    (REMOTE, "bun nuke"), (REMOTE, "npm run deploy"), (REMOTE, "npm --silent run nuke -- --wait=false"),
    (REMOTE, "cd sub && npm run nuke"), (REMOTE, "npm --prefix sub run nuke"), (REMOTE, "yarn --cwd sub nuke"),
    (REMOTE, "yarn kubectl delete ns prod"), (REMOTE, "pnpm kubectl delete ns prod"),
    (TREE, "pnpm -C pnpm-hooks build"), (REMOTE, "pnpm run '/^nu/'"), (REMOTE, "bun x kubectl delete ns prod"),
    # environment wrappers: the command they run in the environment they set up
    (REMOTE, "conda run -n env aws s3 rb s3://b --force"), (REMOTE, "mamba run -n env kubectl delete ns prod"),
    (REMOTE, "micromamba run -p /opt/env kubectl delete ns prod"), (REMOTE, "direnv exec . kubectl delete ns prod"),
    (REMOTE, "nix-shell -p awscli2 --run 'aws s3 rb s3://b --force'"),
    (REMOTE, "nix-shell -p awscli2 --command 'aws s3 rb s3://b --force'"),
    (REMOTE, "nix shell nixpkgs#awscli2 -c aws s3 rb s3://b --force"),
    (REMOTE, "nix develop -c kubectl delete ns prod"), (REMOTE, "aws-vault exec prod -- aws s3 rb s3://b --force"),
    (REMOTE, "aws-vault exec -d 1h prod aws s3 rb s3://b --force"),
    (REMOTE, "op run --env-file .env -- kubectl delete ns prod"), (REMOTE, "doppler run -- kubectl delete ns prod"),
    (REMOTE, "doppler run --command 'kubectl delete ns prod'"),
    (REMOTE, "dotenv -e .env.prod -- kubectl delete ns prod"),
    (REMOTE, "mise exec -- kubectl delete ns prod"), (REMOTE, "mise x node@20 -- kubectl delete ns prod"),
    (REMOTE, "asdf exec kubectl delete ns prod"), (REMOTE, "infisical run --env=prod -- kubectl delete ns prod"),
    (REMOTE, "chamber exec app db -- kubectl delete ns prod"), (REMOTE, "envchain aws kubectl delete ns prod"),
    (REMOTE, "retry -- kubectl delete ns prod"), (REMOTE, "retry -t 3 'kubectl delete ns prod'"),
    # a program looked up by name
    (REMOTE, '"$(command -v kubectl)" delete ns prod'), (REMOTE, "$(which kubectl) delete ns prod"),
    (REMOTE, "`which kubectl` delete ns prod"), (REMOTE, '"$(type -P kubectl)" delete ns prod'),
    # what the same line writes, then runs or reads
    (TREE, "cat > run.sh <<'EOF'\nrm -rf ~/data\nEOF\nbash run.sh"),
    (TREE, "cat > run.sh <<'EOF'\nrm -rf ~/data\nEOF\nchmod +x run.sh && ./run.sh"),
    (TREE, "printf 'rm -rf /srv/data\\n' > run.sh; sh run.sh"), (REMOTE, "echo 'kubectl delete ns prod' > k.sh; source k.sh"),
    (REMOTE, "tee k.sh <<'EOF'\nkubectl delete ns prod\nEOF\nbash k.sh"),
    (REMOTE, "echo 'SELECT 1;' > q.sql; echo 'DROP TABLE users;' >> q.sql; psql -f q.sql app"),
    (REMOTE, "echo 'DROP TABLE users;' > q.sql && mysql app < q.sql"),
    (REMOTE, "cat > drop.py <<'EOF'\nimport subprocess\nsubprocess.run(['kubectl', 'delete', 'ns', 'prod'])\nEOF\n"
             "python3 drop.py"),
    (REMOTE, "cat > drop <<'EOF'\n#!/usr/bin/env python3\nimport os\nos.system('kubectl delete ns prod')\nEOF\n"
             "chmod +x drop && ./drop"),
    # inline Python that starts commands
    (REMOTE, "python3 -c \"import os; os.system('kubectl delete ns prod')\""),
    (REMOTE, "python3 -c \"import subprocess; subprocess.run('kubectl delete ns prod', shell=True)\""),
    (REMOTE, "python3 -c \"import subprocess, shlex; subprocess.check_call(shlex.split('kubectl delete ns prod'))\""),
    (REMOTE, "python3 -c \"from subprocess import run as r; r(['psql', 'app'], input='DROP TABLE users')\""),
]
# Reads, dry runs, mentions and harmless recipes: nothing to stop.
PASSED = [
    "script -q out.log -c 'ls -la'", "script -qc 'ls -la' /dev/null", "parallel echo ::: a b", "parallel --dry-run rm -rf ::: /srv/a",
    "parallel gzip -k ::: notes.txt", "alias ll='ls -la'; ll", "alias k=kubectl; k get pods",
    # `d` after a word is not expanded (no trailing space in k's alias): `kubectl get d` gets an object named d.
    "alias k=kubectl; alias d=delete; k get d",
    "make", "make list", "make check", "make -n deploy-clean",
    "make --dry-run nested",  # its $(MAKE) line runs, and the sub-make inherits -n "make --just-print deploy-clean", "make --recon deploy-clean",
    "make -C sub list", "make --version", "npx prettier --check .", "npx kubectl get pods", "uvx ruff check .",
    "uv run pytest", "uv run kubectl get pods", "poetry run pytest -q", "pipenv run test", "bundle exec rspec",
    "pnpm dlx create-vite app", "npm install", "npm ci", "npm test", "npm t -- --watch", "pnpm build", "pnpm test",
    "yarn build", "yarn deploy", "pnpm deploy --help", "npm run", "npm run lint", "npm run missing", "bun run build",
    "npm run deploy --ignore-scripts", "pnpm -C pnpm-hooks test",
    "conda run -n env pytest", "direnv exec . ls", "nix-shell -p awscli2", "nix-shell -p awscli2 --run 'aws s3 ls'",
    "nix shell nixpkgs#hello -c hello", "nix develop", "aws-vault exec prod -- aws s3 ls", "op run -- npm test",
    "doppler run -- ls", "mise x node@20 -- node -v", "mise exec node@20", "asdf exec node -v",
    "envchain --set aws AWS_KEY", "retry -- ls", "infisical run -- ls", "dotenv -- ls",
    "\"$(command -v kubectl)\" get pods", "$(which kubectl) version",
    "cat > build.sh <<'EOF'\nls -la\nEOF\nbash build.sh", "echo 'SELECT 1' > q.sql && psql -f q.sql",
    "echo 'DROP TABLE t;' > q.sql; echo 'SELECT 1;' > q.sql; psql -f q.sql app",
    "cat > show.py <<'EOF'\nprint('rm -rf /')\nEOF\npython3 show.py",
    "python3 -c \"import subprocess; subprocess.run(['kubectl','get','pods'])\"",
    "python3 -c \"import subprocess; print(subprocess.run(['git', 'status'], capture_output=True, text=True).stdout)\"",
    "python3 -c \"import os; print(os.popen('ls').read())\"", "xargs -n1 kubectl get ns",
    # mentions are not calls
    'echo "make deploy-clean"', 'echo "npm run nuke"',
    "grep -rn 'pnpm nuke' docs", "echo 'doppler run -- kubectl delete ns prod'",
    "grep -r parallel .", "grep -rn 'npx kubectl delete' docs", "echo 'alias k=kubectl'",
    "cat > notes.md <<'EOF'\nrm -rf /srv/data\nEOF",
]
# What the reading cannot follow: the guard asks (the rule cannot be decided).
UNDECIDED = [
    "make patterned", "make -f missing.mk", "make $GOAL",
    "cat > run.sh <<EOF\nrm -rf $DIR\nEOF\nbash run.sh", "echo \"rm -rf $X\" > s.sh; bash s.sh",
    "python3 -c \"import subprocess; cmd = ['rm', '-rf', '/srv']; subprocess.run(cmd)\"",
    "python3 -c \"import os; os.remove('notes.txt')\"", "alias x=$CMD; x /srv/data",
    "npm run $TASK", "npm --prefix broken run nuke", "yarn --cwd broken nuke",
]


@pytest.mark.parametrize(("rule", "line"), STOPPED)
def test_what_a_wrapper_or_a_written_file_runs_is_stopped_by_its_own_rule(project, rule, line):
    verdict = _verdict(project, line)
    assert verdict["decision"] in ("ask", "deny") and rule in verdict["rules"], verdict
    assert "cannot be decided" not in verdict["rule_reasons"][rule], verdict


@pytest.mark.parametrize("line", PASSED)
def test_a_harmless_wrapped_or_written_command_passes(project, line):
    verdict = _verdict(project, line)
    assert verdict["decision"] == "none" and verdict["rules"] == [], verdict


@pytest.mark.parametrize("line", UNDECIDED)
def test_what_the_reading_cannot_follow_is_asked_about(project, line):
    verdict = _verdict(project, line)
    assert verdict["decision"] in ("ask", "deny") and "cannot be decided" in verdict["reason"], verdict


def test_an_environment_variable_in_a_recipe_is_the_lines_own(project):
    """`$(TARGET_DIR)` the Makefile never sets is the environment's: the line's value when it sets one."""
    assert _verdict(project, "make env-dir")["decision"] in ("ask", "deny")
    verdict = _verdict(project, "TARGET_DIR=/srv/data; export TARGET_DIR; make env-dir")
    assert OUTSIDE in verdict["rules"] and "/srv/data" in verdict["reason"], verdict


def test_the_reason_names_the_program_the_wrapper_runs(project):
    assert "kubectl: remote-destruction" in _verdict(project, "npx kubectl delete ns prod")["reason"]
    assert "kubectl: remote-destruction" in _verdict(project, "make deploy-clean")["reason"]
    assert "kubectl: remote-destruction" in _verdict(project, "alias k=kubectl; k delete ns prod")["reason"]
