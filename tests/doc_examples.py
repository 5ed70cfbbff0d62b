"""The documentation's examples, found and checked, so a renamed flag or field fails a test instead of
rotting in a page.

Every fenced block of the README, client_examples/README.md and docs/ is one of:
- `sh`: each line runs the project's own command (`agentworld-mcp ...`, `python -m agentworld_mcp ...`),
  and is parsed by its argparse parser;
- `python`: run as a program by the docs tests (tests/integration/test_docs.py), in an environment with exactly
  the install it claims just before it (`<!-- example: runs on agentworld-mcp[default-model,gym] -->`, the extras
  that the page names; tests/staged_install.py), so that a package only the tests bring fails it;
- `json`, claiming what it is in an HTML comment just before it (`<!-- example: policy -->`), and
  validated as that (`CLAIMS` below);
- `text`: output or a diagram, nothing to run;
- or marked `<!-- not-run: REASON -->`, with the reason a reader can weigh.
A block inside a content tab (`=== "Title"`) is read as the tab shows it; a block that only includes a
file of the repository (`--8<-- "PATH"`) is checked as that file.
Inline code that starts with `agentworld-mcp ` is parsed too. Indented code blocks are refused: they
carry no language, so nothing could check them. The one exception is the README's two set-up commands
above its first heading, which stay as CI reads them, and which CI runs.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentworld_mcp.engine.errors import validation_line
from markdown_it import MarkdownIt
from pydantic import ValidationError

ROOT = Path(__file__).resolve().parents[1]
_CLAIM = re.compile(r"^<!--\s*(not-run|example):\s*(.+?)\s*-->\s*$")
_OWN_PROGRAM = re.compile(r"^(?:\S*/)?(?:agentworld-mcp|python3? -m agentworld_mcp)\b")
_RUNS_ON = re.compile(r"^runs on agentworld-mcp(?:\[([a-z0-9,-]*)\])?$")
_EVERY_PAGE_S_INSTALL = "default-model"  # the README's first command: named there, not on each page
_ASSIGNMENT = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=(?:\$\([^)]*\)|\S*)\s+)+")  # one or more, as bash takes them


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # 1-based, the fence's first line
    language: str  # "" for a fence without one; "indented" for an indented block
    text: str
    claim: tuple[str, str] | None  # ("not-run", reason) or ("example", kind), from the comment just before

    @property
    def where(self) -> str:
        return f"{shown(self.path)}:{self.line}"

    @property
    def runs_on(self) -> tuple[str, ...] | None:
        """A Python example's claimed install as its extras (`()`: the base install); None when it claims none."""
        matched = _RUNS_ON.match(self.claim[1]) if self.claim and self.claim[0] == "example" else None
        return None if matched is None else tuple(filter(None, (matched.group(1) or "").split(",")))


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def pages() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", ROOT / "client_examples" / "README.md",
            *sorted((ROOT / "docs").rglob("*.md"))]


_TAB = re.compile(r'^=== "[^"]*"\s*$')  # a content tab's title; its body is indented four spaces
_SNIPPET = re.compile(r'^--8<-- "([^"]+)"\s*$')  # a file of the repository, included where the site is built


def markdown_tokens(path: Path) -> list[Any]:
    """The page as CommonMark (and GitHub) reads it, its content tabs as the site shows them."""
    return MarkdownIt("commonmark").parse(_untabbed(path.read_text(encoding="utf-8")))


def _untabbed(text: str) -> str:
    """The page with its content tabs' bodies as plain Markdown, as the site shows each tab."""
    lines, inside = [], False
    for line in text.splitlines():
        if _TAB.match(line):
            inside = True
            lines.append("")
            continue
        if inside and line.strip() and not line.startswith("    "):
            inside = False
        lines.append(line[4:] if inside else line)
    return "\n".join(lines) + "\n"


def _included(text: str) -> str:
    """A block that only includes a repository file is that file."""
    matched = _SNIPPET.match(text.strip())
    return (ROOT / matched.group(1)).read_text(encoding="utf-8") if matched and "\n" not in text.strip() else text


