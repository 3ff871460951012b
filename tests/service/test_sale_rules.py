"""The sale at its edges, through the dispatcher as an officer types it (issue 12, A):
no more heads than necessary (s.15(1)), the expenses of sale in what is owed (s.15(2)),
the day fixed (s.13(3), s.15(1)), paper records entered late, barred buyers (s.18).

The sample case: 2 cows and 1 buffalo brought in on 1 March 2026 (KNM-1); on the
owner's route the owner refuses to pay on 3 March.
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime

from sqlalchemy import select

from bot.conversation.reply import handle_text
from bot.i18n import fmt
from bot.services import keeper as k
from bot.services.admin import add_user
from bot.services.base import Deps
from bot.store.models import LedgerEntry, OutboxRow, SaleLot
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.case import Case
from domain.events import AuctionScheduled, LotOffered, SaleClosed, SaleExpensesStated
from domain.money import Money
from domain.s04_s11_dues import dues_on
from domain.stages import Stage
from tests.service.helpers import seizure

MARKET = "Kunnamangalam market"
OWNER_PHONE = "+919847099999"


def at(day: int, month: int = 3) -> datetime:
    return datetime(2026, month, day, 11, 0, tzinfo=LOCAL_TZ)


async def say(store: Store, deps: Deps, caller: Caller, line: str) -> str:
    async with store.transaction() as tx:
        return (await handle_text(tx, deps, caller, line, sms=False)).text


async def case_of(store: Store) -> Case:
    async with store.transaction() as tx:
        return (await tx.load_case("KNM-1")).case


def english(caller: Caller) -> Caller:
    return dataclasses.replace(caller, lang="en")


async def owner_refused(store: Store, deps: Deps, keeper: Caller, clock: FixedClock) -> None:
    """KNM-1 brought in on 1 March; the owner appears and refuses to pay on 3 March."""
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    clock.set(at(3))
    async with store.transaction() as tx:
        await k.record_owner_refusal(tx, deps, keeper, "KNM-1")


async def unclaimed_noticed(store: Store, deps: Deps, keeper: Caller, officer: Caller) -> None:
    """KNM-1 brought in on 1 March, reported on 9 March, notice on 10 March (s.13); the
    owner's phone was given."""
    clock = deps.clock
    assert isinstance(clock, FixedClock)
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure(), owner_phone=OWNER_PHONE)
    clock.set(at(9))
    async with store.transaction() as tx:
        await k.report_unclaimed(tx, deps, keeper, "KNM-1")
    clock.set(at(10))
    reply = await say(store, deps, officer, f"NOTICE KNM-1 AT Kunnamangalam, {MARKET}")
    assert (await case_of(store)).stage is Stage.NOTICE_POSTED, reply


def dues_then(case: Case, deps: Deps, day: date) -> Money:
    return dues_on(case, deps.tariff("KNM"), day).total


# --- 1. s.15(1): no more heads than necessary ------------------------------------------


