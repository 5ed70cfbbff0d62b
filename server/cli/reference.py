"""The documentation's reference pages, generated from the code so they cannot drift from it: every CLI command
and flag from the argparse parsers, every tool's request and result from its pydantic models, every setting from
`Settings`, every preset from the packs, and the package's folders with their roles from their docstrings. `docs/hooks.py` puts them into the site; `tests/unit/test_doc_examples.py`
checks that they cover the registry and the parsers."""

from __future__ import annotations

import argparse
import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from pydantic import BaseModel

from ...domains import load_domains
from ...tools.context import ToolContext
from ...tools.guard.policy import GuardSettings
from ...tools.limits import Limits
from ..hosts.hook import parser as hook_parser
from ..settings import ENV_PREFIX, OTHER_VARIABLES, Settings
from ..tool_registry import TOOLS
from .flags import Parents
from .hook_install import parser as hook_install_parser
from .main import parser as main_parser


def commands(top: argparse.ArgumentParser | None = None, path: str = "agentworld-mcp",
             summary: str = "") -> Iterator[tuple[str, argparse.ArgumentParser, str]]:
    """Every command line's parser with its one-line summary, depth first: the program itself, then each
    subcommand (`eval samples` ...). `hook` answers with its own parser (it starts before the rest of the
    program is imported), and `hook install` and `hook uninstall` with theirs."""
    top = top or main_parser()
    yield path, top, summary or top.description or ""
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) in seen:
                    continue  # an alias (`eval bench` for `eval samples`): aliases() names it
                seen.add(id(sub))
                if path == "agentworld-mcp" and name == "hook":
                    yield f"{path} hook", hook_parser(), helps.get(name, "")
                    yield from list(commands(hook_install_parser(), f"{path} hook"))[1:]
                    continue
                yield from commands(sub, f"{path} {name}", helps.get(name, ""))


def aliases(top: argparse.ArgumentParser | None = None, path: str = "agentworld-mcp") -> dict[str, list[str]]:
    """Each command that has other names, with them: `agentworld-mcp eval samples` -> [`... eval bench`]."""
    found: dict[str, list[str]] = {}
    for action in (top or main_parser())._actions:
        if isinstance(action, argparse._SubParsersAction):
            names: dict[int, list[str]] = {}
            for name, sub in action.choices.items():
                names.setdefault(id(sub), []).append(name)
                if len(names[id(sub)]) == 1:
                    found.update(aliases(sub, f"{path} {name}"))
            found.update({f"{path} {first}": [f"{path} {other}" for other in others]
                          for first, *others in names.values() if others})
    return found


def flags(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """A parser's own arguments: no help, no subcommand list, nothing hidden."""
    return [action for action in parser._actions
            if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))
            and action.help != argparse.SUPPRESS]


def _shared_groups(parents: Parents) -> dict[str, set[str]]:
    return {name: {option for action in flags(group) for option in action.option_strings}
            for name, group in (("model", parents.model), ("serving", parents.serving))}


def _cell(text: object) -> str:
    return _escape_tags(str(text).replace("|", "\\|").replace("\n", " "))


def _escape_tags(text: str) -> str:
    """`<` outside code spans as `&lt;`: a help line's `<domain>/system_prompt.txt` is a placeholder for the reader,
    which Markdown would pass on as an HTML tag and the browser would hide."""
    parts = text.split("`")
    return "`".join(part if inside % 2 else part.replace("<", "&lt;") for inside, part in enumerate(parts))


def _flag_row(action: argparse.Action) -> str:
    if action.option_strings:
        names = ", ".join(f"`{option}`" for option in action.option_strings)
        if action.nargs != 0:
            names += f" `{action.metavar or action.dest.upper()}`"
    else:
        names = f"`{action.metavar or action.dest}`" + (" (optional)" if action.nargs in ("?", "*") else "")
    default = action.default
    if (default is None or default is argparse.SUPPRESS) and action.dest in Settings.model_fields:
        default = Settings.model_fields[action.dest].get_default(call_default_factory=True)  # the setting's
    shown = "" if default is None or default is False or default is argparse.SUPPRESS \
        or isinstance(default, (dict, list)) else f"`{default}`"
    meaning = action.help or ""
    if "%(" in meaning:  # argparse's own placeholders, as --help fills them
        meaning %= {**vars(action), "prog": ""}
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        meaning += f" (one of: {', '.join(f'`{choice}`' for choice in action.choices)})"
    return f"| {names} | {_cell(shown)} | {_cell(meaning)} |"


