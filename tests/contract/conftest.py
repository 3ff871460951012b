"""The stores of the cases a contract runs on: the fake in memory, SQLite and, with
``POUNDBOT_TEST_PG_URL``, PostgreSQL (each as the ``engine`` fixture makes it)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config, load_config, sample_config_path
from bot.store.engine import make_sessionmaker
from bot.store.memory import MemoryStore
from bot.store.tx import Store, sync_places
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from tests import databases
from tests.conftest import ENGINES

#: The pounds of the sample configuration a contract uses, and their authorities.
POUNDS = {"KNM": ("KNM-GP", "Kunnamangalam"), "ENM": ("ENM-GP", "Ernakulam")}


@pytest.fixture(scope="session")
def config() -> Config:
    return load_config(sample_config_path())


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ))


@pytest.fixture(params=["memory", *ENGINES])
async def cases(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    pg_database_url: str | None,
    clock: FixedClock,
) -> AsyncIterator[Any]:
    """A store of the cases with the pounds ``POUNDS`` and none yet: ``MemoryStore`` or
    ``Store`` on an empty database; either opens transactions (``transaction()``)."""
    if request.param == "memory":
        yield MemoryStore(POUNDS, clock)
        return
    async with databases.empty_engine(request.param, tmp_path, pg_database_url) as engine:
        store = Store(make_sessionmaker(engine), clock)
        async with store.transaction() as tx:
            await sync_places(tx, {a: a for a, _ in POUNDS.values()}, POUNDS)
        yield store
