"""`eval samples` (or `eval bench`): AgentWorldBench-format samples in, judge-free scores out; resumable; planted cases
move the metrics the right way."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from agentworld_mcp.engine.errors import InputError
from agentworld_mcp.server.evals.metrics import score
from agentworld_mcp.server.evals.samples import SampleError, load_samples
from agentworld_mcp.server.runtime import load_domain_packs
from agentworld_mcp.server.settings import load_settings

BENCH = Path(__file__).parents[1] / "data" / "bench"


@pytest.fixture(scope="module")
def domains():
    return load_domain_packs(load_settings({}))


def test_an_exact_observation_scores_one_and_a_wrong_one_lower(domains):
    terminal = domains["terminal"]
    truth = "dev@box:~/app$ cat missing.txt\ncat: missing.txt: No such file or directory\ndev@box:~/app$"
    same = score("dev@box:~/app$  cat missing.txt \ncat: missing.txt: No such file or directory\n\ndev@box:~/app$", truth, terminal)
    close = score("dev@box:~/app$ cat missing.txt\ncat: missing.txt: Permission denied\ndev@box:~/app$", truth, terminal)
    wrong = score("dev@box:~/app$ cat missing.txt\nhello world\ndev@box:~/app$", truth, terminal)
    assert same.similarity == 1.0 and same.exact and same.outcome_agrees is True  # whitespace does not count
    assert 1.0 > close.similarity > wrong.similarity and not close.exact
    assert close.outcome_agrees is True and wrong.outcome_agrees is False  # both fail vs a success
    assert score("{}", "{}", domains["mcp"]).outcome_agrees is None  # no success/failure reading outside terminal/swe


def test_samples_are_teacher_forced_from_the_files(domains):
    samples = {s.id: s for s in load_samples([BENCH], domains)}
    assert set(samples) == {"mcp/m-1", "mcp/m-2", "terminal/t-1", "terminal/t-2", "terminal/t-3"}
    third = samples["terminal/t-3"]
    messages = third.messages()
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert messages[2]["content"].endswith("README.md  setup.py  src\ndev@box:~/app$ ")  # the real observation
    assert "mkdir build" in messages[-1]["content"] and "mkdir build" not in messages[-2]["content"]
    assert third.truth.splitlines()[-2] == "README.md  build  setup.py  src"
    assert third.messages(system="ours")[0] == {"role": "system", "content": "ours"}


def test_a_broken_line_names_its_file_and_line(tmp_path, domains):
    good = (BENCH / "terminal_test.jsonl").read_text().splitlines()[0]
    (tmp_path / "terminal_test.jsonl").write_text(good + "\n{not json\n")
    with pytest.raises(InputError, match=r"terminal_test.jsonl:2: not JSON"):  # read as every input file is
        load_samples([tmp_path], domains)
    (tmp_path / "terminal_test.jsonl").write_text(json.dumps({**json.loads(good), "turn_idx": 7}) + "\n")
    with pytest.raises(SampleError, match=r"turn_idx 7 is outside"):
        load_samples([tmp_path], domains)
    (tmp_path / "terminal_test.jsonl").unlink()
    (tmp_path / "chess_test.jsonl").write_text(json.dumps({**json.loads(good), "task": "chess"}) + "\n")
    with pytest.raises(SampleError, match=r"unknown domain 'chess'"):
        load_samples([tmp_path], domains)


def test_the_command_scores_every_domain_and_a_rerun_skips_what_is_done(tmp_path, server_argv, server_env):
    out = tmp_path / "run"
    command = [*server_argv, "eval", "samples", str(BENCH), "--out", str(out), "--max-tokens", "24"]
    first = subprocess.run([*command, "--limit", "1"], env=server_env, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[0].startswith("| domain |")  # the table, and nothing else, on stdout
    report = json.loads((out / "report.json").read_text())
    assert set(report["domains"]) == {"mcp", "terminal"} and all(f["samples"] == 1 for f in report["domains"].values())
    assert report["sampling"] == {"temperature": 0.0, "max_tokens": 24, "seed": 0}
    for key in ("overall_mean_of_domains", "overall_mean_of_samples"):
        assert 0.0 <= report[key]["similarity"] <= 1.0
    assert report["overall_mean_of_samples"]["samples"] == 2
    assert report["domains"]["terminal"]["outcome_agreement"] in (0.0, 1.0)
    done = (out / "results.jsonl").read_text().splitlines()

    again = subprocess.run(command, env=server_env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    lines = (out / "results.jsonl").read_text().splitlines()
    assert lines[: len(done)] == done and len(lines) == 5  # the two done samples were not predicted again
    rerun = json.loads((out / "report.json").read_text())
    assert rerun["overall_mean_of_samples"]["samples"] == 5
    # Which samples each report scored, so the viewer sets only runs on the same ones side by side.
    assert report["sample_set"].startswith("2:") and rerun["sample_set"].startswith("5:")


def test_no_samples_is_one_line_and_exit_2(tmp_path, server_argv, server_env):
    done = subprocess.run([*server_argv, "eval", "bench", str(tmp_path)], env=server_env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"agentworld-mcp: no benchmark files in {tmp_path}: give <domain>_test.jsonl files or a folder holding them"]


def test_a_model_server_predicts_and_a_judge_on_it_grades_each_prediction_on_five_dimensions(tmp_path, model_info, server_argv,
                                                                                   server_env):
    from agentworld_mcp.server.measure.llama_server import free_port, llama_server

    with llama_server(model_info.path, slots=1, n_ctx=4096) as judge:
        graded = subprocess.run([*server_argv, "eval", "bench", str(BENCH), "--out", str(tmp_path / "graded"),
                                 "--max-tokens", "24", "--limit", "1", "--judge-url", judge.base_url],
                                env=server_env, capture_output=True, text=True, timeout=600)
        remote = subprocess.run([*server_argv, "--base-url", judge.base_url, "eval", "bench", str(BENCH), "--out",
                                 str(tmp_path / "remote"), "--max-tokens", "16", "--limit", "1"],
                                env=server_env, capture_output=True, text=True, timeout=600)
    assert remote.returncode == 0, remote.stderr  # the predictions themselves from the model server
    remote_report = json.loads((tmp_path / "remote" / "report.json").read_text())
    assert remote_report["backend"] == "llama-server" and remote_report["overall_mean_of_samples"]["samples"] == 2
    assert graded.returncode == 0, graded.stderr
    results = [json.loads(line) for line in (tmp_path / "graded" / "results.jsonl").read_text().splitlines()]
    assert all(r["judge_error"] is None for r in results), results  # the schema-constrained verdict always parses
    for r in results:
        assert set(r["judge"]) == {"format", "factuality", "consistency", "realism", "quality"}
        assert all(1 <= v <= 5 for v in r["judge"].values())
        assert r["judge_score"] == round((sum(r["judge"].values()) / 5 - 1) / 4 * 100, 2)
    report = json.loads((tmp_path / "graded" / "report.json").read_text())
    assert 0 <= report["overall_mean_of_domains"]["judge_score"] <= 100 and report["judge"]["url"].endswith("/chat/completions")

    unreachable = subprocess.run([*server_argv, "eval", "bench", str(BENCH / "mcp_test.jsonl"), "--out", str(tmp_path / "no"),
                                  "--max-tokens", "8", "--limit", "1", "--judge-url", f"http://127.0.0.1:{free_port()}"],
                                 env=server_env, capture_output=True, text=True, timeout=600)
    assert unreachable.returncode == 0, unreachable.stderr
    [result] = [json.loads(line) for line in (tmp_path / "no" / "results.jsonl").read_text().splitlines()]
    assert result["judge"] is None and "could not be reached" in result["judge_error"]
