"""What a running poundbot holds: its configuration, its database engine and store, and
the use cases' dependencies. A plain record: the composition root (``bot.bootstrap``)
builds it; the channels, the web desk and the workers are handed it."""

from __future__ import annotations

from dataclasses import dataclass, field

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
