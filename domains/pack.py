"""A domain pack: everything the server knows about one kind of environment.

A pack is a folder:
- `pack.json`: names, action and observation formats, where an observation ends
  (`observation_end`, one of domains/boundaries.py's structures), an example action, sampling, the initial
  state used when a call gives none, `error_markers` (phrases that mark a failed action in an
  observation), `presets` (named constraints users most often want) and, for user packs, an
  optional `action_schema` (JSON Schema an action must meet);
- `instructions.md`: the world-model system prompt; it may hold the placeholders
  `{tool_definitions}` and `{demonstrations}`, filled at render time;
- `examples.json` (optional): short demonstration trajectories;
- `actions.py` (built-in packs only): `normalize_action(text) -> text`, which validates an action
  and rewrites convenience forms before anything reaches the model, and optionally
  `action_text(normalized) -> text`, the action as a person would read it (what constraint
  patterns match on: the typed command rather than its JSON keystroke form), optionally
  `shown_action(normalized) -> text`, the action as its author would write it, for people to read
  (the viewer, world resources, reports; default: `action_text`), and optionally
  `semantics(normalized, location, state) -> Semantics | None`, what the action does by its own
  definition (domains/shell), with no model;
- `shell_line(normalized) -> line | None`, `computed_screen(previous, state, step)` and
  `computed_file_call(normalized, knowledge)` (optional, built-in packs): the command line an action
  runs, for the world's virtual shell, the observation a computed line shows
  (domains/shell/world/screen.py), and a file tool's result computed from what the world knows;
- `initial_files` in pack.json (optional): where the initial state puts the shell (`cwd`, `home`)
  and which paths it says exist (`paths`, relative to cwd, folders ending in `/`): the start of
  the file tree a world keeps.
"""

from __future__ import annotations

import importlib
import json
import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..engine.errors import ConfigurationError, InputError, validation_line
from .boundaries import Structure
from .shell import Location, PathState, Semantics

if TYPE_CHECKING:  # the packs' computed-step hooks; the guard's hook loads packs and never computes a step
    from .shell.world.screen import ShellStep
    from .shell.world.knowledge import Knowledge

# Why a preset (a constraint as JSON) cannot be used, or None. The loader takes the check from its
# caller: constraints are the tools' concept, and domains/ does not import tools/.
PresetCheck = Callable[[dict[str, Any]], str | None]


# A computed step's observation: (previous observation, state text, the step) -> observation, or None.
ComputedScreen = Callable[[str, str, "ShellStep"], "str | None"]
# A file tool's call on what the world knows -> (observation, new file contents, failed), or None (the model's).
ComputedFileCall = Callable[[str, "Knowledge"], "tuple[str, dict[str, bytes], bool] | None"]
# What an action does by its own definition, in a place and a known file tree (None: nothing to say).
ActionSemantics = Callable[[str, Location, "PathState | None"], "Semantics | None"]


class ActionError(InputError):
    """An action the domain cannot accept; the message shows the expected shape."""


class PackError(ConfigurationError, ValueError):
    """A pack folder that cannot be loaded; the message names the file and the problem."""


@dataclass(frozen=True)
class Turn:
    action: str
    observation: str
    # The model's own reply when the observation was predicted. History shows that reply verbatim,
    # so the next step's prompt extends the tokens the model already holds instead of diverging.
    reply: str | None = None
    # What the world knew of its files when this action was predicted (its prompt showed it): kept so
    # the turn renders the same way later and the model's cached tokens still extend.
    note: str = ""
    # Real steps like this one, recorded in this environment, that its prompt showed (kept for the same reason).
    examples: str = ""
    # False for a turn the world predicted: what it shows is taken as the model's account, never as exact facts.
    real: bool = True


@dataclass(frozen=True)
class Example:
    task: str
    state: str
    turns: tuple[Turn, ...]


class _Sampling(BaseModel):
    model_config = ConfigDict(extra="forbid")
    temperature: float = Field(default=0.6, ge=0, le=2)
    top_p: float = Field(default=0.95, gt=0, le=1)
    top_k: int = Field(default=20, ge=0)
    max_tokens: int = Field(default=512, ge=1)


