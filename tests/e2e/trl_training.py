"""TRL's own GRPOTrainer training against the world model, run by tests/e2e/test_trl.py in the .ci/trl
virtual environment (TRL 1.16 over a CPU build of PyTorch). It prints one JSON object of what it saw; the
test asserts on it.

The policy is a real (tiny, random) Qwen2 model built here from a config, with a byte-level tokenizer and
the Qwen2.5 chat template TRL ships, so TRL renders the tools and parses the tool calls as it does for a
real Qwen model. Its generation is scripted: it calls `act` with each action its prompt lists
(`Run: ["mkdir alpha", "ls"]`), one per turn, then says it is done. Everything else is TRL's: the
batch of rollouts, reset(**row), the tool-calling loop, the environments' get_reward, the logged rewards.

    .ci/trl/bin/python tests/e2e/trl_training.py --base-url http://127.0.0.1:8080/v1
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")  # environment_factory is experimental in TRL 1.16

import torch
import trl
from datasets import Dataset
from tokenizers import Tokenizer, decoders, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM, TrainerCallback
from trl import GRPOConfig, GRPOTrainer

from agentworld_mcp import Simulator
from agentworld_mcp.server.api.trl_env import (
    COMPONENTS,
    OVER,
    trl_component_rewards,
    trl_environment,
    trl_environments,
)

PLAN = re.compile(r"Run: (\[.*?\])\n")
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
# A step of the world model's own: short, and the same on every run of the same server (so a rollout that
# repeats another's steps finds its prediction in the result cache: one model call per distinct step).
QUICK = {"temperature": 0, "max_tokens": 8}


def byte_tokenizer() -> PreTrainedTokenizerFast:
    """One token per byte (no merges), so a text's tokens are its parts' tokens: the script can compare
    what was generated with what it means to say, token by token."""
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    vocab = {char: index for index, char in enumerate(sorted(alphabet))}
    core = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, bos_token=None, eos_token="<|im_end|>",
                                        pad_token="<|endoftext|>", additional_special_tokens=SPECIAL[1:2])
    tokenizer.padding_side = "left"
    tokenizer.chat_template = (Path(trl.__file__).parent / "chat_templates" / "qwen2_5.jinja").read_text()
    return tokenizer


class ScriptedQwen2(Qwen2ForCausalLM):
    """A real Qwen2 causal LM whose next token, while generating, is forced to follow its prompt's plan.

    Each generation starts from a prompt that ends where the assistant speaks (TRL renders the generation
    prompt after every tool answer); the plan says what this turn says, and each step forces its next token."""

    tokenizer: PreTrainedTokenizerFast

    def forward(self, input_ids=None, **kwargs):  # type: ignore[override]
        output = super().forward(input_ids=input_ids, **kwargs)
        if input_ids is None or torch.is_grad_enabled():  # training: the plain model
            return output
        if input_ids.shape[1] > 1:  # a whole prompt: a new generation (or a scoring pass); then one token a step
            self._meant = [self._turn(row) for row in input_ids.tolist()]
            self._said = [0] * len(self._meant)
        else:
            self._said = [said + 1 for said in self._said]
        end = self.tokenizer.convert_tokens_to_ids("<|im_end|>")
        forced = [meant[said] if said < len(meant) else end for meant, said in zip(self._meant, self._said)]
        last = torch.full_like(output.logits[:, -1, :], -1e9)
        last.scatter_(1, torch.tensor(forced, device=last.device).unsqueeze(1), 0.0)
        output.logits[:, -1, :] = last
        return output

    def _turn(self, ids: list[int]) -> list[int]:
        """What this turn says: the next action's tool call, or, with none left, that it is done."""
        text = self.tokenizer.decode(ids, skip_special_tokens=False)
        plan = PLAN.search(text)
        end = self.tokenizer.convert_tokens_to_ids("<|im_end|>")
        if plan is None or not text.endswith("<|im_start|>assistant\n"):
            return [end]
        actions = json.loads(plan.group(1))
        turn = text.count("<tool_response>")  # the tool answers so far: which action comes next
        if turn < len(actions):
            call = json.dumps({"name": "act", "arguments": {"action": actions[turn]}})
            meant = f"<tool_call>\n{call}\n</tool_call>"
        else:
            meant = "Done."
        return self.tokenizer.encode(meant, add_special_tokens=False) + [end]


