"""Reminders in the words of their case's Act, with Kunnamangalam under the Kerala Act
until 4 March 2026 and under the Cattle-trespass Act, 1871 from 5 March: a reminder of
a 1871 case cites that Act's sections, one of a Kerala case the Kerala Act's, and a
morning digest of both gives each line in its own case's words."""

from __future__ import annotations

from datetime import date, datetime, time
from types import MappingProxyType

import pytest
from sqlalchemy import select

from bot.config import Config, load_config, sample_config_path
from bot.config.model import ActInForce
from bot.reminders.dispatch import remind_once
from bot.services import admin
from bot.services import keeper as k
from bot.services.base import Deps
from bot.store.models import OutboxRow
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.profiles import CATTLE_TRESPASS_1871, KERALA_1961
from tests.act_forms import kerala_left
from tests.service.helpers import seizure


@pytest.fixture
def config() -> Config:
    """KNM-GP under the Kerala Act until 4 March, under the 1871 Act from 5 March."""
    config = load_config(sample_config_path())
    since = ActInForce(date(2026, 3, 5), CATTLE_TRESPASS_1871.key)
    authority = config.authorities["KNM-GP"]._replace(acts=(since,))
    authorities = {**config.authorities, "KNM-GP": authority}
    return config._replace(authorities=MappingProxyType(authorities))


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 3, 5, 10, 0, tzinfo=LOCAL_TZ))


def _at(day: int, hour: int = 8) -> datetime:
    return datetime.combine(date(2026, 3, day), time(hour), tzinfo=LOCAL_TZ)


async def _seized(store: Store, deps: Deps, keeper: Caller, day: int) -> str:
    async with store.transaction() as tx:
        recorded = await k.record_seizure(tx, deps, keeper, seizure(at=datetime(2026, 3, day, 9)))
    return recorded.case.number


async def _to_keeper(store: Store, deps: Deps, config: Config, clock: FixedClock) -> list[str]:
    """The keeper (English, on Telegram) registered; the engine run at 08:00 of 12 and
    13 March; what it queued to the keeper."""
    async with store.transaction() as tx:
        await admin.add_user(
            tx, deps, Caller.system(), role="keeper", pound="KNM", telegram_id=101, lang="en"
        )
    for day in (12, 13):
        clock.set(_at(day))
        await remind_once(store, config, "test", breather=0)
    async with store.transaction() as tx:
        rows = await tx.session.execute(
            select(OutboxRow.body).where(OutboxRow.recipient == "101").order_by(OutboxRow.id)
        )
        return list(rows.scalars())


async def test_each_reminder_is_in_the_words_of_its_cases_act(
    store: Store, deps: Deps, config: Config, clock: FixedClock, keeper: Caller
) -> None:
    kerala = await _seized(store, deps, keeper, 4)  # report due on 12 March
    under_1871 = await _seized(store, deps, keeper, 5)  # on 13 March
    async with store.transaction() as tx:
        assert (await tx.load_case(kerala)).case.profile is KERALA_1961
        assert (await tx.load_case(under_1871)).case.profile is CATTLE_TRESPASS_1871
    sent = await _to_keeper(store, deps, config, clock)
    about_1871 = [body for body in sent if f"case {under_1871.lower()}:" in body.lower()]
    about_kerala = [body for body in sent if f"case {kerala.lower()}:" in body.lower()]
    assert about_1871
    assert about_kerala
    for body in about_1871:
        assert "(s.14, para 1)" in body
        assert kerala_left(body, "en") == [], body
    for body in about_kerala:
        assert "(s.13(1))" in body


async def test_a_digest_gives_each_line_in_its_own_cases_words(
    store: Store, deps: Deps, config: Config, clock: FixedClock, keeper: Caller
) -> None:
    kerala = [await _seized(store, deps, keeper, 4) for _ in range(2)]
    under_1871 = [await _seized(store, deps, keeper, 5) for _ in range(3)]
    sent = await _to_keeper(store, deps, config, clock)
    digest = next(body for body in sent if body.startswith("Deadlines on 13 Mar 2026"))
    lines = {line.split(":")[0][2:]: line for line in digest.splitlines() if line[:2] == "- "}
    assert set(lines) == {*kerala, *under_1871}
    for number in under_1871:
        assert "(s.14, para 1)" in lines[number]
        assert kerala_left(lines[number], "en") == [], lines[number]
    for number in kerala:
        assert "(s.13(1))" in lines[number]
