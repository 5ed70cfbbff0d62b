"""Containers: docker (docs.docker.com/reference/cli), podman (podman(1)), nerdctl and Compose.
Images come back from a registry or a build; what containers wrote and what volumes hold does not.
So removing volumes, pruning stopped containers and removing a container by force are the losses."""

from __future__ import annotations

from .elsewhere import compose_command, docker_command, launcher
from .tables import Form, RemoteProgram, register

HOLDS = "containers' data and volumes"
_VOLUMES = "removes the volumes and the data in them"
_WRITTEN = "removes the container with everything it wrote outside its volumes"
# `docker compose` and docker-compose: their own options before the verb.
COMPOSE = RemoteProgram(
    "a Compose project's containers and volumes",
    (Form(("down",), "removes the project's containers and its named and anonymous volumes with their data",
          needs=("-v", "--volumes")),
     Form(("rm",), "removes the stopped containers and their anonymous volumes", needs=("-v", "--volumes"))),
    frozenset({"-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory", "--ansi",
               "--parallel", "--progress"}),
    dry_runs=("--dry-run",),
    runs_elsewhere=launcher(compose_command),
)
_FORMS = (
    Form(("volume", "rm|remove|prune"), _VOLUMES),
    Form(("system", "prune"), "removes every stopped container with what it wrote, unused images, networks and the "
                              "build cache (--volumes: unused volumes and their data)"),
    Form(("container", "prune"), "removes every stopped container with what it wrote"),
    Form(("rm",), _WRITTEN + " (-f: even while it runs; -v: its anonymous volumes too)",
         needs=("-f", "--force", "-v", "--volumes")),
    Form(("container", "rm|remove"), _WRITTEN, needs=("-f", "--force", "-v", "--volumes")),
    Form(("stack", "rm|remove|down"), "removes the swarm stack's services and their containers"),
    Form(("service", "rm|remove"), "removes the swarm services and their containers"),
    Form(("secret", "rm|remove"), "removes the secrets; their values cannot be read back"),
)
_DOCKER_VALUES = frozenset({"-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert",
                            "--tlscert", "--tlskey"})
DOCKER = RemoteProgram(HOLDS, _FORMS, _DOCKER_VALUES, sub_tables={"compose": COMPOSE},
                       runs_elsewhere=launcher(docker_command))
PODMAN = RemoteProgram(
    HOLDS,
    (*_FORMS,
     Form(("system", "reset"), "removes every container, pod, image and volume, and their data"),
     Form(("pod", "rm"), _WRITTEN, needs=("-f", "--force"))),
    _DOCKER_VALUES | {"--connection", "--root", "--runroot", "--url"},
    sub_tables={"compose": COMPOSE},
    runs_elsewhere=launcher(docker_command),
)

register({"docker": DOCKER, "podman": PODMAN, "nerdctl": DOCKER, "docker-compose": COMPOSE,
          "podman-compose": COMPOSE})
