"""Importing real sessions: transcripts in each host's documented format become worlds of real steps,
with secrets redacted on the bytes, what is left out counted, reruns idempotent, and a fixed split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agentworld_mcp.server.cli.main import main
from agentworld_mcp.tools.data.redaction import MARKER, Redactor
from agentworld_mcp.tools.data.session_split import split_of
from agentworld_mcp.tools.worlds.store import Store

AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
GITHUB_TOKEN = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa"
SLACK_TOKEN = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
KEY_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"
PLANTED = (AWS_SECRET, GITHUB_TOKEN, SLACK_TOKEN, KEY_BODY, "hunter2secret")


def _lines(path: Path, records: list) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(record if isinstance(record, str) else json.dumps(record) for record in records) + "\n")
    return path


def _use(call_id: str, name: str, tool_input: dict, **extra) -> dict:
    return {"type": "assistant", "sessionId": "s-1", **extra,
            "message": {"role": "assistant", "content": [{"type": "tool_use", "id": call_id, "name": name, "input": tool_input}]}}


def _result(call_id: str, content, structured=None, error: bool = False) -> dict:
    record = {"type": "user", "sessionId": "s-1",
              "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": content,
                                                       "is_error": error}]}}
    if structured is not None:
        record["toolUseResult"] = structured
    return record


@pytest.fixture
def claude_projects(tmp_path) -> Path:
    folder = tmp_path / "projects" / "-home-dev-app"
    _lines(folder / "s-1.jsonl", [
        {"type": "user", "sessionId": "s-1", "cwd": "/home/dev/app",
         "message": {"role": "user", "content": "<command-name>/clear</command-name>"}},
        {"type": "user", "sessionId": "s-1", "cwd": "/home/dev/app", "message": {"role": "user", "content": "Fix the failing test"}},
        _use("t1", "Bash", {"command": "ls"}),
        _result("t1", "app.py\ntests", {"stdout": "app.py\ntests", "stderr": "", "interrupted": False}),
        _use("t2", "Write", {"file_path": "/home/dev/app/.env", "content": f"AWS_SECRET_ACCESS_KEY={AWS_SECRET}\n"}),
        _result("t2", "File created successfully at: /home/dev/app/.env"),
        _use("t3", "Edit", {"file_path": "/home/dev/app/app.py", "old_string": "x = 1", "new_string": "x = 2"}),
        _result("t3", "The file /home/dev/app/app.py has been updated."),
        _use("t4", "mcp__github__create_issue", {"title": "flaky test"}),
        _result("t4", [{"type": "text", "text": '{"number": 7}'}]),
        _use("t5", "Bash", {"command": "pytest -q"}),
        _result("t5", "Exit code 1\n1 failed", "Error: Exit code 1\n1 failed", error=True),
        _use("t6", "Read", {"file_path": "/home/dev/app/app.py"}),
        _result("t6", "x = 2"),
        {"type": "user", "sessionId": "s-1", "isCompactSummary": True,
         "message": {"role": "user", "content": "This session is being continued from a previous conversation that ran out"}},
        _use("t7", "Bash", {"command": "ls /tmp"}, isSidechain=True),
        "{this line is not json",
        _use("t8", "Bash", {"command": f"curl -H 'Authorization: Bearer {GITHUB_TOKEN}' https://api.github.com/user"}),
        _result("t8", f'{{"login": "dev", "slack": "{SLACK_TOKEN}"}}', {"stdout": f'{{"login": "dev", "slack": "{SLACK_TOKEN}"}}', "stderr": ""}),
        _use("t9", "Bash", {"command": "cat ~/.ssh/id_ed25519"}),
        _result("t9", "", {"stdout": f"-----BEGIN OPENSSH PRIVATE KEY-----\n{KEY_BODY}\n-----END OPENSSH PRIVATE KEY-----\n",
                            "stderr": ""}),
        _use("t10", "Bash", {"command": "export DB_PASSWORD=hunter2secret"}),
        _result("t10", "", {"stdout": "", "stderr": ""}),
        _use("t11", "Bash", {"command": "sleep 100"}),  # the session ended before it answered
    ])
    _lines(folder / "s-1" / "subagents" / "agent-a1.jsonl", [_use("x1", "Bash", {"command": "ls"})])
    return tmp_path / "projects"


@pytest.fixture
def codex_sessions(tmp_path) -> Path:
    def item(payload: dict) -> dict:
        return {"timestamp": "2026-11-02T10:00:00Z", "type": "response_item", "payload": payload}

    folder = tmp_path / "codex" / "2026" / "11" / "02"
    _lines(folder / "rollout-2026-11-02T10-00-00-c-1.jsonl", [
        {"timestamp": "2026-11-02T10:00:00Z", "type": "session_meta", "payload": {"id": "c-1", "cwd": "/work/repo"}},
        item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<environment_context>cwd</environment_context>"}]}),
        item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Add a README"}]}),
        item({"type": "function_call", "name": "shell", "call_id": "a", "arguments": json.dumps({"command": ["bash", "-lc", "ls"]})}),
        item({"type": "function_call_output", "call_id": "a",
              "output": json.dumps({"output": "src\n", "metadata": {"exit_code": 0}})}),
        item({"type": "function_call", "name": "shell_command", "call_id": "b", "arguments": json.dumps({"command": "cat nope"})}),
        item({"type": "function_call_output", "call_id": "b",
              "output": "Exit code: 1\nWall time: 0.1 seconds\nOutput:\ncat: nope: No such file or directory\n"}),
        item({"type": "function_call", "name": "github__list_issues", "call_id": "c", "arguments": '{"repo": "acme/x"}'}),
        item({"type": "function_call_output", "call_id": "c", "output": '[{"number": 1}]'}),
        item({"type": "custom_tool_call", "name": "apply_patch", "call_id": "d", "input": "*** Begin Patch"}),
        item({"type": "custom_tool_call_output", "call_id": "d", "output": "Success"}),
        item({"type": "local_shell_call", "call_id": "e", "action": {"type": "exec", "command": ["echo", "hi there"]}}),
        item({"type": "function_call_output", "call_id": "e", "output": "hi there\n"}),
        "not json either",
    ])
    return tmp_path / "codex"


def _import(tmp_path, capsys, *arguments: str) -> str:
    assert main(["--data-dir", str(tmp_path / "data"), "import", *arguments]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""  # stdout carries nothing
    return captured.err


def _worlds(tmp_path) -> dict[str, tuple]:
    store = Store(tmp_path / "data" / "worlds.sqlite3")
    try:
        return {row.id: (row, store.steps(row.id)) for row, _ in store.worlds(limit=None)}
    finally:
        store.close()


def test_a_claude_code_session_becomes_worlds_of_real_steps(tmp_path, capsys, claude_projects):
    summary = _import(tmp_path, capsys, "claude-code", str(claude_projects))
    worlds = _worlds(tmp_path)
    by_domain = {row.domain + (f"-{json.loads(steps[0].action)['name']}" if row.domain == "mcp" else ""): (row, steps)
                 for row, steps in worlds.values()}
    terminal_row, terminal = by_domain["terminal"]
    assert [step.action for step in terminal] == [
        "ls", "pytest -q", f"curl -H 'Authorization: Bearer {MARKER}' https://api.github.com/user",
        "cat ~/.ssh/id_ed25519", f"export DB_PASSWORD={MARKER}"]
    assert all(step.source == "real" for step in terminal)
    assert terminal[0].observation.startswith("$ ls\napp.py\ntests")
    assert "1 failed" in terminal[1].observation and "[exit code: 1]" in terminal[1].observation
    assert terminal_row.task == "Fix the failing test" and terminal_row.state == "Working folder: /home/dev/app"
    assert terminal_row.origin == {"host": "claude-code", "session": "s-1",
                                   "file": str(claude_projects / "-home-dev-app" / "s-1.jsonl")}
    _, swe = by_domain["swe"]
    assert [step.action.split(" ")[0] for step in swe] == ["write_file", "edit_file"]
    mcp_row, mcp = by_domain["mcp-create_issue"]
    assert json.loads(mcp[0].action) == {"name": "create_issue", "arguments": {"title": "flaky test"}}
    assert mcp[0].observation == '{"number": 7}' and mcp_row.tools[0]["name"] == "create_issue"
    for reason in ("1 tool Read", "1 compaction summaries", "1 sidechain records", "1 malformed lines",
                   "1 unanswered tool calls", "1 subagent transcripts"):
        assert reason in summary
    assert "real steps added: 8 (1 mcp, 2 swe, 5 terminal)" in summary


def test_secrets_never_reach_the_stores_bytes(tmp_path, capsys, claude_projects):
    summary = _import(tmp_path, capsys, "claude-code", str(claude_projects))
    assert "secrets redacted: 7" in summary  # 3 in actions, 4 in what came back (a screen repeats its command)
    stored = b"".join(path.read_bytes() for path in (tmp_path / "data").iterdir() if path.is_file())
    for secret in PLANTED:
        assert secret.encode() not in stored, secret
    assert MARKER.encode() in stored
    assert main(["--data-dir", str(tmp_path / "data"), "view", "--export", str(tmp_path / "pages")]) == 0
    shown = b"".join(path.read_bytes() for path in (tmp_path / "pages").rglob("*.html"))
    assert b"import-claude-code-s-1-terminal" in shown and MARKER.encode() in shown
    for secret in PLANTED:
        assert secret.encode() not in shown, secret


def test_no_redact_keeps_them(tmp_path, capsys, claude_projects):
    assert "not redacted" in _import(tmp_path, capsys, "claude-code", "--no-redact", str(claude_projects))
    stored = b"".join(path.read_bytes() for path in (tmp_path / "data").iterdir() if path.is_file())
    assert AWS_SECRET.encode() in stored


def test_importing_again_adds_only_what_is_new(tmp_path, capsys, claude_projects):
    _import(tmp_path, capsys, "claude-code", str(claude_projects))
    before = {world_id: len(steps) for world_id, (_, steps) in _worlds(tmp_path).items()}
    again = _import(tmp_path, capsys, "claude-code", str(claude_projects))
    assert "sessions added or extended: 0" in again and "already imported: 1" in again
    assert {world_id: len(steps) for world_id, (_, steps) in _worlds(tmp_path).items()} == before
    transcript = claude_projects / "-home-dev-app" / "s-1.jsonl"
    with transcript.open("a") as more:  # the session went on
        more.write(json.dumps(_use("t12", "Bash", {"command": "git status"})) + "\n")
        more.write(json.dumps(_result("t12", "clean", {"stdout": "clean", "stderr": ""})) + "\n")
    assert "real steps added: 1 (1 terminal)" in _import(tmp_path, capsys, "claude-code", str(claude_projects))


def test_a_codex_rollout_becomes_worlds_of_real_steps(tmp_path, capsys, codex_sessions):
    summary = _import(tmp_path, capsys, "codex", str(codex_sessions))
    worlds = {row.domain: (row, steps) for row, steps in _worlds(tmp_path).values()}
    terminal_row, terminal = worlds["terminal"]
    assert [step.action for step in terminal] == ["ls", "cat nope", "echo 'hi there'"]
    assert "[exit code: 1]" in terminal[1].observation and "No such file" in terminal[1].observation
    assert terminal_row.task == "Add a README" and terminal_row.origin["session"] == "c-1"
    assert json.loads(worlds["mcp"][1][0].action) == {"name": "list_issues", "arguments": {"repo": "acme/x"}}
    assert "1 tool apply_patch" in summary and "1 malformed lines" in summary


CODEX_OUTPUTS = [  # (tool, arguments, output as the rollout holds it, what the stored step shows, what it must not)
    ("exec_command", {"cmd": "make"}, ("Chunk ID: f800eb\nWall time: 1.0024 seconds\nProcess exited with code 2\n"
                                       "Original token count: 5\nOutput:\nmake: *** No targets.  Stop."), "$ make\nmake: *** No targets.  Stop.\n[exit code: 2]",
     "Chunk ID"),
    ("exec_command", {"cmd": "python -m http.server"}, ("Chunk ID: a1b2c3\nWall time: 10.0012 seconds\n"
                                                        "Process running with session ID 32244\nOriginal token count: 7\n"
                                                        "Output:\nServing HTTP on 0.0.0.0 port 8000"),
     "$ python -m http.server\nServing HTTP on 0.0.0.0 port 8000\n", "exit code"),
    ("shell_command", {"command": "seq 3"}, "Exit code: 0\nWall time: 0.2 seconds\nTotal output lines: 3\nOutput:\n1\n2\n3",
     "$ seq 3\n1\n2\n3\n[exit code: 0]", "Total output"),
    ("shell", {"command": ["seq", "400"]}, json.dumps({"output": "Warning: truncated output (original token count: 900)\n"
     "Total output lines: 400\n\n1\n\u2026850 tokens truncated\u2026\n400", "metadata": {"exit_code": 0, "duration_seconds": 0.3}}),
     "$ seq 400\n1\n\u2026850 tokens truncated\u2026\n400\n[exit code: 0]", "Warning"),
    ("shell_command", {"command": "true"}, [{"type": "input_text", "text": "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n"}],
     "$ true\n\n[exit code: 0]", "Wall time"),
    ("github__list_issues", {"repo": "acme/x"}, "Wall time: 1.2500 seconds\nOutput:\n[{\"number\": 1}]", '[{"number": 1}]',
     "Wall time"),
    ("shell_command", {"command": "echo hi"}, "Exit code: 0\nWall time: 0.1 seconds\nhi", "$ echo hi\nhi\n[exit code: 0]",
     "Wall time"),
]


@pytest.mark.parametrize("tool, arguments, output, shown, hidden", CODEX_OUTPUTS)
def test_each_form_of_codex_output_becomes_what_the_program_printed(tmp_path, capsys, tool, arguments, output, shown,
                                                                    hidden):
    """Codex wraps a result in a header of its own (and notes where it truncated): the step keeps the
    program's output and its exit code, as the terminal domain shows them, and drops Codex's lines."""
    rollout = tmp_path / "codex" / "rollout-2026-11-03T09-00-00-c-2.jsonl"
    _lines(rollout, [{"type": "session_meta", "payload": {"id": "c-2", "cwd": "/work"}}] + [
        {"type": "response_item", "payload": payload} for payload in (
            {"type": "function_call", "name": tool, "call_id": "x", "arguments": json.dumps(arguments)},
            {"type": "function_call_output", "call_id": "x", "output": output})])
    _import(tmp_path, capsys, "codex", str(rollout))
    [(_, [step])] = _worlds(tmp_path).values()
    assert shown in step.observation and hidden not in step.observation
    if "__" not in tool:  # a shell: its prompt comes back once the command has ended
        assert step.observation.endswith("$ ") != ("running" in str(output))


def test_a_path_with_no_transcripts_is_one_clear_line(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["--data-dir", str(tmp_path / "data"), "import", "codex", str(tmp_path / "empty")]) == 2
    assert "no codex transcripts" in capsys.readouterr().err


def test_the_split_is_stable_and_near_its_fraction():
    sides = [split_of(f"session-{index}") for index in range(2000)]
    assert sides == [split_of(f"session-{index}") for index in range(2000)]
    assert 0.17 < sides.count("test") / len(sides) < 0.23
    assert split_of("anything", 0.0) == "train" and split_of("anything", 1.0) == "test"


@pytest.mark.parametrize("line, kept", [
    ("commit 3f1c2a9b8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b", "3f1c2a9b8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b"),
    ('{"author": "Jane Doe", "id": "123e4567-e89b-12d3-a456-426614174000"}', "Jane Doe"),
    ("the tokenizer and the secretary", "tokenizer and the secretary"),
    ('{"token_count": 5, "items": [15, 25], "secret_name": "db", "url": "mongodb://h"}', '"url": "mongodb://h"'),
    ("git push -u origin main", "origin main"),
])
def test_redaction_leaves_ordinary_text_alone(line, kept):
    redacted, count = Redactor().redact(line)
    assert count == 0 and kept in redacted


@pytest.mark.parametrize("line, secret", [
    ("export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    (f"git remote add origin https://{GITHUB_TOKEN}@github.com/a/b", GITHUB_TOKEN),
    ('{"api_key": "abc123def456ghi789"}', "abc123def456ghi789"),
    ("mysql --password s3cr3t-pw -u root", "s3cr3t-pw"),
    ('curl -H "X-Api-Key: 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c" https://x', "3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n[... cut]", "MIIEowIBAAKCAQEA"),
    ('{"headers": {"Authorization": "Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0"}}', "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
    ("curl -u admin:s3cretpw https://x", "s3cretpw"),
    ('{"password": "pa ss\\"word", "next": 1}', 'pa ss\\"word'),
])
def test_redaction_replaces_each_kind_of_secret_and_keeps_the_line(line, secret):
    redacted, count = Redactor().redact(line)
    assert count >= 1 and secret not in redacted and MARKER in redacted
    assert redacted.split(MARKER)[0] == line.split(secret)[0][: len(redacted.split(MARKER)[0])]


@pytest.mark.parametrize("action, secret", [
    ('write_file {"path": "a.py", "content": "password = \\"hunter2secret\\"\\nprint(1)\\n"}', "hunter2secret"),
    ('write_file {"path": "c.sh", "content": "curl -H \\"Authorization: Bearer 9f8e7d6c5b4a3928\\" x"}', "9f8e7d6c5b4a3928"),
    ('{"name": "query", "arguments": {"api_key": "two words", "sql": "select 1"}}', "two words"),
    ('[{"keystrokes": "export GITHUB_TOKEN=' + GITHUB_TOKEN + '\\n", "duration": 1}]', GITHUB_TOKEN),
    ('{\n  "tokens": {\n    "' + GITHUB_TOKEN + '": "active"\n  },\n  "name": "caf\\u00e9"\n}\n', GITHUB_TOKEN),
])
def test_a_json_action_stays_the_same_json_with_its_secret_replaced(action, secret):
    """Structured actions and results (file writes, tool calls, keystrokes, a pretty-printed reply) are
    redacted string by string: an escaped quote or newline around a secret is never eaten, and every
    other byte stays as it was."""
    redacted, count = Redactor().redact(action)
    json.loads(redacted[redacted.index(" ") + 1:] if redacted[0] not in "{[" else redacted)  # still JSON
    assert count == 1 and secret not in redacted and redacted.replace(MARKER, secret) == action


def test_json_nested_past_the_parsers_depth_is_read_as_text():
    deep = "[" * 5000 + '"api_key=' + "s3cr3t-value" + '"' + "]" * 5000
    redacted, count = Redactor().redact(deep)
    assert count == 1 and "s3cr3t-value" not in redacted


def test_a_secret_seen_once_is_redacted_wherever_it_shows_again():
    redactor = Redactor()
    first, _ = redactor.redact("export DB_PASSWORD=hunter2secret && echo hunter2secret")
    later, count = redactor.redact("$ echo $DB_PASSWORD\nhunter2secret\n$ ")
    assert "hunter2secret" not in first + later and count == 1


def _export(tmp_path, capsys, *arguments: str) -> str:
    assert main(["--data-dir", str(tmp_path / "data"), "export", *arguments]) == 0
    return capsys.readouterr().err


def test_an_export_is_a_benchmark_eval_bench_reads_and_training_chats(tmp_path, capsys, claude_projects, codex_sessions):
    from agentworld_mcp.domains import load_domains
    from agentworld_mcp.server.evals.samples import load_samples

    _import(tmp_path, capsys, "claude-code", str(claude_projects))
    _import(tmp_path, capsys, "codex", str(codex_sessions))
    _export(tmp_path, capsys, "--format", "agentworldbench", "--split", "all", "--out", str(tmp_path / "bench"))
    samples = load_samples([tmp_path / "bench"], load_domains())
    assert len(samples) == 8 + 4  # every real step of both sessions, one sample each
    terminal = [sample for sample in samples if "import-claude-code-s-1-terminal" in sample.id]
    assert [len(sample.history) for sample in terminal] == [0, 1, 2, 3, 4] and "1 failed" in terminal[1].truth

    _export(tmp_path, capsys, "--format", "chat", "--split", "all", "--out", str(tmp_path / "chat"))
    chats = [json.loads(line) for line in (tmp_path / "chat" / "chat.jsonl").read_text().splitlines()]
    assert len(chats) == 12 and all(chat["messages"][-1]["role"] == "assistant" for chat in chats)
    assert chats[0]["messages"][0]["role"] == "system" and chats[0]["messages"][1]["role"] == "user"

    written = b"".join(path.read_bytes() for folder in ("bench", "chat") for path in (tmp_path / folder).iterdir())
    for secret in PLANTED:
        assert secret.encode() not in written, secret


def test_an_export_takes_one_side_of_the_split(tmp_path, capsys, claude_projects, codex_sessions):
    _import(tmp_path, capsys, "claude-code", str(claude_projects))
    _import(tmp_path, capsys, "codex", str(codex_sessions))
    sides = {}
    for side in ("train", "test", "all"):
        _export(tmp_path, capsys, "--format", "chat", "--split", side, "--out", str(tmp_path / side))
        chat = tmp_path / side / "chat.jsonl"
        sides[side] = {json.loads(line)["id"] for line in chat.read_text().splitlines()} if chat.exists() else set()
    assert not sides["train"] & sides["test"] and sides["train"] | sides["test"] == sides["all"]
    assert {split_of(session) for session in ("s-1", "c-1")} == {
        side for side in ("train", "test") if sides[side]}
