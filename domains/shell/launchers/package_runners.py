"""Package runners: programs that start another program from a package (`npx prisma ...`, `uvx --from
awscli aws ...`, `npm exec`, `pnpm dlx`, `yarn dlx`, `bunx`, `pipx run`) or inside a project's environment
(`uv run`, `poetry run`, `pipenv run`, `bundle exec`), and the environment wrappers of
domains/shell/launchers/environment_wrappers.py (`conda run`, `aws-vault exec`, `nix shell -c`). Each reads its own
options up to the command (their documentation: npm-exec(1), pnpm.io/cli/dlx and /exec, yarnpkg.com/cli/dlx
and /exec, bun.sh/docs/cli/bunx, docs.astral.sh/uv/reference/cli, pipx.pypa.io, python-poetry.org/docs/cli,
pipenv.pypa.io, bundler.io/man/bundle-exec.1), then the command runs as that program with its arguments: `npx kubectl
delete ns prod` is kubectl's. A package given with a version (`prisma@5`, `ruff==0.4`) runs its program.
"""

from __future__ import annotations

import re
import tomllib

from ..reading.call import Call
from .environment_wrappers import ENVIRONMENT_WRAPPERS
from ..reading.options import Parsed, Spec, parse
from .runner import Runner
from ..reading.words import Value


_NODE_EXEC = Runner(Spec(short_values="pcw", longs=(
    "package=", "call=", "workspace=", "workspaces", "include-workspace-root", "yes", "no", "prefix=", "registry=",
    "cache=", "userconfig=", "loglevel=", "node-options=", "script-shell=", "ignore-scripts", "quiet", "silent"),
    permute=False), shell=("c", "call"), packages=("p", "package"))
_BUNX = Runner(Spec(short_values="p", longs=("package=", "bun", "silent", "verbose", "no-install"), permute=False),
               packages=("p", "package"))
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
_UVX = Runner(Spec(short_values="pPiCcbfw", longs=_UV_VALUES + _UV_FLAGS, permute=False), packages=("from",))
_UV_RUN = Runner(Spec(short_values="pPiCcbf", longs=_UV_VALUES + _UV_FLAGS, permute=False), python=True)
_PIPX_RUN = Runner(Spec(short_values="i", longs=("spec=", "python=", "index-url=", "pip-args=", "backend=", "no-cache",
                                                 "pypackages", "path", "editable", "system-site-packages",
                                                 "fetch-missing-python", "verbose", "quiet"), permute=False),
                   packages=("spec",), python=True)
_PLAIN = Runner(Spec(permute=False))

# Programs that are runners by their name, and the verbs that make a package manager one.
RUNNERS: dict[tuple[str, ...], Runner] = {
    ("npx",): _NODE_EXEC, ("npm", "exec"): _NODE_EXEC, ("npm", "x"): _NODE_EXEC,
    ("bunx",): _BUNX, ("bun", "x"): _BUNX,
    ("pnpm", "dlx"): Runner(Spec(longs=("package=", "shell-mode", "silent", "allow-build="), permute=False),
                            shell=("c", "shell-mode"), shell_flags=True, packages=("package",)),
    ("pnpm", "exec"): Runner(Spec(short_values="F", longs=("shell-mode", "recursive", "parallel", "resume-from=",
                                                           "filter=", "report-summary", "no-reporter-hide-prefix",
                                                           "workspace-root"), permute=False),
                             shell=("c", "shell-mode"), shell_flags=True),
    ("yarn", "dlx"): Runner(Spec(short_values="p", longs=("package=", "quiet"), permute=False), packages=("p", "package")),
    ("yarn", "exec"): Runner(Spec(permute=False), always_shell=True),  # berry: a shell script, in its portable shell
    ("uvx",): _UVX, ("uv", "tool", "run"): _UVX, ("uv", "run"): _UV_RUN,
    ("pipx", "run"): _PIPX_RUN,
    ("poetry", "run"): _PLAIN,
    ("pipenv", "run"): Runner(Spec(longs=("python=",), permute=False), scripts="Pipfile"),
    ("bundle", "exec"): Runner(Spec(longs=("keep-file-descriptors", "gemfile="), permute=False)),
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


def package_runner(call: Call) -> tuple[Runner, list[Value], str | None] | None:
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


def run_package(call: Call, runner: Runner, args: list[Value], directory: str | None) -> None:
    scope = call.scope.copy()
    own, command_after_word = _split_at_command_word(runner, args)
    p = parse(own, runner.spec)
    if p.has(*runner.no_command_with):
        return
    for name in runner.folder_options:
        directory = p.value(name) or directory
    if runner.folder_operand and p.rest:
        directory = p.rest[0].text
    command = command_after_word if command_after_word is not None else [] if runner.no_operand_command else \
        _command(p, runner)
    if directory is not None:
        scope.cwd = call.scope.path(call.literal(directory))[0]
    for name in runner.shell if not runner.shell_flags else ():
        for code in p.flags.get(name, []):
            call.run_script(code, scope=scope)
    if not command:
        return
    if runner.always_shell or (runner.shell_flags and p.has(*runner.shell)):
        call.run_script(" ".join(word.text for word in command), scope=scope)
        return
    first = command[0]
    if runner.python and (first.text == "-" or first.text.endswith(".py") or p.has("m", "module", "s", "script")):
        module = [Value("-m")] if p.has("m", "module") else []
        call.run([Value("python3"), *module, *command], scope=scope)
        return
    if first.literal and re.match(r"https?://", first.text):
        host = first.text.split("/")[2]
        call.reader.add_effect_exec_download(call, host)
        call.opaque("code", first.text, f"{call.program} runs code it downloads from {host}", risky=True)
        return
    if runner.scripts and first.literal and (script := _project_script(call, runner.scripts, first.text)):
        call.run_script(" ".join([script, *(word.text for word in command[1:])]), scope=scope)
        return
    if first.literal and not p.has(*runner.packages):
        spec = _VERSION.match(first.text)
        first = Value(spec.group(1).rsplit("/", 1)[-1] if spec else first.text)
    call.run([first, *command[1:]], scope=scope)


def _split_at_command_word(runner: Runner, args: list[Value]) -> tuple[list[Value], list[Value] | None]:
    """The runner's own words, and the command after a word that starts it (`nix shell PKGS -c CMD ARGS`)."""
    for at, word in enumerate(args):
        if word.literal and word.text in runner.command_words:
            return args[:at], args[at + 1:]
    return args, None


def _command(p: Parsed, runner: Runner) -> list[Value]:
    """The command's words: after `--` only where operands before it are the wrapper's own (`mise exec TOOLS --
    CMD`), else after the operands it skips (a profile, a namespace)."""
    if runner.after_dashes:
        return list(p.rest)  # its options permute: only `--` sets the rest
    return list(p.rest[runner.skip:])


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
