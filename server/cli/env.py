"""`agentworld-mcp env serve [--api openenv|nemo-gym] [--domain D] [--port P]`: the world model as an
RL environment server, OpenEnv's (the default) or a NeMo Gym resources server.

One simulated world per session, up to --max-sessions at once, all on one model. Loopback
by default; any other bind needs --auth-token, as `serve --transport http` does.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ...engine.errors import ConfigurationError, InputError
from ..input_files import read_json
from ..surface.http_serving import HttpOptions
from .flags import Parents
from .prepared import Prepared

DEFAULT_PORT = 8000  # OpenEnv's own servers' port
NEMO_GYM_BODY_BYTES = 64 * 1024 * 1024  # a NeMo Gym /verify carries the rollout's whole transcript


def add_parser(commands: argparse._SubParsersAction, parents: Parents) -> None:
    env = commands.add_parser("env", help="serve the world model as an RL environment (OpenEnv, NeMo Gym)")
    actions = env.add_subparsers(dest="env_command", required=True, metavar="serve")
    serve = actions.add_parser(
        "serve", parents=[parents.model],
        help="an OpenEnv server: POST /reset, POST /step, GET /state, GET /schema and the /ws session socket",
        description="Needs the openenv extra: pip install 'agentworld-mcp[openenv]'. Each WebSocket session is "
                    "one episode in its own simulated world; POST /reset and /step without a session are one-off. "
                    "With --api nemo-gym (no extra needed): a NeMo Gym resources server, POST /seed_session, "
                    "/act, /verify and /close_session, one episode per session.")
    serve.add_argument("--api", choices=("openenv", "nemo-gym"), default="openenv",
                       help="whose protocol to serve: OpenEnv's (default) or a NeMo Gym resources server's")
    serve.add_argument("--domain", default="terminal", help="the domain every episode starts in (terminal)")
    serve.add_argument("--task", default="", help="the task every episode pursues, unless reset gives one")
    serve.add_argument("--state", default="", help="the world's starting state, unless reset gives one")
    serve.add_argument("--tools", type=Path, metavar="FILE",
                       help="mcp domain: a JSON file with the simulated server's tools/list result (or its tools array)")
    serve.add_argument("--max-steps", type=int, default=20, help="steps before an episode is truncated (20)")
    serve.add_argument("--temperature", type=float, help="sampling temperature of each step (default: the domain's)")
    serve.add_argument("--max-tokens", type=int, help="most tokens a step's observation takes (default: the domain's)")
    serve.add_argument("--max-sessions", type=int, default=16, help="WebSocket sessions at once (16)")
    serve.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1; any other needs --auth-token)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port ({DEFAULT_PORT})")
    serve.add_argument("--auth-token", help="the bearer token every client must send (prefer AGENTWORLD_AUTH_TOKEN)")
    serve.add_argument("--allowed-host", action="append", default=[], metavar="HOST",
                       help="a Host header to accept besides this machine's own names (repeatable)")
    serve.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                       help="a browser Origin to accept besides this machine's, e.g. https://app.example (repeatable)")


def run(args: argparse.Namespace, prepared: Prepared) -> int:
    if args.api == "nemo-gym":
        return _serve_nemo_gym(args, prepared)
    try:
        from ..api.openenv_env import WorldAction, WorldObservation, openenv_environment
    except ImportError as exc:
        raise ConfigurationError(f"env serve needs OpenEnv ({exc.name} is missing): "
                                 "pip install 'agentworld-mcp[openenv]'") from None
    from ..api.python_api import Simulator
    from ..surface.env_serving import create_env_app, serve_env

    if args.max_sessions < 1:
        raise InputError(f"--max-sessions must be at least 1, got {args.max_sessions}")
    token = args.auth_token or os.environ.get("AGENTWORLD_AUTH_TOKEN") or None
    options = HttpOptions(args.host, args.port, token, tuple(args.allowed_host), tuple(args.allowed_origin))
    options.check()
    prepared.check()
    simulator = Simulator.from_settings(prepared.settings, prepared.domains)
    try:
        env_class = openenv_environment(simulator, args.domain, task=args.task, state=args.state,
                                        max_steps=args.max_steps, **_sampling(args), **_tools(args.tools))
    except ValueError as exc:  # the env's arguments, checked before anything is served
        raise InputError(str(exc)) from None
    app = create_env_app(env_class, WorldAction, WorldObservation, options, args.max_sessions)
    simulator.context  # noqa: B018 - starts the engine: the model loads while the server comes up
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"OpenEnv environment {args.domain!r} at http://{shown}:{args.port} (WebSocket sessions at /ws)",
          file=sys.stderr)
    try:
        serve_env(app, options)
    except KeyboardInterrupt:
        pass
    finally:
        simulator.close()
    return 0


def _serve_nemo_gym(args: argparse.Namespace, prepared: Prepared) -> int:
    from ..api.nemo_gym_server import nemo_gym_app
    from ..api.python_api import Simulator
    from ..surface.env_serving import guarded, serve_env

    if args.max_sessions < 1:
        raise InputError(f"--max-sessions must be at least 1, got {args.max_sessions}")
    token = args.auth_token or os.environ.get("AGENTWORLD_AUTH_TOKEN") or None
    options = HttpOptions(args.host, args.port, token, tuple(args.allowed_host), tuple(args.allowed_origin),
                          max_body_bytes=NEMO_GYM_BODY_BYTES)
    options.check()
    prepared.check()
    simulator = Simulator.from_settings(prepared.settings, prepared.domains)
    try:
        app = nemo_gym_app(simulator, args.domain, task=args.task, state=args.state, max_steps=args.max_steps,
                           max_sessions=args.max_sessions, **_sampling(args), **_tools(args.tools))
    except ValueError as exc:
        raise InputError(str(exc)) from None
    simulator.context  # noqa: B018 - starts the engine: the model loads while the server comes up
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"NeMo Gym resources server {args.domain!r} at http://{shown}:{args.port} (POST /seed_session, /act, "
          "/verify, /close_session)", file=sys.stderr)
    try:
        serve_env(guarded(app, options), options)
    except KeyboardInterrupt:
        pass
    finally:
        simulator.close()
    return 0


def _sampling(args: argparse.Namespace) -> dict[str, Any]:
    given = {"temperature": args.temperature, "max_tokens": args.max_tokens}
    return {name: value for name, value in given.items() if value is not None}


def _tools(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    tools = read_json(path, "tools")
    if isinstance(tools, dict) and "tools" in tools:  # a whole tools/list result
        tools = tools["tools"]
    return {"tools": tools}
