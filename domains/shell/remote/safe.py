"""What the guard knows to be safe beyond the folder: the closed class of verbs and options that only read,
plan, ask for help or create a new named thing, and the programs (or a program's verbs) whose documentation
says they act in the folder, on this machine's caches and settings, or on the project's own stack.

Everything else a program beyond the folder is given is asked about (remote/conventions.py says how a verb is
found; remote/tables.py reads a tabled program's verbs the same way). A missing word here costs the user one
question; a missing word in a destroy list (remote/verbs.py) would cost data, so this list, not those, is the net.

To extend it: one line per word (or per program), with the documentation it comes from. A word belongs here only
if every CLI that uses it as a verb means a read, a plan, help or a creation; a word that means one thing to a
package manager and another to a storage or database CLI (`sync`, `install`, `restore`, `add`, `apply`) goes on
the programs' lines in LOCAL below, never in SAFE.
"""

from __future__ import annotations

import re

from .verbs import READS


def _rows(text: str) -> list[tuple[str, str]]:
    """`first  rest  -- source` rows: the source is for the reader and dropped here."""
    rows = []
    for line in text.strip().splitlines():
        fields = line.split(" -- ", 1)[0].split()
        if fields:
            rows.append((fields[0], " ".join(fields[1:])))
    return rows


# word  class  -- where CLIs document it (kubectl(1), the AWS CLI's operation prefixes, gcloud's and az's
# command groups, cobra/click conventions). Classes: read, plan, help, create.
SAFE: dict[str, str] = dict(_rows("""
get          read    -- kubectl get; AWS CLI get-* operations read one resource
list         read    -- gcloud/az/helm list; AWS CLI list-* operations
ls           read    -- aws s3 ls, gsutil ls, mc ls, rclone ls
show         read    -- az ... show, terraform show, git show
describe     read    -- kubectl describe; AWS CLI describe-* operations; gcloud ... describe
view         read    -- gh pr view, npm view
inspect      read    -- docker inspect, podman inspect
status       read    -- vault status, minikube status, git status
logs         read    -- kubectl logs, docker logs, heroku logs
log          read    -- git log, hg log
info         read    -- docker info, brew info, conda info
search       read    -- helm search, brew search, npm search
find         read    -- gh search, az ... find
cat          read    -- hadoop fs -cat, gsutil cat
read         read    -- vault read
whoami       read    -- npm whoami, wrangler whoami, stripe whoami
print        read    -- az ... print, kubectl config print
df           read    -- docker system df, podman system df: disk usage
top          read    -- kubectl top, docker top
stats        read    -- docker stats
events       read    -- docker events, kubectl events
history      read    -- docker history, helm history
tail         read    -- aws logs tail, heroku logs --tail
watch        read    -- gh run watch, kubectl get --watch
count        read    -- redis-cli/influx count-style queries that only read
ping         read    -- redis-cli ping, ansible -m ping
outdated     read    -- npm outdated, pip list --outdated, bundle outdated
audit        read    -- npm audit (without fix), cargo audit
check        read    -- ruff check, cargo check, terraform validate's kin
validate     read    -- terraform validate, packer validate
verify       read    -- npm cache verify, gpg --verify
lint         read    -- helm lint, ruff lint
doctor       read    -- brew doctor, flutter doctor, expo doctor
health       read    -- CLIs' health checks (consul, vault operator raft autopilot state)
export       read    -- gcloud ... export and pulumi stack export print what they read
dump         read    -- pg_dump, redis-cli --rdb style dumps: they read what they save
completion   read    -- cobra's generated `completion` command prints a shell script
members      read    -- consul members lists the cluster's members
snapshots    read    -- restic snapshots lists the repository's snapshots
explain      read    -- kubectl explain prints a resource's schema
plan         plan    -- terraform/tofu plan, atlas schema plan
preview      plan    -- pulumi preview, az deployment what-if's kin
diff         plan    -- cdk diff, helm diff, terraform plan's diff
template     plan    -- helm template renders manifests locally
render       plan    -- helm/kustomize-style rendering prints manifests
synth        plan    -- cdk synth writes a CloudFormation template locally
estimate     plan    -- cost estimates (infracost breakdown's kin)
help         help    -- every CLI's help command
version      help    -- every CLI's version command
usage        help    -- CLIs' usage command
create       create  -- kubectl create, gh pr create, AWS CLI create-* operations make a new named thing
new          create  -- cargo new, dotnet new, rails new, hugo new, tmux new
init         create  -- terraform init, git init, npm init, cargo init, pulumi new's kin
scaffold     create  -- generators' scaffold commands
"""))