def policy() -> tuple[ScriptedQwen2, PreTrainedTokenizerFast]:
    tokenizer = byte_tokenizer()
    config = Qwen2Config(vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=16384,
                         eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                         bos_token_id=None, tie_word_embeddings=True)
    torch.manual_seed(0)
    model = ScriptedQwen2(config)
    model.tokenizer = tokenizer
    return model, tokenizer


def row(actions: list[str], **fields: Any) -> dict[str, Any]:
    return {"prompt": [{"role": "user", "content": f"Run: {json.dumps(actions)}\n"}], **fields}


def seen_tools(completions: list[list[dict]], **_: Any) -> list[float | None]:
    """A reward of weight 0 that only keeps what each rollout's tools answered (the trainer passes it)."""
    seen_tools.answers = [[message["content"] for message in completion if message["role"] == "tool"]  # type: ignore[attr-defined]
                          for completion in completions]
    return [None] * len(completions)


class Watch(TrainerCallback):
    """After each step, the batch's environments as the trainer left them; at each log, what it logged."""

    def __init__(self) -> None:
        self.trainer: GRPOTrainer | None = None
        self.steps: list[dict[str, Any]] = []
        self.logs: list[dict[str, float]] = []

    def on_step_end(self, args, state, control, **kwargs):
        environments = self.trainer.environments
        self.steps.append({
            "instances": len({id(environment) for environment in environments}),
            "classes": [type(environment).__name__ for environment in environments],
            "totals": [environment.get_reward() for environment in environments],
            "components": [environment.reward_components for environment in environments],
            "steps": [environment.episode.steps for environment in environments],
            "done": [environment.done for environment in environments],
            "sources": [[turn.get("source", "computed") for turn in environment.episode.history]
                        for environment in environments],
            "tool_answers": getattr(seen_tools, "answers", None),
        })

    def on_log(self, args, state, control, logs=None, **kwargs):
        if logs and "reward" in logs:
            self.logs.append({key: value for key, value in logs.items() if key.startswith("reward")})


def train(environment_factory: Any, rows: list[dict[str, Any]], output: Path, steps: int = 1,
          watch: Watch | None = None, **config: Any) -> tuple[GRPOTrainer, Watch]:
    model, tokenizer = policy()
    components = trl_component_rewards()
    args = GRPOConfig(output_dir=str(output), use_cpu=True, report_to=[], save_strategy="no", logging_steps=1,
                      max_steps=steps, per_device_train_batch_size=4, num_generations=2, max_completion_length=1536,
                      reward_weights=[0.0] * (len(components) + 1),
                      disable_tqdm=True, seed=0, **config)
    watch = watch or Watch()
    trainer = GRPOTrainer(model=model, processing_class=tokenizer, args=args, train_dataset=Dataset.from_list(rows),
                          reward_funcs=[*components, seen_tools], environment_factory=environment_factory,
                          callbacks=[watch])
    watch.trainer = trainer
    trainer.train()
    return trainer, watch


