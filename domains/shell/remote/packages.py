"""Package managers: what they install or uninstall comes back with an install, so their `remove` and
`uninstall` lose nothing; what they take off a public registry, or delete with a package's own data, does not.

Language package managers (npm(1), pnpm, yarn, gem(1), pip, uv, poetry, cargo, composer, go) and the
system's (apt(8), apt-get(8), dnf, snap(8), brew(1), ...) have tables here so that the conventions that read
programs without one (remote/conventions.py) do not take their everyday `uninstall` for a destruction.
"""

from __future__ import annotations

from .tables import Form, RemoteProgram, register

_REGISTRY = "a package registry's published versions"
# npm's own: an unpublished version can never be published again under that number (npm-unpublish(1)).
_UNPUBLISH = Form(("unpublish",), "removes the published package or version from the registry; that version "
                                  "number can never be published again")
_NODE_FORMS = (_UNPUBLISH,
               Form(("dist-tag", "rm|remove|del"), "removes the tag that installs resolve through"),
               Form(("owner", "rm|remove"), "takes the user's publishing rights away"),
               Form(("team", "destroy"), "deletes the team and its access grants"),
               Form(("token", "revoke"), "revokes the token; whatever uses it stops working"))
_NODE_VALUES = frozenset({"--registry", "--otp", "--workspace", "-w", "--prefix", "--userconfig", "--cache",
                          "--loglevel", "--filter", "-F", "--dir", "-C", "--cwd"})
NODE = RemoteProgram(_REGISTRY, _NODE_FORMS, _NODE_VALUES, dry_runs=("--dry-run",))
# yarn has no unpublish: its classic `tag`, `owner` and `team` commands, and berry's `npm tag`.
YARN = RemoteProgram(_REGISTRY, (
    Form(("tag", "rm|remove"), "removes the tag that installs resolve through"),
    Form(("npm", "tag", "remove"), "removes the tag that installs resolve through"),
    Form(("owner", "rm|remove"), "takes the user's publishing rights away"),
    Form(("team", "destroy"), "deletes the team and its access grants")), _NODE_VALUES)
GEM = RemoteProgram(_REGISTRY, (Form(("yank",), "deletes the version from RubyGems.org; its number cannot be "
                                                "reused"),),
                    frozenset({"-v", "--version", "--host", "-k", "--key", "--otp", "--platform"}))
SYSTEM = RemoteProgram(
    "software installed on this machine and its configuration",
    (Form(("purge",), "removes the packages with their configuration files, which a reinstall does not bring back"),
     Form(("remove|autoremove",), "removes the packages with their configuration files", needs=("--purge",)),
     Form(("uninstall|remove|rm",), "removes the cask with its settings and data (--zap)", needs=("--zap",))),
    frozenset({"-o", "--option", "-c", "--config-file", "-t", "--target-release"}),
    dry_runs=("--dry-run", "-s", "--simulate", "--just-print", "--no-act"),
)
# snap(8): `snap remove` keeps a snapshot of the snap's data for 31 days unless --purge is given.
SNAP = RemoteProgram("snaps and their data", (Form(("remove",), "removes the snap with its data, keeping no "
                                                               "snapshot", needs=("--purge",)),))

register({
    "npm": NODE, "pnpm": NODE, "yarn": YARN,
    "gem": GEM,
    **{name: SYSTEM for name in ("apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "brew", "port")},
    "snap": SNAP,
})

# Programs with no table whose documented removal verbs take away only what an install, a download or a rebuild
# brings back: packages, tool versions, editor extensions, local models, caches, hooks and settings. These verbs
# pass the conventions' reading (remote/conventions.py); every other verb of the program is read as usual, so
# `dotnet ef database drop` still asks.
_PACKAGES = frozenset({"uninstall", "remove", "rm"})
LOCAL_VERBS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("pip", "pip3", "pipx", "uv", "poetry", "pipenv", "conda", "mamba", "micromamba", "composer",
                     "bundle", "bundler", "cargo", "rustup", "dotnet", "nuget", "go"), _PACKAGES | {"purge"}),
    # Version managers: a removed version installs again.
    **dict.fromkeys(("nvm", "fnm", "volta", "n", "pyenv", "rbenv", "nodenv", "goenv", "jenv", "tfenv", "tgenv",
                     "asdf", "mise", "rtx", "sdk", "juliaup", "ghcup"), _PACKAGES | {"prune"}),
    # Editors' extensions (`code --uninstall-extension`), local models (`ollama rm`), Jupyter's kernels.
    **dict.fromkeys(("code", "codium", "code-insiders", "cursor", "windsurf"), frozenset({"uninstall"})),
    "ollama": _PACKAGES, "jupyter": _PACKAGES,
    # Git hooks an installer writes, and build caches a build makes again.
    "pre-commit": frozenset({"uninstall", "clean", "gc"}), "husky": frozenset({"uninstall"}),
    "nx": frozenset({"reset"}), "turbo": frozenset({"prune"}),  # `turbo prune` writes a pruned copy; it deletes nothing
    # Process managers' lists and logs (pm2(1): `flush` empties logs, `delete` forgets a process it can start again).
    "pm2": frozenset({"flush", "delete", "del"}),
    # Telemetry switches and package-manager shims: `disable` there turns a setting off, which `enable` turns on.
    **dict.fromkeys(("next", "astro", "nuxt", "gatsby", "corepack", "turborepo", "expo"), frozenset({"disable"})),
}