class _Manifest(BaseModel):
    """The schema of pack.json."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,39}$")
    title: str = Field(min_length=1)
    summary: str = Field(min_length=1)
    action_format: str = Field(min_length=1)
    observation_format: str = Field(min_length=1)
    action_example: str = ""
    wrapped_observation: bool = False
    # The environment itself may write Markdown (a page): otherwise fences and labels around an
    # observation are the model's, and the parser takes them off.
    observation_markdown: bool = False
    observation_end: Structure = "turn"
    initial_state: str = ""
    sampling: _Sampling = Field(default_factory=_Sampling)
    error_markers: list[str] = Field(default_factory=list)
    presets: list[dict[str, Any]] = Field(default_factory=list)
    action_schema: dict[str, Any] | None = None
    initial_files: _InitialFiles | None = None


class _InitialFiles(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cwd: str = Field(pattern=r"^/")
    home: str = ""
    paths: list[str] = Field(default_factory=list)


class _ExampleTurn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str
    observation: str


class _ExampleFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    task: str = ""
    state: str = ""
    turns: list[_ExampleTurn] = Field(min_length=1)


def _keep_as_is(action: str) -> str:
    if not action.strip():
        raise ActionError("the action is empty")
    return action


def _same_text(action: str) -> str:
    return action


@dataclass(frozen=True)
class DomainPack:
    name: str
    title: str
    summary: str
    instructions: str
    action_format: str
    observation_format: str
    wrapped_observation: bool
    initial_state: str
    observation_markdown: bool = False
    observation_end: Structure = "turn"
    action_example: str = ""
    examples: tuple[Example, ...] = ()
    sampling: dict[str, Any] = field(default_factory=dict)
    error_markers: tuple[str, ...] = ()
    presets: tuple[dict[str, Any], ...] = ()
    source: str = "built-in"
    normalize_action: Callable[[str], str] = _keep_as_is
    action_text: Callable[[str], str] = _same_text
    shown_action: Callable[[str], str] | None = None
    location: Location | None = None  # where the initial state puts the shell
    initial_paths: tuple[str, ...] = ()  # absolute; folders end in '/'
    semantics: ActionSemantics | None = None
    shell_line: Callable[[str], str | None] | None = None  # the command line for the virtual shell, if one
    computed_screen: ComputedScreen | None = None
    computed_file_call: ComputedFileCall | None = None

    def action_shown(self, action: str) -> str:
        """An action as a person reads it: `mkdir site`, not its keystroke encoding. A stored action that
        is not in the normalized form (an old or a foreign record) is shown as it is."""
        try:
            return (self.shown_action or self.action_text)(action)
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            return action

    @property
    def takes_tool_definitions(self) -> bool:
        return "{tool_definitions}" in self.instructions

    def describe(self) -> dict[str, Any]:
        """What a client needs to call the tools for this domain (the discovery resource's content)."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "action_format": self.action_format,
            "action_example": self.action_example,
            "observation_format": self.observation_format,
            "observation_wrapped_in_predicted_observation_tags": self.wrapped_observation,
            "observation_may_be_markdown": self.observation_markdown,
            "observation_ends_at": self.observation_end,
            "needs_tool_definitions": self.takes_tool_definitions,
            "initial_state": self.initial_state,
            "default_sampling": self.sampling,
            "constraint_presets": [
                {"id": preset.get("id"), "description": preset.get("description", "")} for preset in self.presets
            ],
            "example": (
                {
                    "task": self.examples[0].task,
                    "state": self.examples[0].state,
                    "turns": [{"action": t.action, "observation": t.observation} for t in self.examples[0].turns],
                }
                if self.examples
                else None
            ),
            "source": self.source,
        }


