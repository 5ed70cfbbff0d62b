"""An environment with exactly one install of the project (`agentworld-mcp[gym]`, the base, ...): a fresh virtual
environment that sees only the distributions that install would bring, taken from the test environment's own.

The documentation's examples run in one (tests/integration/test_docs.py), so an example that leans on a package
only the test extra brings (numpy through gymnasium, httpx through a test tool) fails there, as it would for the
reader who installed what the page says. Nothing is downloaded or built: each distribution of the closure of the
project's requirements, its markers evaluated for the extras named, is linked file by file (a folder two
distributions share, such as a namespace package, shows only the closure's files) into a folder the new
environment adds as a site folder, where the editable project's own `.pth` finder works as it does here.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import sysconfig
from collections.abc import Iterable
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

PROJECT = "agentworld-mcp"


def closure(extras: Iterable[str], project: str = PROJECT) -> dict[str, importlib.metadata.Distribution]:
    """The distributions `project[extras]` installs, by canonical name, as this environment holds them. A
    requirement this environment lacks raises LookupError: the test environment must hold every install it stages."""
    installed = {canonicalize_name(d.metadata["Name"]): d for d in importlib.metadata.distributions(path=[_site()])}
    found: dict[str, importlib.metadata.Distribution] = {}
    todo = [(canonicalize_name(project), frozenset(extras))]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        name, wanted = todo.pop()
        if (name, wanted) in seen:
            continue
        seen.add((name, wanted))
        if name not in installed:
            raise LookupError(f"{name} is not installed in the test environment")
        found[name] = installed[name]
        for line in installed[name].requires or []:
            requirement = Requirement(line)
            applies = requirement.marker is None or any(
                requirement.marker.evaluate({"extra": extra}) for extra in ("", *wanted))
            if applies:
                todo.append((canonicalize_name(requirement.name), frozenset(requirement.extras)))
    return found


def staged_python(folder: Path, extras: Iterable[str]) -> Path:
    """A Python in `folder` that imports exactly what `agentworld-mcp[extras]` installs; made once per folder."""
    python = folder / "venv" / "bin" / "python"
    if python.exists():
        return python
    site = folder / "site"
    for distribution in closure(extras).values():
        for file in distribution.files or []:
            if file.parts[0] == ".." or file.suffix == ".pyc":  # scripts in bin/, and caches the run rewrites
                continue
            source, target = Path(str(distribution.locate_file(file))), site / file
            if source.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                if not target.exists():
                    target.symlink_to(source)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder / "venv")], check=True)
    own_site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              check=True, capture_output=True, text=True).stdout.strip()
    # A `.pth` line that starts with `import` runs: the staged folder becomes a site folder, its `.pth` files read.
    Path(own_site, "staged.pth").write_text(f"import site; site.addsitedir({str(site)!r})\n")
    return python


def _site() -> str:
    return sysconfig.get_paths()["purelib"]


def without_user_site(env: dict[str, str]) -> dict[str, str]:
    """The environment for a staged Python: no PYTHONPATH or user site folder reaching past the install."""
    return {**{k: v for k, v in env.items() if k not in ("PYTHONPATH", "PYTHONHOME")}, "PYTHONNOUSERSITE": "1"}

