"""Fixtures for use-case tests: the sample configuration, a fixed clock, a real store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.config import Config, load_config, sample_config_path
from bot.services.base import Deps
from bot.store.engine import make_sessionmaker
from bot.store.tx import Store, sync_places
from bot.support.caller import ADMIN, KEEPER, OFFICER, Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ


@pytest.fixture(scope="session")
def config() -> Config:
    return load_config(sample_config_path())


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ))


@pytest.fixture
async def store(engine: AsyncEngine, config: Config, clock: FixedClock) -> AsyncIterator[Store]:
    store = Store(make_sessionmaker(engine), clock, places=config.place_names)
    async with store.transaction() as tx:
        await sync_places(
            tx,
            {code: a.name for code, a in config.authorities.items()},
            {code: (p.authority, p.name) for code, p in config.pounds.items()},
        )
    return store


@pytest.fixture
def deps(config: Config, clock: FixedClock) -> Deps:
    return Deps(config=config, clock=clock)


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
