"""The documentation's checks that need no model: every page's examples are valid, the collector catches a
stale flag and a bad JSON example, and the generated references cover every tool, command, flag, setting
and preset."""

from __future__ import annotations

import re

import pytest
from agentworld_mcp.domains import load_domains
from agentworld_mcp.server.cli.reference import (
    PACKAGE_ROOT,
    cli_reference,
    commands,
    flags,
    layout_reference,
    package_folders,
    presets_reference,
    role,
    settings_reference,
    tools_reference,
)
from agentworld_mcp.server.settings import OTHER_VARIABLES, Settings
from agentworld_mcp.server.tool_registry import TOOLS

from ..doc_examples import ROOT, page_problems, pages

pytestmark = pytest.mark.docs


@pytest.mark.parametrize("page", pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_every_example_on_the_page_is_valid(page):
    assert page_problems(page) == []


def _page(tmp_path, text):
    page = tmp_path / "page.md"
    page.write_text(text)
    return page


def test_a_stale_flag_in_a_shell_block_or_in_prose_fails(tmp_path):
    stale = "```sh\nagentworld-mcp simulate --domain terminal --no-such-flag ls\n```\n"
    [block] = page_problems(_page(tmp_path, stale))
    assert "unrecognized arguments: --no-such-flag" in block
    [prose] = page_problems(_page(tmp_path, "Run `agentworld-mcp eval sample x.jsonl` to measure.\n"))
    assert "invalid choice: 'sample'" in prose
    # prose may name a command without its required arguments; a block may not
    assert page_problems(_page(tmp_path, "`agentworld-mcp eval samples` measures it.\n")) == []
    assert "required" in page_problems(_page(tmp_path, "```sh\nagentworld-mcp eval samples\n```\n"))[0]


def test_a_json_example_must_say_what_it_is_and_be_that(tmp_path):
    unclaimed = page_problems(_page(tmp_path, '```json\n{"presets": []}\n```\n'))
    assert "say what this JSON is" in unclaimed[0]
    wrong_field = page_problems(_page(tmp_path, '<!-- example: policy -->\n```json\n{"preset": ["x"]}\n```\n'))
    assert "not a valid policy" in wrong_field[0]
    unknown = '<!-- example: policy -->\n```json\n{"presets": ["no-such"]}\n```\n'
    unknown_preset = page_problems(_page(tmp_path, unknown))
    assert "no-such" in unknown_preset[0]
    broken = page_problems(_page(tmp_path, '<!-- example: request simulate_action -->\n```json\n{"domain": \n```\n'))
    assert "not a valid request simulate_action" in broken[0]
    stale_request = page_problems(_page(tmp_path, '<!-- example: request simulate_action -->\n```json\n'
                                                  '{"domain": "terminal", "action": "ls", "max_token": 9}\n```\n'))
    assert "max_token" in stale_request[0]
    stale_hook = page_problems(_page(tmp_path, '<!-- example: hooks -->\n```json\n'
                                               '{"command": "agentworld-mcp hook --event pre --fromat cursor"}\n```\n'))
    assert "--fromat" in stale_hook[0]
    good = '<!-- example: request simulate_action -->\n```json\n{"domain": "terminal", "action": "ls"}\n```\n'
    assert page_problems(_page(tmp_path, good)) == []


def test_a_python_example_names_the_install_it_runs_on_from_the_extras_its_page_names(tmp_path):
    code = "```python\nimport agentworld_mcp\n```\n"
    assert "say which install" in page_problems(_page(tmp_path, code))[0]
    assert page_problems(_page(tmp_path, "<!-- example: runs on agentworld-mcp -->\n" + code)) == []
    assert page_problems(_page(tmp_path, "<!-- example: runs on agentworld-mcp[default-model] -->\n" + code)) == []
    assert "not one of the project's" in page_problems(_page(tmp_path, "<!-- example: runs on agentworld-mcp[numpy] -->\n"
                                                                          + code))[0]
    unnamed = "<!-- example: runs on agentworld-mcp[default-model,gym] -->\n" + code
    assert "not named on the page" in page_problems(_page(tmp_path, unnamed))[0]
    assert page_problems(_page(tmp_path, "Install the `gym` extra first.\n\n" + unnamed)) == []


def test_every_block_runs_is_checked_or_says_why_not(tmp_path):
    assert "indented code block" in page_problems(_page(tmp_path, "Text.\n\n    agentworld-mcp model\n"))[0]
    assert "use sh, python, json or text" in page_problems(_page(tmp_path, "```yaml\na: 1\n```\n"))[0]
    assert "not this project's command" in page_problems(_page(tmp_path, "```sh\nnpx some-server\n```\n"))[0]
    assert "say why" in page_problems(_page(tmp_path, "<!-- not-run: no -->\n```sh\nnpx some-server\n```\n"))[0]
    assert page_problems(_page(tmp_path, "<!-- not-run: needs Node and npm -->\n```sh\nnpx some-server\n```\n")) == []


def test_the_cli_reference_lists_every_command_and_flag():
    reference = cli_reference()
    for path, parser, _ in commands():
        assert f"## `{path}`" in reference
        for action in flags(parser):
            for option in action.option_strings:
                assert f"`{option}`" in reference, (path, option)
    assert "## `agentworld-mcp hook`" in reference and "`--on-failure`" in reference  # the hook's own parser
    # An alias is named beside its command, not given a section of its own.
    assert "Also called `agentworld-mcp eval bench`." in reference and "## `agentworld-mcp eval bench`" not in reference


def test_the_tool_reference_has_every_tool_with_its_request_and_result_fields():
    reference = tools_reference()
    for tool in TOOLS:
        assert f"## `{tool.name}`" in reference
        for model in (tool.request, tool.result):
            for name in model.model_fields:
                assert f"| `{model.model_fields[name].alias or name}` |" in reference, (tool.name, name)


def _described_fields(model) -> list[tuple[str, str, str]]:
    """Each field of a model and of every model nested in it, with its published description ('' for none)."""
    schema = model.model_json_schema()
    objects = [(model.__name__, schema), *((name, nested) for name, nested in schema.get("$defs", {}).items()
                                         if "properties" in nested)]
    return [(owner, field, spec.get("description", "")) for owner, found in objects
            for field, spec in found["properties"].items()]


def test_every_result_field_says_what_it_means_in_the_published_schema():
    """The tools page's meaning column and each tool's outputSchema come from the same descriptions."""
    undescribed = sorted({f"{tool.name}: {owner}.{field}" for tool in TOOLS
                          for owner, field, meaning in _described_fields(tool.result) if not meaning.strip()})
    assert undescribed == []
    assert re.search(r"\| `forked_at` \| .* \| \w", tools_reference())  # and the page shows it


def test_a_placeholder_in_a_reference_cell_is_escaped_and_code_is_left_alone():
    from agentworld_mcp.server.cli.reference import _cell

    assert _cell("a folder of <domain>/system_prompt.txt") == "a folder of &lt;domain>/system_prompt.txt"
    assert _cell("inside the `<think>` block") == "inside the `<think>` block"
    assert "<domain>" not in cli_reference() and "<domain>" not in settings_reference()


def test_the_settings_and_preset_references_are_complete():
    settings = settings_reference()
    for name, field in Settings.model_fields.items():
        assert f"| `{name}` |" in settings and f"| `AGENTWORLD_{name.upper()}` |" in settings
        assert field.description and "None" not in field.description, f"{name}: say what it does (and 'unset')"
    presets = presets_reference()
    for pack in load_domains().values():
        for preset in pack.presets:
            assert f"### `{preset['id']}`" in presets, (pack.name, preset["id"])


def test_a_settings_flag_in_the_reference_is_the_one_that_fills_it():
    from agentworld_mcp.server.cli.flags import settings_from
    from agentworld_mcp.server.cli.main import parser

    for setting, flag, value in (("chat_template_vars", "--chat-template-var", "enable_thinking=false"),
                                 ("allow_dirs", "--allow-dir", "/tmp"), ("n_ctx", "--n-ctx", "2048")):
        assert f"| `{setting}` | `{flag}` |" in settings_reference()
        assert getattr(settings_from(parser().parse_args([flag, value, "model"])), setting)


def test_every_environment_variable_the_code_reads_is_documented():
    """A setting, or a row of the other variables' table: none the code reads is missing from the page."""
    read = {name for path in package_folders() for source in path.glob("*.py")
            for name in re.findall(r"AGENTWORLD_[A-Z_]*[A-Z]", source.read_text(encoding="utf-8"))}
    documented = {f"AGENTWORLD_{name.upper()}" for name in Settings.model_fields} | set(OTHER_VARIABLES)
    assert read - documented == set()
    assert all(f"| `{name}` |" in settings_reference() for name in OTHER_VARIABLES)


def test_the_layout_names_every_folder_of_the_package_with_its_own_role():
    """The architecture page's layout is the tree: every package folder (but the domain packs, data described by
    domains/) is listed once, with the first sentence of a docstring it has."""
    page = layout_reference()
    folders = package_folders()
    assert len(folders) >= 20 and len(page.splitlines()) == len(folders)
    for folder in folders:
        name = "/".join(folder.relative_to(PACKAGE_ROOT).parts)
        assert role(folder).strip(), f"{name or 'the root'}/__init__.py has no docstring to say its role"
        assert f"`{name}/`" in page or not name, name
    assert "<!-- reference: layout -->" in (PACKAGE_ROOT / "docs" / "architecture.md").read_text()


_SUBCOMMAND_SPAN = re.compile(r"`((?:serve|twin|view|hook|model|bench|soak|batch|simulate|plan|import|export) --[a-z]"
                              r"[^`]*|(?:eval|env) [a-z][^`]*)`")


def _named_subcommands(text: str) -> list[str]:
    """Code spans that name a subcommand without the program's name (`serve --transport http`, `eval samples`)."""
    return [found.group(1) for found in _SUBCOMMAND_SPAN.finditer(text)]


def test_every_subcommand_the_docs_and_the_help_name_is_one_the_program_takes():
    """Prose shortens `agentworld-mcp serve --transport http` to `serve --transport http`: that too must parse."""
    from ..doc_examples import cli_problem

    texts = {str(page.relative_to(ROOT)): page.read_text(encoding="utf-8") for page in pages()}
    texts |= {"settings reference": settings_reference(), "command line reference": cli_reference()}
    wrong = [f"{where}: `{span}`: {problem}" for where, text in texts.items() for span in _named_subcommands(text)
             if (problem := cli_problem(f"agentworld-mcp {span.split(' | ')[0]}"))
             and "arguments are required" not in problem and "expected one argument" not in problem]
    assert wrong == []
    assert _named_subcommands("send to `serve --http` and `eval bench`") == ["serve --http", "eval bench"]
    assert cli_problem("agentworld-mcp serve --http") is not None
