"""The package.json a Node package manager acts on: the nearest one up from the folder it runs in (npm(1),
"folders": npm walks up to the first folder that holds a package.json), its "scripts" table, and whether
the project turns pre/post scripts on (pnpm's enable-pre-post-scripts, yarn classic's behaviour)."""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass
from typing import Literal

from ..reading.call import Call
from ..reading.words import Value


@dataclass(frozen=True)
class Manifest:
    folder: str  # where the package.json is: scripts run there
    scripts: dict[str, str] | None  # None: the file is there but the guard cannot read it
    package_manager: str = ""  # its "packageManager" field (corepack): `yarn@4.1.0`


def nearest_manifest(call: Call, start: str) -> Manifest | Literal[False] | None:
    """The package.json that governs `start`; False where no folder up from it holds one (npm errors), None
    where the world cannot tell."""
    state = call.reader.state
    folder = posixpath.normpath(start)
    while True:
        path = posixpath.join(folder, "package.json")
        text = call.text_of(Value(path))
        if text is not None:
            return _parsed(folder, text)
        there = state.exists(path) if state is not None else None
        if there is None:
            return None
        if there:
            return Manifest(folder, None)
        if folder == "/":
            return False
        folder = posixpath.dirname(folder)


def _parsed(folder: str, text: str) -> Manifest:
    try:
        data = json.loads(text)
    except ValueError:
        return Manifest(folder, None)
    scripts = data.get("scripts", {}) if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return Manifest(folder, None if scripts is not None else {})
    manager = data.get("packageManager", "")
    return Manifest(folder, {name: code for name, code in scripts.items() if isinstance(code, str)},
                    manager if isinstance(manager, str) else "")


def pnpm_runs_pre_post(call: Call, manifest: Manifest) -> bool:
    """pnpm (since v6, pnpm.io/cli/run) runs a script's pre/post scripts only under enable-pre-post-scripts,
    set in the project's .npmrc or, as enablePrePostScripts, in pnpm-workspace.yaml."""
    npmrc = call.text_of(Value(posixpath.join(manifest.folder, ".npmrc"))) or ""
    workspace = call.text_of(Value(posixpath.join(manifest.folder, "pnpm-workspace.yaml"))) or ""
    return bool(re.search(r"^\s*enable-pre-post-scripts\s*=\s*true\b", npmrc, re.M) or
                re.search(r"^\s*enablePrePostScripts\s*:\s*true\b", workspace, re.M))


def yarn_runs_pre_post(call: Call, manifest: Manifest) -> bool:
    """Yarn classic (1.x) runs pre/post scripts; Yarn berry (2+) does not (yarnpkg.com/advanced/lifecycle-scripts).
    Berry is the one a project pins in packageManager or configures in .yarnrc.yml; otherwise the yarn on PATH
    may be classic, so its pre/post scripts are read."""
    version = re.match(r"yarn@(\d+)", manifest.package_manager)
    if version:
        return version.group(1) == "1"
    return call.text_of(Value(posixpath.join(manifest.folder, ".yarnrc.yml"))) is None and \
        (call.reader.state is None or not call.reader.state.exists(posixpath.join(manifest.folder, ".yarnrc.yml")))
