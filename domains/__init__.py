"""Domain packs: one folder per environment the world model can simulate."""

from __future__ import annotations

from pathlib import Path

from .pack import ActionError, DomainPack, Example, Turn, load_pack

__all__ = ["ActionError", "DomainPack", "Example", "Turn", "builtin_domains", "load_pack"]

_HERE = Path(__file__).parent


def builtin_domains() -> dict[str, DomainPack]:
    """The packs shipped with the server, by name."""
    packs = {}
    for folder in sorted(path for path in _HERE.iterdir() if (path / "pack.json").is_file()):
        has_actions = (folder / "actions.py").is_file()
        pack = load_pack(folder, f"{__name__}.{folder.name}.actions" if has_actions else None)
        packs[pack.name] = pack
    return packs