def blocks(path: Path) -> list[Block]:
    found, claim, headed = [], None, False
    for token in markdown_tokens(path):
        headed = headed or (token.type == "heading_open" and token.tag == "h2")
        if path == ROOT / "README.md" and token.type == "code_block" and not headed:
            claim = ("not-run", "the set-up commands, which CI runs itself")
        if token.type == "html_block":
            matched = _CLAIM.match(token.content.strip())
            claim = (matched.group(1), matched.group(2)) if matched else None
            continue
        if token.type in ("fence", "code_block"):
            language = token.info.strip().split(" ")[0] if token.type == "fence" else "indented"
            found.append(Block(path, token.map[0] + 1, language, _included(token.content), claim))
        claim = None
    return found


def inline_commands(path: Path) -> Iterator[tuple[int, str]]:
    """Inline code spans that are a command line of the project's own program, with their line."""
    for token in markdown_tokens(path):
        for child in token.children or ():
            if child.type == "code_inline" and child.content.startswith("agentworld-mcp "):
                yield token.map[0] + 1, child.content


def shell_lines(text: str) -> list[str]:
    """A shell block's commands: continuations joined, comments and blank lines dropped."""
    joined = re.sub(r"\\\n\s*", " ", text)
    return [line for raw in joined.splitlines() if (line := raw.split(" #", 1)[0].strip()) and not line.startswith("#")]


def cli_problem(command: str) -> str | None:
    """None when `command` is a command line of this project that its parsers accept; else why not."""
    from agentworld_mcp.server.cli.hook_install import parser as hook_install_parser
    from agentworld_mcp.server.cli.main import parser
    from agentworld_mcp.server.hosts.hook import parser as hook_parser

    command = _ASSIGNMENT.sub("", command)
    if not _OWN_PROGRAM.match(command):
        return f"not this project's command (mark the block <!-- not-run: REASON -->): {command}"
    words = shlex.split(command)
    words = words[3:] if Path(words[0]).name.startswith("python") else words[1:]  # python -m agentworld_mcp ...
    chosen, argv = (hook_parser(), words[1:]) if words[:1] == ["hook"] else (parser(), words)
    if words[:1] == ["hook"] and words[1:2] in (["install"], ["uninstall"]):
        chosen = hook_install_parser()
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            chosen.parse_args(argv)
    except SystemExit as exc:
        if exc.code not in (0, None):
            return stderr.getvalue().strip().splitlines()[-1] if stderr.getvalue().strip() else f"exit {exc.code}"
    return None


def _policy(document: Any) -> None:
    from agentworld_mcp.domains import load_domains
    from agentworld_mcp.tools.guard.policy import load_policy

    with tempfile.TemporaryDirectory() as folder:
        policy = Path(folder) / "policy.json"
        policy.write_text(json.dumps(document), encoding="utf-8")
        load_policy(policy, load_domains())


def _mcp_servers(document: Any) -> None:
    """A host's server entries (`mcpServers`; VS Code's `servers`): ours must start with arguments our parser takes;
    one over HTTP names the server's /mcp address and sends only string headers."""
    for name, entry in (document.get("mcpServers") or document["servers"]).items():
        if "url" in entry:
            if not re.match(r"https?://[^/]+/mcp$", entry["url"]) or entry.get("type") not in ("http", None) or \
                    not all(isinstance(value, str) for value in entry.get("headers", {}).values()):
                raise ValueError(f"{name}: an HTTP entry needs type http, the server's http(s)://HOST/mcp and "
                                 "string headers")
            continue
        if not isinstance(entry.get("command"), str) or not isinstance(entry.get("args", []), list):
            raise ValueError(f"{name}: an entry needs a command string and an args list")
        if entry["command"].endswith("agentworld-mcp"):
            problem = cli_problem(shlex.join(["agentworld-mcp", *entry.get("args", [])]))
            if problem:
                raise ValueError(f"{name}: {problem}")


