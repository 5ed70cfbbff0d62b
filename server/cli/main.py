"""The `agentworld-mcp` command. With no subcommand it serves MCP over stdio, as MCP servers do.

Every problem a user can fix (a bad flag, a missing or broken model file) ends the process
with one line on stderr and exit status 2, before the transport opens. stdout carries nothing
but protocol frames.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable
from typing import Any

from ...engine.errors import AgentWorldError
from ..evals.command import add_eval_parser
from .commands import COMMANDS, add_parsers, run
from ..surface.http_serving import HttpOptions
from ..settings import Settings, load_settings
from ..twin.command import add_twin_parser
from ..viewer.command import add_view_parser

log = logging.getLogger("agentworld_mcp")


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


def _parser() -> argparse.ArgumentParser:
    # SUPPRESS: a flag given before the subcommand must not be reset by the subcommand's own copy.
    model_flags = argparse.ArgumentParser(add_help=False, argument_default=argparse.SUPPRESS)
    group = model_flags.add_argument_group("model and server (each also settable as AGENTWORLD_<NAME>)")
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
        "--chat-template-var", type=_template_var, action="append", metavar="KEY=JSON",
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
    group.add_argument("--log-level", choices=["DEBUG", "INFO", "WARNING", "ERROR"], help="stderr log level")
    group.add_argument("--policy", help="the guard's policy file (default: .agentworld/policy.json if present)")
    group.add_argument("--guard-budget", type=float, help="seconds the guard may take to decide (10)")
    group.add_argument("--guard-on-failure", choices=["ask", "none"],
                       help="the guard's decision when it cannot decide in time or at all (none)")

    parser = argparse.ArgumentParser(
        prog="agentworld-mcp",
        description="An MCP server that predicts what an agent's actions would do, using a language world model.",
        parents=[model_flags],
    )
    commands = parser.add_subparsers(dest="command")
    serving_flags = argparse.ArgumentParser(add_help=False)
    serving = serving_flags.add_argument_group("transport")
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
    commands.add_parser("serve", parents=[model_flags, serving_flags], help="serve MCP (the default: stdio)")
    add_twin_parser(commands, [model_flags, serving_flags])
    add_view_parser(commands)
    # Listed for --help; `agentworld-mcp hook` itself is handled before this parser loads (server/cli/entry.py).
    commands.add_parser("hook", add_help=False,
                        help="for hosts' command hooks: a decision for the tool call on stdin (see `hook --help`)")
    commands.add_parser("model", parents=[model_flags], help="prepare and check the model file, print what it is")
    bench = commands.add_parser("bench", parents=[model_flags], help="measure where the time goes; prints ratios from one run")
    bench.add_argument("--section", type=int, action="append", choices=range(1, 12), metavar="N",
                       help="run only section N (1-11; repeatable; default all)")
    soak = commands.add_parser("soak", parents=[model_flags],
                               help="many clients, random cancels, against real server processes: do calls end, does the queue drain")
    soak.add_argument("--clients", type=int, default=8, help="concurrent clients (8)")
    soak.add_argument("--calls", type=int, default=25, help="calls per client (25)")
    soak.add_argument("--cancel-rate", type=float, default=0.25, help="share of calls cancelled after 0.05-2 s (0.25)")
    soak.add_argument("--transport", choices=["stdio", "http", "both"], default="both")
    add_eval_parser(commands, model_flags)
    add_parsers(commands, model_flags)  # batch, simulate, plan: the tools in this process, for scripts
    return parser


def _settings_from(args: argparse.Namespace) -> Settings:
    given = vars(args)
    overrides = {name: given.get(name) for name in Settings.model_fields}
    overrides["chat_template_vars"] = dict(given["chat_template_var"]) if "chat_template_var" in given else None
    overrides["override_kv"] = dict(given["override_kv"]) if "override_kv" in given else None
    return load_settings(overrides)


def _describe_model(model) -> int:
    from ...engine.remote import RemoteSettings

    if isinstance(model, RemoteSettings):  # ask the server what it serves, as the first call would
        from ...engine.remote import OpenAICompatibleBackend

        backend = OpenAICompatibleBackend(model)
        try:
            described = backend.load()
            figures = backend.figures()
        finally:
            backend.close()
        if figures["last_error"]:
            print(f"agentworld-mcp: {figures['last_error']}", file=sys.stderr)
            return 1
        print(json.dumps({"url": described.file, "server": described.architecture, "name": described.name,
                          "slots": figures["slots"], "n_ctx": described.n_ctx or None}, indent=2))
        return 0
    print(json.dumps({"path": str(model.path), "name": model.name, "architecture": model.architecture,
                      "quantization": model.quantization, "size_bytes": model.size_bytes}, indent=2))
    return 0


def _http_options(args: argparse.Namespace) -> HttpOptions | None:
    """The HTTP transport's options, checked (raises HttpServingError); None for stdio."""
    if getattr(args, "transport", "stdio") != "http":
        return None
    token = args.auth_token or os.environ.get("AGENTWORLD_AUTH_TOKEN") or None
    http = HttpOptions(args.host, args.port, token, tuple(args.allowed_host), tuple(args.allowed_origin), args.stateless)
    http.check()
    return http


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = _settings_from(args)
        stderr = logging.StreamHandler(sys.stderr)
        stderr.setLevel(settings.log_level)  # a client that asks for more gets it over MCP (client_log), not here
        logging.basicConfig(handlers=[stderr], level=settings.log_level,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        from ..runtime import build_context, guard_settings, load_domain_packs, open_store, resolve_source

        if args.command == "view":  # it reads the store only: no model, no domains; jobs are left as they are
            from ..viewer.command import run_view

            return run_view(args, open_store(settings, settle_jobs=False))
        domains = load_domain_packs(settings)
        guard = guard_settings(settings, domains) if args.command in (None, "serve") else None
        model = resolve_source(settings)
        serving = args.command in (None, "serve", "twin")
        http = _http_options(args) if serving else None
        # A twin is a server too, but it leaves the jobs in the store to the server that runs them.
        store = open_store(settings, settle_jobs=args.command != "twin") if serving else None
    except AgentWorldError as exc:  # settings, model file, packs, store, HTTP options, policy: one line each
        print(f"agentworld-mcp: {exc}", file=sys.stderr)
        return 2
    if args.command == "model":
        return _describe_model(model)
    if args.command in COMMANDS:
        return run(args, settings, model, domains)
    if args.command == "bench":
        import asyncio

        from ..measure.bench import run_bench
        from ..model_files import GGUFInfo

        if not isinstance(model, GGUFInfo):
            print("agentworld-mcp: bench measures the in-process model (and starts its own llama-server to compare); "
                  "drop --base-url and give --model", file=sys.stderr)
            return 2
        return asyncio.run(run_bench(settings, model, set(args.section or ())))

    if args.command == "eval":
        from ..evals.command import run_eval

        return run_eval(args, settings, model, domains)
    if args.command == "soak":
        import asyncio

        from ..settings import settings_env
        from ..measure.soak import run_soak

        transports = ["stdio", "http"] if args.transport == "both" else [args.transport]
        return asyncio.run(run_soak(settings_env(settings), args.clients, args.calls, args.cancel_rate, transports))

    if args.command == "twin":
        from ..twin.command import run_twin

        assert store is not None  # a twin serves: its store was opened above
        return run_twin(args, settings, model, domains, store, http)
    from ..surface.app import create_server

    ctx = build_context(settings, model, domains, store)
    server = create_server(ctx, http, guard)
    ctx.engine.start()  # loads in the background: initialize and tools/list answer at once
    try:
        if http is not None:
            from ..surface.http_serving import serve

            serve(server, http)
        else:
            server.run("stdio")
    except KeyboardInterrupt:
        pass
    finally:
        ctx.engine.close()
        if store is not None:
            store.close()
    return 0
