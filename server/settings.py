"""Server settings: defaults, overridden by AGENTWORLD_* environment variables, then by flags.

Hosts such as Claude Desktop do not pass the user's shell environment, so everything a host
config may need is settable both ways.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, FilePath, SecretStr, ValidationError, model_validator

from ..engine.errors import ConfigurationError, validation_line
from ..tools.limits import Limits
from ..tools.modes import DemonstrationsMode, EffectsMode, StateCheckMode, StructuredResultsMode

ENV_PREFIX = "AGENTWORLD_"


# Environment variables that are no setting: each is read where it acts, and named here for the reference page
# (docs/reference/settings.md); tests/unit/test_doc_examples.py fails on one the code reads that is in neither.
OTHER_VARIABLES = {
    "AGENTWORLD_AUTH_TOKEN": "The bearer token every HTTP client must send to `serve --transport http` and `env serve`, and "
                             "the one `hook --url URL` sends. Safer than `--auth-token`, which the process list "
                             "shows to other users.",
    "AGENTWORLD_CACHE_DIR": "Where the embedded default model is assembled from its PyPI packages; default: "
                            "`$XDG_CACHE_HOME/agentworld-mcp` or `~/.cache/agentworld-mcp`.",
    "AGENTWORLD_CPU_VARIANT": "The llama.cpp CPU kernels to load by name (haswell, skylakex, icelake, zen4, ...) "
                              "instead of the best this CPU supports; AMX variants load only when named.",
    "AGENTWORLD_HOOK_DAEMON": "`0` makes every `agentworld-mcp hook` call decide in its own process, instead of "
                              "asking the warm decider the first call starts (it serves only this user, and exits "
                              "after ten idle minutes or when the package changes).",
    "AGENTWORLD_JUDGE_API_KEY": "The API key of the judge model server that `eval samples --judge-url` asks; never "
                                "taken on the command line.",
    "AGENTWORLD_LLAMA_SERVER": "The llama-server binary the tests and benchmarks start; default: the one the test "
                               "extra installs.",
}


class Settings(BaseModel):
    backend: Literal["llama", "openai"] | None = Field(
        default=None, description="llama: a GGUF in this process; openai: a model server. Unset: openai when base_url is set, else llama."
    )
    base_url: str | None = Field(default=None, description="An OpenAI-compatible model server, e.g. http://127.0.0.1:8080/v1.")
    api_key: SecretStr | None = Field(default=None, description="The model server's API key (never shown).")
    served_model: str | None = Field(default=None, description="The model name on the server; unset: the first it lists.")
    parallel: int | None = Field(default=None, ge=1, description="Requests in flight on a model server; unset: its slots, else 4.")
    model: Path | None = Field(default=None, description="The GGUF file to load; unset: the embedded default model.")
    n_ctx: int = Field(default=8192, ge=512, description="Context window in tokens (prompt and reply) of the in-process model.")
    n_threads: int | None = Field(default=None, ge=1, description="CPU threads for decoding; unset: the machine's physical cores.")
    n_batch: int = Field(default=512, ge=32, description="Prompt tokens evaluated per batch by the in-process model.")
    n_gpu_layers: int = Field(default=0, ge=-1, description="Layers offloaded to the GPU (-1: all); needs a GPU build of "
                              "llama-cpp-python.")
    flash_attn: bool = Field(default=False, description="Flash attention in the in-process model (GPU builds).")
    chat_template_vars: dict[str, Any] = Field(default_factory=dict, description="Extra variables for the chat "
                                               "template, as JSON (e.g. {\"enable_thinking\": true}).")
    chat_template: FilePath | None = Field(default=None, description="A Jinja chat template replacing the GGUF's own.")
    thinking_budget: int | None = Field(
        default=None, ge=1, description="Most tokens a reasoning model may think per reply; unset: 3/4 of max_tokens."
    )
    override_kv: dict[str, bool | int | float | str] = Field(default_factory=dict, description="GGUF metadata "
                                                            "overrides, as JSON (KEY: value).")
    queue_limit: int = Field(default=64, ge=1, description="Requests the engine queue holds; more are refused at once.")
    snapshot_mb: int = Field(default=2048, ge=0, description="Memory for saved contexts of interleaved worlds; 0: off.")
    result_cache: int = Field(default=256, ge=0, description="Greedy results kept for identical requests; 0: off.")
    queue_timeout: float = Field(default=300.0, gt=0, description="Seconds a request may wait before it is dropped.")
    domains_dir: Path | None = Field(default=None, description="A folder of user-defined domain packs.")
    override_domains: bool = Field(default=False, description="Let user packs replace built-in packs of the same name.")
    upstream_prompts: Path | None = Field(default=None, description="A folder of <domain>/system_prompt.txt files.")
    data_dir: Path | None = Field(default=None, description="Where worlds and jobs are stored (SQLite); unset: "
                                "$XDG_DATA_HOME/agentworld-mcp or ~/.local/share/agentworld-mcp.")
    store: str | None = Field(default=None, description="The world and job store: sqlite:///PATH or "
                              "postgresql://USER@HOST:PORT/DB (a team's); default: the SQLite file in data_dir.")
    budget_seconds: float = Field(default=50.0, gt=0, description="A call running longer returns a job handle.")
    job_retention_hours: float = Field(default=24.0, gt=0, description="How long finished job results are kept.")
    effects: EffectsMode = Field(default="model", description="Where a step's effects come from where its own "
                                 "command does not say: model (the reply's effects block), parser (the observation's "
                                 "error line only), off.")
    state_check: StateCheckMode = Field(default="correct", description="A prediction that contradicts the world's "
                                        "files: correct it (asking once more first), warn only, or off.")
    structured_results: StructuredResultsMode = Field(default="constrained", description="A tool with an output "
                                                      "schema: its predicted result is generated under the schema "
                                                      "(constrained), or freely and then only checked (free).")
    demonstrations: DemonstrationsMode = Field(default="auto", description="Example turns in the prompt: "
                                               "auto (for any model but a trained world model), on, off.")
    # Off by default: on held-out terminal sessions the model replayed the examples' sessions instead of its
    # own, and the server cut those screens (docs/guides/sessions.md has the figures).
    retrieval: Literal["on", "off"] = Field(default="off", description="Show real steps of the store's train "
                                            "sessions as examples (none there, none shown).")
    redaction: Literal["on", "off"] = Field(default="on", description="Secrets in recorded real steps (the guard, a "
                                            "twin, the world tool) become [REDACTED] before the store keeps them.")
    computed: Literal["on", "off"] = Field(default="on", description="Lines a world's virtual shell determines are "
                                           "computed exactly with zero tokens; off: every step is the model's.")
    allow_dirs: list[Path] = Field(default_factory=list, description="Real folders a world may start from (from_dir), "
                                   "besides the client's roots and, but over HTTP, the server's working folder.")
    snapshot_max_paths: int = Field(default=5000, ge=1, description="from_dir: most paths a snapshot lists.")
    snapshot_max_file_kb: int = Field(default=256, ge=0, description="from_dir: larger files' content is unknown.")
    snapshot_max_total_mb: int = Field(default=32, ge=0, description="from_dir: most bytes of content it reads.")
    max_action_chars: int = Field(default=Limits.max_action_chars, ge=1, description="Longest action accepted.")
    max_history_turns: int = Field(default=Limits.max_history_turns, ge=0, description="Most earlier steps a "
                                   "request may carry (and so the longest episode).")
    max_history_chars: int = Field(default=Limits.max_history_chars, ge=0, description="Most characters of "
                                   "earlier steps a request may carry.")
    max_plan_steps: int = Field(default=Limits.max_plan_steps, ge=1, description="Most steps in one dry_run_plan.")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(default="WARNING", description="What is "
                                                                   "logged, to stderr (never to stdout).")
    policy: Path | None = Field(default=None, description="The guard's policy file; unset: .agentworld/policy.json if present.")
    guard_budget: float = Field(default=10.0, gt=0, description="Seconds the guard may take to decide.")
    guard_on_failure: Literal["ask", "none"] = Field(
        default="none", description="The guard's decision when it cannot decide in time or at all.")

    @model_validator(mode="after")
    def _choose_backend(self) -> Settings:
        if self.backend is None:
            self.backend = "openai" if self.base_url else "llama"
        if self.backend == "openai" and not self.base_url:
            raise ValueError("backend openai needs the model server's address: --base-url URL (or AGENTWORLD_BASE_URL)")
        if self.base_url and not self.base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must start with http:// or https://, got {self.base_url!r}")
        return self

    def limits(self) -> Limits:
        return Limits(
            max_action_chars=self.max_action_chars,
            max_history_turns=self.max_history_turns,
            max_history_chars=self.max_history_chars,
            max_plan_steps=self.max_plan_steps,
        )

    def threads(self) -> int:
        return self.n_threads or physical_cores()


class SettingsError(ConfigurationError, ValueError):
    """A setting that cannot be used; the message names the setting."""


def load_settings(overrides: dict[str, Any]) -> Settings:
    """Environment first, then explicit values (flags); `None` in `overrides` means not given."""
    values: dict[str, Any] = {}
    for name, field in Settings.model_fields.items():
        raw = os.environ.get(ENV_PREFIX + name.upper())
        if raw is not None and raw != "":
            values[name] = _from_env(name, raw, field.annotation)
    values.update({name: value for name, value in overrides.items() if value is not None})
    try:
        return Settings(**values)
    except ValidationError as exc:
        problem = exc.errors()[0]
        if not problem["loc"]:  # a rule over several settings names them itself
            raise SettingsError(problem["msg"].removeprefix("Value error, ")) from None
        raise SettingsError(f"setting {validation_line(exc, most=1)}") from None


def _from_env(name: str, raw: str, annotation: Any) -> Any:
    if name == "allow_dirs":  # a list, as PATH is written
        return [part for part in raw.split(os.pathsep) if part]
    if name in ("chat_template_vars", "override_kv"):
        try:
            return json.loads(raw)
        except ValueError:
            raise SettingsError(f"{ENV_PREFIX}{name.upper()} must be a JSON object, got {raw!r}") from None
    return raw  # pydantic converts strings to ints, bools and paths


def physical_cores() -> int:
    """Physical cores this process may run on; llama.cpp gains nothing from hyper-threads."""
    try:
        allowed = os.sched_getaffinity(0)
    except AttributeError:  # not Linux
        return max(1, (os.cpu_count() or 2) // 2)
    cores = set()
    for cpu in allowed:
        topology = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology")
        try:
            cores.add(((topology / "physical_package_id").read_text(), (topology / "core_id").read_text()))
        except OSError:
            cores.add(("cpu", str(cpu)))
    return max(1, len(cores))


def settings_env(settings: Settings) -> dict[str, str]:
    """The environment that gives a child server process these same settings (what differs from
    the defaults); `load_settings` reads it back."""
    env: dict[str, str] = {}
    for name, field in Settings.model_fields.items():
        value = getattr(settings, name)
        if value is None or value == field.get_default(call_default_factory=True):
            continue
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if isinstance(value, list):  # allow_dirs, as PATH is written
            env[ENV_PREFIX + name.upper()] = os.pathsep.join(str(item) for item in value)
        elif isinstance(value, dict):
            env[ENV_PREFIX + name.upper()] = json.dumps(value)
        else:
            env[ENV_PREFIX + name.upper()] = str(value).lower() if isinstance(value, bool) else str(value)
    return env
