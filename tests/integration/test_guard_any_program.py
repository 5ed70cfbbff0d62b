"""The guard reads what no table names: programs by the conventions CLIs share, commands run on another
machine, and HTTP methods; and it still passes reads, dry runs and mere mentions.

Every line goes through the hook's own `decide` as Claude Code sends a Bash call, in a real project (a git
repository); a few go through the `agentworld-mcp hook` process itself. The lines are each program's
documented forms, not spellings chosen for the reader.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from agentworld_mcp.domains.shell.launchers.dispatch import HANDLERS

from ..hook_calls import git_project, verdict

RULE = "no-remote-destruction"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return git_project(tmp_path_factory.mktemp("any-program") / "project",
                       {"README.md": "# app\n", "deploy.sh": "rsync -a build/ web1:/srv/app/\n"})


def assert_stopped(repo, line: str, *named: str) -> None:
    result = verdict(repo, line)
    assert result["decision"] in ("ask", "deny") and RULE in result["rules"], (line, result)
    for word in named:
        assert word in result["reason"], (line, word, result["reason"])


def assert_passes(repo, line: str) -> None:
    result = verdict(repo, line)
    assert result["decision"] == "none", (line, result)


# Programs with no table, in the destructive forms their documentation gives; (line, program, word read).
NO_TABLE = [
    ("dropdb prod", "dropdb", "drop"), ("dropuser alice", "dropuser", "drop"),
    ("pg_dropcluster 16 main", "pg_dropcluster", "drop"), ("mysqladmin -f drop shop", "mysqladmin", "drop"),
    ("vault kv metadata delete secret/app", "vault", "delete"), ("vault secrets disable kv/", "vault", "disable"),
    ("vault token revoke -self", "vault", "revoke"), ("consul kv delete -recurse app/", "consul", "delete"),
    ("nomad job stop -purge api", "nomad", "purge"),
    ("kafka-topics --bootstrap-server kafka:9092 --delete --topic orders", "kafka-topics", "delete"),
    ('cqlsh -e "DROP KEYSPACE app"', "cqlsh", "DROP KEYSPACE"), ("rclone purge remote:backups", "rclone", "purge"),
    ("rclone delete remote:logs --min-age 30d", "rclone", "delete"), ("mc rb --force s3/data", "mc", "rb"),
    ("mc rm --recursive --force s3/data", "mc", "rm"), ("eksctl delete cluster --name prod", "eksctl", "delete"),
    ("minikube delete --all", "minikube", "delete"), ("kind delete cluster --name dev", "kind", "delete"),
    ("supabase db reset --linked", "supabase", "reset"), ("restic forget --prune --keep-last 1", "restic", "forget"),
    ("borg delete /backups::monday", "borg", "delete"), ("vagrant destroy -f", "vagrant", "destroy"),
    ("firebase firestore:delete --all-collections", "firebase", "delete"),
    ("wrangler r2 bucket delete assets", "wrangler", "delete"), ("stripe customers delete cus_123", "stripe", "delete"),
    ("influx bucket delete --name metrics", "influx", "delete"), ("etcdctl del --prefix /config/", "etcdctl", "del"),
    ("nats stream rm ORDERS -f", "nats", "rm"), ("argocd app delete guestbook --cascade", "argocd", "delete"),
    ("linode-cli linodes delete 123", "linode-cli", "delete"), ("snowsql -q 'DROP DATABASE analytics'", "snowsql", "DROP"),
    ("bq rm -r -f -d analytics", "bq", "rm"), ("gem yank mygem -v 1.0.0", "gem", "yank"),
    ("npm unpublish pkg --force", "npm", "unpublish"), ("rails db:drop", "rails", "drop"),
    ("apt-get purge postgresql", "apt-get", "purge"), ("snap remove --purge lxd", "snap", "remove"),
    # `-h` names the host to database tools; a package manager's other verbs are read as any program's.
    ("dropdb -h db.prod -U postgres production", "dropdb", "drop"),
    ("mysqladmin -h db.prod -u root drop production", "mysqladmin", "drop"),
    ("dotnet ef database drop --force", "dotnet", "drop"),
    ("mytool --region us-east-1 --profile prod --cluster main --env staging delete everything", "mytool", "delete"),
]
NO_TABLE_READS = [
    "vault kv get secret/app", "consul members", "nomad job status api", "kafka-topics --bootstrap-server k:9092 --list",
    "rclone ls remote:backups", "mc ls s3/data", "eksctl get clusters", "minikube status", "kind get clusters",
    "etcdctl get --prefix /config/", "argocd app list", "restic snapshots", "bq ls", "influx bucket list",
    "stripe customers list --limit 3", "wrangler r2 bucket list", "vagrant status", "dropdb --help",
    "vault kv delete --help", "npm uninstall lodash", "pip uninstall -y requests", "cargo remove serde",
    "apt-get remove --dry-run nginx", "snap remove lxd", "rails db:migrate", "terraform-docs markdown .",
    # What an install, a download or a rebuild brings back (remote/packages.py's LOCAL_VERBS).
    "pip cache purge", "nvm uninstall 18", "pyenv uninstall 3.10.4", "code --uninstall-extension ms-python.python",
    "ollama rm llama3", "next telemetry disable", "corepack disable", "pre-commit uninstall", "nx reset",
    "turbo prune web", "pm2 flush", "dropdb -h",
]


@pytest.mark.parametrize(("line", "program", "word"), NO_TABLE)
def test_a_program_with_no_table_that_destroys_is_asked_about_naming_it_and_its_word(project, line, program, word):
    assert_stopped(project, line, program, word)


@pytest.mark.parametrize("line", NO_TABLE_READS)
def test_a_program_with_no_table_that_reads_or_is_asked_for_help_passes(project, line):
    assert_passes(project, line)


def test_the_no_table_programs_have_no_handler_of_their_own():
    """The cases above test the conventions only where no table speaks first (package managers excepted)."""
    tabled = {"npm", "gem", "apt-get", "snap"}
    assert not {program for _, program, _ in NO_TABLE} - tabled & set(HANDLERS)


# Commands run on another machine: what runs there, read with the same semantics.
ELSEWHERE = [
    "ssh web1 'rm -rf /srv/app'", "ssh -p 2222 deploy@web1 'sudo rm -rf /var/www'", "ssh web1 rm -rf /srv/app",
    "ssh web1 <<'EOF'\ncd /srv\nrm -rf app\nEOF", "ssh web1 'psql -c \"DROP TABLE users\"'",
    "ssh web1 'echo > /etc/nginx/nginx.conf'", "ssh db1 'systemctl stop postgresql && dropdb app'",
    "kubectl exec db-0 -- rm -rf /var/lib/postgresql/data", "kubectl -n prod exec -it db-0 -c pg -- psql -c 'TRUNCATE users'",
    "oc exec api-1 -- sh -c 'rm -rf /data/*'", "docker exec db psql -c 'DROP TABLE users'",
    "docker exec -u postgres -it db dropdb app", "podman exec web rm -rf /app/uploads",
    "docker compose exec db dropdb app", "docker-compose run --rm web rails db:drop",
    "docker run -v pgdata:/var/lib/postgresql/data alpine rm -rf /var/lib/postgresql/data",
    "ansible all -m shell -a 'rm -rf /var/lib/app'", "ansible web -a 'rm -rf /tmp/cache /srv/app'",
    "ansible db -m ansible.builtin.raw -a 'dropdb app'", "ansible all -m file -a 'path=/srv/app state=absent'",
    "ansible-playbook site.yml", "aws ssm send-command --document-name AWS-RunShellScript --instance-ids i-0abc "
    "--parameters 'commands=[\"rm -rf /srv/app\"]'",
    "aws ssm send-command --document-name AWS-RunShellScript --targets Key=tag:role,Values=web "
    "--parameters '{\"commands\":[\"rm -rf /srv/app\"]}'",
    "aws ecs execute-command --cluster prod --task abc --interactive --command 'rm -rf /data'",
    "gcloud compute ssh vm1 --zone europe-west1-b --command 'rm -rf /srv'", "gcloud compute ssh vm1 -- 'rm -rf /srv'",
    "heroku run rails db:drop -a shop", "heroku run 'psql $DATABASE_URL -c \"DROP TABLE users\"'",
    "fly ssh console -C 'rm -rf /data'", "flyctl ssh console -a api --command 'rm -rf /data/uploads'",
    "ssh web1 \"$CLEANUP\"", "ssh web1 < cleanup.sh", "ssh web1 bash -s < deploy.sh",
    # Standard input passed on (-i), the older `kubectl exec POD CMD`, `oc rsh`, ssh's own options after gcloud's `--`.
    "kubectl exec -i db-0 -- psql -U app < wipe.sql", "docker exec -i web sh < deploy.sh",
    "kubectl exec -i db-0 -- psql <<'EOF'\nDROP TABLE users;\nEOF", "kubectl exec web-1 rm -rf /data",
    "oc rsh web-1 rm -rf /data", "gcloud compute ssh web -- sudo rm -rf /data",
    "gcloud compute ssh web --zone us-central1-a -- -t rm -rf /data",
    # A mount however its option is spelled, and value options the reading holds no list of.
    "docker run --rm -v/:/host alpine rm -rf /host/etc", "docker run --rm --memory-swap 1g -v /:/host alpine rm -rf /host/etc",
    "docker run --rm -a stdout -v /:/host alpine rm -rf /host/etc",
]
ELSEWHERE_READS = [
    "ssh web1 uptime", "ssh web1 'ls -la /srv && df -h'", "ssh -N -L 5432:localhost:5432 bastion",
    "ssh web1 'tail -n 50 /var/log/nginx/error.log'", "kubectl exec db-0 -- cat /etc/hosts",
    "kubectl exec -it api-1 -- ls /app", "docker exec web ls /app", "docker compose exec db psql -c 'SELECT 1'",
    "docker run --rm alpine rm -rf /tmp/cache", "docker run --rm -it python:3.12 python -V", "ansible all -m ping",
    "ansible all -a 'df -h'", "ansible-playbook site.yml --check", "ansible all -m file -a 'path=/srv state=absent' --check",
    "aws ssm send-command --document-name AWS-RunShellScript --instance-ids i-0abc --parameters 'commands=[\"df -h\"]'",
    "gcloud compute ssh vm1 --command uptime", "heroku run rm -rf /app/tmp", "fly ssh console -C 'ls /data'",
    "kubectl exec web-1 -c app -- ls /data", "kubectl exec -it db-0 -- bash", "oc rsh web-1",
    "docker run --rm -e A=1 --memory-swap 1g alpine rm -rf /tmp/x",
]


@pytest.mark.parametrize("line", ELSEWHERE)
def test_what_a_command_run_elsewhere_would_lose_there_is_asked_about(project, line):
    assert_stopped(project, line)


@pytest.mark.parametrize("line", ELSEWHERE_READS)
def test_a_read_elsewhere_or_a_loss_in_a_fresh_container_passes(project, line):
    assert_passes(project, line)


def test_a_loss_elsewhere_names_the_machine_and_what_runs_there(project):
    assert_stopped(project, "ssh web1 'rm -rf /srv/app'", "web1", "/srv/app", "nothing there can be undone")
    assert_stopped(project, "kubectl exec db-0 -- rm -rf /var/lib/postgresql/data", "the pod db-0")


# HTTP: DELETE removes the target resource and PUT replaces its state (RFC 9110), on a loopback address too; safe
# methods pass, and so does a request that says only a read (remote/requests.py; tests/integration/test_guard_requests.py).
HTTP = ["curl -X DELETE https://api.example.com/v1/projects/42", "curl --request DELETE https://api.example.com/v1/x",
        "curl -X DELETE http://localhost:8080/items/1", "curl -X DELETE http://127.0.0.1:9200/test-index",
        "curl -XDELETE -H 'Authorization: Bearer t' https://api.example.com/items/7",
        "curl -s -X PUT -d '{\"name\":\"x\"}' https://api.example.com/v1/items/7",
        "wget --method=DELETE -qO- https://api.example.com/v1/projects/42",
        "http DELETE api.example.com/items/7", "https PUT api.example.com/items/7 name=x", "xh delete api.example.com/items/7",
        "http -v DELETE api.example.com/items/7", "http -p Hh DELETE api.example.com/items/7"]
HTTP_READS = ["curl https://api.example.com/v1/projects", "curl -X GET https://api.example.com/v1/projects",
              "curl -I https://example.com", "curl -X OPTIONS https://api.example.com/v1",
              "curl -X POST -d 'a=1' https://api.example.com/v1/search", "curl -X PATCH -d '{}' http://localhost:8080/v1/x",
              "http :8000/items", "http GET api.example.com/items", "http --offline DELETE api.example.com/items/7",
              "xh api.example.com/items"]


@pytest.mark.parametrize("line", HTTP)
def test_an_http_delete_or_put_to_another_host_is_asked_about(project, line):
    assert_stopped(project, line, "RFC 9110")


@pytest.mark.parametrize("line", HTTP_READS)
def test_safe_methods_reads_and_the_projects_own_server_pass(project, line):
    assert_passes(project, line)


# A mention is text: no program runs it.
MENTIONS = ["echo 'dropdb prod'", "grep -rn 'kubectl exec' docs/", "printf '%s\\n' 'ssh web1 rm -rf /srv'",
            "git commit -qm 'drop the rclone purge step' --allow-empty", "# vault kv metadata delete secret/app",
            "echo curl -X DELETE https://api.example.com/x", "grep -c 'mc rb --force' README.md"]


@pytest.mark.parametrize("line", MENTIONS)
def test_a_mention_of_a_destructive_command_passes(project, line):
    assert_passes(project, line)


def test_the_hook_process_itself_reads_an_unknown_program_a_remote_command_and_a_method(project):
    for line, asked in (("dropdb prod", True), ("ssh web1 'rm -rf /srv/app'", True),
                        ("http DELETE api.example.com/items/7", True), ("vault kv get secret/app", False)):
        payload = {"session_id": "p", "cwd": str(project), "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": line}}
        done = subprocess.run([sys.executable, "-m", "agentworld_mcp", "hook", "--event", "pre"], input=json.dumps(payload),
                              capture_output=True, text=True, timeout=120, check=True)
        decision = json.loads(done.stdout).get("hookSpecificOutput", {}).get("permissionDecision")
        assert (decision == "ask") == asked, (line, done.stdout)


@pytest.mark.parametrize(("tool", "arguments"), [
    ("mcp__ssh__exec", {"host": "web1", "command": "rm -rf /srv/app"}),
    ("mcp__shell__run_command", {"command": "kubectl delete namespace prod"}),
    ("mcp__kubernetes__exec_in_pod", {"pod": "db-0", "command": "psql -c 'DROP TABLE users'"}),
    ("mcp__terminal__execute", {"cmd": "dropdb app"}),
    ("mcp__shell__runCommand", {"command": "kubectl delete ns prod"}),
    ("mcp__desktop-commander__start_process", {"command": "rm -rf /srv/app", "timeout_ms": 5000}),
    ("mcp__k8s__exec_in_pod", {"pod": "db-0", "command": ["rm", "-rf", "/data"]}),
    ("mcp__shell__execute", {"command": "kubectl", "args": ["delete", "ns", "prod"]}),
])
def test_an_exec_style_mcp_tool_is_judged_by_the_command_it_runs(project, tool, arguments):
    result = verdict(project, arguments, tool)
    assert result["decision"] in ("ask", "deny") and RULE in result["rules"], result


@pytest.mark.parametrize(("tool", "arguments"), [
    ("mcp__ssh__exec", {"host": "web1", "command": "ls -la /srv"}),
    ("mcp__shell__run_command", {"command": "kubectl get pods -A"}),
    ("mcp__notes__add_note", {"command": "rm -rf /srv/app"}),  # a tool that runs nothing: its text is a note
])
def test_an_exec_style_mcp_tool_that_reads_or_a_tool_that_runs_nothing_passes(project, tool, arguments):
    assert verdict(project, arguments, tool)["decision"] == "none"
