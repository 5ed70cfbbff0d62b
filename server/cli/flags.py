"""The flags several subcommands share, and what they turn into: the settings and the HTTP options."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..settings import Settings, load_settings
from ..surface.http_serving import HttpOptions


@dataclass(frozen=True)
class Parents:
    """The shared flag groups, as argparse parents: `model` for every subcommand that runs the model,
    `serving` for those that serve MCP."""

    model: argparse.ArgumentParser
    serving: argparse.ArgumentParser

    @classmethod
    def make(cls) -> Parents:
        return cls(model_flags(), serving_flags())


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key, value


def _template_var(text: str) -> tuple[str, Any]:
    key, value = _key_value(text)
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value  # a bare word is a string


def _override(text: str) -> tuple[str, bool | int | float | str]:
    """llama.cpp's KEY=TYPE:VALUE form, e.g. qwen35moe.block_count=int:40."""
    key, typed = _key_value(text)
    kind, sep, value = typed.partition(":")
    converters: dict[str, Callable[[str], Any]] = {
        "int": int, "float": float, "bool": lambda v: v.lower() in ("1", "true", "yes"), "str": str}
    if not sep or kind not in converters:
        raise argparse.ArgumentTypeError(f"expected KEY=TYPE:VALUE with TYPE int, float, bool or str, got {text!r}")
    try:
        return key, converters[kind](value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a valid {kind} in {text!r}") from None


def model_flags() -> argparse.ArgumentParser:
    """The model and server settings, a parent of every subcommand that runs the model."""
    # SUPPRESS: a flag given before the subcommand must not be reset by the subcommand's own copy.
    flags = argparse.ArgumentParser(add_help=False, argument_default=argparse.SUPPRESS)
    group = flags.add_argument_group("model and server (each also settable as AGENTWORLD_<NAME>)")
    group.add_argument("--backend", choices=["llama", "openai"],
                       help="llama: a GGUF in this process (default); openai: an OpenAI-compatible model server")
    group.add_argument("--base-url", help="the model server, e.g. http://127.0.0.1:8080/v1 (implies --backend openai)")
    group.add_argument("--api-key", help="the model server's API key (prefer AGENTWORLD_API_KEY: flags show in ps)")
    group.add_argument("--served-model", help="the model's name on the server (default: the first it lists)")
    group.add_argument("--parallel", type=int, help="requests in flight on a model server (default: its slots, else 4)")
    group.add_argument("--model", help="GGUF model file (default: the embedded Qwen2.5-Coder-0.5B demo model)")
    group.add_argument("--n-ctx", type=int, help="context size in tokens (default 8192)")
    group.add_argument("--n-threads", type=int, help="CPU threads (default: physical cores)")
    group.add_argument("--n-batch", type=int, help="prompt batch size (default 512)")
    group.add_argument("--n-gpu-layers", type=int, help="layers to offload to a GPU (-1: all; default 0)")
    group.add_argument("--flash-attn", action="store_true", help="use flash attention")
    group.add_argument(
        "--chat-template-var", dest="chat_template_vars", type=_template_var, action="append", metavar="KEY=JSON",
        help="a chat-template variable, e.g. enable_thinking=false (repeatable)",
    )
    group.add_argument("--chat-template", help="a Jinja chat template file to use instead of the GGUF's own")
    group.add_argument(
        "--thinking-budget", type=int, help="reasoning models: most tokens to think per reply (default 3/4 of max_tokens)"
    )
    group.add_argument(
        "--override-kv", type=_override, action="append", metavar="KEY=TYPE:VALUE",
        help="a GGUF metadata override, e.g. qwen35moe.block_count=int:40 (repeatable)",
    )
    group.add_argument("--domains-dir", help="a folder of user-defined domain packs, one sub-folder each")
    group.add_argument(
        "--override-domains", action="store_true", help="let packs in --domains-dir replace built-in ones of the same name"
    )
    group.add_argument(
        "--upstream-prompts", help="a folder of <domain>/system_prompt.txt files that replace built-in instructions"
    )
    group.add_argument("--data-dir", help="where worlds and jobs are kept (default: the per-user data directory)")
    group.add_argument("--store", help="the world and job store as a URL: sqlite:///PATH, or postgresql://USER@HOST/DB "
                                       "for several servers sharing one (default: the SQLite file in --data-dir)")
    group.add_argument(
        "--budget-seconds", type=float, help="a call that would run longer returns a job handle instead (50)"
    )
    group.add_argument("--job-retention-hours", type=float, help="how long finished job results are kept (24)")
    group.add_argument("--queue-limit", type=int, help="requests allowed to wait before callers are told busy (64)")
    group.add_argument("--queue-timeout", type=float, help="seconds a request may wait before it is dropped (300)")
    group.add_argument("--snapshot-mb", type=int, help="memory for saved contexts of interleaved worlds; 0 turns it off (2048)")
    group.add_argument("--result-cache", type=int, help="greedy results kept for identical requests; 0 turns it off (256)")
    group.add_argument("--effects", choices=["model", "parser", "off"], help="how effects are derived (model)")
    group.add_argument("--state-check", choices=["off", "warn", "correct"],
                       help="a prediction that contradicts the world's known files: left alone, warned about, or "
                            "re-asked once and corrected (correct)")
    group.add_argument("--structured-results", choices=["constrained", "free"],
                       help="a tool with an output schema: its predicted result is generated under the schema, or "
                            "freely and only checked (free: for model servers without JSON-schema output) (constrained)")
    group.add_argument("--demonstrations", choices=["auto", "on", "off"], help="show example turns to the model")
    group.add_argument("--retrieval", choices=["on", "off"],
                       help="show the model the store's real steps most like each action (off; none stored, none shown)")
    group.add_argument("--redaction", choices=["on", "off"],
                       help="replace secrets in recorded real steps by [REDACTED] before they are stored (on)")
    group.add_argument("--computed", choices=["on", "off"],
                       help="compute the lines a world's virtual shell determines exactly, with zero tokens, instead "
                            "of predicting them (on)")
    group.add_argument("--allow-dir", dest="allow_dirs", action="append", metavar="DIR",
                       help="a real folder worlds may start from (from_dir / --from-dir); repeatable "
                            "(AGENTWORLD_ALLOW_DIRS, separated by ':'); the client's roots and, but over HTTP, the "
                            "server's working folder are allowed too")
    group.add_argument("--snapshot-max-paths", type=int, help="from_dir: most paths a snapshot lists (5000)")
    group.add_argument("--snapshot-max-file-kb", type=int, help="from_dir: larger files' content is unknown (256)")
    group.add_argument("--snapshot-max-total-mb", type=int, help="from_dir: most bytes of content it reads (32)")
    group.add_argument("--log-level", choices=["DEBUG", "INFO", "WARNING", "ERROR"], help="stderr log level")
    group.add_argument("--policy", help="the guard's policy file (default: .agentworld/policy.json if present)")
    group.add_argument("--guard-budget", type=float, help="seconds the guard may take to decide (10)")
    group.add_argument("--guard-on-failure", choices=["ask", "none"],
                       help="the guard's decision when it cannot decide in time or at all (none)")
    return flags


def serving_flags() -> argparse.ArgumentParser:
    """The transport flags of the subcommands that serve MCP (serve, twin)."""
    flags = argparse.ArgumentParser(add_help=False)
    serving = flags.add_argument_group("transport")
    serving.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    serving.add_argument("--host", default="127.0.0.1",
                         help="address for --transport http (default 127.0.0.1; any other needs --auth-token)")
    serving.add_argument("--port", type=int, default=8765, help="port for --transport http (8765)")
    serving.add_argument("--auth-token", help="the bearer token every HTTP client must send (prefer AGENTWORLD_AUTH_TOKEN)")
    serving.add_argument("--allowed-host", action="append", default=[], metavar="HOST",
                         help="a Host header to accept besides this machine's own names (repeatable)")
    serving.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                         help="a browser Origin to accept, e.g. https://app.example (repeatable)")
    serving.add_argument("--stateless", action="store_true", help="no HTTP sessions: for several replicas behind a load balancer")
    return flags


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings: the model flags given, over AGENTWORLD_* variables, over the defaults."""
    given = vars(args)
    overrides = {name: given.get(name) for name in Settings.model_fields}
    overrides["chat_template_vars"] = dict(given["chat_template_vars"]) if "chat_template_vars" in given else None
    overrides["override_kv"] = dict(given["override_kv"]) if "override_kv" in given else None
    return load_settings(overrides)


def http_options(args: argparse.Namespace) -> HttpOptions | None:
    """The HTTP transport's options, checked (raises HttpServingError); None for stdio."""
    if getattr(args, "transport", "stdio") != "http":
        return None
    token = args.auth_token or os.environ.get("AGENTWORLD_AUTH_TOKEN") or None
    http = HttpOptions(args.host, args.port, token, tuple(args.allowed_host), tuple(args.allowed_origin), args.stateless)
    http.check()
    return http
