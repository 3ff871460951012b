"""Officer use cases: notice, auction, settlement, deposit register, ledger; on the fake in
memory and on each database (``case_store``)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from bot.services import desk
from bot.services import keeper as k
from bot.services import officer as o
from bot.services import public as p
from bot.services.base import Deps
from bot.store.memory import MemoryStore
from bot.store.models import User
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.errors import BarredBuyerError, NotAuctionDayError, TooEarlyError
from domain.money import Money
from domain.s07_seizure import Person
from domain.stages import Stage
from tests.service.helpers import seizure, to_notice


def at(day: int, month: int = 3, year: int = 2026) -> datetime:
    return datetime(year, month, day, 11, 0, tzinfo=LOCAL_TZ)


async def test_the_whole_unclaimed_chain_ends_with_every_paisa_in_the_fund(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await to_notice(case_store, deps, keeper, officer, clock)
    with pytest.raises(TooEarlyError) as early:
        async with case_store.transaction() as tx:
            await o.schedule_auction(
                tx, deps, officer, "KNM-1", auction_on=at(17).date(), place="m"
            )
    assert early.value.provision == "s.13(3)"
    async with case_store.transaction() as tx:
        await o.schedule_auction(tx, deps, officer, "KNM-1", auction_on=at(18).date(), place="m")
    clock.set(at(17))
    with pytest.raises(NotAuctionDayError) as early_lot:
        async with case_store.transaction() as tx:
            await o.record_lot(
                tx,
                deps,
                officer,
                "KNM-1",
                lot=0,
                count=2,
                price=Money.rupees(40000),
                buyer=Person("Mammu"),
                buyer_role=None,
                declared_not_barred=True,
            )
    assert early_lot.value.provision == "s.13(3)"
    clock.set(at(18))
    async with case_store.transaction() as tx:
        _, progress = await o.record_lot(
            tx,
            deps,
            officer,
            "KNM-1",
            lot=0,
            count=2,
            price=Money.rupees(40000),
            buyer=Person("Mammu"),
            buyer_role=None,
            declared_not_barred=True,
        )
    assert not progress.stop  # s.13(3): unclaimed cattle are all sold
    async with case_store.transaction() as tx:
        _, progress = await o.record_lot(
            tx,
            deps,
            officer,
            "KNM-1",
            lot=1,
            count=1,
            price=Money.rupees(30000),
            buyer=Person("Beeran"),
            buyer_role=None,
            declared_not_barred=True,
        )
    assert progress.stop
    async with case_store.transaction() as tx:
        settled = await o.settle_sale(tx, deps, officer, "KNM-1", expenses=Money.rupees(1500))
    assert settled.recorded.case.stage is Stage.IN_DEPOSIT
    assert settled.account.cattle_sold == 3
    assert settled.account.proceeds == Money.rupees(70000)
    async with case_store.transaction() as tx:
        register = await o.deposit_register(tx, deps, officer)
    assert [(e.number, e.window_end) for e in register] == [("KNM-1", date(2026, 6, 18))]
    async with case_store.transaction() as tx:  # and the web desk shows it so
        today = await desk.today(tx, deps, officer)
        listed = await desk.list_cases(tx, deps, officer, desk.CaseFilter(stage="in_deposit"))
        view = await desk.case_view(tx, deps, officer, "KNM-1")
    assert [(d.number, d.amount, d.window_end) for d in today.deposits] == [
        ("KNM-1", register[0].amount, date(2026, 6, 18))
    ]
    assert today.held == register[0].amount
    assert ([i.number for i in listed.items], listed.total) == (["KNM-1"], 1)
    assert [e.type for e in view.timeline] == [
        "Impounded",
        "ReportedUnclaimed",
        "NoticePosted",
        "AuctionScheduled",
        "LotOffered",
        "LotOffered",
        "SaleClosed",
    ]
    assert sum(e.amount_paise for e in view.ledger) == Money.rupees(70000).paise
    clock.set(at(18, 6))
    with pytest.raises(TooEarlyError):
        async with case_store.transaction() as tx:
            await o.credit_deposit_to_fund(tx, deps, officer, "KNM-1")
    clock.set(at(19, 6))
    async with case_store.transaction() as tx:
        await o.credit_deposit_to_fund(tx, deps, officer, "KNM-1")
        entries = await o.ledger(tx, deps, officer)
    totals: dict[str, int] = {}
    for entry in entries:
        totals[entry.account] = totals.get(entry.account, 0) + entry.amount_paise
    assert sum(v for a, v in totals.items()) == Money.rupees(70000).paise
    assert totals["surplus_deposit"] == 0
    fines = sum(e.amount_paise for e in entries if (e.account, e.provision) == ("fines", "s.16(1)"))
    assert totals["fines"] == 0  # the fines deducted (s.16(1)) went on to the fund (s.17(1))
    assert totals["fund"] == register[0].amount.paise + fines
    async with case_store.transaction() as tx:
        assert (await o.deposit_register(tx, deps, officer)) == []
        answer = await p.outcome(tx, deps, "KNM-1")
    assert answer.facts.stage is Stage.CLOSED
    assert answer.account is not None
    assert answer.account.cattle_sold == 3


async def test_owner_who_will_not_pay_sees_only_as_many_sold_as_needed_s15_1(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    clock.set(at(3))
    async with case_store.transaction() as tx:
        await k.record_owner_refusal(tx, deps, keeper, "KNM-1")
        await o.schedule_auction(tx, deps, officer, "KNM-1", auction_on=at(6).date(), place="m")
    clock.set(at(6))
    async with case_store.transaction() as tx:
        _, progress = await o.record_lot(
            tx,
            deps,
            officer,
            "KNM-1",
            lot=1,
            count=1,
            price=Money.rupees(25000),
            buyer=Person("Beeran"),
            buyer_role=None,
            declared_not_barred=True,
        )
    assert progress.stop
    assert progress.still_owed == Money.zero()
    async with case_store.transaction() as tx:
        settled = await o.settle_sale(tx, deps, officer, "KNM-1", expenses=Money.rupees(500))
    assert settled.recorded.case.stage is Stage.ACCOUNT_DUE
    assert settled.account.cattle_remaining == 2
    async with case_store.transaction() as tx:
        delivered = await o.record_account_delivered(
            tx, deps, officer, "KNM-1", received_by="Kunhammed P."
        )
    assert delivered.case.stage is Stage.CLOSED


async def test_a_registered_keeper_cannot_buy_at_the_sale_s18(
    case_store: Store | MemoryStore,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    clock: FixedClock,
    admin: Caller,
) -> None:
    from bot.services.admin import add_user

    async with case_store.transaction() as tx:
        if isinstance(case_store, MemoryStore):  # the fake holds users, it does not manage them
            tx.add_row(User(role="keeper", pound_code="KNM", name="Velayudhan", active=True))
        else:
            await add_user(tx, deps, admin, role="keeper", pound="KNM", name="Velayudhan")
    await to_notice(case_store, deps, keeper, officer, clock)
    async with case_store.transaction() as tx:
        await o.schedule_auction(tx, deps, officer, "KNM-1", auction_on=at(18).date(), place="m")
    clock.set(at(18))
    with pytest.raises(BarredBuyerError) as barred:
        async with case_store.transaction() as tx:
            await o.record_lot(
                tx,
                deps,
                officer,
                "KNM-1",
                lot=0,
                count=1,
                price=Money.rupees(20000),
                buyer=Person("velayudhan"),
                buyer_role=None,
                declared_not_barred=True,
            )
    assert barred.value.provision == "s.18"
