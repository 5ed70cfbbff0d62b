"""package.json scripts: `npm run NAME`, `npm test`, `pnpm NAME`, `yarn NAME`, `bun run NAME` run the shell
command the nearest package.json's "scripts" gives that name, in the package's folder, with the arguments
after the name appended (npm-run-script(1), pnpm.io/cli/run, yarnpkg.com/cli/run, bun.sh/docs/cli/run).

npm runs `pre<name>` before and `post<name>` after (not under --ignore-scripts); a name no script has is an
error. pnpm and yarn take any word that is not one of their own commands as `run WORD`, and a name no script
has runs the package binary of that name (node_modules/.bin), read as that program; bun does the same, and
runs a file of that name with itself.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from ..reading.call import Call
from .node_manifest import Manifest, nearest_manifest, pnpm_runs_pre_post, yarn_runs_pre_post
from ..reading.options import Spec, parse
from .package_runners import DIRECTORY_OPTIONS, MANAGER_OPTIONS
from ..reading.words import Scope, Value

@dataclass(frozen=True)
class Manager:
    run_options: Spec  # what its run verb reads before the script's name
    run_verbs: frozenset[str]  # words that run the script named next
    named_verbs: dict[str, str]  # words that run the script of a fixed name (`npm test`)
    commands: frozenset[str] | None  # its own commands; any other word runs a script or binary (None: not so)
    run_binaries: bool  # `run NAME` of a name no script has runs the package's binary (else an error); a bare
    # word no script has always does
    trailing_options: bool  # its own options may follow the name, up to `--` (npm); else all go to the script


# npm(1): `run`, and its aliases `run-script`, `rum`, `urn`; test/start/stop/restart are scripts by name.
_NPM = Manager(Spec(short_values="w", longs=("workspace=", "workspaces", "include-workspace-root", "if-present",
                                             "ignore-scripts", "foreground-scripts", "script-shell=", "prefix=",
                                             "silent", "loglevel="), permute=True),
               frozenset({"run", "run-script", "rum", "urn"}),
               {"test": "test", "tst": "test", "t": "test", "start": "start", "stop": "stop", "restart": "restart"},
               None, run_binaries=False, trailing_options=True)
# pnpm.io/cli: its commands (a script of the same name needs `pnpm run`); `pnpm test`/`start` run scripts.
_PNPM_COMMANDS = frozenset(
    "add install i update up upgrade remove rm uninstall un link ln unlink import rebuild rb prune fetch install-test "
    "it patch patch-commit patch-remove audit list ls ll la outdated why licenses run run-script exec dlx create "
    "publish pack store root bin setup init deploy doctor config c get set env server recursive multi m cat-file "
    "cat-index find-hash self-update approve-builds ignored-builds login logout whoami version view info show "
    "dist-tag owner search team token unpublish deprecate undeprecate stars ping docs home bugs repo help "
    "completion cache pm catalog sbom x".split())
_PNPM = Manager(Spec(short_values="F", longs=("filter=", "recursive", "parallel", "stream", "if-present", "no-bail",
                                              "workspace-root", "resume-from=", "report-summary", "reporter=",
                                              "aggregate-output", "sequential", "silent"), permute=False),
                frozenset({"run", "run-script"}), {"test": "test", "t": "test", "tst": "test", "start": "start"},
                _PNPM_COMMANDS, run_binaries=False, trailing_options=False)
# yarnpkg.com/cli (berry) and classic's own commands; `yarn test`/`start` are `yarn run test`/`start`.
_YARN_COMMANDS = frozenset(
    "add bin cache config constraints dedupe dlx exec explain info init install link node npm pack patch "
    "patch-commit plugin rebuild remove run search set stage unlink unplug up upgrade upgrade-interactive version "
    "why workspace workspaces audit autoclean check create generate-lock-entry global help import licenses list "
    "login logout outdated owner policies publish tag team versions".split())
_YARN = Manager(Spec(longs=("inspect?", "inspect-brk?", "top-level", "binaries-only", "require="), permute=False),
                frozenset({"run"}), {"test": "test", "start": "start"}, _YARN_COMMANDS, run_binaries=True,
                trailing_options=False)
# bun.sh/docs/cli/run: `bun run NAME`, and `bun NAME` for a name that is none of its commands.
_BUN_COMMANDS = frozenset(
    "run test x repl exec install i add a remove rm update outdated link unlink publish patch patch-commit pm info "
    "audit why init create c upgrade build feedback help completions discord getcompletes".split())
_BUN = Manager(Spec(longs=("silent", "bun", "watch", "hot", "smol", "if-present", "elide-lines=", "filter=",
                           "workspaces", "shell="), short_values="F", permute=False),
               frozenset({"run"}), {}, _BUN_COMMANDS, run_binaries=True, trailing_options=False)
MANAGERS: dict[str, Manager] = {"npm": _NPM, "pnpm": _PNPM, "yarn": _YARN, "bun": _BUN}
_RUNNABLE_FILE = re.compile(r"/|\.([cm]?[jt]sx?|json|toml|sh)$")  # bun runs a file path or source file itself
_ELSEWHERE = ("w", "workspace", "workspaces", "r", "recursive", "F", "filter", "top-level")  # other packages' scripts


def run_node_script(call: Call) -> bool:
    """Read the package.json script this call runs; False where the call is no script run (its own table
    decides it: `npm install`, `npm unpublish`)."""
    manager = MANAGERS.get(call.program)
    if manager is None:
        return False
    before = parse(call.args, MANAGER_OPTIONS[call.program])
    if not before.rest:
        return False
    verb, after = before.rest[0], before.rest[1:]
    if not verb.literal:
        return False
    if verb.text in manager.run_verbs:
        p = parse(after, manager.run_options)
        words = p.operands if manager.trailing_options else p.rest
        if not words:
            return True  # lists the scripts
        name, args, binary = words[0], words[1:], manager.run_binaries
    elif verb.text in manager.named_verbs:
        p = parse(after, manager.run_options)
        args = p.operands if manager.trailing_options else p.rest
        name, binary = Value(manager.named_verbs[verb.text]), False
    elif manager.commands is not None and verb.text not in manager.commands and not verb.text.startswith("-"):
        if call.program == "bun" and _RUNNABLE_FILE.search(verb.text):
            return False  # `bun index.ts`: the runtime runs the file (its interpreter reading)
        p = parse([], manager.run_options)
        name, args, binary = verb, after, True
    else:
        return False
    folder = before.value(*DIRECTORY_OPTIONS, "prefix") or p.value("prefix")
    _run_named(call, name, args, binary, p.has(*_ELSEWHERE), p.has("ignore-scripts"), folder)
    return True


def _run_named(call: Call, name: Value, args: list[Value], binary: bool, elsewhere: bool, no_hooks: bool,
               folder: str | None) -> None:
    if not name.literal:
        call.opaque("script", call.text, f"{call.program} runs the package script {name.text}, a name the line does "
                    "not set", risky=True)
        return
    if elsewhere:
        call.opaque("script", call.text, f"{call.program} runs {name.text} in other workspace packages, whose "
                    "package.json the guard does not read", risky=True)
    scope = call.scope.copy()
    if folder is not None:
        scope.cwd = call.scope.path(call.literal(folder))[0]
    if not scope.cwd_known:
        call.opaque("script", call.text, f"{call.program} runs a script of a package.json in a folder the line "
                    "does not set", risky=True)
        return
    manifest = nearest_manifest(call, scope.cwd)
    if manifest is False:
        return  # no package.json: it fails before running anything
    if manifest is None or manifest.scripts is None:
        call.opaque("script", call.text, f"{call.program} runs the script {name.text} of a package.json the guard "
                    "cannot read", risky=True)
        return
    scope.cwd = manifest.folder
    names = _matching(manifest, name.text) if call.program == "pnpm" else [name.text]
    for script in names:
        _run_script(call, manifest, script, args, binary, no_hooks, scope)


def _matching(manifest: Manifest, name: str) -> list[str]:
    """pnpm runs every script a `/regex/` name matches (pnpm.io/cli/run, "Running multiple scripts")."""
    if len(name) > 2 and name.startswith("/") and name.endswith("/"):
        try:
            pattern = re.compile(name[1:-1])
        except re.error:
            return list(manifest.scripts or {})
        return [script for script in manifest.scripts or {} if pattern.search(script)]
    return [name]


def _run_script(call: Call, manifest: Manifest, name: str, args: list[Value], binary: bool, no_hooks: bool,
                scope: Scope) -> None:
    scripts = manifest.scripts or {}
    hooks = not no_hooks and _runs_pre_post(call, manifest)
    if name not in scripts:
        if call.program == "npm" and name == "restart":  # npm-restart(1): stop, then start, each with its hooks
            for part in ("prerestart", "stop", "start", "postrestart"):
                if part in ("stop", "start"):
                    _run_script(call, manifest, part, [], False, no_hooks, scope)
                elif hooks and part in scripts:
                    call.run_script(scripts[part], scope=scope)
        elif call.program == "npm" and name == "start":  # npm-start(1): `node server.js` without a start script
            call.run([Value("node"), Value("server.js"), *args], scope=scope)
        elif binary and call.program == "bun" and _RUNNABLE_FILE.search(name):
            call.run([Value("bun"), Value(name), *args])  # a file: bun runs it (read as its interpreter)
        elif binary:
            call.run([Value(name), *args])
        return
    if hooks and f"pre{name}" in scripts:
        call.run_script(scripts[f"pre{name}"], scope=scope)
    call.run_script(" ".join([scripts[name], *(shlex.quote(a.text) if a.literal else a.text for a in args)]),
                    scope=scope)
    if hooks and f"post{name}" in scripts:
        call.run_script(scripts[f"post{name}"], scope=scope)


def _runs_pre_post(call: Call, manifest: Manifest) -> bool:
    if call.program == "pnpm":
        return pnpm_runs_pre_post(call, manifest)
    if call.program == "yarn":
        return yarn_runs_pre_post(call, manifest)
    return True  # npm-run-script(1); bun.sh/docs/cli/run runs them as npm does
