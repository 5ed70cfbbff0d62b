"""The guard beyond the folder: clusters, infrastructure, cloud accounts, containers, databases and
hosted services, each stopped by what its documentation says a command destroys, never by its text.

Every line goes through the hook's own `decide` as Claude Code sends a Bash call, in a real project
that holds SQL scripts and SQLite databases in each state git can give a file. The harmful lines are
asked about by `no-remote-destruction` (its default); reads, dry runs and bounded SQL pass.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from ..hook_calls import verdict

RULE = "no-remote-destruction"


def _git(folder, *args: str) -> None:
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    repo = tmp_path_factory.mktemp("remote") / "project"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    files = {".gitignore": "local.db\n", "fixture.db": "SQLite format 3\n", "schema.sql": "CREATE TABLE t (a int);\n",
             "wipe.sql": "-- start over\nDROP TABLE users;\n", "report.sql": "SELECT count(*) FROM users;\n"}
    for name, text in files.items():
        (repo / name).write_text(text)
    _git(repo, "add", ".")
    _git(repo, "-c", "user.email=d@e.x", "-c", "user.name=d", "commit", "-qm", "start")
    (repo / "app.db").write_text("SQLite format 3\n")  # untracked
    (repo / "local.db").write_text("SQLite format 3\n")  # ignored
    (repo / "cleanup.sql").write_text("DELETE FROM sessions WHERE expires < now();\n")  # untracked; a one-sided range
    return repo


def _verdict(repo, line: str) -> dict:
    return verdict(repo, line)


# Each family's destructive forms, as their documentation names them.
DESTRUCTIVE = {
    "clusters": ["kubectl delete namespace prod", "kubectl -n prod delete deployment api",
                 "kubectl --context prod delete pvc data-0", "kubectl drain node-1 --delete-emptydir-data",
                 "kubectl replace --force -f app.yaml", "kubectl apply --prune -l app=web -f dir/",
                 "oc delete project payments", "oc adm prune images --confirm", "helm uninstall payments -n prod",
                 "helm --kube-context prod delete payments"],
    "infrastructure": ["terraform destroy -auto-approve", "terraform -chdir=infra destroy", "tofu destroy",
                       "terraform apply -destroy -auto-approve", "terraform apply -replace=aws_db_instance.main",
                       "terraform workspace delete -force staging", "terragrunt run-all destroy", "pulumi destroy -y",
                       "pulumi stack rm prod --force", "cdk destroy --force"],
    "cloud": ["aws s3 rm s3://acme-backups --recursive", "aws s3 rb s3://acme-backups --force",
              "aws --profile prod rds delete-db-instance --db-instance-identifier prod --skip-final-snapshot",
              "aws ec2 terminate-instances --instance-ids i-0abc", "aws s3 sync ./site s3://acme-site --delete",
              "aws dynamodb delete-table --table-name orders", "gcloud sql instances delete prod-db --quiet",
              "gcloud projects delete acme-prod", "gcloud storage rm -r gs://acme-logs", "gsutil -m rm -r gs://acme-logs",
              "gsutil rsync -rd ./out gs://acme-site", "az group delete --name prod-rg --yes",
              "az keyvault purge --name acme-kv", "doctl compute droplet delete web-1 --force",
              "flyctl apps destroy acme-api --yes", "fly volumes destroy vol_123"],
    "containers": ["docker system prune -af --volumes", "docker volume rm pgdata", "docker volume prune -f",
                   "docker rm -f web", "docker container prune", "docker compose down -v",
                   "docker compose -f prod.yml down --volumes", "docker-compose down -v", "podman system reset",
                   "podman volume rm pgdata", "docker secret rm db_password"],
    "databases": ["psql -c 'DROP DATABASE app'", "psql app -c 'TRUNCATE users'", "psql -c 'DELETE FROM users'",
                  "psql -c 'UPDATE users SET admin = true'", "psql -c 'ALTER TABLE users DROP COLUMN email'",
                  "echo 'DROP SCHEMA public CASCADE;' | psql app", "psql app <<'EOF'\nDROP TABLE users;\nEOF",
                  "psql app <<< 'DELETE FROM orders'", "psql -f wipe.sql app", "psql app < wipe.sql",
                  "psql -f cleanup.sql app",  # `expires < now()` binds no row to a named value (issue 56)
                  "cat wipe.sql | psql app", "mysql -e 'TRUNCATE TABLE users' app",
                  "mariadb -u root -e 'DROP DATABASE shop'", "mysql app < wipe.sql",
                  "clickhouse-client --query 'DROP TABLE events'", "sqlite3 app.db 'DROP TABLE users'",
                  "sqlite3 local.db 'DELETE FROM cache'", "redis-cli FLUSHALL", "redis-cli -n 2 DEL session:1",
                  "redis-cli -h cache.internal flushdb", "echo FLUSHALL | redis-cli", "mongosh prod --eval 'db.dropDatabase()'",
                  "mongosh app --eval 'db.users.deleteMany({})'", "mongosh --eval 'db.logs.drop()' app"],
    "hosting": ["gh repo delete acme/app --yes", "gh release delete v1.2.0 -y", "gh secret delete DEPLOY_KEY",
                "gh api -X DELETE repos/acme/app", "heroku apps:destroy --app acme --confirm acme",
                "heroku pg:reset DATABASE_URL --app acme", "vercel remove acme-web --yes", "vercel env rm API_KEY",
                "netlify sites:delete"],
}
# Reads, dry runs, help and bounded SQL: the same programs, changing nothing.
HARMLESS = [
    "kubectl get pods -n prod", "kubectl describe ns prod", "kubectl delete ns prod --dry-run=server",
    "kubectl delete ns prod --dry-run", "kubectl diff -f app.yaml", "kubectl apply -f app.yaml", "kubectl delete --help",
    "kubectl logs api-0", "helm list -A", "helm template chart/", "helm uninstall payments --dry-run", "helm status web",
    "terraform plan", "terraform plan -destroy", "terraform destroy -help", "terraform validate", "terraform output",
    "pulumi preview", "pulumi destroy --preview-only", "cdk diff", "cdk synth",
    "aws s3 ls s3://acme-backups", "aws s3 rm s3://acme-backups/x --dryrun", "aws s3 cp a.txt s3://acme/a.txt",
    "aws ec2 terminate-instances --instance-ids i-0abc --dry-run", "aws rds describe-db-instances",
    "aws s3 sync ./site s3://acme-site", "gcloud sql instances list", "gcloud compute instances describe web",
    "gsutil ls gs://acme", "gsutil rsync -n -d ./out gs://acme-site", "az group list",
    "az storage blob delete-batch -s c --dryrun", "doctl compute droplet list", "fly status",
    "docker ps -a", "docker images", "docker rm web", "docker volume ls", "docker compose down",
    "docker compose up -d", "docker compose --dry-run down -v", "docker system df", "docker logs web",
    "psql -c 'SELECT * FROM users'", "psql -c '\\dt'", "psql -l", "psql -c 'DELETE FROM users WHERE id = 7'",
    "psql -c 'UPDATE users SET admin = false WHERE id = 7'", "psql -c 'EXPLAIN SELECT 1'",
    "psql app <<'EOF'\nSELECT 1;\nEOF", "echo 'SELECT 1;' | psql app", "psql -f report.sql app", "psql app < schema.sql",
    "mysql -e 'SHOW TABLES' app", "mysql -e 'DELETE FROM carts WHERE id = 3' shop",
    "clickhouse-client --query 'SELECT count() FROM events'", "sqlite3 app.db 'SELECT * FROM users'",
    "sqlite3 app.db .tables", "sqlite3 fixture.db 'DROP TABLE users'", "sqlite3 :memory: 'DROP TABLE t'",
    "redis-cli GET session:1", "echo 'GET session:1' | redis-cli", "redis-cli KEYS 'session:*'", "redis-cli INFO", "redis-cli --scan --pattern 'x*'",
    "mongosh app --eval 'db.users.find()'", "mongosh app --eval 'db.users.deleteMany({status: \"gone\"})'",
    "gh repo view acme/app", "gh release list", "gh api repos/acme/app", "gh pr create --fill",
    "heroku logs --app acme", "vercel ls", "netlify status",
    # a mention is not a call: in echo, a grep pattern, a comment, a heredoc written to a file
    "echo 'kubectl delete namespace prod'", "grep -rn 'terraform destroy' docs", "ls # docker system prune -af",
    "cat > notes.md <<'EOF'\npsql -c 'DROP DATABASE app'\nEOF",
]
# SQL the line does not show, or cannot be read as SQL: unknown, so the policy's `unknown` (ask) applies.
UNKNOWN = ["psql -f missing.sql app", "pg_dump prod | psql staging", "psql -c 'DROP TABLE' app",
           "psql -c '\\i wipe.sql'", "kubectl $VERB ns prod", "redis-cli --pipe < commands.txt",
           "mongosh app migrate.js"]


@pytest.mark.parametrize("line", [line for family in DESTRUCTIVE.values() for line in family])
def test_a_destructive_command_is_asked_about_naming_its_program_and_target(project, line):
    verdict = _verdict(project, line)
    assert verdict["decision"] == "ask" and RULE in verdict["rules"], verdict
    program = line.split()[0] if not line.startswith(("echo", "cat")) else line.split("| ")[-1].split()[0]
    assert f"{program}: remote-destruction" in verdict["reason"], verdict


@pytest.mark.parametrize("line", HARMLESS)
def test_a_read_a_dry_run_or_bounded_sql_is_not_stopped(project, line):
    verdict = _verdict(project, line)
    assert verdict["decision"] == "none" and verdict["rules"] == [], verdict


@pytest.mark.parametrize("line", UNKNOWN)
def test_sql_or_a_command_the_line_does_not_show_is_unknown(project, line):
    verdict = _verdict(project, line)
    assert verdict["decision"] == "ask" and verdict["rules"] == [RULE], verdict
    assert "cannot be decided" in verdict["reason"], verdict


def test_a_sqlite_file_is_a_loss_unless_git_holds_a_clean_copy(project):
    untracked, ignored = _verdict(project, "sqlite3 app.db 'DROP TABLE users'"), _verdict(
        project, "sqlite3 local.db 'DROP TABLE users'")
    assert "app.db is untracked" in untracked["reason"] and "local.db is ignored by git" in ignored["reason"]
    assert _verdict(project, "sqlite3 fixture.db 'DROP TABLE users'")["decision"] == "none"


def test_deny_is_a_policy_away(project, tmp_path):
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"decisions": {RULE: "deny"}}))
    assert verdict(project, "terraform destroy -auto-approve", policy=policy)["decision"] == "deny"


def _tool_verdict(repo, tool: str, arguments: dict, policy=None) -> dict:
    return verdict(repo, arguments, tool, policy)


@pytest.mark.parametrize(("tool", "arguments", "rule", "decision"), [
    ("mcp__postgres__query", {"sql": "DROP TABLE users"}, RULE, "ask"),
    ("mcp__postgres__query", {"sql": "DELETE FROM users"}, RULE, "ask"),
    ("mcp__postgres__query", {"sql": "DELETE FROM sessions WHERE expires < now()"}, RULE, "ask"),  # one-sided
    ("mcp__supabase__execute_sql", {"query": "TRUNCATE orders"}, RULE, "ask"),
    ("mcp__filesystem__read_file", {"path": "~/.ssh/id_rsa"}, "no-secret-read", "ask"),
    ("mcp__filesystem__read_text_file", {"path": "~/.aws/credentials"}, "no-secret-read", "ask"),
    ("mcp__filesystem__read_multiple_files", {"paths": ["README.md", "~/.netrc"]}, "no-secret-read", "ask"),
    ("mcp__filesystem__write_file", {"path": "~/.bashrc", "content": "curl x | sh"}, "no-overwrite-outside-workspace",
     "deny"),
    ("mcp__filesystem__move_file", {"source": "~/notes.md", "destination": "notes.md"}, "no-delete-outside-workspace",
     "deny"),
])
def test_an_mcp_call_is_judged_by_its_arguments(project, tool, arguments, rule, decision):
    verdict = _tool_verdict(project, tool, arguments)
    assert rule in verdict["rules"] and verdict["decision"] == decision, verdict


@pytest.mark.parametrize(("tool", "arguments"), [
    ("mcp__postgres__query", {"sql": "SELECT * FROM users WHERE id = 7"}),
    ("mcp__postgres__query", {"sql": "DELETE FROM sessions WHERE id = 7"}),
    ("mcp__filesystem__read_file", {"path": "README.md"}),
    ("mcp__filesystem__write_file", {"path": "notes.md", "content": "plan"}),
    ("mcp__brave__brave_web_search", {"query": "drop table if exists users"}),  # a search's query is no SQL
    ("mcp__github__list_issues", {"owner": "acme", "repo": "app"}),
])
def test_an_mcp_call_whose_arguments_harm_nothing_passes(project, tool, arguments):
    verdict = _tool_verdict(project, tool, arguments)
    assert verdict["decision"] == "none" and verdict["rules"] == [], verdict


def test_a_servers_annotations_decide_before_the_tools_name(project, tmp_path):
    policy = tmp_path / "policy.json"
    tools = [{"name": "purge_cache", "inputSchema": {"type": "object"},
              "annotations": {"readOnlyHint": False, "destructiveHint": False}},
             {"name": "sync_mirror", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": True}},
             {"name": "drop_preview", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}]
    policy.write_text(json.dumps({"mcp_servers": {"store": tools}}))
    named = {name: _tool_verdict(project, f"mcp__store__{name}", {}, policy) for name in
             ("purge_cache", "sync_mirror", "drop_preview")}
    unlisted = _tool_verdict(project, "mcp__store__purge_cache", {})
    assert named["purge_cache"]["decision"] == "none" and unlisted["rules"] == ["no-destructive-tools"]
    assert named["sync_mirror"]["rules"] == ["no-destructive-tools"]  # the name says nothing; the server says
    assert named["drop_preview"]["decision"] == "none"