# Options that change nothing: dry runs, what-if previews, checks, help and version (`-h` only last: to database
# tools it names the host, so a word follows it). -- kubectl --dry-run, az --what-if, ansible --check, every --help
SAFE_OPTIONS = frozenset({"dry-run", "dryrun", "dry_run", "what-if", "whatif", "noop", "no-op", "simulate", "preview",
                          "check", "help", "version", "plan-only", "validate-only"})

# A command word as CLIs spell their subcommands: lowercase, words joined by `-`, `_` or `:` (`delete-bucket`,
# `db:drop`), or an RPC-style CamelCase verb of two parts or more (`DeleteCluster`).
COMMAND_WORD = re.compile(r"[a-z][a-z0-9]*(?:[-_:][a-z0-9]+)*|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+")

# Programs whose documentation gives them as acting in the folder, on this machine's package caches, tools and
# settings, or on the project's own stack (local servers, local clusters, emulators): `*` for every verb (their
# destroy verbs are still read by remote/verbs.py and remote/packages.py's LOCAL_VERBS), else the verbs that do.
# A tabled program (remote/tables.py) lists here the verbs its table does not name that act so.
# program  verbs|*  -- source
_LOCAL = """
black *  -- black(1): formats files
isort *  -- isort: sorts imports in files
ruff *  -- docs.astral.sh/ruff: check, format
mypy *  -- mypy: type checks
pyright *  -- pyright: type checks
flake8 *  -- flake8: lints
pylint *  -- pylint: lints
yamllint *  -- yamllint: lints
hadolint *  -- hadolint: lints a Dockerfile
markdownlint *  -- markdownlint-cli: lints Markdown
shellcheck *  -- shellcheck(1): lints scripts
shfmt *  -- shfmt: formats scripts
prettier *  -- prettier CLI: --write, --check
eslint *  -- eslint CLI: --fix
stylelint *  -- stylelint CLI
biome *  -- biome CLI: check, format, lint
rubocop *  -- rubocop: -a autocorrect
rustfmt *  -- rustfmt: formats files
gofmt *  -- gofmt: -w writes files
goimports *  -- goimports: -w writes files
golangci-lint *  -- golangci-lint run
clang-format *  -- clang-format -i
tsc *  -- TypeScript compiler
pip *  -- pip install/freeze/list into the environment
pip3 *  -- pip
uv *  -- uv: sync, add, lock, venv, pip (the project's environment)
poetry *  -- poetry: install, add, lock, update
pipenv *  -- pipenv: install, sync
pipx *  -- pipx: installs tools for this user
conda *  -- conda: env create, install
mamba *  -- mamba: conda's commands
cargo *  -- cargo: build, test, add, update, fmt, clippy, doc, new
rustup *  -- rustup: toolchains and components on this machine
go *  -- go: build, test, mod tidy/download, get, vet, generate
bundle *  -- bundler: install, exec
gem install update list -- gem(1): installs gems here (yank is its table's)
composer *  -- composer: install, require, update
dotnet *  -- dotnet: restore, build, test, add package, new (its ef database drop is still read)
mix *  -- mix: deps.get, test, format
rebar3 *  -- rebar3: compile
stack *  -- stack: build
cabal *  -- cabal: build
nvm *  -- nvm: node versions here
pyenv *  -- pyenv: python versions here
asdf *  -- asdf: tool versions here
mise *  -- mise: tool versions here
deno *  -- deno: task, fmt, test, run
bun *  -- bun: install, add, test, run
make *  -- make(1): the Makefile's targets
cmake *  -- cmake: configure and build
ninja *  -- ninja: builds
meson *  -- meson: setup, compile
bazel *  -- bazel: build, test, run labels
bazelisk *  -- bazelisk: bazel
buck2 *  -- buck2: build, test, run labels
buck *  -- buck: build labels
pants *  -- pants: test, lint, fmt
gradle *  -- gradle: build, assemble, test
gradlew *  -- the Gradle wrapper
mvn *  -- maven: clean install, test, package
sbt *  -- sbt: compile, test
ant *  -- ant: build targets
just *  -- just: the justfile's recipes
task *  -- Task: the Taskfile's tasks
vite *  -- vite: build, dev, preview
webpack *  -- webpack: bundles
next *  -- next: build, dev, lint
nx *  -- nx: build, test, affected
turbo *  -- turbo: run
lerna *  -- lerna: run
rake *  -- rake: the Rakefile's tasks (db:migrate brings a dev database to the project's schema)
rails *  -- rails: generate, server, db:migrate (its db:drop is still read)
scons *  -- scons: builds
pytest *  -- pytest: runs tests
tox *  -- tox: test environments
nox *  -- nox: sessions
jest *  -- jest: runs tests
vitest *  -- vitest: runs tests
mocha *  -- mocha: runs tests
playwright *  -- playwright: test, install browsers
cypress *  -- cypress: run, open
phpunit *  -- phpunit: runs tests
rspec *  -- rspec: runs specs
ctest *  -- ctest: runs tests
django-admin *  -- django-admin: startproject, startapp
alembic revision upgrade current history heads  -- alembic: migrations to the project's own schema
prisma generate format validate migrate db  -- prisma: generate the client; migrate dev on the dev database
terraform-docs *  -- terraform-docs: writes a module's documentation
sqlc *  -- sqlc: generate code
buf generate lint format build breaking  -- buf: code and checks from .proto files
protoc *  -- protoc: generates code
openapi-generator-cli generate validate  -- openapi-generator: generates a client
yo *  -- yeoman: runs a generator in the folder
cookiecutter *  -- cookiecutter: makes a project from a template
hugo *  -- hugo: builds a site, new site
mkdocs *  -- mkdocs: build, serve
sphinx-build *  -- sphinx: builds docs
pre-commit *  -- pre-commit: run, install hooks
husky *  -- husky: installs git hooks
direnv allow deny reload  -- direnv: trusts the folder's .envrc
tmux *  -- tmux: terminal sessions here
code *  -- VS Code
openssl *  -- openssl(1): local keys, certificates, digests and random bytes
ssh-keygen *  -- ssh-keygen(1): local key files
hg add commit update pull status  -- hg(1): commits and updates keep every revision
svn add commit update checkout status  -- svn(1): commits and updates keep every revision
jupyter *  -- jupyter: lab, notebook
uvicorn *  -- a local server
flask run shell routes  -- flask: the local dev server
gunicorn *  -- a local server
ngrok http tcp  -- ngrok: a tunnel to a local port
stripe listen login  -- stripe listen forwards webhooks to a local URL
minikube start stop  -- minikube: a local cluster on this machine
kind create  -- kind: local clusters (its delete is still read)
k9s *  -- k9s: a terminal UI over a cluster that reads
kustomize build  -- kustomize build prints manifests
supabase start stop link  -- supabase: the local development stack
firebase emulators:start emulators:exec serve login  -- firebase: local emulators
wrangler dev login  -- wrangler dev: a local worker
glab clone checkout  -- glab: a local clone or branch
npm install i ci update test run start exec init create pack audit login link rebuild outdated  -- npm(1)
pnpm install i add update test run start exec dlx create init link rebuild  -- pnpm CLI
yarn install add up upgrade test run start dlx create init link  -- yarn CLI
brew install upgrade update tap services bundle  -- brew(1): software on this machine, brought back by install
apt install update upgrade  -- apt(8)
apt-get install update upgrade  -- apt-get(8)
docker build buildx builder compose ps images logs pull run start stop restart login tag version info stats  -- docker
podman build ps images logs pull run start stop restart login tag version info  -- podman(1)
docker compose up build logs ps down pull start stop restart config images top exec run create  -- compose
docker-compose up build logs ps down pull start stop restart config images top exec run create  -- compose v1
podman-compose up build logs ps down pull start stop restart config  -- podman-compose
oc rsh port-forward proxy wait login project whoami  -- oc(1): a remote shell (its command read by elsewhere.py)
kubectl port-forward proxy wait api-resources api-versions cluster-info can-i use-context  -- kubectl(1)
helm add update build package pull  -- helm repo add/update, dependency build: local chart repositories
terraform fmt output providers console graph select  -- terraform: local formatting, outputs, workspaces
tofu fmt output providers console graph select  -- OpenTofu: terraform's
terragrunt fmt output hclfmt  -- terragrunt
pulumi login select  -- pulumi: the local login, stack select
gh clone checkout browse login  -- gh: a local clone or branch, a browser, the local login (gh api is a request:
    -- remote/api_commands.py reads its method and body)
aws configure login cp  -- aws: the local profile and login; s3 cp copies (a versioned bucket keeps what it
    -- overwrites); its rm, rb and sync --delete are the table's
gcloud login set  -- gcloud auth login, gcloud config set (local configuration)
az login  -- az login: the local login
vercel dev build login link pull  -- vercel: local dev server, build, link, pull settings
netlify dev build login link  -- netlify: local dev server and build
heroku login  -- heroku: the local login
"""
LOCAL: dict[str, frozenset[str] | None] = {}  # program -> its local verbs; None: every verb
for _line in _LOCAL.strip().splitlines():
    _fields = _line.split(" -- ", 1)[0].split()
    if not _fields or _fields[0] == "--":
        continue  # a source's continuation line
    if len(_fields) > 2 and _fields[1] == "compose":  # a tabled program's sub-table: `docker compose`
        _fields = [f"{_fields[0]} compose", *_fields[2:]]
    LOCAL[_fields[0]] = None if _fields[1:] == ["*"] else frozenset(_fields[1:])

