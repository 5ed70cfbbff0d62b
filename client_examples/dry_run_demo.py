"""Start agentworld-mcp over stdio with the MCP SDK's client, dry-run a small terminal plan, print it.

    python client_examples/dry_run_demo.py [--model PATH] [--max-tokens N] [--json]

Nothing in the plan is executed. The world starts from an empty folder (a new temporary one, given as
`from_dir`), so it knows every file the first four steps touch: each is computed exactly by the world's
virtual shell, with no model tokens. The last step runs a program the virtual shell does not prove
(Python), so the world model predicts it, and the step says so, with the tokens it took.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile

from mcp import Client, StdioServerParameters

# What the world's own files decide: computed, zero tokens, each screen what real bash prints there.
COMPUTED = [
    "mkdir -p notes",
    "echo 'buy milk' > notes/todo.txt",
    "cat notes/todo.txt",
    "rm notes/missing.txt",
]
PREDICTED = "python3 -c 'print(6 * 7)'"  # a program the virtual shell does not prove: the model's to predict
PLAN = [*COMPUTED, PREDICTED]


def server_command(extra: list[str]) -> StdioServerParameters:
    """The installed console script when on PATH, otherwise this interpreter's module."""
    script = shutil.which("agentworld-mcp")
    command, args = (script, []) if script else (sys.executable, ["-m", "agentworld_mcp"])
    return StdioServerParameters(command=command, args=[*args, *extra], env={**os.environ})


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a GGUF file (default: the embedded demo model)")
    parser.add_argument("--json", action="store_true", help="print the structured result")
    parser.add_argument("--max-tokens", type=int, default=160, help="most tokens the world model predicts per step")
    args = parser.parse_args()
    empty = tempfile.mkdtemp(prefix="agentworld-demo-")  # the real folder the world starts from; it stays empty
    extra = ["--allow-dir", empty, *(["--model", args.model] if args.model else [])]

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        print(f"  ... {message or f'{done}/{total}'}", file=sys.stderr)

    async with Client(server_command(extra), read_timeout_seconds=600) as client:
        print(f"Dry-running a {len(PLAN)}-step terminal plan (nothing is executed):", file=sys.stderr)
        result = await client.call_tool(
            "dry_run_plan",
            # A script has no host cutting calls at 60 s: wait for the whole plan rather than get a job id.
            {"domain": "terminal", "from_dir": empty, "steps": PLAN, "temperature": 0, "max_tokens": args.max_tokens,
             "budget_seconds": 600},
            progress_callback=on_progress,
        )
    os.rmdir(empty)  # still empty: nothing was executed
    if result.is_error:
        print(f"error: {result.content[0].text}", file=sys.stderr)
        return 1
    plan = result.structured_content
    if args.json:
        print(json.dumps(plan, indent=2))
        return 0
    for step in plan["steps"]:
        prediction = step["prediction"]
        effects = prediction["effects"]
        outcome = {True: "succeeds", False: "FAILS", None: "unclear"}[effects["success"]]
        how = "computed" if effects["source"] == "computed" else \
            f"predicted in {prediction['usage']['completion_tokens']} tokens"
        print(f"\n--- step {step['step']}: {PLAN[step['step'] - 1]}   [{how}: {outcome}]")
        print(prediction["observation"] or f"(no observation: {prediction['parse_error']})")
        if effects["error"]:
            print(f"    error: {effects['error']}")
        for change in effects["changed"]:
            print(f"    {change.get('kind') or change['change']}: {change['entity']}")
        for warning in prediction["warnings"]:
            print(f"    warning: {warning}")
    verdict, usage = plan["verdict"], plan["usage"]
    print(f"\nverdict: {verdict['status']}" + (f" at step {verdict['stopped_at']}: {verdict['reason']}" if verdict["stopped_at"] else ""))
    print(
        f"tokens: {usage['prompt_tokens']} prompt ({usage['reused_prompt_tokens']} reused from cache), "
        f"{usage['completion_tokens']} generated in {usage['generation_seconds']:.1f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
