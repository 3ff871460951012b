"""Who acts is an office: users hold offices, and what an Act gives to an office goes to
its holders. Kunnamangalam (KNM-GP) applies the Cattle-trespass Act, 1871, under which
the officer in charge of the police station receives the report and posts the notice
(s.14) and the District Magistrate fixes the conditions of sale (s.14, third
paragraph): the report goes to the holder of the police station's office, and only they
post the notice; where no officer of the authority holds the office, every officer is
told and any may act, as before offices were declared."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import date, datetime, time
from types import MappingProxyType

import pytest
from sqlalchemy import select

from bot.channels.identity import caller_for_telegram
from bot.config import Config, load_config, sample_config_path
from bot.config.model import ActInForce
from bot.conversation.reply import handle_text
from bot.reminders.dispatch import remind_once
from bot.services import admin
from bot.services.base import Deps
from bot.store.memory import MemoryStore
from bot.store.models import OutboxRow
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from bot.support.errors import BadInputError
from domain.calendar import LOCAL_TZ
from domain.profiles import CATTLE_TRESPASS_1871, Office
from domain.stages import Stage

SEIZE = "SEIZE 1 cow AT Kunnamangalam market OWNER Kunhammed"
NOTICE = "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market"
#: The Telegram ids of the two officers of KNM-GP, X and Y.
X, Y = 201, 202


def at(day: int, hour: int = 11) -> datetime:
    return datetime.combine(date(2026, 3, day), time(hour), tzinfo=LOCAL_TZ)


def under(config: Config, act: str) -> Config:
    """``config`` with KNM-GP applying ``act`` from 1 January 2026 (no s.31 transfer)."""
    authority = config.authorities["KNM-GP"]._replace(acts=(ActInForce(date(2026, 1, 1), act),))
    return config._replace(
        authorities=MappingProxyType({**config.authorities, "KNM-GP": authority})
    )


@pytest.fixture
def config() -> Config:
    return under(load_config(sample_config_path()), CATTLE_TRESPASS_1871.key)


async def _officers(store: Store, deps: Deps, x: Sequence[str], y: Sequence[str]) -> None:
    """X and Y, officers of KNM-GP on Telegram (in English), holding ``x`` and ``y``."""
    async with store.transaction() as tx:
        for telegram_id, offices in ((X, x), (Y, y)):
            await admin.add_user(
                tx,
                deps,
                Caller.system(),
                role="officer",
                authority="KNM-GP",
                telegram_id=telegram_id,
                lang="en",
                offices=offices,
            )


async def _say(store: Store, deps: Deps, who: Caller | int, text: str) -> str:
    """``text`` from ``who`` (a caller, or the officer with that Telegram id)."""
    async with store.transaction() as tx:
        caller = who if isinstance(who, Caller) else await caller_for_telegram(tx, who)
        assert caller is not None
        reply = await handle_text(tx, deps, dataclasses.replace(caller, lang="en"), text, sms=False)
    return reply.text


async def _reported(store: Store, deps: Deps, clock: FixedClock, keeper: Caller) -> None:
    """KNM-1 brought in on 1 March and reported unclaimed on the 9th (s.14 para 1)."""
    clock.set(at(1))
    await _say(store, deps, keeper, SEIZE)
    clock.set(at(9))
    await _say(store, deps, keeper, "REPORT KNM-1")


async def _told(store: Store, key: str) -> set[str]:
    """The recipients of the messages queued under ``key`` (``report:KNM-1:u<id>``)."""
    async with store.transaction() as tx:
        rows = await tx.session.execute(
            select(OutboxRow.recipient).where(OutboxRow.idempotency_key.startswith(key))
        )
        return set(rows.scalars())


async def _stage(store: Store) -> Stage:
    async with store.transaction() as tx:
        return (await tx.load_case("KNM-1")).case.stage


# -- what is for an office goes to its holders ---------------------------------------------


@pytest.mark.parametrize(
    ("x", "y", "told"),
    [
        pytest.param(["police_station"], ["district_magistrate"], {X}, id="s.14-para-1-holder"),
        pytest.param(["district_magistrate"], ["secretary"], {X, Y}, id="s.14-para-1-none-holds"),
        pytest.param([], [], {X, Y}, id="s.14-para-1-none-declared"),
    ],
)
async def test_the_report_goes_to_the_officer_in_charge_of_the_police_station_if_one_holds_it(
    store: Store,
    deps: Deps,
    clock: FixedClock,
    keeper: Caller,
    x: list[str],
    y: list[str],
    told: set[int],
) -> None:
    await _officers(store, deps, x, y)
    await _reported(store, deps, clock, keeper)
    assert await _told(store, "report:KNM-1:") == {str(t) for t in told}


async def test_under_kerala_1961_with_no_office_declared_every_officer_is_told_and_may_post(
    store: Store, deps: Deps, config: Config, clock: FixedClock, keeper: Caller
) -> None:
    kerala = dataclasses.replace(deps, config=under(config, "kerala-1961"))
    await _officers(store, kerala, [], [])
    await _reported(store, kerala, clock, keeper)
    assert await _told(store, "report:KNM-1:") == {str(X), str(Y)}
    clock.set(at(10))
    await _say(store, kerala, Y, NOTICE)
    assert await _stage(store) is Stage.NOTICE_POSTED


@pytest.mark.parametrize(
    ("x", "told"),
    [
        pytest.param(["police_station"], {X}, id="s.14-holder"),
        pytest.param(["secretary"], {X, Y}, id="s.14-none-holds"),
    ],
)
async def test_reminders_of_the_report_and_the_notice_go_to_the_holder_of_the_office(
    store: Store,
    deps: Deps,
    config: Config,
    clock: FixedClock,
    keeper: Caller,
    x: list[str],
    told: set[int],
) -> None:
    """s.14 paras 1-2: the report overdue (from the 10th) and, once it is made, the
    notice not yet posted are the police station's: its holder is reminded, not the
    District Magistrate (Y); with no holder, both officers are."""
    await _officers(store, deps, x, ["district_magistrate"])
    clock.set(at(1))
    await _say(store, deps, keeper, SEIZE)
    clock.set(at(10, 8))
    await remind_once(store, config, "test", breather=0)
    clock.set(at(10, 11))
    await _say(store, deps, keeper, "REPORT KNM-1")
    clock.set(at(11, 8))
    await remind_once(store, config, "test", breather=0)
    async with store.transaction() as tx:
        rows = await tx.session.execute(
            select(OutboxRow.recipient, OutboxRow.body)
            .where(OutboxRow.idempotency_key.startswith("rem:"))
            .order_by(OutboxRow.id)
        )
        reminded = [(int(recipient), body) for recipient, body in rows]
    overdue = {who for who, body in reminded if "has not yet reported" in body}
    notice = {who for who, body in reminded if "send NOTICE KNM-1" in body}
    assert (overdue, notice) == (told, told)
    assert len(reminded) == 2 * len(told)


# -- who may act -------------------------------------------------------------------------


async def test_the_district_magistrate_is_refused_the_notice_and_the_police_station_posts_it(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller
) -> None:
    """s.14 para 2: the notice is the police station's. Y, who holds the District
    Magistrate's office, is refused, naming the office, and nothing changes; X posts it."""
    await _officers(store, deps, ["police_station"], ["district_magistrate"])
    await _reported(store, deps, clock, keeper)
    clock.set(at(10))
    refused = await _say(store, deps, Y, NOTICE)
    assert "the officer in charge of the nearest police station" in refused
    assert await _stage(store) is Stage.REPORTED
    await _say(store, deps, X, NOTICE)
    assert await _stage(store) is Stage.NOTICE_POSTED


