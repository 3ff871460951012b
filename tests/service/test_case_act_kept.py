"""A case keeps its Act as in force on its impounding day, and so do the texts about it
that are read from a list of rows (a reminder, the desk's Today, the ledger): when the
operator edits the authority's ``[[authorities.acts]]`` entry after the case was opened
(the days to complain 15 -> 20, the report of unclaimed cattle transferred to the local
authority by a s.31 notification), they speak of the case's own Act, not of the entry
as it now reads. Kunnamangalam (KNM-GP) applies the Cattle-trespass Act, 1871."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime, time
from types import MappingProxyType

import pytest
from sqlalchemy import select

from bot.config import Config, load_config, sample_config_path
from bot.config.model import ActInForce
from bot.reminders.dispatch import remind_once
from bot.services import admin, desk, documents
from bot.services import keeper as k
from bot.services.base import Deps
from bot.store.memory import MemoryStore
from bot.store.models import OutboxRow
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.profiles import CATTLE_TRESPASS_1871, Office, Power
from tests.service.helpers import seizure

#: The Telegram ids of the keeper of KNM and of the two officers of KNM-GP.
KEEPER_ID, X, Y = 101, 201, 202
POLICE = "to the officer in charge of the nearest police station"


def at(day: int, hour: int = 11) -> datetime:
    return datetime.combine(date(2026, 3, day), time(hour), tzinfo=LOCAL_TZ)


def entry(config: Config, act: ActInForce) -> Config:
    """``config`` with KNM-GP applying ``act`` (its entry edited in place)."""
    authority = config.authorities["KNM-GP"]._replace(acts=(act,))
    return config._replace(
        authorities=MappingProxyType({**config.authorities, "KNM-GP": authority})
    )


#: As the case is opened: the 1871 Act from 1 January 2026, fifteen days to complain.
OPENED = ActInForce(date(2026, 1, 1), CATTLE_TRESPASS_1871.key, complaint_days=15)
#: As the entry is edited later: twenty days, and the report transferred (s.31).
EDITED = OPENED._replace(complaint_days=20, transferred=frozenset({Power.RECEIVE_REPORT}))


@pytest.fixture
def config() -> Config:
    return entry(load_config(sample_config_path()), OPENED)


async def _opened_then_edited(store: Store, deps: Deps, keeper: Caller) -> Deps:
    """The keeper of KNM and the officers X (police station) and Y (District Magistrate)
    registered on Telegram; KNM-1 brought in on 1 March and paid for, its fines in the
    ledger; then the entry edited: the deps as they are after."""
    async with store.transaction() as tx:
        await admin.add_user(
            tx,
            deps,
            Caller.system(),
            role="keeper",
            pound="KNM",
            telegram_id=KEEPER_ID,
            lang="en",
        )
        for telegram_id, office in ((X, "police_station"), (Y, "district_magistrate")):
            await admin.add_user(
                tx,
                deps,
                Caller.system(),
                role="officer",
                authority="KNM-GP",
                telegram_id=telegram_id,
                lang="en",
                offices=[office],
            )
        await k.record_seizure(tx, deps, keeper, seizure())
        await k.record_seizure(tx, deps, keeper, seizure())
    async with store.transaction() as tx:
        await k.record_payment(tx, deps, keeper, "KNM-2")
    return dataclasses.replace(deps, config=entry(deps.config, EDITED))


async def test_a_reminder_speaks_of_the_cases_own_act_and_goes_to_its_office(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller
) -> None:
    """s.14 para 1: the report of KNM-1 is to the officer in charge of the police
    station, as on its impounding day: the keeper is reminded to make it to them, and
    when it is overdue X, who holds that office, is told, not Y."""
    clock.set(at(1, 10))
    edited = await _opened_then_edited(store, deps, keeper)
    for day in range(2, 11):
        clock.set(at(day, 8))
        await remind_once(store, edited.config, "test", breather=0)
    async with store.transaction() as tx:
        rows = await tx.session.execute(
            select(OutboxRow.recipient, OutboxRow.body).where(
                OutboxRow.idempotency_key.startswith("rem:")
            )
        )
        reminded = [(int(recipient), body) for recipient, body in rows]
    keepers = [body for who, body in reminded if who == KEEPER_ID]
    assert any(POLICE in body for body in keepers), keepers
    assert not any("to the local authority" in body for body in keepers), keepers
    overdue = {who for who, body in reminded if "has not yet reported" in body}
    assert overdue == {X}


async def test_todays_rows_and_the_ledger_carry_the_cases_own_act(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller
) -> None:
    clock.set(at(1, 10))
    edited = await _opened_then_edited(store, deps, keeper)
    officer = Caller(role="officer", channel="test", authority="KNM-GP")
    clock.set(at(10))
    async with store.transaction() as tx:
        today = await desk.today(tx, edited, officer)
        ledger = await documents.ledger_document(
            tx, edited, officer, date(2026, 3, 1), date(2026, 4, 1)
        )
    rows = [item for item in today.due if item.number == "KNM-1"]
    assert rows
    for item in rows:
        assert item.act.complaint_days == 15
        assert item.act.office_for(Power.RECEIVE_REPORT) is Office.POLICE_STATION
    assert ledger.acts["KNM-2"].complaint_days == 15
    assert ledger.acts["KNM-2"].office_for(Power.RECEIVE_REPORT) is Office.POLICE_STATION


async def test_the_store_reads_the_act_each_case_keeps(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller
) -> None:
    """``case_acts``: the Act of each case named that exists, from its intake, as the
    fold of the case has it."""
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    async with case_store.transaction() as tx:
        acts = await tx.case_acts({"KNM-1", "KNM-9"})
        case = (await tx.load_case("KNM-1")).case
    assert acts == {"KNM-1": case.profile}
    assert (acts["KNM-1"].key, acts["KNM-1"].complaint_days) == (CATTLE_TRESPASS_1871.key, 15)
