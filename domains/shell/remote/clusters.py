"""Cluster managers: kubectl and OpenShift's oc (kubectl(1), `kubectl <verb> --help`, `oc adm prune
--help`) and helm (helm.sh/docs/helm). Deleting an object in a cluster takes what it holds with it,
and the API server keeps no copy to bring back."""

from __future__ import annotations

from .elsewhere import kubectl_exec, launcher
from .tables import Form, RemoteProgram, register

HOLDS = "a Kubernetes cluster's objects"
# kubectl's global options that take a value (`kubectl options`), and the common ones of its verbs that may
# come before the resource.
_KUBECTL_VALUES = frozenset({
    "-n", "--namespace", "--context", "--cluster", "--user", "--kubeconfig", "-s", "--server", "--token", "--as",
    "--as-group", "--as-uid", "--cache-dir", "--certificate-authority", "--client-certificate", "--client-key",
    "--request-timeout", "--tls-server-name", "-v", "--v", "--profile", "--profile-output",
    "-l", "--selector", "-f", "--filename", "-o", "--output", "--field-selector", "--grace-period", "--timeout",
    "-k", "--kustomize", "--cascade", "--prune-allowlist",
})
_KUBECTL_FORMS = (
    Form(("delete",), "deletes the objects, and a namespace every object in it (a PersistentVolumeClaim may take "
                      "its volume's data); the cluster keeps no copy"),
    Form(("drain",), "evicts the node's pods, deleting their emptyDir data and the pods no controller recreates",
         needs=("--delete-emptydir-data", "--delete-local-data", "--force")),
    Form(("replace",), "deletes the objects and creates them anew from the file", needs=("--force",)),
    Form(("apply",), "deletes every object of the selected kinds that the given files do not list",
         needs=("--prune",)),
)
KUBECTL = RemoteProgram(HOLDS, _KUBECTL_FORMS, _KUBECTL_VALUES, dry_runs=("--dry-run",),
                        runs_elsewhere=launcher(kubectl_exec))
# `oc adm prune` only lists what it would delete unless --confirm is given.
OC = RemoteProgram(HOLDS, (*_KUBECTL_FORMS, Form(("adm", "prune"), "deletes the images, builds or deployments it "
                                                                  "selects", needs=("--confirm",))),
                   _KUBECTL_VALUES, dry_runs=("--dry-run",), runs_elsewhere=launcher(kubectl_exec))
HELM = RemoteProgram(
    "a Kubernetes cluster's releases",
    (Form(("uninstall|delete|del|un",), "removes the release and every object its chart made, volumes' data "
                                        "with them; only the release's record stays with --keep-history"),),
    frozenset({"-n", "--namespace", "--kube-context", "--kubeconfig", "--kube-apiserver", "--kube-as-group",
               "--kube-as-user", "--kube-ca-file", "--kube-token", "--kube-tls-server-name", "--registry-config",
               "--repository-cache", "--repository-config", "--burst-limit", "--qps", "--timeout",
               "--cascade"}),
    dry_runs=("--dry-run",),
)

register({"kubectl": KUBECTL, "oc": OC, "helm": HELM})