# Build systems whose operands are target labels (`//pkg:target`, `//...`, `::`), not paths: bazel's and buck's
# "Labels" pages, pants' "Targets and BUILD files".
LABELS = frozenset({"bazel", "bazelisk", "buck", "buck2", "pants", "please", "plz"})


def wholly_local(program: str) -> bool:
    """A program documented to act only in the folder or on this machine's tools (its every verb), or an npm
    initializer (`create-vite`: npm-init(1) runs `create-<initializer>` to scaffold a new project)."""
    return program in LOCAL and LOCAL[program] is None or program.startswith("create-")


def local_verb(program: str, word: str) -> bool:
    verbs = LOCAL.get(program, frozenset())
    return verbs is None or word in verbs


def safe_kind(word: str) -> str | None:
    """`read`, `plan`, `help` or `create` for a word of the closed class, else None."""
    return SAFE.get(word)


def parts(word: str) -> list[str]:
    """A command word's parts: `delete-bucket`, `db:drop`, `DeleteCluster` (RPC-style CamelCase)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", word).lower()
    return [part for part in re.split(r"[-_:]", spaced) if part]


def known_word(program: str, words: list[str], also: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """The first command word (or a part of it) that the safe class, the program's local verbs or `also` know,
    with its class (`read`, `plan`, `help`, `create`, `local`, `known`); the words before it are taken for command
    groups (`gh pr create`, `aws s3 ls`)."""
    for word in words:
        for candidate in dict.fromkeys((word, word.lower(), *parts(word))):
            if local_verb(program, candidate):
                return candidate, "local"
            if (kind := safe_kind(candidate)) is not None:
                return candidate, kind
            if candidate in READS:
                return candidate, "read"
            if candidate in also:
                return candidate, "known"
    return None
