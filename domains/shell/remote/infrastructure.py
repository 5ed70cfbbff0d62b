"""Infrastructure as code: Terraform and OpenTofu (`terraform <command> -help`), Terragrunt, Pulumi
(`pulumi <command> --help`) and the AWS CDK (`cdk destroy --help`). They act on real resources in a
cloud account; a destroyed database or disk does not come back from the configuration, only empty."""

from __future__ import annotations

from .tables import Form, RemoteProgram, register

HOLDS = "the cloud resources the configuration manages"
# Go's flag package: one dash or two, and a non-boolean flag takes the next word as its value.
_TERRAFORM_VALUES = frozenset(f"{dashes}{name}" for dashes in ("-", "--") for name in (
    "var", "var-file", "target", "replace", "state", "state-out", "backup", "lock-timeout", "parallelism", "chdir"))
_TERRAFORM_FORMS = (
    Form(("destroy",), "destroys every resource the configuration manages, and the data they hold"),
    Form(("apply",), "applies a plan that destroys every managed resource", needs=("-destroy", "--destroy")),
    Form(("apply",), "destroys the named resources and creates them anew, empty", needs=("-replace", "--replace")),
    Form(("workspace", "delete"), "deletes a workspace's state while it still manages resources, which nothing "
                                  "then tracks", needs=("-force", "--force")),
)
TERRAFORM = RemoteProgram(HOLDS, _TERRAFORM_FORMS, _TERRAFORM_VALUES)
TERRAGRUNT = RemoteProgram(HOLDS, (*_TERRAFORM_FORMS,
                                   Form(("run-all", "destroy"), "destroys every module's resources"),
                                   Form(("run", "destroy"), "destroys the module's resources")),
                           _TERRAFORM_VALUES)
PULUMI = RemoteProgram(
    "the cloud resources of a Pulumi stack",
    (Form(("destroy|down",), "deletes every resource in the stack, and the data they hold"),
     Form(("stack", "rm"), "removes the stack and its history (with --force while it still has resources)"),
     Form(("up|update",), "replaces the named resources, empty", needs=("--replace",))),
    frozenset({"-s", "--stack", "-C", "--cwd", "--color", "--config-file", "--target", "--replace"}),
    dry_runs=("--preview-only",),
)
CDK = RemoteProgram(
    "the CloudFormation stacks of an AWS CDK app",
    (Form(("destroy",), "deletes the stacks' resources (only those with a Retain policy are kept)"),),
    frozenset({"-a", "--app", "-c", "--context", "--profile", "--role-arn", "-o", "--output"}),
)

register({"terraform": TERRAFORM, "tofu": TERRAFORM, "terragrunt": TERRAGRUNT, "pulumi": PULUMI, "cdk": CDK})
