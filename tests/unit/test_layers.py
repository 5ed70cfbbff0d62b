"""The rooms' import rules hold: the layers and the MCP boundary declared in pyproject.toml."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _lint(cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    linter = Path(sys.executable).parent / "lint-imports"
    return subprocess.run([str(linter), "--config", str(REPO / "pyproject.toml"), "--no-cache"], capture_output=True,
                          text=True, cwd=cwd, timeout=300, env=env)


def test_the_layers_and_the_mcp_boundary_are_kept():
    done = _lint(REPO)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]
    assert "0 broken" in done.stdout


# One import planted against each of the shell's contracts: (the module, the import it gains, the contract's name
# as pyproject.toml gives it, in part).
_PLANTED = [
    ("domains/shell/remote/tables.py", "from ..launchers import wrappers", "The shell's reader in layers"),
    ("domains/shell/world/knowledge.py", "from ..virtual import refusal", "The shell's computed steps in layers"),
    ("domains/shell/launchers/make.py", "from ..world import knowledge", "The shell's reader and its world stand apart"),
    ("domains/shell/world/screen.py", "from ..remote import verbs", "The shell's world computes without the line's"),
]


@pytest.mark.parametrize(("module", "planted", "contract"), _PLANTED, ids=[row[2] for row in _PLANTED])
def test_each_shell_contract_fails_on_a_planted_wrong_import(tmp_path, module, planted, contract):
    """A copy of the package with one import that runs back up: the linter names the contract it breaks (a
    contract that passed anything would keep nothing)."""
    copy = tmp_path / "agentworld_mcp"
    shutil.copytree(REPO, copy, ignore=shutil.ignore_patterns(".git", ".venv", ".ci", "tests", "node_modules", "build",
                                                               "docs", "client_examples", "*.egg-info"))
    target = copy / module
    package, imported = planted.removeprefix("from ").split(" import ")  # `..launchers`, `wrappers`
    levels = len(package) - len(package.lstrip("."))
    folder = target.parents[levels - 1] / package.lstrip(".")
    assert (folder / f"{imported}.py").exists(), planted  # an import of nothing would break a contract too
    target.write_text(target.read_text(encoding="utf-8") + f"\n{planted}  # planted\n", encoding="utf-8")
    # The copy comes before the installed package; a wide terminal keeps each contract's name on one line.
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "COLUMNS": "400"}
    done = _lint(tmp_path, env)
    assert done.returncode != 0, done.stdout[-3000:]
    broken = [line for line in done.stdout.splitlines() if line.endswith(" BROKEN")]
    assert any(line.startswith(contract) for line in broken), done.stdout[-3000:]
    # Besides it, only the contract against circles may break: an import back up closes a circle.
    assert all(line.startswith((contract, "No circles between neighbours")) for line in broken), broken


def test_every_package_folder_is_one_the_wheel_ships():
    """pyproject.toml lists the packages by hand (the root is the package): a new folder must be in the list."""
    import tomllib

    from agentworld_mcp.server.cli.reference import package_folders

    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {".".join(("agentworld_mcp", *folder.relative_to(REPO).parts)) for folder in package_folders(packs=True)}
    assert on_disk == listed, {"missing from pyproject.toml": on_disk - listed, "listed, not on disk": listed - on_disk}


def test_no_module_imports_itself_back_even_for_types():
    """No import cycle between modules anywhere in the package, counting the imports made only for type
    checking (the contracts above work folder by folder and leave those out)."""
    import grimp

    graph = grimp.build_graph("agentworld_mcp", exclude_type_checking_imports=False)
    cycles = [sorted(group) for group in _strongly_connected(graph) if len(group) > 1]
    assert not cycles, cycles


def _strongly_connected(graph) -> list[set[str]]:
    """Tarjan's algorithm over the import graph, iteratively (the package is deeper than Python's stack likes)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imported = work[-1]
            following = next(imported, None)
            if following is not None:
                if following not in index:
                    index[following] = low[following] = len(index)
                    stack.append(following)
                    on_stack.add(following)
                    work.append((following, iter(sorted(graph.find_modules_directly_imported_by(following)))))
                elif following in on_stack:
                    low[module] = min(low[module], index[following])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == module:
                        break
                groups.append(group)
    return groups
