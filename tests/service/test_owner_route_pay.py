"""The owner's way back after refusing, by the letter, through the dispatcher as the
keeper, the officer and the owner type it:

- s.14 after a refusal: DEPOSITED is lawful while the ten days of s.19 run and no head
  has been sold or disposed of (also in the selling stage when only unsold offers were
  recorded); the auction fixed is cancelled; outside the window, the refusal says why
  (the s.19 last day, or the day a head was sold).
- After a refused account (s.15(5)) the remaining cattle go the s.13 way; until a head of
  that round is sold the owner may still take them by paying all that is owed (s.12), the
  second round's charges included, less what the first sale met; DUES, STATUS and PAID say
  and do the same; the first sale's balance stays in deposit (s.16(3)).

The sample case: 2 (or 3) cows brought in on 1 March 2026, seized the same day: the ten
days of s.19 end on 11 March.
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime

from sqlalchemy import select

from bot.conversation.reply import handle_text
from bot.services.base import Deps, statement_of
from bot.store.models import DeadlineRow, LedgerEntry
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.case import Case
from domain.events import ClaimedAndPaid, DeliveredOnDeposit
from domain.stages import Stage

SEIZE_TWO = "SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed"
SEIZE_THREE = "SEIZE 3 cow AT Kunnamangalam market OWNER Kunhammed"
MARKET = "Kunnamangalam market"


def at(day: int, month: int = 3) -> datetime:
    return datetime(2026, month, day, 11, 0, tzinfo=LOCAL_TZ)


class Session:
    """Lines typed by a keeper, an officer and an owner, each in its own transaction."""

    def __init__(
        self, store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
    ) -> None:
        self.store, self.deps, self.clock = store, deps, clock
        self.keeper = dataclasses.replace(keeper, lang="en")
        self.officer = dataclasses.replace(officer, lang="en")
        self.owner = Caller.public("test", phone="+919847000111", lang="en")

    async def say(self, who: Caller, text: str, day: int | None = None, sms: bool = False) -> str:
        if day is not None:
            self.clock.set(at(day))
        async with self.store.transaction() as tx:
            return (await handle_text(tx, self.deps, who, text, sms=sms)).text

    async def keeper_says(self, text: str, day: int | None = None) -> str:
        return await self.say(self.keeper, text, day)

    async def officer_says(self, text: str, day: int | None = None) -> str:
        return await self.say(self.officer, text, day)

    async def case(self) -> Case:
        async with self.store.transaction() as tx:
            return (await tx.load_case("KNM-1")).case

    async def open_deadlines(self) -> dict[str, date]:
        async with self.store.transaction() as tx:
            rows = await tx.session.execute(select(DeadlineRow).where(DeadlineRow.status == "open"))
            return {r.kind: r.due_on for r in rows.scalars()}

    async def ledger(self) -> list[tuple[str, int, str]]:
        async with self.store.transaction() as tx:
            rows = await tx.session.execute(select(LedgerEntry).order_by(LedgerEntry.id))
            return [(e.account, e.amount_paise, e.provision) for e in rows.scalars()]


def session(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> Session:
    return Session(store, deps, clock, keeper, officer)


async def _refused_with_auction(s: Session) -> None:
    """2 cows in on 1 March; the owner refuses to pay on 3 March; auction fixed on the
    4th for 10 March (s.15(1))."""
    await s.keeper_says(SEIZE_TWO, 1)
    await s.keeper_says("REFUSED KNM-1", 3)
    await s.officer_says(f"AUCTION KNM-1 ON 10-03-2026 AT {MARKET}", 4)
    assert (await s.case()).stage is Stage.OWNER_REFUSED


# --- A.1: s.14 after a refusal ----------------------------------------------------------


async def test_a_deposit_after_a_refusal_delivers_the_cattle_and_cancels_the_auction_s14(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _refused_with_auction(s)
    quote = await s.say(s.owner, "DEPOSIT KNM-1", 5)
    assert "to dispute the seizure, deposit" in quote, quote
    assert "Last day to complain: 11 Mar 2026 (s.19)." in quote
    assert "auction_day" in await s.open_deadlines()
    done = await s.keeper_says("DEPOSITED KNM-1")
    assert "delivered (s.14)" in done, done
    assert "The auction fixed for 10 Mar 2026 is cancelled." in done
    assert "The owner may complain until 11 Mar 2026 (s.19)." in done
    case = await s.case()
    assert case.stage is Stage.ON_DEPOSIT
    deposit = case.last(DeliveredOnDeposit)
    assert isinstance(deposit, DeliveredOnDeposit)
    assert deposit.on == date(2026, 3, 5)
    # The auction's reminder is gone; the officer is reminded of the s.19 outcome instead.
    deadlines = await s.open_deadlines()
    assert "auction_day" not in deadlines
    assert deadlines["complaint_window_ends"] == date(2026, 3, 11)
    assert "auction" not in (await s.keeper_says("STATUS KNM-1")).lower()


async def test_a_deposit_after_an_unsold_offer_is_still_lawful_within_the_ten_days_s14(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _refused_with_auction(s)
    await s.officer_says("UNSOLD KNM-1 1 1", 10)
    assert (await s.case()).stage is Stage.SELLING
    done = await s.keeper_says("DEPOSITED KNM-1 ON 10-03-2026")
    assert "delivered (s.14)" in done, done
    assert (await s.case()).stage is Stage.ON_DEPOSIT


async def test_a_deposit_after_a_refusal_is_refused_once_the_ten_days_ended_s19(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _refused_with_auction(s)
    late = await s.keeper_says("DEPOSITED KNM-1", 12)
    assert late == (
        "The 10 days to complain ended on 11 Mar 2026, so no deposit under protest. (s.19)"
    )
    quote = await s.say(s.owner, "DEPOSIT KNM-1")
    assert "the time to complain ended on 11 Mar 2026 (s.19)" in quote, quote
    assert (await s.case()).stage is Stage.OWNER_REFUSED


async def test_a_deposit_after_a_head_was_sold_is_refused_with_the_day_s15_1(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_TWO, 1)
    await s.keeper_says("REFUSED KNM-1", 3)
    await s.officer_says(f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET}", 4)
    await s.officer_says("SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam DECLARED", 6)
    refused = await s.keeper_says("DEPOSITED KNM-1", 7)
    assert refused.startswith("A head was sold on 6 Mar 2026"), refused
    assert refused.endswith("(s.15(1))")
    quote = await s.say(s.owner, "DEPOSIT KNM-1")
    assert "no deposit is possible now (s.14)" in quote, quote
    assert (await s.case()).stage is Stage.SELLING


# --- B.7: the second round after a refused account (s.15(5)) ----------------------------


async def _second_round_noticed(s: Session) -> None:
    """3 cows in on 1 March; the owner refuses to pay on 3 March; one sold on 6 March for
    Rs 25,000 and the sale settled; the owner refuses the account and the 2 cows left
    (s.15(5)); reported on 9 March, the notice posted on 10 March (s.13)."""
    await s.keeper_says(SEIZE_THREE, 1)
    await s.keeper_says("REFUSED KNM-1", 3)
    await s.officer_says(f"AUCTION KNM-1 ON 06-03-2026 AT {MARKET} EXPENSES 500", 4)
    await s.officer_says("SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam DECLARED", 6)
    await s.officer_says("SETTLE KNM-1 500")
    await s.officer_says("NORECEIPT KNM-1")
    assert (await s.case()).stage is Stage.DEEMED_UNCLAIMED
    await s.keeper_says("REPORT KNM-1", 9)
    await s.officer_says(f"NOTICE KNM-1 AT Kunnamangalam, {MARKET}", 10)
    assert (await s.case()).stage is Stage.NOTICE_POSTED


async def test_after_a_refused_account_the_owner_may_pay_all_owed_until_a_head_is_sold_s12(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _second_round_noticed(s)
    clock.set(at(13))
    stated = statement_of(deps, await s.case())
    assert stated.payable
    owed = stated.unmet
    assert owed.paise > 0
    assert stated.met_by_sale.paise > 0
    held = stated.held_in_deposit
    assert held.paise > 0
    owed_text = f"₹{owed.paise // 100:,}"
    dues = await s.say(s.owner, "DUES KNM-1")
    assert "can pay nothing" not in dues
    assert owed_text in dues, dues
    assert "(s.12)" in dues
    status = await s.say(s.owner, "STATUS KNM-1")
    assert owed_text in status, status
    assert "(s.12)" in status
    found = await s.say(s.owner, "FIND cow")
    assert "2 cows" in found, found
    paid = await s.keeper_says("PAID KNM-1")
    assert "released (s.12)" in paid, paid
    assert f"{owed_text}" in paid
    assert "2 cows released" in paid
    case = await s.case()
    event = case.last(ClaimedAndPaid)
    assert isinstance(event, ClaimedAndPaid)
    assert event.paid == owed
    # The first sale's balance stays in deposit until claimed (s.16(3)).
    assert case.stage is Stage.IN_DEPOSIT
    after = statement_of(deps, case)
    assert after.held_in_deposit == held
    assert after.heads_in_pound == 0
    # The account counts the 2 cows' time to the day they left, 1 to 13 March (s.15(3)(b)).
    assert after.account is not None
    assert after.account.days_impounded == 13
    assert after.deposited_on == date(2026, 3, 6)  # the three months from the refusal
    # The payment's postings add up to what was paid: the fines were met by the first
    # sale, so none are posted again.
    ledger = await s.ledger()
    fines_12 = sum(amount for account, amount, p in ledger if (account, p) == ("fines", "s.12"))
    feeding = sum(amount for account, amount, p in ledger if account == "keeper_feeding")
    assert fines_12 == 0
    assert feeding > 0
    assert "auction_day" not in await s.open_deadlines()


async def test_after_a_refused_account_paid_is_refused_once_a_head_of_that_round_is_sold(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _second_round_noticed(s)
    await s.officer_says(f"AUCTION KNM-1 ON 18-03-2026 AT {MARKET}", 11)
    await s.officer_says("SOLD KNM-1 1 1 15000 TO Joseph Mathew, Chowwannur DECLARED", 18)
    refused = await s.keeper_says("PAID KNM-1")
    assert refused.startswith("A head was sold on 18 Mar 2026"), refused
    assert refused.endswith("(s.13(3))")
    dues = await s.say(s.owner, "DUES KNM-1")
    assert "can pay nothing" in dues, dues
    assert (await s.case()).stage is Stage.SELLING


async def test_after_a_refused_account_an_unsold_offer_does_not_stop_the_payment(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _second_round_noticed(s)
    await s.officer_says(f"AUCTION KNM-1 ON 18-03-2026 AT {MARKET}", 11)
    await s.officer_says("UNSOLD KNM-1 1 2", 18)
    paid = await s.keeper_says("PAID KNM-1")
    assert "released (s.12)" in paid, paid
    assert "The auction fixed for 18 Mar 2026 is cancelled." in paid
    assert (await s.case()).stage is Stage.IN_DEPOSIT


async def test_a_deposit_stays_refused_after_a_refused_account_s15_5(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_THREE, 1)
    await s.keeper_says("REFUSED KNM-1", 2)
    await s.officer_says(f"AUCTION KNM-1 ON 04-03-2026 AT {MARKET}", 3)
    await s.officer_says("SOLD KNM-1 1 1 25000 TO Mammu, Chathamangalam DECLARED", 4)
    await s.officer_says("SETTLE KNM-1 500")
    await s.officer_says("NORECEIPT KNM-1", 5)
    refused = await s.keeper_says("DEPOSITED KNM-1", 6)
    assert "(s.15(5))" in refused, refused
    assert (await s.case()).stage is Stage.DEEMED_UNCLAIMED
