"""Fixtures for use-case tests: the sample configuration, a fixed clock, a real store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.bootstrap import subscribers
from bot.config import Config, load_config, sample_config_path
from bot.services.base import Deps
from bot.store.engine import make_sessionmaker
from bot.store.memory import MemoryStore
from bot.store.tx import Store, sync_places
from bot.support.caller import ADMIN, KEEPER, OFFICER, Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from tests import databases
from tests.conftest import ENGINES


@pytest.fixture(scope="session")
def config() -> Config:
    return load_config(sample_config_path())


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ))


async def _configured(engine: AsyncEngine, config: Config, clock: FixedClock) -> Store:
    store = Store(make_sessionmaker(engine), clock, places=config.place_names)
    async with store.transaction() as tx:
        await sync_places(
            tx,
            {code: a.name for code, a in config.authorities.items()},
            {code: (p.authority, p.name) for code, p in config.pounds.items()},
        )
    return store


@pytest.fixture
async def store(engine: AsyncEngine, config: Config, clock: FixedClock) -> AsyncIterator[Store]:
    return await _configured(engine, config, clock)


@pytest.fixture(params=["memory", *ENGINES])
async def case_store(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    pg_database_url: str | None,
    config: Config,
    clock: FixedClock,
) -> AsyncIterator[Store | MemoryStore]:
    """For a use case that needs only the port of the cases (``bot.store.port``): the
    fake in memory, then the store on each database the ``engine`` fixture gives."""
    if request.param == "memory":
        yield MemoryStore(config.pounds, clock, places=config.place_names)
        return
    async with databases.empty_engine(request.param, tmp_path, pg_database_url) as engine:
        yield await _configured(engine, config, clock)


@pytest.fixture
def deps(config: Config, clock: FixedClock) -> Deps:
    return Deps(config=config, clock=clock, subscribers=subscribers())


@pytest.fixture
def keeper() -> Caller:
    return Caller(role=KEEPER, channel="test", user_id=None, pound="KNM", authority="KNM-GP")


@pytest.fixture
def other_keeper() -> Caller:
    return Caller(role=KEEPER, channel="test", pound="ENM", authority="ENM-GP")


@pytest.fixture
def officer() -> Caller:
    return Caller(role=OFFICER, channel="test", authority="KNM-GP")


@pytest.fixture
def other_officer() -> Caller:
    return Caller(role=OFFICER, channel="test", authority="ENM-GP")


@pytest.fixture
def admin() -> Caller:
    return Caller(role=ADMIN, channel="test")
