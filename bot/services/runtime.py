"""What a running poundbot holds: its configuration, its database engine and store, and
the use cases' dependencies. A plain record: the composition root (``bot.bootstrap``)
builds it; the channels, the web desk and the workers are handed it.

The configuration changes while it runs (a new version in the database:
``bot.services.config_versions``): ``App.swap`` puts the new one in ``config`` and in
``deps``, so whatever reads ``app.config`` or ``app.deps`` when it works, not a copy
taken at start, works with the new one."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.adapters.send_gate import Gate
from bot.config import Config
from bot.services.base import Deps
from bot.store.engine import Engine
from bot.store.tx import Store

__all__ = ["App"]


@dataclass
class App:
    """Everything a running poundbot holds."""

    config: Config
    engine: Engine
    store: Store
    deps: Deps
    #: The checks every message passes when it is sent (``bot.bootstrap.send_gate``).
    gate: Gate = field(default_factory=Gate)
    #: The version of the configuration in the database that ``config`` is (None: a
    #: configuration handed to it, not read from the database: the demo, a test).
    version: int | None = None

    def swap(self, config: Config, version: int | None) -> None:
        """Work with ``config``, version ``version``, from now on."""
        self.config = config
        self.deps = replace(self.deps, config=config)
        self.store.use_places(config.place_names)
        self.version = version
