"""Keeper use cases against the real store (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime

import pytest
from sqlalchemy import func, select

from bot.services import keeper as k
from bot.services.base import Deps
from bot.store.memory import MemoryStore
from bot.store.models import CaseEvent, CaseRow, LedgerEntry, Payment
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from bot.support.errors import NotAllowedError, UnknownCaseError
from domain.calendar import LOCAL_TZ
from domain.errors import FutureDateError, TooEarlyError, UnknownKindError
from domain.money import Money
from domain.s07_seizure import Lot
from domain.stages import Stage
from tests.service.helpers import seizure


async def test_a_seizure_gets_the_next_number_of_its_pound_and_the_dues_of_the_day(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller
) -> None:
    async with case_store.transaction() as tx:
        first = await k.record_seizure(tx, deps, keeper, seizure(), owner_phone="+919847000001")
    async with case_store.transaction() as tx:
        second = await k.record_seizure(tx, deps, keeper, seizure())
    assert (first.case.number, second.case.number) == ("KNM-1", "KNM-2")
    # Sample tariff 2026: cow fine 750, buffalo 500; feeding for the first day.
    assert first.dues.fines == Money.rupees(2 * 750 + 500)
    assert first.dues.feeding.paise > 0


async def test_a_refused_seizure_takes_no_number_and_stores_nothing(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    for bad, error in (
        (seizure(lots=(Lot("dragon", 1),)), UnknownKindError),
        (seizure(at=datetime(2026, 3, 2, 9, 0)), FutureDateError),
    ):
        with pytest.raises(error):
            async with store.transaction() as tx:
                await k.record_seizure(tx, deps, keeper, bad)
    async with store.transaction() as tx:
        recorded = await k.record_seizure(tx, deps, keeper, seizure())
        assert recorded.case.number == "KNM-1"
        assert await tx.session.scalar(select(func.count()).select_from(CaseRow)) == 1


async def test_a_keeper_cannot_record_for_another_pound(
    case_store: Store | MemoryStore, deps: Deps, other_keeper: Caller
) -> None:
    with pytest.raises(NotAllowedError):
        async with case_store.transaction() as tx:
            await k.record_seizure(tx, deps, other_keeper, seizure(pound="KNM"))


async def test_case_numbers_are_read_back_tolerantly(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller
) -> None:
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    for spelling in ("KNM-1", "knm 1", "KNM1", " knm-1 ", "Knm/1"):
        async with case_store.transaction() as tx:
            assert (await tx.load_case(spelling)).case.number == "KNM-1"
    with pytest.raises(UnknownCaseError):
        async with case_store.transaction() as tx:
            await tx.load_case("KNM-2")


async def test_payment_releases_the_cattle_and_splits_the_money_s12(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    clock.set(datetime(2026, 3, 4, 17, 0, tzinfo=LOCAL_TZ))
    async with store.transaction() as tx:
        paid = await k.record_payment(tx, deps, keeper, "KNM-1")
    assert paid.case.stage is Stage.RELEASED
    async with store.transaction() as tx:
        entries = (await tx.session.execute(select(LedgerEntry))).scalars().all()
        payments = (await tx.session.execute(select(Payment))).scalars().all()
    fines, feeding = paid.dues.fines.paise, paid.dues.feeding.paise
    assert [(e.account, e.amount_paise, e.provision) for e in entries] == [
        ("fines", fines, "s.12"),  # received on release
        ("keeper_feeding", feeding, "s.16(2)"),
        ("fines", -fines, "s.17(1)"),  # credited to the authority's fund
        ("fund", fines, "s.17(1)"),
    ]
    assert [p.amount_paise for p in payments] == [paid.dues.total.paise]
    # Four days (1-4 March, both included) of feeding for three heads.
    assert sum(line.days for line in paid.dues.lines if line.item.value == "feeding") == 8


async def test_the_unclaimed_report_is_refused_before_the_eighth_day_s13_1(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    clock.set(datetime(2026, 3, 8, 18, 0, tzinfo=LOCAL_TZ))
    with pytest.raises(TooEarlyError) as refused:
        async with store.transaction() as tx:
            await k.report_unclaimed(tx, deps, keeper, "KNM-1")
    assert refused.value.provision == "s.13(1)"
    clock.set(datetime(2026, 3, 9, 8, 0, tzinfo=LOCAL_TZ))
    async with store.transaction() as tx:
        reported = await k.report_unclaimed(tx, deps, keeper, "KNM-1")
    assert reported.case.stage is Stage.REPORTED


async def test_a_correction_is_logged_with_its_reason_and_updates_the_search_facts(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    fixed = seizure(lots=(Lot("cow", 3, "brown"),), place="Kunnamangalam bus stand")
    async with store.transaction() as tx:
        corrected = await k.correct_seizure(tx, deps, keeper, "KNM-1", fixed, "three cows, not two")
    assert corrected.case.seizure.head_count == 3
    async with store.transaction() as tx:
        events = (
            (await tx.session.execute(select(CaseEvent).order_by(CaseEvent.seq))).scalars().all()
        )
        row = (await tx.session.execute(select(CaseRow))).scalar_one()
    assert [e.type for e in events] == ["Impounded", "SeizureCorrected"]
    assert events[1].payload["reason"] == "three cows, not two"
    assert events[1].provision == "s.7"
    assert row.place_seized == "Kunnamangalam bus stand"


async def test_open_cases_list_days_in_pound_and_dues(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
        await k.record_seizure(tx, deps, keeper, seizure())
    clock.set(datetime(2026, 3, 5, 9, 0, tzinfo=LOCAL_TZ))
    async with case_store.transaction() as tx:
        await k.record_payment(tx, deps, keeper, "KNM-2")
    async with case_store.transaction() as tx:
        open_cases = await k.list_open_cases(tx, deps, keeper)
    # 1 to 5 March, both days charged under the sample policy ("both_included").
    assert [(c.loaded.case.number, c.figures.days_impounded) for c in open_cases] == [("KNM-1", 5)]
    assert open_cases[0].figures.on == date(2026, 3, 5)


async def test_a_report_made_too_early_is_answered_with_the_day_it_becomes_lawful(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    from bot.conversation.reply import handle_text

    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    async with store.transaction() as tx:
        english = dataclasses.replace(keeper, lang="en")
        reply = await handle_text(tx, deps, english, "REPORT KNM-1", sms=True)
        stage = (await tx.load_case("KNM-1")).case.stage
        unchosen = await handle_text(tx, deps, keeper, "REPORT KNM-1", sms=True)
    assert reply.text == "Too early: this step is lawful from 9 Mar 2026. (s.13(1))"
    assert stage is Stage.IMPOUNDED
    # A keeper who chose no language is answered in the first language of the pound.
    assert unchosen.lang == "ml"
    assert "9 മാർച്ച് 2026" in unchosen.text