def load_pack(
    folder: Path, actions_module: str | None = None, source: str = "built-in", check_preset: PresetCheck | None = None
) -> DomainPack:
    """Load and validate one pack folder; raises PackError naming the file and the problem.

    `check_preset` vets each preset now, so a bad one stops the start instead of failing every call."""
    manifest = _parse(folder / "pack.json", _Manifest)
    _check_presets(folder / "pack.json", manifest.presets, check_preset)
    instructions_file = folder / "instructions.md"
    if not instructions_file.is_file():
        raise PackError(f"{instructions_file}: missing; every pack needs its world-model instructions")
    instructions = instructions_file.read_text(encoding="utf-8").strip()
    if not instructions:
        raise PackError(f"{instructions_file}: empty; write the world-model instructions for this domain")
    examples_file = folder / "examples.json"
    examples = _parse(examples_file, list[_ExampleFile]) if examples_file.exists() else []
    readable = _same_text
    derive = line_of = screen_of = file_call = shown = None
    if actions_module is not None:
        module = importlib.import_module(actions_module)
        normalize = module.normalize_action
        readable = getattr(module, "action_text", _same_text)
        shown = getattr(module, "shown_action", None)
        derive = getattr(module, "semantics", None)
        line_of = getattr(module, "shell_line", None)
        screen_of = getattr(module, "computed_screen", None)
        file_call = getattr(module, "computed_file_call", None)
    elif manifest.action_schema is not None:
        normalize = _schema_check(folder / "pack.json", manifest.action_schema)
    else:
        normalize = _keep_as_is
    return DomainPack(
        name=manifest.name,
        title=manifest.title,
        summary=manifest.summary,
        instructions=instructions,
        action_format=manifest.action_format,
        observation_format=manifest.observation_format,
        wrapped_observation=manifest.wrapped_observation,
        observation_markdown=manifest.observation_markdown,
        observation_end=manifest.observation_end,
        initial_state=manifest.initial_state,
        action_example=manifest.action_example,
        examples=tuple(
            Example(example.task, example.state, tuple(Turn(t.action, t.observation) for t in example.turns))
            for example in examples
        ),
        sampling=manifest.sampling.model_dump(),
        error_markers=tuple(manifest.error_markers),
        presets=tuple(manifest.presets),
        source=source,
        normalize_action=normalize,
        action_text=readable,
        shown_action=shown,
        location=Location(files.cwd, files.home) if (files := manifest.initial_files) else None,
        initial_paths=tuple(posixpath.join(files.cwd, path) for path in files.paths) if files else (),
        semantics=derive,
        shell_line=line_of,
        computed_screen=screen_of,
        computed_file_call=file_call,
    )


def _check_presets(path: Path, presets: list[dict[str, Any]], check: PresetCheck | None) -> None:
    seen: set[Any] = set()
    for index, preset in enumerate(presets):
        name = f"presets[{index}]" + (f" ({preset['id']!r})" if isinstance(preset.get("id"), str) else "")
        problem = check(preset) if check is not None else None
        if problem:
            raise PackError(f"{path}: {name}: {problem}")
        if preset.get("id") in seen:
            raise PackError(f"{path}: {name}: the id is used by an earlier preset; preset ids must be unique")
        seen.add(preset.get("id"))


def _parse(path: Path, shape: Any) -> Any:
    from pydantic import TypeAdapter

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PackError(f"{path}: missing") from None
    try:
        return TypeAdapter(shape).validate_json(text)
    except ValidationError as exc:
        raise PackError(f"{path}: {validation_line(exc, 'the file', most=1)}") from None


def _schema_check(manifest_path: Path, schema: dict[str, Any]) -> Callable[[str], str]:
    """A user pack's action check: the action must be JSON that meets `action_schema`."""
    import jsonschema  # here, not at the top: only user packs with a schema need it (0.03 s of start-up)

    try:
        validator = jsonschema.Draft202012Validator(schema)
        validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise PackError(f"{manifest_path}: action_schema is not a valid JSON Schema: {exc.message}") from None
    shape = json.dumps(schema)[:300]

    def normalize(action: str) -> str:
        try:
            decoded = json.loads(action)
        except ValueError:
            raise ActionError(f"the action must be JSON matching {shape}") from None
        error = jsonschema.exceptions.best_match(validator.iter_errors(decoded))
        if error is not None:
            raise ActionError(f"the action does not match the domain's action schema: {error.message}; expected {shape}")
        return json.dumps(decoded, ensure_ascii=False)

    return normalize
