"""Building the running parts from settings: the model file, the backend, the engine, the tools."""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

from ..domains import DomainPack, load_domains
from ..engine import Backend, Engine
from ..engine.llama_backend import LlamaCppBackend, LlamaSettings
from ..engine.remote import OpenAICompatibleBackend, RemoteSettings
from ..tools.constraints import preset_problem
from ..tools.context import ToolContext
from ..tools.data.retrieval import RealStepIndex
from ..tools.guard.policy import GuardSettings, load_policy, policy_path
from ..tools.jobs import Jobs
from ..tools.limits import SnapshotBounds
from ..tools.worlds.store import Store, default_data_dir
from ..tools.worlds.stores import open_store as open_store_at
from . import checked_models
from .model_files import GGUFInfo, check_loadable, default_model_path, inspect_gguf
from .settings import Settings

ModelSource = GGUFInfo | RemoteSettings  # what a backend is built from: a checked file, or a server


def resolve_source(settings: Settings) -> ModelSource:
    """Where the world model runs, checked as far as can be before starting: the GGUF file for the
    in-process backend (raises ModelFileError), or the model server's address."""
    if settings.backend == "openai":
        return RemoteSettings(
            base_url=settings.base_url or "",
            api_key=settings.api_key.get_secret_value() if settings.api_key else None,
            served_model=settings.served_model,
            parallel=settings.parallel,
            template_vars=settings.chat_template_vars,
        )
    return resolve_model(settings)


def make_backend(settings: Settings, source: ModelSource) -> Backend:
    """The one place a backend is chosen."""
    if isinstance(source, RemoteSettings):
        return OpenAICompatibleBackend(source)
    return LlamaCppBackend(
        LlamaSettings(
            model_path=str(source.path),
            n_ctx=settings.n_ctx,
            n_threads=settings.threads(),
            n_batch=settings.n_batch,
            n_gpu_layers=settings.n_gpu_layers,
            flash_attn=settings.flash_attn,
            template_vars=settings.chat_template_vars,
            kv_overrides=settings.override_kv,
            quantization=source.quantization,
            architecture=source.architecture,
            chat_template=settings.chat_template.read_text(encoding="utf-8") if settings.chat_template else None,
            snapshot_bytes=settings.snapshot_mb << 20,
        )
    )


def resolve_model(settings: Settings) -> GGUFInfo:
    """The model file to serve, checked; raises ModelFileError with a one-line fix."""
    path = (Path(settings.model).expanduser() if settings.model else default_model_path()).resolve()
    if path.is_file() and (known := checked_models.recall(path, settings.override_kv)) is not None:
        return known  # this very file passed both checks before, with this llama.cpp build
    info = inspect_gguf(path)
    check_loadable(info.path, settings.override_kv)
    checked_models.remember(info, settings.override_kv)
    return info


def guard_settings(settings: Settings, domains: dict[str, DomainPack]) -> GuardSettings:
    """The guard's policy (checked; raises PolicyError naming the file), budget and fallback."""
    return GuardSettings(load_policy(policy_path(settings.policy), domains), settings.guard_budget, settings.guard_on_failure)


def load_domain_packs(settings: Settings) -> dict[str, DomainPack]:
    """Built-in and user packs, presets checked; raises PackError naming the file and the problem."""
    return load_domains(settings.domains_dir, settings.override_domains, settings.upstream_prompts, preset_problem)


def open_store(settings: Settings, settle_jobs: bool = True) -> Store:
    """The world and job store, checked; raises StoreError naming the file. The server settles
    interrupted jobs here; other processes (commands, the Python API) pass `settle_jobs=False`,
    since a server may be running the jobs they would mark interrupted."""
    store = open_store_at(settings.store or (settings.data_dir or default_data_dir()) / "worlds.sqlite3")
    if settle_jobs:
        store.settle_jobs_at_start(settings.job_retention_hours * 3600)
    return store


def action_text(packs: dict[str, DomainPack], domain: str, action: str) -> str:
    """An action as a person reads it, however it was stored (normalized, or as a transcript held it)."""
    pack = packs.get(domain)
    if pack is None:
        return action
    try:
        return pack.action_text(pack.normalize_action(action))
    except ValueError:  # InputError too: an action the domain refuses is compared as it is
        return action


def build_context(
    settings: Settings,
    model: ModelSource,
    domains: dict[str, DomainPack] | None = None,
    store: Store | None = None,
    keep_jobs: bool = True,
) -> ToolContext:
    """Everything but starting: the caller starts the engine when the transport is about to open.

    With a store, worlds work; `keep_jobs` also turns calls that outlive their budget into jobs,
    which only a long-lived server can be polled for (without it every call runs to the end)."""
    packs = domains if domains is not None else load_domain_packs(settings)
    return ToolContext(
        engine=Engine(make_backend(settings, model), max_waiting=settings.queue_limit, result_cache=settings.result_cache),
        domains=packs,
        limits=settings.limits(),
        effects=settings.effects,
        state_check=settings.state_check,
        structured_results=settings.structured_results,
        demonstrations=settings.demonstrations,
        queue_timeout=settings.queue_timeout,
        thinking_budget=settings.thinking_budget,
        store=store,
        retrieval=RealStepIndex(store, partial(action_text, packs)) if store is not None and settings.retrieval == "on"
        else None,
        redact_real_steps=settings.redaction == "on",
        computed=settings.computed == "on",
        allow_dirs=tuple(str(path.resolve()) for path in settings.allow_dirs),
        working_dir=os.getcwd(),
        snapshot_bounds=SnapshotBounds(settings.snapshot_max_paths, settings.snapshot_max_file_kb * 1024,
                                       settings.snapshot_max_total_mb * 1024 * 1024),
        budget_seconds=settings.budget_seconds,
        jobs=Jobs(store) if store is not None and keep_jobs else None,
    )