async def test_with_no_holder_of_the_police_stations_office_any_officer_posts_the_notice(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller
) -> None:
    await _officers(store, deps, ["district_magistrate"], ["secretary"])
    await _reported(store, deps, clock, keeper)
    clock.set(at(10))
    await _say(store, deps, Y, NOTICE)
    assert await _stage(store) is Stage.NOTICE_POSTED


async def test_under_kerala_1961_a_declared_director_is_refused_what_is_the_local_authoritys(
    store: Store, deps: Deps, config: Config, clock: FixedClock, keeper: Caller
) -> None:
    """Kerala s.13(2): the notice is the local authority's, which an officer who declares
    no office stands for: the Director (X) is refused it, Y posts it."""
    kerala = dataclasses.replace(deps, config=under(config, "kerala-1961"))
    await _officers(store, kerala, ["director"], [])
    await _reported(store, kerala, clock, keeper)
    clock.set(at(10))
    assert "the local authority" in await _say(store, kerala, X, NOTICE)
    assert await _stage(store) is Stage.REPORTED
    await _say(store, kerala, Y, NOTICE)
    assert await _stage(store) is Stage.NOTICE_POSTED


# -- declaring offices -------------------------------------------------------------------


async def test_an_invite_grants_its_offices_to_the_user_it_makes(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    async with case_store.transaction() as tx:
        made = await admin.create_invite(
            tx, deps, Caller.system(), role="officer", authority="KNM-GP", offices=["magistrate"]
        )
        user = await admin.accept_invite(tx, deps, made.code, telegram_id=301, name="", lang="en")
        assert user.offices == "magistrate"
        assert await tx.offices_held("KNM-GP") == frozenset({Office.MAGISTRATE})


async def test_offices_are_declared_again_and_an_officer_with_none_stands_for_the_authority(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    async with case_store.transaction() as tx:
        user = await admin.add_user(
            tx,
            deps,
            Caller.system(),
            role="officer",
            authority="KNM-GP",
            telegram_id=X,
            offices=["secretary", "district_magistrate"],
        )
        assert user.offices == "secretary,district_magistrate"  # in the order of Office
        assert await tx.offices_held("KNM-GP") == {Office.SECRETARY, Office.DISTRICT_MAGISTRATE}
        await admin.set_offices(tx, deps, Caller.system(), user.id, [])
        assert await tx.offices_held("KNM-GP") == {
            Office.LOCAL_AUTHORITY,
            Office.SECRETARY,
            Office.SPECIFIED_OFFICER,
        }
        assert await tx.offices_held("ENM-GP") == frozenset()


@pytest.mark.parametrize(
    ("role", "place", "office"),
    [
        ("keeper", {"pound": "KNM"}, "police_station"),
        ("officer", {"authority": "KNM-GP"}, "pound_keeper"),
        ("officer", {"authority": "KNM-GP"}, "collector"),
        ("admin", {}, "director"),
    ],
)
async def test_an_office_the_role_cannot_hold_is_refused(
    case_store: Store | MemoryStore, deps: Deps, role: str, place: dict[str, str], office: str
) -> None:
    async with case_store.transaction() as tx:
        with pytest.raises(BadInputError):
            await admin.add_user(tx, deps, Caller.system(), role=role, offices=[office], **place)
        assert await tx.active_users() == []


@pytest.mark.parametrize(
    ("x", "told"),
    [
        pytest.param(["police_station"], {X}, id="s.14-para-1-holder"),
        pytest.param(["secretary"], {X, Y}, id="s.14-para-1-none-holds"),
    ],
)
async def test_a_morning_digest_goes_to_the_holder_of_the_office(
    store: Store,
    deps: Deps,
    config: Config,
    clock: FixedClock,
    keeper: Caller,
    x: list[str],
    told: set[int],
) -> None:
    """Four reports overdue on one morning: one digest, to the officer in charge of the
    police station (s.14 para 1); with no holder, to both officers."""
    await _officers(store, deps, x, ["district_magistrate"])
    clock.set(at(1))
    for _ in range(4):
        await _say(store, deps, keeper, SEIZE)
    clock.set(at(9, 20))  # planned the evening before: the morning's round
    await remind_once(store, config, "test", breather=0)
    clock.set(at(10, 8))
    await remind_once(store, config, "test", breather=0)
    async with store.transaction() as tx:
        rows = await tx.session.execute(
            select(OutboxRow.recipient, OutboxRow.body).where(
                OutboxRow.idempotency_key.startswith("rem:")
            )
        )
        reminded = [(int(recipient), body) for recipient, body in rows]
    assert sorted(who for who, _ in reminded) == sorted(told)
    assert all(body.startswith("Deadlines on 10 Mar 2026") for _, body in reminded)