def _sentence(text: str) -> str:
    """A help line (`serve MCP (the default: stdio)`) as a sentence of prose."""
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _table(actions: list[argparse.Action]) -> list[str]:
    return ["| argument | default | meaning |", "|---|---|---|", *(_flag_row(action) for action in actions)]


def _usage(parser: argparse.ArgumentParser, own: list[argparse.Action], groups: list[str]) -> str:
    """The usage line with the shared flag groups named once instead of spelled out."""
    formatter = parser._get_formatter()
    formatter.add_usage(None, [action for action in parser._actions if action in own
                               or isinstance(action, argparse._SubParsersAction)], [])
    usage = formatter.format_help().strip()
    return usage.replace(parser.prog, parser.prog + "".join(f" [{name} flags]" for name in groups), 1)


def cli_reference() -> str:
    """Every command with its usage, description and flags; the model and serving flags once, at the top."""
    parents = Parents.make()
    shared = _shared_groups(parents)
    lines = ["## Model flags", "",
             "Every command that runs the model takes these (each is also an environment variable, "
             "see [Settings](settings.md)).", "", *_table(flags(parents.model)), "",
             "## Serving flags", "", "`serve` and `twin` take these too.", "", *_table(flags(parents.serving)), ""]
    other_names = aliases()
    for path, parser, summary in commands():
        own = flags(parser)
        groups = [name for name, options in shared.items()
                  if options and options <= {option for action in own for option in action.option_strings}]
        own = [action for action in own if not any(set(action.option_strings) & shared[name] for name in groups)]
        lines += [f"## `{path}`", ""]
        described = [text.strip() for text in dict.fromkeys((summary, parser.description or "")) if text.strip()]
        if described:
            lines += [" ".join(_sentence(text) for text in described), ""]
        if path in other_names:
            lines += ["Also called " + " and ".join(f"`{name}`" for name in other_names[path]) + ".", ""]
        lines += ["```text", _usage(parser, own, groups), "```", ""]
        if groups:
            lines += ["Also the " + " and ".join(f"[{name} flags](#{name}-flags)" for name in groups) + ".", ""]
        if own:
            lines += [*_table(own), ""]
    return "\n".join(lines)


def _schema_type(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return " or ".join(_schema_type(option) for option in schema["anyOf"])
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{name.lower()})"
    if "enum" in schema:
        return " or ".join(f"`{json.dumps(value)}`" for value in schema["enum"])
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list of {_schema_type(schema.get('items', {}))}"
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return f"object of {_schema_type(schema['additionalProperties'])}"
    return str(kind)


def _fields(schema: dict[str, Any]) -> list[str]:
    required = set(schema.get("required", ()))
    rows = ["| field | type | default | meaning |", "|---|---|---|---|"]
    for name, field in schema.get("properties", {}).items():
        default = "required" if name in required else f"`{json.dumps(field['default'])}`" if "default" in field else ""
        meaning = field.get("description", "")
        rows.append(f"| `{name}` | {_cell(_schema_type(field))} | {_cell(default)} | {_cell(meaning)} |")
    return rows


def _model_section(model: type[BaseModel], title: str) -> list[str]:
    schema = model.model_json_schema()
    lines = [f"### {title}", "", *_fields(schema), ""]
    for name, nested in schema.get("$defs", {}).items():
        if nested.get("type") == "object" and "properties" in nested:
            lines += [f"#### {name}", "", *_fields(nested), ""]
    return lines


def tools_reference() -> str:
    """Each tool: its description (with the default limits), annotations, request and result, from the models."""
    context = cast(ToolContext, SimpleNamespace(limits=Limits()))
    lines: list[str] = []
    for tool in TOOLS:
        marks = (("read-only", tool.hints.read_only), ("destructive", tool.hints.destructive),
                 ("idempotent", tool.hints.idempotent), ("open-world", tool.hints.open_world))
        hints = ", ".join(name for name, on in marks if on) or "none"
        lines += [f"## `{tool.name}`", "", tool.describe(context, GuardSettings()), "",
                  f"Annotations: {hints}. Request model `{tool.request.__name__}`, result model "
                  f"`{tool.result.__name__}`" + ("" if tool.structured else " (sent as text only)") + ".", "",
                  *_model_section(tool.request, f"{tool.name}: request"),
                  *_model_section(tool.result, f"{tool.name}: result")]
    return "\n".join(lines)


