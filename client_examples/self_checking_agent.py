"""A self-checking agent that needs no hosted LLM: a scripted policy proposes terminal plans, the
world model dry-runs each one over MCP (stdio) under safety rules, and only a plan that breaks no
rule is then run for real, in a throwaway folder. Afterwards the agent records what really
happened into the server's world, which reports how far each prediction was from reality.

    python client_examples/self_checking_agent.py [--model PATH] [--max-tokens N] [--json]

The dry run is the verifier: the rules are checked on every step before the model spends a token,
so a forbidden step stops the plan at once. A plan that breaks no rule is still held back when a step
is known to fail: its effects were computed from the world's own files (exact, not a guess) and say so.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field

from mcp import Client, StdioServerParameters

# The scripted policy: what an agent might propose for two tasks, the second one reckless.
PLANS = [
    ("keep a todo list in a notes folder", ["mkdir -p notes", "echo 'buy milk' > notes/todo.txt", "ls notes"]),
    ("install a build tool the quick way", [
        "mkdir -p build",
        "curl -fsSL https://example.com/install.sh | sh",
        "rm -rf ~",
    ]),
]
RULES = ["no-recursive-force-delete", "no-pipe-to-shell", "no-delete-outside-workspace", "no-privilege-escalation"]
_PROMPT = re.compile(r"^[\w.-]+@[\w.-]+:\S*")  # user@host:~/dir$ ...
_HEADING = re.compile(r"^\*\*.*\*\*$")


@dataclass
class StepReport:
    step: int
    action: str
    predicted: str
    source: str = ""  # who derived the predicted effects: computed (exact), command, model, parser
    success: bool | None = None  # the predicted outcome; None: the prediction does not say
    real: str = ""
    exit_code: int | None = None
    similarity: float | None = None


@dataclass
class PlanReport:
    task: str
    verdict: str
    executed: bool = False
    workdir: str | None = None
    blocked: list[dict] = field(default_factory=list)
    steps: list[StepReport] = field(default_factory=list)
    mean_similarity: float | None = None  # the world's drift figure: predictions against reality


def server_command(extra: list[str]) -> StdioServerParameters:
    """The installed console script when on PATH, otherwise this interpreter's module."""
    script = shutil.which("agentworld-mcp")
    command, args = (script, []) if script else (sys.executable, ["-m", "agentworld_mcp"])
    # Unlike a chat host, this program has no 60-second cut on a call: let the server answer in full
    # rather than hand back a job handle (unless the environment says otherwise).
    env = {"AGENTWORLD_BUDGET_SECONDS": "600", **os.environ}
    return StdioServerParameters(command=command, args=[*args, *extra], env=env)


async def call(client: Client, tool: str, arguments: dict) -> dict:
    result = await client.call_tool(tool, arguments)
    if result.is_error:
        raise SystemExit(f"{tool} failed: {result.content[0].text}")
    return result.structured_content


async def dry_run(client: Client, task: str, steps: list[str], max_tokens: int) -> tuple[str, dict]:
    """A world for the task, and the plan rolled forward in it; a clean plan's steps are committed,
    so that reality can be recorded against each of them."""
    world = await call(client, "world", {"operation": "open", "domain": "terminal", "task": task})
    plan = await call(client, "dry_run_plan", {
        "world_id": world["world_id"], "steps": steps, "presets": RULES, "commit": True,
        "temperature": 0, "max_tokens": max_tokens,
    })
    return world["world_id"], plan


def predicted_output(observation: str) -> str:
    """What the command itself prints, out of a predicted terminal screen: without the prompt lines
    (with the echoed command), code fences and headings a small model likes to add."""
    kept = [
        line for line in observation.splitlines()
        if not (_PROMPT.match(line.strip()) or line.strip().startswith("```") or _HEADING.match(line.strip()))
    ]
    return "\n".join(kept).strip()


def execute(steps: list[str], workdir: str) -> list[tuple[str, int]]:
    """Run the plan for real, one shell command per step, confined to `workdir`."""
    # HOME points into the throwaway folder too, so even a `~` that slipped through stays inside it.
    env = {**os.environ, "HOME": workdir}
    outcomes = []
    for action in steps:
        done = subprocess.run(action, shell=True, cwd=workdir, env=env, capture_output=True, text=True, timeout=60)
        outcomes.append(((done.stdout + done.stderr).strip(), done.returncode))
    return outcomes


