"""Episodes of the verifiers taskset (client_examples/verifiers/agentworld_world) driven through
verifiers' own Python API, for what its CLI cannot do: time them, and cancel one mid-step.

Run it with the verifiers environment's Python (.ci/run makes .ci/verifiers), against a running
`agentworld-mcp serve --transport http` and an OpenAI-compatible policy:

    .ci/verifiers/bin/python scripts/verifiers_episodes.py bench --server http://127.0.0.1:8765/mcp \\
        --policy http://127.0.0.1:8080/v1 --episodes 8
    .ci/verifiers/bin/python scripts/verifiers_episodes.py cancel --server ... --policy ... --after 2

Each prints one JSON object on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

import verifiers.v1 as vf
from agentworld_world import load_environment
from agentworld_world.world_client import WorldServer, wait_for_pending_closes
from verifiers.v1.clients import EvalClientConfig, ModelContext


def _environment(args: argparse.Namespace) -> vf.Env:
    return load_environment(tasks=args.tasks, task={"server_url": args.server, "max_tokens": args.max_tokens,
                                                    "temperature": 0})


def _context(args: argparse.Namespace) -> ModelContext:
    return ModelContext(model=args.model, client=EvalClientConfig(base_url=args.policy, api_key_var="AGENTWORLD_POLICY_KEY"))


async def _episodes(env: vf.Env, ctx: ModelContext, count: int, at_once: int) -> tuple[float, list[vf.Episode]]:
    task = next(iter(env.taskset))
    semaphore = asyncio.Semaphore(at_once)
    started = time.perf_counter()
    episodes = await asyncio.gather(*(env.run_slot(slot, ctx, semaphore) for slot in env.slots(task, count)))
    return time.perf_counter() - started, list(episodes)


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    env, ctx = _environment(args), _context(args)
    async with env.serving():
        await _episodes(env, ctx, 1, 1)  # warm: the harness's script environment, the tool server
        results = {}
        for label, at_once in (("one_after_another", 1), ("at_once", args.episodes)):
            seconds, episodes = await _episodes(env, ctx, args.episodes, at_once)
            failed = [episode.errors for episode in episodes if not episode.ok]
            if failed:
                raise SystemExit(f"{len(failed)} episodes failed: {failed[0]}")
            steps = sum(len(trace.info["world"]["steps"]) for episode in episodes for trace in episode.traces)
            results[label] = {"episodes": args.episodes, "seconds": round(seconds, 2), "steps": steps,
                              "episodes_per_second": round(args.episodes / seconds, 3)}
    return results


async def cancel(args: argparse.Namespace) -> dict[str, Any]:
    """One episode, cancelled once the policy has asked for `--after` turns and the step it asked for
    is running; then the worlds this process opened must all be closed."""
    env, ctx = _environment(args), _context(args)
    server = WorldServer(args.server)
    before = {world["world_id"] for world in await server.list_worlds()}
    clock = time.monotonic()
    marks: dict[str, float] = {}
    async with env.serving():
        task = next(iter(env.taskset))
        slot = env.slots(task, 1)[0]
        running = asyncio.create_task(env.run_slot(slot, ctx))
        opened: list[str] = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not running.done():
            trace = slot.traces[0] if slot.traces else None
            steps_asked = trace.num_turns if trace is not None else 0
            opened = [world["world_id"] for world in await server.list_worlds() if world["world_id"] not in before]
            if steps_asked >= args.after and opened:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(args.delay)  # into the step the policy asked for
        was_running = not running.done()
        marks["cancelled"] = time.monotonic() - clock
        running.cancel()
        try:
            await running
        except asyncio.CancelledError:
            pass
        marks["unwound"] = time.monotonic() - clock
    await wait_for_pending_closes()
    marks["closed"] = time.monotonic() - clock
    after = {world["world_id"]: world for world in await server.list_worlds()}
    return {"cancelled_while_running": was_running, "opened": opened,
            "closed": {world_id: after[world_id]["closed"] for world_id in opened},
            "steps": {world_id: after[world_id]["steps"] for world_id in opened},
            "seconds": {name: round(value, 2) for name, value in marks.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["bench", "cancel"])
    parser.add_argument("--server", required=True, help="the agentworld-mcp MCP endpoint, e.g. http://127.0.0.1:8765/mcp")
    parser.add_argument("--policy", required=True, help="the policy's OpenAI-compatible /v1 base URL")
    parser.add_argument("--model", default="policy", help="the model name sent to the policy endpoint")
    parser.add_argument("--tasks", default=None, help="a JSONL file of tasks; default: the taskset's own")
    parser.add_argument("--episodes", type=int, default=8)
    parser.add_argument("--max-tokens", type=int, default=48, help="the most tokens of a step the world predicts")
    parser.add_argument("--after", type=int, default=2, help="cancel: the policy turns to wait for")
    parser.add_argument("--delay", type=float, default=0.5, help="cancel: seconds into the step before cancelling")
    args = parser.parse_args()
    result = asyncio.run(bench(args) if args.command == "bench" else cancel(args))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
