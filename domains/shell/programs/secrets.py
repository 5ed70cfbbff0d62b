"""Files that hold secrets, by their well-known names and places.

A read is how a secret leaves the machine: what a command prints goes to the model's provider.
The table names what tools themselves document as credential stores: dotenv files (but not their
committed templates), SSH and TLS private keys, cloud and registry credentials, `.netrc`, and shell
and REPL histories. A path is matched on its last parts, so `~/.aws/credentials` and a project's
`.aws/credentials` are both found, wherever the home folder is.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re

# dotenv files: `.env`, `.env.local`, `prod.env`; the templates projects commit are not secrets.
_DOTENV = re.compile(r"^(?:\.env(?:\..+)?|.+\.env)$")
_DOTENV_TEMPLATES = re.compile(r"\.(?:example|sample|template|dist|defaults)$|^\.env\.(?:example|sample|template)\.")
# Private keys: OpenSSH's default names (never the .pub half), PEM/PKCS#12 key stores.
_PRIVATE_KEYS = ("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "*.pem", "*.key",
                 "*.p12", "*.pfx", "*.jks", "*.keystore", "*.ppk")
# Names that hold credentials wherever they are.
_NAMES = {
    ".netrc": "login credentials (.netrc)", "_netrc": "login credentials (.netrc)",
    ".git-credentials": "git credentials", ".pgpass": "database passwords", ".my.cnf": "database credentials",
    ".pypirc": "package index credentials", ".npmrc": "npm registry tokens", ".yarnrc.yml": "yarn registry tokens",
    ".vault-token": "a Vault token", "credentials.json": "API credentials",
    "application_default_credentials.json": "cloud credentials",
    ".bash_history": "shell history", ".zsh_history": "shell history", ".sh_history": "shell history",
    ".history": "shell history", "fish_history": "shell history", ".python_history": "REPL history",
    ".node_repl_history": "REPL history", ".psql_history": "database history", ".mysql_history": "database history",
}
# Places: the last parts of a path, as `folder/name` (a `*` matches one part).
_PLACES = {
    ".aws/credentials": "cloud credentials", ".aws/config": "cloud credentials",
    ".config/gcloud/*": "cloud credentials", ".azure/*": "cloud credentials", ".kube/config": "cluster credentials",
    ".docker/config.json": "registry credentials", ".cargo/credentials": "registry credentials",
    ".cargo/credentials.toml": "registry credentials", ".gem/credentials": "registry credentials",
    ".config/gh/hosts.yml": "GitHub tokens", ".terraform.d/credentials.tfrc.json": "Terraform tokens",
    ".gnupg/*": "GnuPG keys", ".ssh/*": "SSH keys",
}
# What the folders named by `/*` above hold that is public (`.ssh/config`, `known_hosts`, public keys).
_PUBLIC = re.compile(r"(?:\.pub|known_hosts(?:\.old)?|authorized_keys2?|/config|\.conf|pubring\.kbx~?|trustdb\.gpg)$")
# A name a glob is tried against for each pattern above: `cat *.pem` may read `server.pem`.
# The names a place holds come first, so `~/.aws/*` is named for what that folder keeps.
_SAMPLES = ("credentials", "config", "config.json", "hosts.yml", ".env", ".env.local", "prod.env", "id_rsa",
            "id_ed25519", "server.pem", "server.key", "cert.p12", "key.pfx", "store.jks", "app.keystore", "key.ppk",
            *_NAMES)


def secret_kind(path: str) -> str:
    """What secret the file at `path` holds by its name and place ('' for none)."""
    name = posixpath.basename(path.rstrip("/"))
    if _DOTENV.match(name):
        return "" if _DOTENV_TEMPLATES.search(name) else "environment secrets (a dotenv file)"
    if name.endswith(".pub"):
        return ""
    if any(fnmatch.fnmatchcase(name, pattern) for pattern in _PRIVATE_KEYS):
        return "a private key"
    if name in _NAMES:
        return _NAMES[name]
    parts = path.rstrip("/").split("/")
    for place, kind in _PLACES.items():
        depth = place.count("/") + 1
        tail = "/".join(parts[-depth:])
        if len(parts) >= depth and fnmatch.fnmatchcase(tail, place) and not (
                place.endswith("/*") and _PUBLIC.search("/" + tail)):
            return kind
    return ""


def folder_secret_kind(path: str, home: str) -> str:
    """What a recursive read of the folder at `path` reaches ('' for none): a place above that keeps secrets
    (`~/.ssh`, `~/.aws`, `~/.config`, which holds gcloud's), or the home folder or one above it, which holds
    them all. A project folder is not one, though it may hold a `.env`: that read is the common
    `grep -rn TODO .`, and the text alone cannot tell it from one aimed at the secret."""
    path = path.rstrip("/") or "/"
    home = home.rstrip("/") or "/"
    if home == path or home.startswith(path.rstrip("/") + "/"):
        return "every secret in the home folder (SSH keys, cloud credentials, .netrc, shell history)"
    parts = path.split("/")
    for place, kind in _PLACES.items():
        folders = place.split("/")[:-1]  # `.config/gcloud/*` is kept in .config/gcloud, and so in .config
        if any(parts[-depth:] == folders[:depth] for depth in range(1, len(folders) + 1) if len(parts) > depth):
            return kind
    return ""


def glob_may_read_secret(pattern: str) -> str:
    """For a glob the disk cannot expand: the secret a match could be ('' for none)."""
    folder, name_pattern = posixpath.split(pattern)
    for sample in _SAMPLES:  # bash's globs skip dot files unless the pattern itself starts with a dot
        if fnmatch.fnmatchcase(sample, name_pattern) and (sample.startswith(".") <= name_pattern.startswith(".")):
            if kind := secret_kind(posixpath.join(folder, sample)):
                return kind
    return ""