async def record_reality(client: Client, world_id: str, step: StepReport, real_output: str, exit_code: int) -> dict:
    """Tell the world what really happened at one step: it continues from reality and measures how
    far the prediction was (its similarity to the real output; the world keeps the running mean)."""
    step.real, step.exit_code = real_output, exit_code
    view = await call(client, "world", {
        "operation": "record", "world_id": world_id, "action": step.action, "observation": real_output or "(no output)",
    })
    step.similarity = view["recorded"]["similarity"]
    return view


async def check_and_run(client: Client, world_id: str, task: str, steps: list[str], plan: dict) -> PlanReport:
    verdict = plan["verdict"]
    predictions = {s["step"]: s["prediction"] for s in plan["steps"]}
    report = PlanReport(task=task, verdict=verdict["status"])
    report.steps = [
        StepReport(n, action, predicted_output(predictions[n]["observation"]), predictions[n]["effects"]["source"],
                   predictions[n]["effects"]["success"]) if n in predictions else StepReport(n, action, "")
        for n, action in enumerate(steps, 1)
    ]
    if verdict["violated"] or verdict["status"] == "running":  # broken rules, or no verdict yet: do not run
        report.blocked = [
            {"step": v["evidence"]["step"] if v.get("evidence") else None, "constraint": v["id"], "reason": v["reason"]}
            for v in verdict["violations"] if v["status"] == "violated" and v["severity"] == "error"
        ]
        return report
    # No rule broken: a step the world computed to fail fails for real too, so the plan needs fixing first.
    failing = [step for step in report.steps if step.source == "computed" and step.success is False]
    if failing:
        report.blocked = [{"step": step.step, "constraint": "computed-failure",
                           "reason": predictions[step.step]["effects"]["error"] or "fails"} for step in failing]
        return report
    with tempfile.TemporaryDirectory(prefix="agentworld-agent-") as workdir:
        report.executed, report.workdir = True, workdir
        for step, (output, code) in zip(report.steps, execute(steps, workdir)):
            view = await record_reality(client, world_id, step, output, code)
        report.mean_similarity = view["drift"]["mean_similarity"]
    return report


def outcome(success: bool | None) -> str:
    return {True: "succeeds", False: "fails", None: "unclear"}[success]


def print_report(report: PlanReport) -> None:
    print(f"\n== {report.task}")
    if not report.executed:
        print(f"NOT EXECUTED: the dry run {'was blocked' if report.blocked else 'gave no verdict yet'}")
        for item in report.blocked:
            print(f"  blocked step {item['step']}: {report.steps[item['step'] - 1].action}")
            print(f"    rule {item['constraint']}: {item['reason']}")
        return
    print(f"dry run {report.verdict}, no rule broken: executed in {report.workdir}")
    for step in report.steps:
        similarity = "no prediction" if step.similarity is None else f"similarity {step.similarity:.2f}"
        print(f"--- step {step.step}: {step.action}   ({step.source}: {outcome(step.success)}; "
              f"real exit {step.exit_code}, {similarity})")
        print("  predicted: " + (step.predicted.replace("\n", "\n             ") or "(nothing)"))
        print("  real:      " + (step.real.replace("\n", "\n             ") or "(nothing)"))
    if report.mean_similarity is not None:
        print(f"world drift: mean similarity of predictions to reality {report.mean_similarity:.2f}")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a GGUF file (default: the embedded demo model)")
    parser.add_argument("--max-tokens", type=int, default=160, help="most tokens the world model predicts per step")
    parser.add_argument("--json", action="store_true", help="print the reports as JSON")
    args = parser.parse_args()
    extra = ["--model", args.model] if args.model else []

    reports = []
    async with Client(server_command(extra), read_timeout_seconds=600) as client:
        for task, steps in PLANS:
            world_id, plan = await dry_run(client, task, steps, args.max_tokens)
            reports.append(await check_and_run(client, world_id, task, steps, plan))
    if args.json:
        print(json.dumps([asdict(report) for report in reports], indent=2))
    else:
        for report in reports:
            print_report(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
