"""As many as may be necessary (s.15(1)), both ways: on the owner's route a sale that has
not met the dues is not settled while heads remain to offer; heads offered and not sold
stay, and are offered again at another auction; until the dues are met the owner may
take the rest by paying what the proceeds left owed (s.12), with the account (s.15(3))
and a receipt (s.15(4)); DUES tells what the proceeds met (s.15(2)).

The sample case: 3 cows (fine ₹750 each, feeding ₹120.50 a head a day, both days
counted) brought in on 1 March 2026; the owner refuses to pay on 3 March; the auction
is fixed for 6 March with ₹500 of expected expenses of sale.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from sqlalchemy import select

from bot.conversation.reply import handle_text
from bot.services import keeper as k
from bot.services.base import Deps, statement_of
from bot.store.models import LedgerEntry, OutboxRow, Payment
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.case import Case
from domain.events import ClaimedAndPaid, SaleClosed
from domain.money import Money
from domain.s07_seizure import Lot
from domain.stages import Stage
from tests.service.helpers import seizure

MARKET = "Kunnamangalam market"
OWNER_PHONE = "+919847099999"
BUYER = "TO Mammu, Chathamangalam DECLARED"


def at(day: int) -> datetime:
    return datetime(2026, 3, day, 11, 0, tzinfo=LOCAL_TZ)


async def say(store: Store, deps: Deps, caller: Caller, line: str, *, sms: bool = False) -> str:
    async with store.transaction() as tx:
        return (await handle_text(tx, deps, caller, line, sms=sms)).text


async def case_of(store: Store) -> Case:
    async with store.transaction() as tx:
        return (await tx.load_case("KNM-1")).case


def english(caller: Caller) -> Caller:
    return dataclasses.replace(caller, lang="en")


def owner(lang: str = "en") -> Caller:
    return Caller.public("test", phone=OWNER_PHONE, lang=lang)


async def one_of_three_sold(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    """Three cows; the owner refuses on 3 March; on 6 March one is sold for ₹2,999.99
    (dues ₹4,419 and expected expenses ₹500: ₹1,919.01 still owed) and the other two
    are offered and not sold."""
    async with store.transaction() as tx:
        cows = seizure(lots=(Lot("cow", 3, "brown"),))
        await k.record_seizure(tx, deps, keeper, cows, owner_phone=OWNER_PHONE)
    clock.set(at(3))
    assert "KNM-1" in await say(store, deps, keeper, "REFUSED KNM-1")
    await say(store, deps, officer, f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET} EXPENSES 500")
    clock.set(at(6))
    sold = await say(store, deps, officer, f"SOLD KNM-1 1 1 2999.99 {BUYER}")
    assert "still owed ₹1,919.01" in sold, sold
    unsold = await say(store, deps, officer, "UNSOLD KNM-1 1 2")
    assert "offered and not sold" in unsold, unsold


async def ledger_rows(store: Store) -> list[tuple[str, int, str]]:
    async with store.transaction() as tx:
        rows = (await tx.session.execute(select(LedgerEntry).order_by(LedgerEntry.id))).scalars()
        return [(r.account, r.amount_paise, r.provision) for r in rows]


async def test_settle_is_refused_while_the_dues_are_unmet_and_heads_remain_s15_1(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await one_of_three_sold(store, deps, keeper, officer, clock)
    before = await case_of(store)
    for expenses, short in (("500", "₹1,919.01"), ("0", "₹1,419.01"), ("800", "₹2,219.01")):
        refused = await say(store, deps, officer, f"SETTLE KNM-1 {expenses}")
        assert refused.startswith("Not settled"), refused
        assert short in refused, refused
        assert "2 cows" in refused or "2 head" in refused, refused
        assert "AUCTION" in refused, refused
        assert "PAID" in refused, refused
        assert refused.endswith("(s.15(1))"), refused
        assert (await case_of(store)).events == before.events
        assert await ledger_rows(store) == []
    for lang in ("ml", "ta", "kn"):
        other = await say(store, deps, dataclasses.replace(officer, lang=lang), "SETTLE KNM-1 500")
        assert "Not settled" not in other, other
        assert "1,919.01" in other, other
        assert "15(1)" in other, other
    assert (await case_of(store)).events == before.events
    # Nothing is delivered back: DUES still asks the owner for the rest.
    dues = await say(store, deps, owner(), "DUES KNM-1")
    assert "settled" not in dues, dues


async def test_unsold_heads_stay_their_charges_run_and_another_auction_is_fixed_s15_1(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await one_of_three_sold(store, deps, keeper, officer, clock)
    again = await say(store, deps, officer, f"AUCTION KNM-1 ON 10-03-2026 AT {MARKET}")
    assert "Public auction on 10 Mar 2026" in again, again
    assert "(s.15(1))" in again, again
    case = await case_of(store)
    assert case.stage is Stage.SELLING
    assert case.scheduled_auction is not None
    assert case.scheduled_auction.auction_on.day == 10
    clock.set(at(8))
    early = await say(store, deps, officer, f"SOLD KNM-1 1 1 3000 {BUYER}")
    assert "The auction is fixed for 10 Mar 2026" in early, early
    # Two cows fed to the 8th: ₹4,901 of dues and ₹500 of expenses, less ₹2,999.99.
    st = statement_of(deps, await case_of(store), at(8).date())
    assert st.sale is not None
    assert st.sale.still_owed == Money(240101)
    assert st.per_day == Money(24100)
    clock.set(at(10))
    sold = await say(store, deps, officer, f"SOLD KNM-1 1 1 3000 {BUYER}")
    assert "stop selling" in sold, sold
    settled = await say(store, deps, officer, "SETTLE KNM-1 500")
    assert "sale settled" in settled, settled
    assert (await case_of(store)).stage is Stage.ACCOUNT_DUE


async def test_the_owner_takes_the_rest_by_paying_what_the_proceeds_left_owed_s12(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer, keeper = english(officer), english(keeper)
    await one_of_three_sold(store, deps, keeper, officer, clock)
    clock.set(at(8))
    # DUES: what the proceeds met, and what remains to pay to take the rest (s.15(2), s.12).
    for sms in (False, True):
        dues = await say(store, deps, owner(), "DUES KNM-1", sms=sms)
        assert "2,999.99" in dues, dues
        assert "2,401.01" in dues, dues
    wrong = await say(store, deps, keeper, "PAID KNM-1 4901")
    assert wrong.startswith("Not recorded"), wrong
    assert "₹2,401.01" in wrong, wrong
    assert (await case_of(store)).stage is Stage.SELLING
    assert await ledger_rows(store) == []
    paid = await say(store, deps, keeper, "PAID KNM-1 2401.01")
    assert "₹2,401.01" in paid, paid
    assert "2 cows" in paid, paid
    assert "s.15(4)" in paid, paid
    assert "(d) Number of cattle sold: 1" in paid, paid  # the s.15(3) account is given
    case = await case_of(store)
    assert case.stage is Stage.RELEASED
    assert isinstance(case.events[-2], SaleClosed)
    assert isinstance(case.events[-1], ClaimedAndPaid)
    assert case.events[-1].paid == Money(240101)
    # To the paisa: the fines to the fund (s.17(1)), the feeding to the keeper (s.16(2)),
    # the expenses met (s.15(2)); the proceeds and the payment, nothing more, nothing less.
    rows = await ledger_rows(store)
    balance: dict[str, int] = {}
    for account, paise, _ in rows:
        balance[account] = balance.get(account, 0) + paise
    assert balance.get("fines", 0) == 0
    assert balance["fund"] == 225000
    assert balance["keeper_feeding"] == 72300 + 192800
    assert balance["sale_expenses"] == 50000
    assert sum(balance.values()) == 299999 + 240101
    async with store.transaction() as tx:
        payments = (await tx.session.execute(select(Payment))).scalars().all()
        to_owner = (
            (await tx.session.execute(select(OutboxRow).where(OutboxRow.recipient == OWNER_PHONE)))
            .scalars()
            .all()
        )
    assert [(p.kind, p.amount_paise) for p in payments] == [("payment", 240101)]
    told = [row.body for row in to_owner if "2,401.01" in row.body]  # the account (s.15(3))
    assert told, [row.body for row in to_owner]
    assert "15(4)" in told[-1], told
    assert "2,999.99" in told[-1], told
    st = statement_of(deps, case, at(8).date())
    assert st.account is not None
    assert st.met_by_sale == Money(299999)
    assert st.paid == Money(240101)
    assert st.owed == Money.zero()
    # Nothing more is due; DUES and STATUS say what was paid, and what the sale met.
    after = await say(store, deps, owner(), "DUES KNM-1", sms=True)
    assert "2,401.01" in after, after
    status = await say(store, deps, owner(), "STATUS KNM-1")
    assert "1 of 3 head sold" in status, status
    assert "(s.12)" in status, status
    again = await say(store, deps, keeper, "PAID KNM-1")
    assert "Not" in again or "not" in again


async def test_paid_without_an_amount_takes_what_remains_owed(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer, keeper = english(officer), english(keeper)
    await one_of_three_sold(store, deps, keeper, officer, clock)
    paid = await say(store, deps, keeper, "PAID KNM-1")
    assert "₹1,919.01" in paid, paid
    assert (await case_of(store)).stage is Stage.RELEASED


async def test_once_the_proceeds_meet_the_dues_the_owner_cannot_pay_instead(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer, keeper = english(officer), english(keeper)
    async with store.transaction() as tx:
        cows = seizure(lots=(Lot("cow", 3, "brown"),))
        await k.record_seizure(tx, deps, keeper, cows, owner_phone=OWNER_PHONE)
    clock.set(at(3))
    await say(store, deps, keeper, "REFUSED KNM-1")
    await say(store, deps, officer, f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET} EXPENSES 500")
    clock.set(at(6))
    await say(store, deps, officer, f"SOLD KNM-1 1 1 6000 {BUYER}")
    refused = await say(store, deps, keeper, "PAID KNM-1")
    assert refused.startswith("The proceeds of the sale meet the dues"), refused
    assert "(s.15(1))" in refused or "(s.15(2))" in refused, refused
    assert (await case_of(store)).stage is Stage.SELLING


async def test_dues_after_a_sale_that_met_the_dues_says_so_s15_2(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    """3 heads sold for ₹6,500, more than the dues, before SETTLE: DUES says what the
    proceeds met, that nothing is owed, and that the owner cannot pay instead."""
    officer, keeper = english(officer), english(keeper)
    async with store.transaction() as tx:
        cows = seizure(lots=(Lot("cow", 3, "brown"),))
        await k.record_seizure(tx, deps, keeper, cows, owner_phone=OWNER_PHONE)
    clock.set(at(3))
    await say(store, deps, keeper, "REFUSED KNM-1")
    await say(store, deps, officer, f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET} EXPENSES 0")
    clock.set(at(6))
    await say(store, deps, officer, f"SOLD KNM-1 1 3 6500 {BUYER}")
    clock.set(at(7))
    st = statement_of(deps, await case_of(store), at(7).date())
    assert st.sale is not None
    assert st.sale.still_owed == Money.zero()
    assert st.sale.met == Money(441900)  # the dues to the day the last head was sold
    for sms in (False, True):
        dues = await say(store, deps, owner(), "DUES KNM-1", sms=sms)
        assert "₹4,419" in dues or "Rs 4,419" in dues, dues
        assert "6,500" in dues, dues
        assert "more each day" not in dues, dues
        assert "cannot pay" in dues, dues
        assert "settled" in dues, dues
    for lang in ("ml", "ta", "kn"):
        other = await say(store, deps, owner(lang), "DUES KNM-1", sms=True)
        assert "4,419" in other, other
        assert "6,500" in other, other
        assert "cannot pay" not in other, other
