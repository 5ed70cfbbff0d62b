"""What an install runs, as docs/upgrade.md checks it: `agentworld-mcp --version` prints the installed package's
version, and `agentworld-mcp model` on an install without llama-cpp-python says in one line what runs instead."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

PROGRAM = Path(sys.executable).parent / "agentworld-mcp"
# The real command line in a process where `import llama_cpp` fails as it does where it is not installed.
WITHOUT_LLAMA = ("import sys; sys.modules['llama_cpp'] = None; "
                 "from agentworld_mcp.server.cli.entry import main; sys.exit(main(sys.argv[1:]))")


def test_version_prints_the_installed_distributions_version():
    done = subprocess.run([str(PROGRAM), "--version"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"agentworld-mcp {version('agentworld-mcp')}"


def test_model_without_the_in_process_model_says_what_runs_instead():
    done = subprocess.run([sys.executable, "-c", WITHOUT_LLAMA, "model"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and len(done.stdout.strip().splitlines()) == 1
    assert "llama-cpp-python is not installed" in done.stdout and "--base-url URL" in done.stdout
    assert "pip install 'agentworld-mcp[llama]'" in done.stdout


def test_model_without_it_for_a_model_file_asked_for_is_still_one_line_and_exit_2(model_info):
    """`--model PATH` asks for the in-process model: without llama-cpp-python that set-up cannot run."""
    done = subprocess.run([sys.executable, "-c", WITHOUT_LLAMA, "--model", str(model_info.path), "model"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "llama-cpp-python" in done.stderr, done.stderr
