"""Domain packs: one folder per environment the world model can simulate."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .pack import ActionError, DomainPack, Example, PackError, PresetCheck, Turn, load_pack

__all__ = [
    "ActionError", "DomainPack", "Example", "PackError", "PresetCheck", "Turn", "builtin_domains", "load_domains",
    "load_pack",
]

_HERE = Path(__file__).parent


def _pack_folders(root: Path) -> list[Path]:
    return sorted(path for path in root.iterdir() if path.is_dir() and (path / "pack.json").is_file())


def builtin_domains(check_preset: PresetCheck | None = None, only: str | None = None) -> dict[str, DomainPack]:
    """The packs shipped with the server, by name (`only`: just that one, as the hook needs)."""
    packs = {}
    for folder in _pack_folders(_HERE):
        if only is not None and folder.name != only:
            continue
        has_actions = (folder / "actions.py").is_file()
        pack = load_pack(folder, f"{__name__}.{folder.name}.actions" if has_actions else None, check_preset=check_preset)
        packs[pack.name] = pack
    return packs


def load_domains(
    user_dir: Path | None = None,
    override_builtin: bool = False,
    upstream_prompts: Path | None = None,
    check_preset: PresetCheck | None = None,
    check_builtin: bool = True,
    only: str | None = None,
) -> dict[str, DomainPack]:
    """Built-in packs, then a user's packs; raises PackError naming the file and the problem.
    `check_builtin=False` vets only a user's presets (the hook, started before every tool call,
    need not re-check the shipped ones the server and the tests check). `only`: of the built-in packs,
    load just the one of that name (a user's packs are all loaded: their names are in their files).

    `upstream_prompts` is a folder laid out as `<domain>/system_prompt.txt` (the reference world
    model's own prompts); each file found replaces that built-in pack's instructions.
    """
    packs = builtin_domains(check_preset if check_builtin else None, only)
    if upstream_prompts is not None:
        if not upstream_prompts.is_dir():
            raise PackError(f"{upstream_prompts}: not a folder of <domain>/system_prompt.txt files")
        for name, pack in list(packs.items()):
            prompt = upstream_prompts / name / "system_prompt.txt"
            if prompt.is_file():
                packs[name] = dataclasses.replace(
                    pack, instructions=prompt.read_text(encoding="utf-8").strip(), source=str(prompt)
                )
    if user_dir is None:
        return packs
    if not user_dir.is_dir():
        raise PackError(f"{user_dir}: not a folder; the domains folder holds one sub-folder per pack")
    folders = _pack_folders(user_dir)
    if not folders:
        raise PackError(f"{user_dir}: holds no pack (a sub-folder with a pack.json)")
    for folder in folders:
        pack = load_pack(folder, source=str(folder), check_preset=check_preset)
        if pack.name in packs and not (override_builtin and packs[pack.name].source == "built-in"):
            clash = "a built-in pack" if packs[pack.name].source == "built-in" else packs[pack.name].source
            raise PackError(
                f"{folder / 'pack.json'}: name {pack.name!r} is already taken by {clash}; "
                "rename the pack or start the server with --override-domains"
            )
        packs[pack.name] = pack
    return packs
