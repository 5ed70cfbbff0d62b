"""Package runners: programs that start another program from a package (`npx prisma ...`, `uvx --from
awscli aws ...`, `npm exec`, `pnpm dlx`, `yarn dlx`, `bunx`, `pipx run`) or inside a project's environment
(`uv run`, `poetry run`, `pipenv run`, `bundle exec`), and the environment wrappers of
domains/shell/launchers/environment_wrappers.py (`conda run`, `aws-vault exec`, `nix shell -c`). Each reads its own
options up to the command (their documentation: npm-exec(1), pnpm.io/cli/dlx and /exec, yarnpkg.com/cli/dlx
and /exec, bun.sh/docs/cli/bunx, docs.astral.sh/uv/reference/cli, pipx.pypa.io, python-poetry.org/docs/cli,
pipenv.pypa.io, bundler.io/man/bundle-exec.1), then the command runs as that program with its arguments: `npx kubectl
delete ns prod` is kubectl's. A package given with a version (`prisma@5`, `ruff==0.4`) runs its program.
Each is a row of reading/wrapper_options.py's `Wrapper` (a `PackageRunner` where the command names a package),
read by its one reader.
"""

from __future__ import annotations

import re
import tomllib

from dataclasses import dataclass

from ..reading.call import Call
from .environment_wrappers import ENVIRONMENT_WRAPPERS
from ..reading.options import Spec, parse
from ..reading.wrapper_options import Wrapper, read_wrapper
from ..reading.words import Value
from .wrappers import run_code, wrapped_scope


@dataclass(frozen=True)
class PackageRunner(Wrapper):
    """A runner whose command is a package's program, or a project's."""

    packages: tuple[str, ...] = ()  # options naming the package that holds the command (then the command is a name)
    python: bool = False  # a `.py` file, `-m MODULE` or `-` runs with Python (uv run)
    scripts: str = ""  # a project file whose [scripts] table names commands first (pipenv's Pipfile)


_NO_PACKAGE = PackageRunner()


_NODE_EXEC = PackageRunner(Spec(short_values="pcw", longs=(
    "package=", "call=", "workspace=", "workspaces", "include-workspace-root", "yes", "no", "prefix=", "registry=",
    "cache=", "userconfig=", "loglevel=", "node-options=", "script-shell=", "ignore-scripts", "quiet", "silent"),
    permute=False), shell=("c", "call"), packages=("p", "package"))
_BUNX = PackageRunner(Spec(short_values="p", longs=("package=", "bun", "silent", "verbose", "no-install"),
                           permute=False), packages=("p", "package"))
_UV_VALUES = ("from=", "with=", "with-editable=", "with-requirements=", "python=", "index=", "default-index=",
              "index-url=", "extra-index-url=", "find-links=", "index-strategy=", "keyring-provider=", "resolution=",
              "prerelease=", "fork-strategy=", "exclude-newer=", "exclude-newer-package=", "no-build-package=",
              "no-binary-package=", "refresh-package=", "reinstall-package=", "upgrade-package=", "link-mode=",
              "config-setting=", "config-settings-package=", "constraints=", "overrides=", "build-constraints=",
              "env-file=", "cache-dir=", "directory=", "project=", "config-file=", "color=", "python-preference=",
              "python-platform=", "allow-insecure-host=", "torch-backend=", "extra=", "group=", "only-group=",
              "no-group=", "package=", "no-extra=", "max-recursion-depth=")
_UV_FLAGS = ("isolated", "quiet", "verbose", "offline", "no-cache", "native-tls", "upgrade", "refresh", "reinstall",
             "no-sources", "compile-bytecode", "no-build", "no-binary", "no-index", "no-config", "no-progress",
             "no-python-downloads", "all-extras", "no-dev", "frozen", "locked", "no-sync", "active", "no-project",
             "exact", "script", "module", "gui-script", "no-env-file", "all-groups", "only-dev", "no-editable")
_UVX = PackageRunner(Spec(short_values="pPiCcbfw", longs=_UV_VALUES + _UV_FLAGS, permute=False), packages=("from",))
_UV_RUN = PackageRunner(Spec(short_values="pPiCcbf", longs=_UV_VALUES + _UV_FLAGS, permute=False), python=True)
_PIPX_RUN = PackageRunner(Spec(short_values="i", longs=(
    "spec=", "python=", "index-url=", "pip-args=", "backend=", "no-cache", "pypackages", "path", "editable",
    "system-site-packages", "fetch-missing-python", "verbose", "quiet"), permute=False),
    packages=("spec",), python=True)
_PLAIN = Wrapper()

