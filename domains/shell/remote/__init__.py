"""What runs or lives elsewhere: programs that destroy state kept elsewhere, with no undo (clusters,
infrastructure, cloud accounts, container volumes, databases and hosted services), the launchers that run a
command on another machine (ssh, `kubectl exec`, `docker exec`, ...), and the network's downloads, uploads and
requests.

Each family's module holds a table per program, taken from that program's documentation: the
command words of its destructive forms (`kubectl delete`, `aws s3 rb`, `terraform destroy`) and
why each cannot be undone, the options that make a run a dry run, and the global options that take a
value (so that `kubectl -n prod delete ns x` is read as `delete`). A destructive form is a
`remote-destruction` effect naming the program, the form, its target and the reason; the presets'
`no-remote-destruction` rule reads it. Only a command that runs the program is read: its name in an
`echo`, a pattern or a comment is text. SQL, whoever runs it (a database client, a program with no table, an MCP
tool), becomes effects by one rule (sql_effects.py).

It imports programs/ and reading/; launchers/ and the line's reader stand over it.
"""

# Imported for their handlers, which register themselves.
from . import (clusters, cloud, containers, databases, elsewhere, fleets, hosting, infrastructure,  # noqa: F401
               network, packages)
from .tables import TABLES, Command, Form, RemoteProgram

__all__ = ["TABLES", "Command", "Form", "RemoteProgram"]