def interrupt_when_the_model_runs(simulator: Simulator) -> threading.Thread:
    """Ctrl-C, as a person stops a training run, while a step waits on the world model: SIGINT to the main
    thread, where the trainer calls the tools (a signal another thread takes would wait for the step's end)."""
    def watch() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if simulator.context.engine.stats().running:
                signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
                return
            time.sleep(0.005)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    base_url = parser.parse_args().base_url
    facts: dict[str, Any] = {"trl": trl.__version__, "components": list(COMPONENTS)}
    folder = Path(tempfile.mkdtemp(prefix="trl-e2e-"))
    began = time.monotonic()
    with Simulator(base_url=base_url, n_ctx=4096, effects="parser") as simulator:
        # 1. One world; four rollouts at once; a computed step, a predicted one, and a step after the end.
        Terminal = trl_environment(simulator, "terminal", max_steps=3, presets=["no-recursive-force-delete"], **QUICK)
        rows = [row(["mkdir alpha", "ls", "python3 app.py"], goal={"present": ["alpha"]}),
                row(["mkdir beta", "ls", "rm -rf beta", "ls"], goal={"present": ["gamma"]})]
        trainer, watch = train(Terminal, rows, folder / "one")
        facts["one"] = {"steps": watch.steps, "logs": watch.logs, "names": trainer.reward_func_names}

        # 2. Two worlds chosen per row; the trainer cuts every rollout after one tool call, for two training
        # steps, so the second batch resets instances whose episodes the first left unfinished.
        worlds = trl_environments(simulator, {
            "terminal": {"domain": "terminal", "max_steps": 4, **QUICK},
            "repo": {"domain": "swe", "max_steps": 4, "goal": {"present": ["notes"]}, **QUICK},
        })
        rows = [row(["mkdir notes", "ls"], environment="terminal", goal={"absent": ["README.md"]}),
                row(['bash {"command": "mkdir notes"}', 'bash {"command": "ls"}'], environment="repo")]
        trainer, watch = train(worlds, rows, folder / "mapped", steps=2, max_tool_calling_iterations=1)
        facts["mapped"] = {"steps": watch.steps, "logs": watch.logs, "names": trainer.reward_func_names,
                           "pool": {name: len(pool) for name, pool in trainer._environment_pool.items()}}

        # 3. A cancel: the run is interrupted while a step waits on the world model, then trained again.
        Predicting = trl_environment(simulator, "terminal", max_steps=3, **QUICK)
        rows = [row(["mkdir delta", "python3 app.py --slow"])] * 2
        engine = simulator.context.engine
        cancelled_before = engine.stats().cancelled
        interrupt_when_the_model_runs(simulator)
        cancelled: dict[str, Any] = {"interrupted": False}
        watch = Watch()
        try:
            train(Predicting, rows, folder / "cancelled", watch=watch)
        except KeyboardInterrupt:
            cancelled["interrupted"] = True
        environments = watch.trainer.environments or []
        cancelled["episodes"] = [{"steps": environment.episode.steps, "turns": len(environment.episode.history),
                                  "done": environment.done} for environment in environments]
        deadline = time.monotonic() + 30  # the engine counts a finished request just after it stops running it
        while (engine.stats().running or engine.stats().cancelled == cancelled_before) and time.monotonic() < deadline:
            time.sleep(0.05)
        cancelled["running_after"] = engine.stats().running
        cancelled["cancelled"] = engine.stats().cancelled - cancelled_before
        stopped = next((environment for environment in environments if environment.episode.steps), None)
        if stopped is not None:  # the interrupted episode goes on from where it stood
            stopped.act("ls")
            cancelled["went_on"] = {"steps": stopped.episode.steps,
                                    "actions": [turn["action"] for turn in stopped.episode.history]}
        trainer, watch = train(Predicting, rows, folder / "again")
        cancelled["again"] = {"steps": watch.steps, "logs": watch.logs}
        facts["cancel"] = cancelled

        # 4. A lost session: an environment used before any reset, and asked for its reward.
        lost, facts["lost"] = Terminal(), []
        for call in (lambda: lost.act("ls"), lost.get_reward):
            try:
                facts["lost"].append({"answered": call()})
            except RuntimeError as exc:
                facts["lost"].append({"error": str(exc)})
    facts["over"] = OVER
    facts["seconds"] = time.monotonic() - began
    print(json.dumps(facts))


if __name__ == "__main__":
    main()
