"""Write the shipped drift scenarios: the project's own command lists, run for real in the sandbox.

    python -m agentworld_mcp.server.evals.make_scenarios [OUT.jsonl]

Commands are chosen so that reality repeats on any Linux machine with bash and coreutils: no
dates, sizes, hashes or user names in their output.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

from .drift import Scenario, run_for_real

SHIPPED = Path(__file__).parent / "scenarios" / "terminal_drift.jsonl"

SCENARIOS = {
    "notes": ("keep a to-do file and clean it up", [
        "mkdir notes", "cd notes", "echo 'buy milk' > todo.txt", "cat todo.txt", "echo 'call bob' >> todo.txt",
        "wc -l todo.txt", "rm todo.txt", "ls", "cat todo.txt"]),
    "sorting": ("sort and search a small file", [
        "printf 'pear\\napple\\nfig\\n' > fruit.txt", "sort fruit.txt", "grep -n apple fruit.txt", "grep kiwi fruit.txt",
        "sort -r fruit.txt > sorted.txt", "head -1 sorted.txt", "ls"]),
    "tree": ("build a folder tree and take it apart", [
        "mkdir -p src/app/core", "touch src/app/core/main.py src/app/util.py", "find src -type f | sort",
        "rmdir src", "rm -r src/app/core", "find src | sort", "cd src/app/core"]),
    "numbers": ("add up numbers with awk, then change one", [
        "seq 1 5 > n.txt", "awk '{s += $1} END {print s}' n.txt", "sed -i 's/^3$/30/' n.txt", "cat n.txt",
        "awk '{s += $1} END {print s}' n.txt", "tail -n 2 n.txt"]),
    "python": ("run small Python checks", [
        "python3 -c 'print(2 + 3)'", "echo 'print(\"hi\")' > hi.py", "python3 hi.py", "python3 missing.py",
        "python3 -c 'import json; print(json.dumps({\"a\": [1, 2]}))'", "python3 -c 'raise SystemExit(3)'"]),
    "variables": ("carry shell state across steps", [
        "export GREETING=hello", "echo $GREETING world", "cd /tmp", "cd ~/project", "pwd", "unset GREETING",
        "echo ${GREETING:-unset}"]),
}


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else SHIPPED
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as sink:
        for name, (task, actions) in SCENARIOS.items():
            scenario = run_for_real(Scenario(name, task, tuple(actions), (), ""))
            record = {"id": name, "task": task, "actions": list(scenario.actions), "initial_prompt": scenario.initial_prompt,
                      "real": [asdict(step) for step in scenario.real]}
            sink.write(json.dumps(record) + "\n")
    print(f"wrote {len(SCENARIOS)} scenarios to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
