"""What a subcommand needs besides its flags, each part made on first use.

A subcommand takes only what it needs (`view` never loads the domains or the model), and a problem
with any part surfaces as an AgentWorldError before anything is served.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from ..settings import Settings

if TYPE_CHECKING:
    from ...domains import DomainPack
    from ...tools.worlds.store import Store
    from ..runtime import ModelSource


class Prepared:
    def __init__(self, settings: Settings):
        self.settings = settings
        self._store: Store | None = None

    @cached_property
    def domains(self) -> dict[str, DomainPack]:
        from ..runtime import load_domain_packs

        return load_domain_packs(self.settings)

    @cached_property
    def model(self) -> ModelSource:
        """The model file, checked (the embedded one unpacked if none is given), or the model server's settings."""
        from ..runtime import resolve_source

        return resolve_source(self.settings)

    def check(self) -> None:
        """The packs and the model, each checked now: a command that runs the model says what is wrong
        with either before it starts its work."""
        _ = self.domains, self.model

    def store(self, settle_jobs: bool = True) -> Store:
        """The world store, opened once. `settle_jobs=False` leaves unfinished jobs to the server that runs them."""
        if self._store is None:
            from ..runtime import open_store

            self._store = open_store(self.settings, settle_jobs)
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
