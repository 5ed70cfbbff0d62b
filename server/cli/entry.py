"""The `agentworld-mcp` command's first step: `hook` must start fast, so it is sent on before the
rest of the command line (the MCP SDK, the model runtime) is even imported; so are `hook install` and
`hook uninstall`, which write a host's settings (server/cli/hook_install.py)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["hook"] and argv[1:2] in (["install"], ["uninstall"]):
        from .hook_install import main as install

        return install(argv[1:])
    if argv[:1] == ["hook"]:
        from ..hosts.warm import run_hook

        return run_hook(argv[1:])
    from .main import main as serve

    return serve(argv)
