"""Cloud CLIs: AWS (`aws help`; every service's API names its deletions Delete*, Terminate* and
Purge*), Google Cloud (gcloud's command groups end in the verb `delete`; gsutil rm/rb/rsync -d),
Azure (`az ... delete`, `purge`), DigitalOcean's doctl (`delete`, alias `rm`, `d`) and Fly.io's
flyctl (`destroy`, `delete`, `remove`). A deleted resource is gone from the provider: only a
snapshot, a versioned bucket or a soft-delete window someone set up beforehand brings it back."""

from __future__ import annotations

from .api_commands import reads_api
from .elsewhere import aws_remote, az_run_command, fly_ssh, gcloud_ssh, launcher
from .machines import doctl_ssh
from .tables import Form, RemoteProgram, register

AWS = RemoteProgram(
    "an AWS account's resources",
    (Form((r"[a-z0-9-]+", r"(delete|terminate|purge)-[a-z0-9-]+"), "deletes it through the service's API; AWS "
                                                                    "keeps no copy unless a backup was set up"),
     Form(("s3", "rm"), "deletes the objects (--recursive: every object under the prefix)"),
     Form(("s3", "rb"), "removes the bucket (--force: with every object in it)"),
     Form(("s3", "sync"), "deletes the destination's objects that the source lacks", needs=("--delete",))),
    frozenset({"--profile", "--region", "--output", "--endpoint-url", "--query", "--cli-read-timeout",
               "--cli-connect-timeout", "--ca-bundle", "--color", "--cli-binary-format", "--cli-input-json",
               "--cli-input-yaml"}),
    dry_runs=("--dryrun", "--dry-run"),
    runs_elsewhere=launcher(aws_remote),
)
GCLOUD = RemoteProgram(
    "a Google Cloud project's resources",
    (Form(("delete",), "deletes the resource; Google Cloud keeps no copy (a deleted project alone can be "
                       "restored, for 30 days)", anywhere=True),
     Form(("storage", "rm"), "deletes the objects"),
     Form(("storage", "rsync"), "deletes the destination's objects that the source lacks",
          needs=("--delete-unmatched-destination-objects",))),
    frozenset({"--project", "--account", "--configuration", "--format", "--verbosity", "--flatten",
               "--impersonate-service-account", "--billing-project", "--trace-token", "--zone", "--region"}),
    runs_elsewhere=launcher(gcloud_ssh),
)
GSUTIL = RemoteProgram(
    "Google Cloud Storage buckets",
    (Form(("rm",), "deletes the objects (-r: a bucket's whole content)"),
     Form(("rb",), "removes the bucket"),
     Form(("rsync",), "deletes the destination's objects that the source lacks", needs=("-d",))),
    frozenset({"-o", "-h", "-u", "-i"}),
    dry_runs=("-n",),
)
AZ = RemoteProgram(
    "an Azure subscription's resources",
    (Form(("delete|purge|delete-batch",), "deletes the resource (a resource group: every resource in it); Azure "
                                          "keeps no copy unless soft delete was on", anywhere=True),),
    frozenset({"--subscription", "-o", "--output", "--query"}),
    dry_runs=("--dryrun",),
    runs_elsewhere=launcher(az_run_command),
    requests=reads_api("az"),
)
DOCTL = RemoteProgram(
    "a DigitalOcean account's resources",
    (Form(("delete|rm|d",), "deletes the resource; DigitalOcean keeps no copy", anywhere=True),),
    frozenset({"-t", "--access-token", "-c", "--config", "--context", "-o", "--output", "-u", "--api-url"}),
    runs_elsewhere=launcher(doctl_ssh),
)
FLYCTL = RemoteProgram(
    "a Fly.io organization's apps, machines and volumes",
    (Form(("destroy|delete|remove|rm",), "deletes it and the data on its volumes; Fly.io keeps no copy",
          anywhere=True),
     Form(("secrets", "unset"), "removes the secrets; their values cannot be read back")),
    frozenset({"-a", "--app", "-c", "--config", "-t", "--access-token", "-o", "--org", "-r", "--region"}),
    runs_elsewhere=launcher(fly_ssh),
)

register({"aws": AWS, "gcloud": GCLOUD, "gsutil": GSUTIL, "az": AZ, "doctl": DOCTL, "flyctl": FLYCTL,
          "fly": FLYCTL})
