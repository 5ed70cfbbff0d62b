"""`eval drift`: how far a simulated terminal drifts from a real one over a whole scenario.

Each scenario is a task and a list of shell commands. Reality is what a sandboxed bash printed
(recorded in the scenario file, or run again with `live`). The same commands are simulated in
three modes, side by side:
- teacher-forced: each step's history is the real earlier steps (one-step prediction);
- closed loop: a world whose history is the model's own predictions (what an agent rehearsing a
  plan gets);
- anchored: the same world, with reality recorded into it every `anchor_every` steps (the world
  `record` operation), as an agent that runs some steps for real would.
Per step: the similarity of the predicted command output to the real one, whether both agree on
success (exit status 0) or failure, and the first step where the prediction diverges.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from pathlib import Path
from statistics import mean
from typing import Any

from ...domains.effects import first_error_line
from ...engine.errors import AgentWorldError
from ...tools.context import ToolContext
from ...tools.data.similarity import similarity
from ...tools.requests import SimulateRequest
from ...tools.results import Prediction
from ...tools.simulation.simulate import simulate_action
from ...tools.worlds.worlds import open_world, record_reality
from ..input_files import InputFileError, json_lines
from .sandbox import Executed, ShellSandbox

MODES = ("teacher_forced", "closed_loop", "anchored")
_SCREEN_LINES = 40  # a terminal shows about this many lines; older output scrolls away
_PROMPT_LINE = re.compile(r"^\S+@\S+:.*[$#]\s*$")


@dataclass(frozen=True)
class Scenario:
    id: str
    task: str
    actions: tuple[str, ...]
    real: tuple[Executed, ...]  # what the sandbox printed, step by step
    initial_prompt: str


@dataclass(frozen=True)
class StepScore:
    step: int
    similarity: float
    outcome_agrees: bool
    diverged: bool
    predicted_output: str
    real_output: str = ""  # what the sandbox printed: the figure compares these two
    real_status: int | None = None
    computed: bool = False  # the world's virtual shell ran it (exact), no model asked


def load_scenarios(path: Path) -> list[Scenario]:
    scenarios = []
    for number, data in json_lines(path, "scenarios"):
        try:
            scenarios.append(Scenario(
                str(data["id"]), str(data.get("task", "")), tuple(map(str, data["actions"])),
                tuple(Executed(**step) for step in data.get("real", [])), str(data.get("initial_prompt", ""))))
        except (ValueError, KeyError, TypeError) as exc:
            raise InputFileError(f"{path}:{number}: a scenario needs id and actions (and real: output, status, prompt) ({exc})") from None
        if not scenarios[-1].actions:
            raise InputFileError(f"{path}:{number}: scenario {scenarios[-1].id!r} has no actions")
    if not scenarios:
        raise InputFileError(f"{path}: no scenarios; each line is {{\"id\", \"task\", \"actions\": [...], \"real\": [...]}}")
    return scenarios


def recorded(scenario: Scenario) -> bool:
    """Reality is recorded for every action (otherwise the scenario runs live in the sandbox)."""
    return len(scenario.real) >= len(scenario.actions)


def run_for_real(scenario: Scenario, step_timeout: float = 10.0) -> Scenario:
    """The scenario with reality taken from a fresh sandbox now; a step that times out ends it."""
    with ShellSandbox(step_timeout) as sandbox:
        real: list[Executed] = []
        for action in scenario.actions:
            real.append(sandbox.run(action))
            if real[-1].status == 124 and not real[-1].prompt:
                break
        return Scenario(scenario.id, scenario.task, scenario.actions[: len(real)], tuple(real), sandbox.initial_prompt)


def real_screens(scenario: Scenario) -> list[str]:
    """The terminal's screen after each step, as the terminal domain shows observations."""
    screens, lines = [], [scenario.initial_prompt.rstrip()]
    for action, executed in zip(scenario.actions, scenario.real):
        lines[-1] = f"{lines[-1]} {action}".rstrip() if lines[-1].endswith("$") else lines[-1]
        lines += executed.output.splitlines() + [executed.prompt.rstrip()]
        lines = lines[-_SCREEN_LINES:]
        screens.append("\n".join(lines))
    return screens


def predicted_output(screen: str, command: str) -> str:
    """The new output on a predicted screen: the lines after the last echo of the command, less the prompt."""
    lines = screen.splitlines()
    echo = max((i for i, line in enumerate(lines) if line.rstrip().endswith(command.strip())), default=None)
    body = lines[echo + 1 :] if echo is not None else lines
    if body and _PROMPT_LINE.match(body[-1]):
        body = body[:-1]
    return "\n".join(body)


def score_step(step: int, prediction: Prediction, command: str, real: Executed, markers: tuple[str, ...],
               diverge_below: float) -> StepScore:
    """`prediction.effects.success` says whether the action worked where the effects tell; else an
    error line on the predicted screen means it failed (a screen shows no exit status)."""
    output = predicted_output(prediction.observation, command)
    close = similarity(output, real.output)
    succeeded = prediction.effects.success
    if succeeded is None:
        succeeded = first_error_line(output, markers) is None
    agrees = succeeded == (real.status == 0)
    return StepScore(step, close, agrees, close < diverge_below or not agrees, output, real.output, real.status,
                     prediction.effects.source == "computed")