async def test_s15_1_once_the_proceeds_meet_the_dues_a_further_sold_is_refused(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await owner_refused(store, deps, keeper, clock)
    await say(store, deps, officer, f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET} EXPENSES 500")
    clock.set(at(6))
    first = await say(
        store, deps, officer, "SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam DECLARED"
    )
    assert "stop selling" in first
    second = await say(
        store, deps, officer, "SOLD KNM-1 1 1 20000 TO Beeran, Kunnamangalam DECLARED"
    )
    assert "Enough is sold" in second
    assert second.endswith("(s.15(1))")
    unsold = await say(store, deps, officer, "UNSOLD KNM-1 2 1")
    assert unsold.endswith("(s.15(1))")
    # Asked before the buyer's declaration: enough is sold whoever the buyer is.
    undeclared = await say(store, deps, officer, "SOLD KNM-1 1 1 20000 TO Beeran, Perla")
    assert undeclared.startswith("Enough is sold")
    case = await case_of(store)
    assert case.heads_remaining == 2
    assert case.proceeds == Money.rupees(25000)
    async with store.transaction() as tx:
        lots = (await tx.session.execute(select(SaleLot))).scalars().all()
    assert [(lot.count, lot.price_paise) for lot in lots] == [(1, 2500000)]
    # The rest go back to the owner with the account.
    settled = await say(store, deps, officer, "SETTLE KNM-1 500")
    assert "Deliver the remaining cattle and the balance to the owner" in settled
    after = await case_of(store)
    assert after.stage is Stage.ACCOUNT_DUE


async def test_s13_3_unclaimed_cattle_are_all_sold_whatever_the_dues(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await unclaimed_noticed(store, deps, keeper, officer)
    await say(store, deps, officer, f"AUCTION KNM-1 ON 18-03-2026 AT {MARKET}")
    clock.set(at(18))
    await say(store, deps, officer, "SOLD KNM-1 1 1 60000 TO Mammu, Chathamangalam DECLARED")
    reply = await say(
        store, deps, officer, "SOLD KNM-1 1 1 50000 TO Beeran, Kunnamangalam DECLARED"
    )
    assert "Go on: unclaimed cattle are all sold (s.13(3))" in reply
    assert (await case_of(store)).heads_remaining == 1


# --- 2. s.15(2): "necessary" counts the expenses of sale -------------------------------


async def test_s15_2_still_owed_counts_the_expected_expenses_of_sale(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await owner_refused(store, deps, keeper, clock)
    fixed = await say(
        store, deps, officer, f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET} EXPENSES 1500"
    )
    assert "Expected expenses of sale ₹1,500," in fixed
    event = (await case_of(store)).scheduled_auction
    assert isinstance(event, AuctionScheduled)
    assert event.expected_expenses == Money.rupees(1500)
    clock.set(at(6))
    dues = dues_then(await case_of(store), deps, date(2026, 3, 6))
    # A lot that fetches exactly the dues leaves the expected expenses owed: go on.
    price = dues.paise // 100 + 1  # rupees, a little over the dues (a head less fed)
    reply = await say(
        store, deps, officer, f"SOLD KNM-1 2 1 {price} TO Mammu, Chathamangalam DECLARED"
    )
    case = await case_of(store)
    owed = dues_then(case, deps, date(2026, 3, 6)) + Money.rupees(1500) - case.proceeds
    assert owed.paise > 0
    assert f"still owed {fmt.money(owed, 'en', sms=False)};" in reply
    assert "Go on: sell only as many as are needed" in reply


async def test_s15_2_the_authority_default_applies_when_no_expenses_are_given(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await owner_refused(store, deps, keeper, clock)
    await say(store, deps, officer, f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET}")
    assert (await case_of(store)).expected_expenses == (
        deps.config.authorities["KNM-GP"].expected_sale_expenses
    )
    assert deps.config.authorities["KNM-GP"].expected_sale_expenses == Money.rupees(500)


async def test_s15_2_actual_expenses_that_leave_dues_unmet_let_one_more_head_be_sold(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await owner_refused(store, deps, keeper, clock)
    await say(store, deps, officer, f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET} EXPENSES 500")
    clock.set(at(6))
    case = await case_of(store)
    # The buffalo fetches the dues and the expected expenses, and Rs 100 more.
    probe = dues_then(case, deps, date(2026, 3, 6))
    price = Money.rupees(probe.paise // 100 + 600)
    rupees = price.paise // 100
    stop = await say(
        store, deps, officer, f"SOLD KNM-1 2 1 {rupees} TO Mammu, Chathamangalam DECLARED"
    )
    assert "stop selling" in stop, stop
    # The crier and the auctioneer cost Rs 1,419: the dues are short by Rs 919.
    short = await say(store, deps, officer, "SETTLE KNM-1 1419")
    case = await case_of(store)
    dues = dues_then(case, deps, date(2026, 3, 6))
    expected_short = dues + Money.rupees(1419) - case.proceeds
    assert expected_short.paise > 0
    assert "Not settled" in short
    assert f"short of the dues by {fmt.money(expected_short, 'en', sms=False)}," in short
    assert "2 head of cattle remain" in short
    assert case.stage is Stage.SELLING
    assert isinstance(case.events[-1], SaleExpensesStated)
    assert case.expected_expenses == Money.rupees(1419)
    async with store.transaction() as tx:
        assert (await tx.session.execute(select(LedgerEntry))).first() is None
    # One more head may be sold; then the dues are met and the sale settles.
    more = await say(store, deps, officer, "SOLD KNM-1 1 1 20000 TO Beeran, Kunnamangalam DECLARED")
    assert "stop selling" in more
    settled = await say(store, deps, officer, "SETTLE KNM-1 1419")
    assert "Not met by the proceeds" not in settled
    closed = await case_of(store)
    assert closed.stage is Stage.ACCOUNT_DUE
    last = closed.last(SaleClosed)
    assert isinstance(last, SaleClosed)
    assert last.expenses == Money.rupees(1419)


async def test_s15_1_settling_again_with_the_same_expenses_is_refused_while_heads_remain(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    """s.15(1), "as many as may be necessary": the expenses recorded, a second SETTLE
    with the dues still unmet and heads left is refused, and changes nothing."""
    officer = english(officer)
    await owner_refused(store, deps, keeper, clock)
    await say(store, deps, officer, f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET} EXPENSES 0")
    clock.set(at(6))
    probe = dues_then(await case_of(store), deps, date(2026, 3, 6))
    rupees = probe.paise // 100 + 100
    await say(store, deps, officer, f"SOLD KNM-1 2 1 {rupees} TO Mammu, Chathamangalam DECLARED")
    assert "Not settled" in await say(store, deps, officer, "SETTLE KNM-1 1000")
    events = (await case_of(store)).events
    again = await say(store, deps, officer, "SETTLE KNM-1 1000")
    assert again.startswith("Not settled: the proceeds of"), again
    assert again.endswith("(s.15(1))"), again
    assert (await case_of(store)).events == events
    assert (await case_of(store)).stage is Stage.SELLING


# --- 3. s.13(3), s.15(1): the sale is held on the day fixed -----------------------------


async def test_sold_with_no_auction_fixed_is_refused_asking_to_fix_one(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await owner_refused(store, deps, keeper, clock)
    reply = await say(
        store, deps, officer, "SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam DECLARED"
    )
    assert reply.startswith("No auction is fixed for this case")
    assert "AUCTION" in reply
    assert reply.endswith("(s.15(1))")
    unsold = await say(store, deps, officer, "UNSOLD KNM-1 1 1")
    assert unsold.startswith("No auction is fixed")
    assert (await case_of(store)).stage is Stage.OWNER_REFUSED


async def test_sold_before_the_fixed_day_is_refused_with_the_day_fixed_and_refixing_works(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await owner_refused(store, deps, keeper, clock)
    await say(store, deps, officer, f"AUCTION KNM-1 ON 09-03-2026 AT {MARKET}")
    early = await say(
        store, deps, officer, "SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam DECLARED"
    )
    assert "The auction is fixed for 9 Mar 2026 at Kunnamangalam market" in early
    assert "ON 09-03-2026" in early
    assert early.endswith("(s.15(1))")
    assert (await case_of(store)).stage is Stage.OWNER_REFUSED
    # Fixed again for an earlier day: on that day the sale goes ahead.
    clock.set(at(4))
    await say(store, deps, officer, f"AUCTION KNM-1 ON 05-03-2026 AT {MARKET}")
    clock.set(at(5))
    sold = await say(store, deps, officer, "SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam DECLARED")
    assert "Lot 1: 1 cow sold for ₹25,000 to Mammu, Chathamangalam." in sold
    assert (await case_of(store)).stage is Stage.SELLING


async def test_s13_3_the_auction_cannot_be_refixed_before_the_lawful_day(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await unclaimed_noticed(store, deps, keeper, officer)
    reply = await say(store, deps, officer, f"AUCTION KNM-1 ON 17-03-2026 AT {MARKET}")
    assert reply == "Too early: this step is lawful from 18 Mar 2026. (s.13(3))"
    clock.set(at(17))
    sold = await say(store, deps, officer, "SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam DECLARED")
    assert sold.startswith("No auction is fixed")
    assert sold.endswith("(s.13(3))")


# --- 4. paper records entered late: ON <date> ------------------------------------------


async def test_a_past_auction_and_its_sale_and_settlement_are_entered_with_their_days(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await unclaimed_noticed(store, deps, keeper, officer)
    clock.set(at(25))
    fixed = await say(store, deps, officer, f"AUCTION KNM-1 ON 18-03-2026 AT {MARKET}")
    assert "Public auction on 18 Mar 2026 at Kunnamangalam market" in fixed
    auction = (await case_of(store)).scheduled_auction
    assert auction is not None
    assert (auction.on, auction.auction_on) == (date(2026, 3, 18), date(2026, 3, 18))
    # An auction already held is not announced to the owner.
    async with store.transaction() as tx:
        to_owner = select(OutboxRow).where(OutboxRow.recipient == OWNER_PHONE)
        assert list((await tx.session.execute(to_owner)).scalars()) == []
    late = await say(store, deps, officer, "SOLD KNM-1 1 2 90000 TO Mammu, Chathamangalam DECLARED")
    assert "ON 18-03-2026" in late  # today is not the auction day: say which day was
    for line in (
        "SOLD KNM-1 1 2 90000 TO Mammu, Chathamangalam DECLARED ON 18-03-2026",
        "UNSOLD KNM-1 2 1 ON 18-03-2026",
        "SOLD KNM-1 2 1 30000 TO Beeran, Kunnamangalam DECLARED ON 18-03-2026",
    ):
        reply = await say(store, deps, officer, line)
        assert reply.startswith("Case KNM-1.\nLot "), reply
    lots = [e for e in (await case_of(store)).events if isinstance(e, LotOffered)]
    assert [(e.on, e.sold) for e in lots] == [
        (date(2026, 3, 18), True),
        (date(2026, 3, 18), False),
        (date(2026, 3, 18), True),
    ]
    future = await say(store, deps, officer, "SETTLE KNM-1 500 ON 26-03-2026")
    assert future.startswith("That date is after today")
    backwards = await say(store, deps, officer, "SETTLE KNM-1 500 ON 17-03-2026")
    assert backwards.startswith("That date is before the last step recorded")
    settled = await say(store, deps, officer, "SETTLE KNM-1 500 ON 19-03-2026")
    assert "sale settled" in settled
    async with store.transaction() as tx:
        days = {e.on for e in (await tx.session.execute(select(LedgerEntry))).scalars()}
    assert days == {date(2026, 3, 19)}
    assert (await case_of(store)).stage is Stage.IN_DEPOSIT


async def test_receipt_and_noreceipt_take_a_past_day(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await owner_refused(store, deps, keeper, clock)
    clock.set(at(12))
    await say(store, deps, officer, f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET}")
    await say(
        store, deps, officer, "SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam DECLARED ON 06-03-2026"
    )
    await say(store, deps, officer, "SETTLE KNM-1 500 ON 06-03-2026")
    future = await say(store, deps, officer, "RECEIPT KNM-1 BY Kunhammed ON 13-03-2026")
    assert future.startswith("That date is after today")
    receipt = await say(store, deps, officer, "RECEIPT KNM-1 BY Kunhammed ON 07-03-2026")
    assert "7 Mar 2026" in receipt
    case = await case_of(store)
    assert case.stage is Stage.CLOSED
    assert case.events[-1].on == date(2026, 3, 7)


async def test_noreceipt_takes_a_past_day(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await owner_refused(store, deps, keeper, clock)
    clock.set(at(12))
    await say(store, deps, officer, f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET}")
    await say(
        store, deps, officer, "SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam DECLARED ON 06-03-2026"
    )
    await say(store, deps, officer, "SETTLE KNM-1 500 ON 06-03-2026")
    await say(store, deps, officer, "NORECEIPT KNM-1 ON 08-03-2026")
    case = await case_of(store)
    assert case.events[-1].on == date(2026, 3, 8)


# --- 5. s.18: barred buyers --------------------------------------------------------------


async def _at_the_auction(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await owner_refused(store, deps, keeper, clock)
    await say(store, deps, officer, f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET}")
    clock.set(at(6))


async def test_s18_typing_sold_is_not_the_declaration(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    officer = english(officer)
    await _at_the_auction(store, deps, keeper, officer, clock)
    reply = await say(store, deps, officer, "SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam")
    assert reply == (
        "The buyer must declare that they are not a police officer; an officer of the "
        "local authority; a member of the local authority; a pound-keeper. When they "
        "have, send the line again with DECLARED at the end. (s.18)"
    )
    assert (await case_of(store)).proceeds == Money.zero()
    nameless = await say(store, deps, officer, "SOLD KNM-1 1 1 25000 TO Mammu DECLARED")
    assert "where they live" in nameless
    sold = await say(
        store, deps, officer, "SOLD KNM-1 1 1 25000 TO Mammu K, Chathamangalam DECLARED"
    )
    assert "to Mammu K, Chathamangalam" in sold
    event = (await case_of(store)).last(LotOffered)
    assert isinstance(event, LotOffered)
    assert event.buyer is not None
    assert (event.buyer.name, event.buyer.residence) == ("Mammu K", "Chathamangalam")
    assert event.buyer_declared_not_barred


async def test_s18_keepers_officers_police_and_members_are_refused(
    store: Store,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    clock: FixedClock,
    admin: Caller,
) -> None:
    officer = english(officer)
    async with store.transaction() as tx:
        await add_user(tx, deps, admin, role="keeper", pound="KNM", name="Velayudhan K")
        await add_user(tx, deps, admin, role="keeper", pound="ENM", name="Ramesh Bhat")
        await add_user(
            tx, deps, admin, role="officer", authority="VTV-GP", name="Anil", phone="+919847000077"
        )
    await _at_the_auction(store, deps, keeper, officer, clock)
    refused = {
        "Velayudhan K, Kunnamangalam": ("Velayudhan K", "a pound-keeper"),
        "K. Velayudhan, Pathimangalam": ("Velayudhan K", "a pound-keeper"),
        "Ramesh Bhat, Perla": ("Ramesh Bhat", "a pound-keeper"),
        "Sunil, Kovilur 9847000077": ("Anil", "an officer of the local authority"),
        "Jameela Beevi, Pathimangalam": ("Jameela Beevi", "a member of the local authority"),
    }
    for buyer, (matched, barred) in refused.items():
        reply = await say(store, deps, officer, f"SOLD KNM-1 1 1 25000 TO {buyer} DECLARED")
        assert reply == (
            f"The buyer matches {matched}, {barred}, who may not buy at a pound sale. "
            "Record the sale to another buyer. (s.18)"
        ), buyer
    titled = {
        "SI Suresh, Kunnamangalam police station": ("police", "a police officer"),
        "Ward member Jameela, Kunnamangalam": ("member", "a member of the local authority"),
        "Prakash, pound-keeper, Perla": ("pound-keeper", "a pound-keeper"),
    }
    for buyer, (word, barred) in titled.items():
        reply = await say(store, deps, officer, f"SOLD KNM-1 1 1 25000 TO {buyer} DECLARED")
        assert reply.startswith(f"'{word}' names {barred}, who may not buy"), reply
        assert reply.endswith("(s.18)")
    case = await case_of(store)
    assert case.proceeds == Money.zero()
    assert case.stage is Stage.OWNER_REFUSED


async def test_s18_in_malayalam_the_declaration_is_asked_for_and_then_the_sale_stands(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await _at_the_auction(store, deps, keeper, officer, clock)
    reply = await say(store, deps, officer, "വിറ്റു KNM-1 1 1 25000 വാങ്ങിയത് മമ്മു, ചാത്തമംഗലം")
    assert "പോലീസ്" in reply
    assert "സത്യപ്രസ്താവന" in reply
    assert reply.endswith("(വകുപ്പ് 18)"), reply
    assert (await case_of(store)).proceeds == Money.zero()
    barred = await say(
        store, deps, officer, "വിറ്റു KNM-1 1 1 25000 വാങ്ങിയത് വാർഡ് മെമ്പർ ജമീല, കുന്ദമംഗലം സത്യപ്രസ്താവന"
    )
    assert barred.endswith("(വകുപ്പ് 18)")
    assert "മെമ്പർ" in barred
    sold = await say(store, deps, officer, "വിറ്റു KNM-1 1 1 25000 വാങ്ങിയത് മമ്മു, ചാത്തമംഗലം സത്യപ്രസ്താവന")
    assert "മമ്മു, ചാത്തമംഗലം" in sold
    assert (await case_of(store)).proceeds == Money.rupees(25000)


async def test_help_lists_expenses_and_declared_for_officers(
    store: Store, deps: Deps, officer: Caller
) -> None:
    text = await say(store, deps, english(officer), "HELP")
    assert "AUCTION <case> ON <date> AT <place> [EXPENSES <rupees>]" in text
    assert "SOLD <case> <lot> <heads> <price> TO <buyer>, <place> DECLARED" in text
    malayalam = await say(store, deps, officer, "സഹായം")
    assert "[EXPENSES <രൂപ>]" in malayalam
    assert "DECLARED" in malayalam