def settings_reference() -> str:
    """Each setting with its flag, environment variable, allowed values or bounds, default and meaning; then the
    environment variables that are no setting."""
    # A setting's flag is the option whose parsed value lands in it (`--allow-dir` fills `allow_dirs`).
    flag_of = {action.dest: next(option for option in action.option_strings if option.startswith("--"))
               for _, parser, _ in commands() for action in flags(parser)
               if any(option.startswith("--") for option in action.option_strings)}
    rows = ["| setting | flag | environment variable | values | default | meaning |", "|---|---|---|---|---|---|"]
    schema = Settings.model_json_schema()["properties"]
    for name, field in Settings.model_fields.items():
        default = "unset" if field.default is None else "empty" if field.default_factory is not None else \
            f"`{str(field.default).lower() if isinstance(field.default, bool) else field.default}`"
        flag = f"`{flag_of[name]}`" if name in flag_of else ""
        rows.append(f"| `{name}` | {flag} | `{ENV_PREFIX}{name.upper()}` | "
                    f"{_cell(_values(schema[name]))} | {_cell(default)} | {_cell(field.description or '')} |")
    rows += ["", "## Other environment variables", "", "| variable | meaning |", "|---|---|",
             *(f"| `{name}` | {_cell(meaning)} |" for name, meaning in OTHER_VARIABLES.items())]
    return "\n".join(rows)


_BOUNDS = (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("exclusiveMaximum", "<"))


def _values(schema: dict[str, Any]) -> str:
    """What a setting takes: its choices, or its type with the bounds its Field states."""
    options = [option for option in schema.get("anyOf", [schema]) if option.get("type") != "null"]
    if len(options) == 1 and "enum" in options[0]:
        return ", ".join(f"`{value}`" for value in options[0]["enum"])
    kinds = {"integer": "integer", "number": "number", "boolean": "`true`, `false`", "string": "text",
             "array": "list", "object": "JSON object"}
    described = []
    for option in options:
        kind = kinds.get(option.get("type", ""), "text")
        if option.get("format") in ("path", "file-path", "directory-path"):
            kind = "path"
        bounds = [f"{sign} {option[key]}" for key, sign in _BOUNDS if key in option]
        described.append(kind + (f" ({', '.join(bounds)})" if bounds else ""))
    return " or ".join(dict.fromkeys(described))


def presets_reference() -> str:
    """Every built-in pack's presets: id, what it checks, and the rule as JSON."""
    lines: list[str] = []
    for name, pack in sorted(load_domains().items()):
        if not pack.presets:
            continue
        lines += [f"## {name}", ""]
        for preset in pack.presets:
            rule = {key: value for key, value in preset.items() if key not in ("id", "description")}
            lines += [f"### `{preset['id']}`", "", str(preset.get("description", "")), "", "```json",
                      json.dumps(rule, indent=2), "```", ""]
    return "\n".join(lines)


PACKAGE_ROOT = Path(__file__).resolve().parents[2]


def package_folders(packs: bool = False) -> list[Path]:
    """Every folder of the package; the domain packs (data with a pack.json, described by domains/) only with
    `packs`. Tests, environments (.ci's too), builds, npm's folders and the client examples (packages of their
    own, such as the verifiers taskset) are no part of it."""
    return sorted(marker.parent for marker in PACKAGE_ROOT.rglob("__init__.py")
                  if not {"tests", ".venv", ".ci", "build", "node_modules", "client_examples"}
                  & set(marker.relative_to(PACKAGE_ROOT).parts)
                  and (packs or not (marker.parent / "pack.json").exists()))


def role(folder: Path) -> str:
    """A folder's role: the first sentence of its `__init__` docstring."""
    docstring = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))) or ""
    return re.split(r"(?<=[.])\s", " ".join(docstring.split()), maxsplit=1)[0]


def layout_reference() -> str:
    """The package's folders, each with its role from its own docstring: the layout cannot drift from the tree."""
    lines = []
    for folder in package_folders():
        parts = folder.relative_to(PACKAGE_ROOT).parts
        name = "/".join(parts) + "/" if parts else "agentworld_mcp (the repository root)"
        lines.append(f"{'    ' * max(len(parts) - 1, 0)}- `{name}`: {role(folder)}")  # Markdown nests by four
    return "\n".join(lines)


REFERENCES = {"cli": cli_reference, "tools": tools_reference, "settings": settings_reference,
              "presets": presets_reference, "layout": layout_reference}