def _hooks(document: Any) -> None:
    """A host's hook settings: every command of ours parses; every guard tool call names GuardRequest's fields."""
    from agentworld_mcp.tools.requests import GuardRequest

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("command"), str) and "agentworld-mcp" in value["command"]:
                problem = cli_problem(value["command"])
                if problem:
                    raise ValueError(problem)
            if value.get("tool") == "guard" and isinstance(value.get("input"), dict):
                unknown = set(value["input"]) - set(GuardRequest.model_fields)
                if unknown:
                    raise ValueError(f"the guard tool has no field {sorted(unknown)}")
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(document)


def _request(tool: str) -> Callable[[Any], None]:
    def check(document: Any) -> None:
        from agentworld_mcp.server.tool_registry import BY_NAME

        BY_NAME[tool].request.model_validate(document)

    return check


def _claims() -> dict[str, Callable[[Any], None]]:
    from agentworld_mcp.server.tool_registry import BY_NAME

    return {"policy": _policy, "mcp-servers": _mcp_servers, "hooks": _hooks,
            **{f"request {name}": _request(name) for name in BY_NAME}}


def problems(block: Block) -> list[str]:
    """What is wrong with one block, short of running it; [] when nothing is."""
    if block.claim and block.claim[0] == "not-run":
        return [] if len(block.claim[1]) >= 10 else [f"{block.where}: say why it is not run"]
    if block.language == "python":
        return _install_problems(block)
    if block.language == "text":
        return []
    if block.language == "sh":
        return [f"{block.where}: {problem}" for line in shell_lines(block.text) if (problem := cli_problem(line))]
    if block.language == "json":
        claims = _claims()
        if not block.claim or block.claim[1] not in claims:
            return [f"{block.where}: say what this JSON is: <!-- example: KIND --> with KIND one of {sorted(claims)}"]
        try:
            claims[block.claim[1]](json.loads(block.text))
        except ValidationError as exc:
            return [f"{block.where}: not a valid {block.claim[1]}: {validation_line(exc, 'the document')}"]
        except Exception as exc:  # whatever the check raised is the reader's problem to see
            return [f"{block.where}: not a valid {block.claim[1]}: {str(exc).splitlines()[0] if str(exc) else exc!r}"]
        return []
    if block.language == "indented":
        return [f"{block.where}: an indented code block; fence it and name its language"]
    return [f"{block.where}: a block in {block.language or 'no language'}; use sh, python, json or text, "
            "or mark it <!-- not-run: REASON -->"]


def _install_problems(block: Block) -> list[str]:
    """A Python example names the install it runs on, with extras the project has and the page names."""
    import importlib.metadata

    if block.runs_on is None:
        return [f"{block.where}: say which install this example runs on: <!-- example: runs on "
                "agentworld-mcp[EXTRA,...] -->"]
    offered = set(importlib.metadata.metadata("agentworld-mcp").get_all("Provides-Extra") or [])
    text = block.path.read_text(encoding="utf-8")
    return [f"{block.where}: the extra {extra} is " + ("not one of the project's" if extra not in offered else
                                                         "not named on the page (`[EXTRA]` or the `EXTRA` extra)")
            for extra in block.runs_on if extra not in offered or (
                extra != _EVERY_PAGE_S_INSTALL and f"[{extra}]" not in text and f"`{extra}` extra" not in text)]


def page_problems(path: Path) -> list[str]:
    found = [problem for block in blocks(path) for problem in problems(block)]
    # Prose names a command without its required arguments (`agentworld-mcp eval samples` measures ...):
    # inline, only an unknown command, flag or choice is a problem.
    found += [f"{shown(path)}:{line}: {problem}" for line, command in inline_commands(path)
              if (problem := cli_problem(command)) and "arguments are required" not in problem]
    return found


def python_examples() -> list[Block]:
    return [block for path in pages() for block in blocks(path)
            if block.language == "python" and not (block.claim and block.claim[0] == "not-run")]