def _initial_state(scenario: Scenario) -> str:
    return ("User dev, home /home/dev, current directory /home/dev/project, which is empty. "
            f"The screen shows a fresh prompt: {scenario.initial_prompt.rstrip()}")


async def simulate_modes(ctx: ToolContext, scenario: Scenario, anchor_every: int, diverge_below: float,
                         sampling: dict[str, Any]) -> dict[str, list[StepScore]]:
    markers = ctx.domains["terminal"].error_markers
    screens = real_screens(scenario)
    state = _initial_state(scenario)
    scores: dict[str, list[StepScore]] = {mode: [] for mode in MODES}
    for step, (action, real) in enumerate(zip(scenario.actions, scenario.real), 1):
        history = [{"action": a, "observation": s} for a, s in zip(scenario.actions[: step - 1], screens[: step - 1])]
        request = SimulateRequest(domain="terminal", action=action, task=scenario.task, state=state, history=history, **sampling)
        scores["teacher_forced"].append(await _scored(ctx, request, step, action, real, markers, diverge_below))
    for mode in ("closed_loop", "anchored"):
        world_id = open_world(ctx, "terminal", scenario.task, state, None, []).world_id
        for step, (action, real, screen) in enumerate(zip(scenario.actions, scenario.real, screens), 1):
            request = SimulateRequest(world_id=world_id, action=action, commit=True, **sampling)
            scores[mode].append(await _scored(ctx, request, step, action, real, markers, diverge_below))
            if mode == "anchored" and step % anchor_every == 0:
                await record_reality(ctx, world_id, action, screen)  # the agent ran this step for real
    return scores


async def _scored(ctx: ToolContext, request: SimulateRequest, step: int, action: str, real: Executed,
                  markers: tuple[str, ...], diverge_below: float) -> StepScore:
    """One simulated step, scored; a step the server refuses (a history past the context, say) diverged."""
    try:
        prediction = await simulate_action(ctx, request)
    except AgentWorldError as exc:
        return StepScore(step, 0.0, False, True, f"[no prediction: {exc}]", real.output, real.status)
    return score_step(step, prediction, action, real, markers, diverge_below)


def summarize_drift(per_scenario: dict[str, dict[str, list[StepScore]]], about: dict[str, Any]) -> dict[str, Any]:
    longest = max((len(steps) for modes in per_scenario.values() for steps in modes.values()), default=0)
    modes: dict[str, Any] = {}
    for mode in MODES:
        runs = [scores[mode] for scores in per_scenario.values()]
        steps = [step for run in runs for step in run]
        first = [next((s.step for s in run if s.diverged), None) for run in runs]
        curve = []
        for k in range(1, longest + 1):
            reaching = [run for run in runs if len(run) >= k]
            curve.append(round(mean(any(s.diverged for s in run[:k]) for run in reaching), 4) if reaching else None)
        modes[mode] = {
            "steps": len(steps),
            "similarity": round(mean(s.similarity for s in steps), 4) if steps else None,
            "outcome_agreement": round(mean(s.outcome_agrees for s in steps), 4) if steps else None,
            "computed_steps": round(mean(s.computed for s in steps), 4) if steps else None,
            "diverged_steps": round(mean(s.diverged for s in steps), 4) if steps else None,
            "first_divergence": first,
            "diverged_by_step": curve,  # share of scenarios diverged at or before step k
        }
    closed, anchored = modes["closed_loop"], modes["anchored"]
    return {
        **about,
        "modes": modes,
        "anchoring": {  # positive: anchoring helped
            "similarity_gain": _difference(anchored["similarity"], closed["similarity"]),
            "diverged_steps_reduction": _difference(closed["diverged_steps"], anchored["diverged_steps"]),
        },
        "scenarios": {name: {mode: [asdict(s) for s in scores[mode]] for mode in MODES}
                      for name, scores in per_scenario.items()},
    }


def _difference(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else round(a - b, 4)


def drift_markdown(report: dict[str, Any]) -> str:
    lines = ["| mode | steps | computed | similarity | exit agreement | diverged steps | diverged by step 1, 2, ... |",
             "|---|---|---|---|---|---|---|"]
    for mode, f in report["modes"].items():
        curve = ", ".join("" if v is None else f"{v:.2f}" for v in f["diverged_by_step"])
        lines.append(f"| {mode} | {f['steps']} | {_figure(f.get('computed_steps'))} | {_figure(f['similarity'])} | "
                     f"{_figure(f['outcome_agreement'])} | {_figure(f['diverged_steps'])} | {curve} |")
    gain = report["anchoring"]
    reduction = gain["diverged_steps_reduction"]
    lines.append(f"\nAnchored vs closed loop: similarity {_figure(gain['similarity_gain'], '+.3f')}, "
                 f"diverged steps {_figure(None if reduction is None else -reduction, '+.3f')} "
                 f"(every {report['anchor_every']} steps recorded from reality).")
    return "\n".join(lines)


def _figure(value: float | None, spec: str = ".3f") -> str:
    return "–" if value is None else format(value, spec)
