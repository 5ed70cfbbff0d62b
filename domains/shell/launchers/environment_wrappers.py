"""Environment wrappers: programs that run a command with an environment they set up (secrets, a toolchain,
a conda or nix environment, cloud credentials) or retry it. Each reads its own options and operands up to the
command, as its documentation gives them, and the command runs as that program:

- `conda run [-n ENV | -p PREFIX] [--cwd DIR] CMD` (docs.conda.io, conda run; mamba and micromamba the same);
- `direnv exec DIR CMD` (direnv(1)): the command runs in DIR's environment;
- `nix-shell [-p PKGS | FILE] --run CMD` / `--command CMD` (nix-shell(1)): operands are packages or files;
- `nix shell INSTALLABLES -c CMD ARGS` and `nix develop -c CMD ARGS` (nix3-shell, nix3-develop);
- `aws-vault exec PROFILE [--] CMD` (aws-vault USAGE.md), `chamber exec SERVICE... -- CMD` (chamber README);
- `op run [--env-file F] -- CMD` (1Password CLI), `doppler run [--command CMD] -- CMD` (docs.doppler.com),
  `infisical run [--command CMD] -- CMD` (infisical.com/docs/cli/commands/run), `dotenv [-e F] -- CMD`
  (dotenv-cli);
- `mise exec|x [TOOL@VERSION...] -- CMD` or `-c CMD` (mise.jdx.dev/cli/exec), `asdf exec CMD` (asdf-vm.com);
- `envchain NAMESPACE CMD` (envchain README), `retry [OPTIONS] [--] CMD` (retry(1); one implementation evals
  its words, so they are read as shell code).

Each is a row of reading/wrapper_options.py's `Wrapper`, read by its one reader in package_runners.py.
"""

from __future__ import annotations

from ..reading.options import Spec
from ..reading.wrapper_options import Wrapper

_CONDA = Wrapper(Spec(short_values="npae", longs=("name=", "prefix=", "cwd=", "attach=", "env=", "label=", "clean-env",
                                                  "detach", "no-capture-output", "live-stream", "dev", "verbose",
                                                  "debug-wrapper-scripts"), permute=False), folder_options=("cwd",))
_NIX_SHELL_LIKE = Spec(short_values="IfkusAo", longs=(
    "arg", "argstr", "expr=", "file=", "include=", "inputs-from=", "keep=", "unset=", "override-input",
    "profile=", "chdir=", "set-env-var", "impure", "refresh", "offline", "print-build-logs", "command"))
_MISE = Wrapper(Spec(short_values="jCc", longs=("jobs=", "cd=", "command=", "raw", "fresh-env", "no-prepare"),
                     permute=True), shell=("c", "command"), folder_options=("C", "cd"), after_dashes=True)

ENVIRONMENT_WRAPPERS: dict[tuple[str, ...], Wrapper] = {
    **{(name, "run"): _CONDA for name in ("conda", "mamba", "micromamba")},
    ("direnv", "exec"): Wrapper(skip=1, folder_operand=True),
    ("nix-shell",): Wrapper(Spec(short_values="IAi", longs=("run=", "command=", "attr=", "include=", "expr", "pure",
                                                             "keep=", "packages", "arg", "argstr"), permute=True),
                            shell=("run", "command"), no_operand_command=True),
    ("nix", "shell"): Wrapper(_NIX_SHELL_LIKE, command_words=("-c", "--command"), no_operand_command=True),
    ("nix", "develop"): Wrapper(_NIX_SHELL_LIKE, command_words=("-c", "--command"), no_operand_command=True),
    ("aws-vault", "exec"): Wrapper(Spec(short_values="dtp", longs=(
        "duration=", "region=", "mfa-token=", "prompt=", "backend=", "no-session", "json", "server", "ec2-server",
        "ecs-server", "lazy", "stdout"), permute=False), skip=1),
    ("op", "run"): Wrapper(Spec(longs=("env-file=", "account=", "config=", "encoding=", "session=", "no-masking",
                                       "cache", "iso-timestamps", "debug"), permute=False)),
    ("doppler", "run"): Wrapper(Spec(short_values="pc", longs=(
        "project=", "config=", "command=", "mount=", "mount-format=", "mount-template=", "fallback=", "token=",
        "scope=", "name-transformer=", "api-host=", "configuration=", "preserve-env", "forward-signals",
        "fallback-readonly", "fallback-only", "no-fallback", "silent", "debug"), permute=False), shell=("command",)),
    ("infisical", "run"): Wrapper(Spec(longs=(
        "env=", "path=", "projectId=", "token=", "command=", "domain=", "tags=", "watch", "expand", "recursive",
        "include-imports", "silent", "secret-overriding"), permute=False), shell=("command",)),
    ("dotenv",): Wrapper(Spec(short_values="evp", longs=("no-expand", "debug", "override"), permute=False),
                         no_command_with=("p",)),
    ("mise", "exec"): _MISE, ("mise", "x"): _MISE,
    ("asdf", "exec"): Wrapper(),
    ("chamber", "exec"): Wrapper(Spec(longs=("pristine", "strict", "strict-value="), permute=True), after_dashes=True),
    ("envchain",): Wrapper(Spec(longs=("set", "list", "noecho", "require-passphrase", "no-require-passphrase",
                                       "unset"), short_values="", permute=False), skip=1,
                           no_command_with=("set", "list", "unset")),
    ("retry",): Wrapper(Spec(short_values="tdumsf", longs=("times=", "delay=", "until=", "message=", "sleep=",
                                                           "tries="), permute=False), always_shell=True),
}