# Programs that are runners by their name, and the verbs that make a package manager one.
RUNNERS: dict[tuple[str, ...], Wrapper] = {
    ("npx",): _NODE_EXEC, ("npm", "exec"): _NODE_EXEC, ("npm", "x"): _NODE_EXEC,
    ("bunx",): _BUNX, ("bun", "x"): _BUNX,
    ("pnpm", "dlx"): PackageRunner(Spec(longs=("package=", "shell-mode", "silent", "allow-build="), permute=False),
                                   shell=("c", "shell-mode"), shell_flags=True, packages=("package",)),
    ("pnpm", "exec"): Wrapper(Spec(short_values="F", longs=("shell-mode", "recursive", "parallel", "resume-from=",
                                                           "filter=", "report-summary", "no-reporter-hide-prefix",
                                                           "workspace-root"), permute=False),
                              shell=("c", "shell-mode"), shell_flags=True),
    ("yarn", "dlx"): PackageRunner(Spec(short_values="p", longs=("package=", "quiet"), permute=False),
                                   packages=("p", "package")),
    ("yarn", "exec"): Wrapper(Spec(permute=False), always_shell=True),  # berry: a shell script, in its portable shell
    ("uvx",): _UVX, ("uv", "tool", "run"): _UVX, ("uv", "run"): _UV_RUN,
    ("pipx", "run"): _PIPX_RUN,
    ("poetry", "run"): _PLAIN,
    ("pipenv", "run"): PackageRunner(Spec(longs=("python=",), permute=False), scripts="Pipfile"),
    ("bundle", "exec"): Wrapper(Spec(longs=("keep-file-descriptors", "gemfile="), permute=False)),
    **ENVIRONMENT_WRAPPERS,
}
# The options each package manager takes before its verb (value options), and those that move where it runs.
MANAGER_OPTIONS: dict[str, Spec] = {
    "npm": Spec(short_values="w", longs=("prefix=", "registry=", "cache=", "userconfig=", "loglevel=", "workspace="),
                permute=False),
    "pnpm": Spec(short_values="CF", longs=("dir=", "filter=", "workspace-root", "recursive"), permute=False),
    "yarn": Spec(longs=("cwd=",), permute=False),
    "bun": Spec(longs=("cwd=",), permute=False),
    "uv": Spec(longs=("directory=", "project=", "cache-dir=", "config-file=", "color="), permute=False),
    "poetry": Spec(short_values="CP", longs=("directory=", "project=", "no-interaction", "no-ansi", "ansi",
                                             "no-plugins", "no-cache", "quiet", "verbose"), permute=False),
    "pipenv": Spec(longs=("python=",), permute=False),
    "pipx": Spec(permute=False),
    "bundle": Spec(short_values="r", longs=("retry=", "no-color", "verbose"), permute=False),
}
DIRECTORY_OPTIONS = ("C", "dir", "cwd", "directory")
_VERSION = re.compile(r"^(@?[^@=<>!~\[\s]+)")  # a package spec's name: before its version, extras or range


def package_runner(call: Call) -> tuple[Wrapper, list[Value], str | None] | None:
    """The runner this call is, the arguments after its verb, and the folder it moves to; None for another call."""
    if (call.program,) in RUNNERS:
        return RUNNERS[(call.program,)], list(call.args), None
    if not any(key[0] == call.program for key in RUNNERS):
        return None
    spec = MANAGER_OPTIONS.get(call.program, Spec(permute=False))
    before = parse(call.args, spec)
    words = before.rest
    for length in (2, 1):
        verb = tuple(word.text for word in words[:length])
        if (call.program, *verb) in RUNNERS and all(word.literal for word in words[:length]):
            return RUNNERS[(call.program, *verb)], list(words[length:]), before.value(*DIRECTORY_OPTIONS)
    return None


def run_package(call: Call, runner: Wrapper, args: list[Value], directory: str | None) -> None:
    wrapped = read_wrapper(args, runner)
    package = runner if isinstance(runner, PackageRunner) else _NO_PACKAGE
    scope = wrapped_scope(call, wrapped, folder=directory)
    command = run_code(call, wrapped, scope)
    if not command:
        return
    first, p = command[0], wrapped.options
    if package.python and (first.text == "-" or first.text.endswith(".py") or p.has("m", "module", "s", "script")):
        module = [Value("-m")] if p.has("m", "module") else []
        call.run([Value("python3"), *module, *command], scope=scope)
        return
    if first.literal and re.match(r"https?://", first.text):
        host = first.text.split("/")[2]
        call.reader.add_effect_exec_download(call, host)
        call.opaque("code", first.text, f"{call.program} runs code it downloads from {host}", risky=True)
        return
    if package.scripts and first.literal and (script := _project_script(call, package.scripts, first.text)):
        call.run_script(" ".join([script, *(word.text for word in command[1:])]), scope=scope)
        return
    if first.literal and not p.has(*package.packages):
        spec = _VERSION.match(first.text)
        first = Value(spec.group(1).rsplit("/", 1)[-1] if spec else first.text)
    call.run([first, *command[1:]], scope=scope)


def _project_script(call: Call, file: str, name: str) -> str | None:
    """A command a project file's [scripts] table names (pipenv: a Pipfile's script is run before a program of
    that name)."""
    text = call.text_of(call.literal(file))
    if text is None:
        return None
    try:
        scripts = tomllib.loads(text).get("scripts", {})
    except tomllib.TOMLDecodeError:
        return None
    script = scripts.get(name) if isinstance(scripts, dict) else None
    return script if isinstance(script, str) else None
