"""Third-party programs the tests drive, installed by .ci/run: where they are, and what to run without them.

Under CI a missing one fails the test (the install broke); elsewhere it skips with the command to install it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
INSPECTOR = REPO / ".ci" / "inspector" / "node_modules" / ".bin" / "mcp-inspector"
INSPECTOR_INSTALL = "npm install --prefix .ci/inspector --no-save --no-audit --no-fund @modelcontextprotocol/inspector@2"
FILESYSTEM_SERVER = REPO / ".ci" / "servers" / "node_modules" / ".bin" / "mcp-server-filesystem"
FILESYSTEM_INSTALL = (
    "npm install --prefix .ci/servers --no-save --no-audit --no-fund @modelcontextprotocol/server-filesystem@2026.8.31"
)
CONFORMANCE = REPO / ".ci" / "conformance" / "node_modules" / ".bin" / "conformance"
CONFORMANCE_INSTALL = (
    "npm install --prefix .ci/conformance --no-save --no-audit --no-fund @modelcontextprotocol/conformance@0.1.13"
)
# The MCP bundle CLI for tests/e2e/test_bundle.py (scripts/build_bundle.py validates and packs with it).
MCPB = REPO / ".ci" / "mcpb" / "node_modules" / ".bin" / "mcpb"
MCPB_INSTALL = "npm install --prefix .ci/mcpb --no-save --no-audit --no-fund @anthropic-ai/mcpb@2.1.2"
# TRL 1.16 over a CPU build of PyTorch, with this project, in a virtual environment of its own (torch first, so
# that trl's requirement finds the CPU build and pulls no CUDA one): tests/e2e/test_trl.py trains through it.
TRL_PYTHON = REPO / ".ci" / "trl" / "bin" / "python"
TRL_INSTALL = ("python3 -m venv .ci/trl && .ci/trl/bin/pip install torch==2.13.0 && "
               ".ci/trl/bin/pip install trl==1.16.0 && .ci/trl/bin/pip install -e .")
# uv from PyPI (the test extra), beside this interpreter: the bundle's runtime and the no-compile install.
UV = Path(sys.executable).parent / "uv"
# The reference time server from PyPI (the test extra), beside this interpreter.
TIME_SERVER = [str(Path(sys.executable).parent / "mcp-server-time"), "--local-timezone", "UTC"]


def installed(program: Path, install: str) -> Path:
    if not program.exists():
        message = f"{program.name} is not installed; in the repository root run: {install}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return program
# verifiers 0.4 in its own environment (it pins mcp==2.0.0; this project needs mcp>=2.3), with the taskset
# client_examples/verifiers/agentworld_world installed beside it, for tests/e2e/test_verifiers.py.
VERIFIERS = REPO / ".ci" / "verifiers" / "bin" / "vf-eval"
VERIFIERS_INSTALL = ("python3 -m venv .ci/verifiers && .ci/verifiers/bin/pip install verifiers==0.4.0 uv==0.13.9 "
                     "./client_examples/verifiers/agentworld_world")
