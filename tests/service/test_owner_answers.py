"""What owners, keepers and officers are told at every stage (issue 12, items 13, 14, 15,
19, 20), through the dispatcher every channel shares."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime

from bot.conversation.reply import handle_text
from bot.services import officer as o
from bot.services.base import Deps
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.money import Money
from domain.s07_seizure import Person
from domain.stages import Stage

OWNER = Caller.public("test", phone="+919847000111", lang="en")
OWNER_ML = Caller.public("test", phone="+919847000112", lang="ml")


def at(clock: FixedClock, day: date) -> None:
    clock.set(datetime(day.year, day.month, day.day, 10, 0, tzinfo=LOCAL_TZ))


async def say(store: Store, deps: Deps, caller: Caller, text: str, *, sms: bool = True) -> str:
    async with store.transaction() as tx:
        reply = await handle_text(tx, deps, caller, text, sms=sms)
    return reply.text


async def stage_of(store: Store, number: str) -> Stage:
    async with store.transaction() as tx:
        return (await tx.load_case(number)).case.stage


def en(caller: Caller) -> Caller:
    return dataclasses.replace(caller, lang="en")


async def seize(store: Store, deps: Deps, keeper: Caller, text: str = "") -> str:
    return await say(store, deps, en(keeper), text or "SEIZE 2 cow AT Kunnamangalam market; brown")


async def sell_all_unclaimed(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    """KNM-1 (2 cows, in on 1 Mar 2026): reported 9 Mar, notice 10 Mar, both sold on
    18 Mar for Rs 30,000, settled that day: the balance goes into deposit (s.16(3))."""
    at(clock, date(2026, 3, 9))
    await say(store, deps, en(keeper), "REPORT KNM-1")
    at(clock, date(2026, 3, 10))
    async with store.transaction() as tx:
        await o.record_notice(
            tx, deps, officer, "KNM-1", proclaimed_at=("Kunnamangalam", "Kunnamangalam market")
        )
        await o.schedule_auction(
            tx, deps, officer, "KNM-1", auction_on=date(2026, 3, 18), place="Panchayat office"
        )
    at(clock, date(2026, 3, 18))
    async with store.transaction() as tx:
        await o.record_lot(
            tx,
            deps,
            officer,
            "KNM-1",
            lot=0,
            count=2,
            price=Money.rupees(30_000),
            buyer=Person("Mammu K", "Chathamangalam"),
            buyer_role=None,
            declared_not_barred=True,
        )
        await o.settle_sale(tx, deps, officer, "KNM-1", expenses=Money.rupees(500))
    assert await stage_of(store, "KNM-1") is Stage.IN_DEPOSIT


async def refuse_and_sell_one(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock, number: str
) -> None:
    """The owner refuses to pay on 2 Mar; an auction is fixed for 4 Mar, where one of the
    two cows is sold (s.15(1)): the other is still in the pound."""
    at(clock, date(2026, 3, 2))
    await say(store, deps, en(keeper), f"REFUSED {number}")
    async with store.transaction() as tx:
        await o.schedule_auction(
            tx, deps, officer, number, auction_on=date(2026, 3, 4), place="Panchayat office"
        )
    at(clock, date(2026, 3, 4))
    async with store.transaction() as tx:
        await o.record_lot(
            tx,
            deps,
            officer,
            number,
            lot=0,
            count=1,
            price=Money.rupees(20_000),
            buyer=Person("Mammu K", "Chathamangalam"),
            buyer_role=None,
            declared_not_barred=True,
        )


# --- 13. Owners' answers follow the stage ---------------------------------------------


async def test_after_release_dues_say_what_was_paid_and_when_and_no_deposit_is_offered(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    await say(store, deps, en(keeper), "PAID KNM-1")
    at(clock, date(2026, 3, 6))
    dues = await say(store, deps, OWNER, "DUES KNM-1")
    deposit = await say(store, deps, OWNER, "DEPOSIT KNM-1")
    status = await say(store, deps, OWNER, "STATUS KNM-1")
    assert dues == (
        "Case KNM-1: Rs 2,223 paid on 3 Mar 2026 and the cattle released (s.12). Nothing is due."
    )
    assert deposit == (
        "Case KNM-1: no deposit is possible now (s.14). "
        "The cattle were released to the owner on 3 Mar 2026 (s.12)."
    )
    assert (
        status == "Case KNM-1 (2 cows): The cattle were released to the owner on 3 Mar 2026 (s.12)."
    )
    assert await stage_of(store, "KNM-1") is Stage.RELEASED


async def test_after_a_deposit_under_protest_dues_deposit_and_status_date_the_deposit(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    await say(store, deps, en(keeper), "DEPOSITED KNM-1")
    at(clock, date(2026, 3, 6))
    dues = await say(store, deps, OWNER, "DUES KNM-1")
    deposit = await say(store, deps, OWNER, "DEPOSIT KNM-1")
    status = await say(store, deps, OWNER, "STATUS KNM-1")
    assert dues == (
        "Case KNM-1: Rs 2,223 deposited on 3 Mar 2026 and the cattle delivered (s.14). "
        "Nothing is due."
    )
    assert "deposit Rs" not in deposit
    assert "take the cattle" not in deposit
    assert deposit.startswith("Case KNM-1: no deposit is possible now (s.14).")
    assert "Last day to complain: 11 Mar 2026 (s.19)." in deposit
    assert status == (
        "Case KNM-1 (2 cows): Delivered to the owner on a deposit, the seizure being "
        "disputed; the deposit is held since 3 Mar 2026 (s.14). "
        "Last day to complain: 11 Mar 2026 (s.19)."
    )
    # After the s.19 days the same questions say the time to complain ended.
    at(clock, date(2026, 3, 20))
    status = await say(store, deps, OWNER, "STATUS KNM-1")
    assert "The time to complain ended on 11 Mar 2026 (s.19)." in status


async def test_after_a_sale_dues_say_what_the_sale_settled_and_status_the_claims_day(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await seize(store, deps, keeper)
    await sell_all_unclaimed(store, deps, keeper, officer, clock)
    at(clock, date(2026, 4, 1))
    dues = await say(store, deps, OWNER, "DUES KNM-1")
    deposit = await say(store, deps, OWNER, "DEPOSIT KNM-1")
    status = await say(store, deps, OWNER, "STATUS KNM-1")
    assert "due on" not in dues
    assert dues == (
        "Case KNM-1: the dues were settled from the proceeds of the sale on 18 Mar 2026 "
        "(s.15(2)). Account (s.15(3)): 2 of 2 head sold for Rs 30,000; Rs 6,338 deducted "
        "for fines and charges (s.15(2)); balance Rs 23,662. "
        "Surplus in deposit since 18 Mar 2026; claims until 18 Jun 2026 (s.16(3))."
    )
    assert deposit == (
        "Case KNM-1: no deposit is possible now (s.14). "
        "The balance of the sale is held in deposit since 18 Mar 2026 (s.16(3))."
    )
    assert "Surplus in deposit since 18 Mar 2026; claims until 18 Jun 2026 (s.16(3))." in status


async def test_find_lists_only_cattle_still_in_the_pound(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    for _ in range(5):
        await seize(store, deps, keeper)
    at(clock, date(2026, 3, 2))
    await say(store, deps, en(keeper), "PAID KNM-2")
    await say(store, deps, en(keeper), "DEPOSITED KNM-3")
    await refuse_and_sell_one(store, deps, keeper, officer, clock, "KNM-4")
    await refuse_and_sell_one(store, deps, keeper, officer, clock, "KNM-5")
    async with store.transaction() as tx:
        await o.settle_sale(tx, deps, officer, "KNM-5", expenses=Money.zero())
    assert await stage_of(store, "KNM-5") is Stage.ACCOUNT_DUE
    found = await say(store, deps, OWNER, "FIND cow")
    assert found == (
        "2 open cases found: "
        # The pound's name by whole words within one DLT variable (30 characters).
        "KNM-4: 1 cow seized at Kunnamangalam market, in Kunnamangalam Grama Panchayat "
        "since 1 Mar 2026. "
        "KNM-1: 2 cows seized at Kunnamangalam market, in Kunnamangalam Grama Panchayat "
        "since 1 Mar 2026."
    )
    selling = await say(store, deps, OWNER, "STATUS KNM-4", sms=False)
    settled = await say(store, deps, OWNER, "STATUS KNM-5", sms=False)
    assert "The sale began on 4 Mar 2026 (s.15(1))." in selling  # the owner's route
    assert "The sale was settled on 4 Mar 2026; the account awaits the owner (s.15(3))." in settled
    # A sale that took every head leaves nothing to find either.
    await sell_all_unclaimed(store, deps, keeper, officer, clock)
    found = await say(store, deps, OWNER, "FIND cow brown")
    assert "KNM-1" not in found
    assert "KNM-4" in found


async def test_owners_are_answered_by_stage_in_malayalam(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    await say(store, deps, en(keeper), "PAID KNM-1")
    at(clock, date(2026, 3, 6))
    dues = await say(store, deps, OWNER_ML, "കുടിശ്ശിക KNM-1")
    deposit = await say(store, deps, OWNER_ML, "കെട്ടിവയ്പ്പ് KNM-1")
    assert dues == (
        "കേസ് KNM-1: 3 മാർച്ച് 2026-ന് ₹2,223 അടച്ച് കന്നുകാലികളെ വിട്ടുകൊടുത്തു (വകുപ്പ് 12). ഇനി ഒന്നും അടയ്ക്കാനില്ല."
    )
    assert "(വകുപ്പ് 14)" in deposit
    assert "3 മാർച്ച് 2026" in deposit
    assert "₹" not in deposit  # no amount offered for a deposit


# --- 14. No past date presented as ahead ----------------------------------------------


async def test_days_already_past_read_as_past_never_as_ahead(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await seize(store, deps, keeper)  # KNM-1: sold, surplus in deposit
    await seize(store, deps, keeper)  # KNM-2: reported and noticed, never auctioned
    await seize(store, deps, keeper)  # KNM-3: left unreported
    await seize(store, deps, keeper)  # KNM-4: an auction fixed, not yet recorded
    at(clock, date(2026, 3, 9))
    await say(store, deps, en(keeper), "REPORT KNM-2")
    await say(store, deps, en(keeper), "REPORT KNM-4")
    at(clock, date(2026, 3, 10))
    async with store.transaction() as tx:
        for number in ("KNM-2", "KNM-4"):
            await o.record_notice(
                tx, deps, officer, number, proclaimed_at=("Kunnamangalam", "market")
            )
        await o.schedule_auction(
            tx, deps, officer, "KNM-4", auction_on=date(2026, 3, 20), place="Panchayat office"
        )
    await sell_all_unclaimed(store, deps, keeper, officer, clock)
    at(clock, date(2026, 12, 1))
    sold_dues = await say(store, deps, OWNER, "DUES KNM-1")
    sold_status = await say(store, deps, OWNER, "STATUS KNM-1")
    noticed_dues = await say(store, deps, OWNER, "DUES KNM-2")
    noticed_status = await say(store, deps, OWNER, "STATUS KNM-2")
    unreported = await say(store, deps, OWNER, "STATUS KNM-3")
    fixed_dues = await say(store, deps, OWNER, "DUES KNM-4")
    fixed_status = await say(store, deps, OWNER, "STATUS KNM-4")
    ended = (
        "Surplus in deposit since 18 Mar 2026; the time to claim it ended on 18 Jun 2026 (s.16(3))."
    )
    assert ended in sold_dues
    assert ended in sold_status
    assert "claim it by" not in sold_dues + sold_status
    assert noticed_dues.endswith("Unclaimed: public auction lawful since 18 Mar 2026 (s.13(3)).")
    assert "public auction lawful since 18 Mar 2026 (s.13(3))" in noticed_status
    assert "from 18 Mar" not in noticed_dues + noticed_status
    assert "the report was due on 9 Mar 2026 (s.13(1))" in unreported
    assert "reported on 9 Mar" not in unreported
    assert fixed_dues.endswith("The public auction was fixed for 20 Mar 2026 (s.13(3)).")
    assert "The public auction was fixed for 20 Mar 2026 (s.13(3))." in fixed_status
    assert "Public auction on 20 Mar" not in fixed_dues + fixed_status


async def test_the_deposit_register_says_when_claims_ended_once_they_have(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await seize(store, deps, keeper)
    await sell_all_unclaimed(store, deps, keeper, officer, clock)
    at(clock, date(2026, 4, 1))
    running = await say(store, deps, en(officer), "REGISTER", sms=False)
    at(clock, date(2026, 12, 1))
    ended = await say(store, deps, en(officer), "REGISTER", sms=False)
    assert "in deposit since 18 Mar 2026; claims until 18 Jun 2026." in running
    assert (
        "in deposit since 18 Mar 2026; claims ended on 18 Jun 2026: credit it to the fund, "
        "lawful since 19 Jun 2026 (s.17(1))." in ended
    )
    assert "claims until" not in ended


# --- 15. No notice before the report --------------------------------------------------


async def test_no_notice_is_printed_before_seven_days_unclaimed_nor_for_a_released_case(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await seize(store, deps, keeper)
    await seize(store, deps, keeper)
    at(clock, date(2026, 3, 2))
    early = await say(store, deps, en(officer), "NOTICE KNM-1")
    await say(store, deps, en(keeper), "PAID KNM-2")
    released = await say(store, deps, en(officer), "NOTICE KNM-2")
    at(clock, date(2026, 3, 9))
    due = await say(store, deps, en(officer), "NOTICE KNM-1", sms=False)
    by_sms = await say(store, deps, en(officer), "NOTICE KNM-1")
    early_ml = await say(store, deps, officer, "NOTICE KNM-2")
    assert early == "Too early: this step is lawful from 9 Mar 2026. (s.13(1))"
    assert released == (
        "The cattle were released to the owner on 2 Mar 2026 (s.12). "
        "This step is not possible now. (s.13(2))"
    )
    assert "have not been claimed within seven days" not in early + released
    assert due.startswith("Notice under s.13(2) of the Kerala Cattle Trespass Act, 1961")
    # By SMS the notice is a document to print: what it says in brief, and how to print.
    assert by_sms.startswith("Case KNM-1: notice of 9 Mar 2026 ready to print (s.13(2)).")
    assert "Print it from the web desk" in by_sms
    assert "(വകുപ്പ് 12)" in early_ml
    assert "2 മാർച്ച് 2026" in early_ml


async def test_a_notice_printed_again_keeps_the_day_it_was_posted(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await seize(store, deps, keeper)
    await sell_all_unclaimed(store, deps, keeper, officer, clock)
    at(clock, date(2026, 3, 20))
    closed = await say(store, deps, en(officer), "NOTICE KNM-1")
    assert closed == (
        "The balance of the sale is held in deposit since 18 Mar 2026 (s.16(3)). "
        "This step is not possible now. (s.13(2))"
    )


# --- 19. A refusal gives its reason --------------------------------------------------


async def test_refusals_give_their_reason_with_its_date_and_provision(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await seize(store, deps, keeper)  # KNM-1: sold, surplus in deposit on 18 Mar
    await seize(store, deps, keeper)  # KNM-2: released on 2 Mar
    at(clock, date(2026, 3, 2))
    await say(store, deps, en(keeper), "PAID KNM-2")
    await sell_all_unclaimed(store, deps, keeper, officer, clock)
    at(clock, date(2026, 3, 20))
    late_deposit = await say(store, deps, en(keeper), "DEPOSITED KNM-2")
    paid_twice = await say(store, deps, en(keeper), "PAID KNM-2")
    before = await say(
        store, deps, en(officer), "CLAIM KNM-1 BY Kunhammed REF 1/2026 PREFERRED 10-03-2026"
    )
    deposit_late = await say(store, deps, en(keeper), "DEPOSITED KNM-1")
    at(clock, date(2026, 7, 1))
    too_late = await say(
        store, deps, en(officer), "CLAIM KNM-1 BY Kunhammed REF 1/2026 PREFERRED 20-06-2026"
    )
    assert late_deposit == (
        "The 10 days to complain ended on 11 Mar 2026, so no deposit under protest. (s.19)"
    )
    assert paid_twice == (
        "The cattle were released to the owner on 2 Mar 2026 (s.12). "
        "This step is not possible now. (s.12)"
    )
    assert (
        before == "That date is before the deposit, made on 18 Mar 2026. Check the date. (s.16(3))"
    )
    assert deposit_late == (
        "The 10 days to complain ended on 11 Mar 2026, so no deposit under protest. (s.19)"
    )
    assert too_late == "The 3 months to claim the deposit ended on 18 Jun 2026. (s.16(3))"
    assert await stage_of(store, "KNM-1") is Stage.IN_DEPOSIT
    assert await stage_of(store, "KNM-2") is Stage.RELEASED


async def test_a_refusal_gives_its_reason_in_malayalam(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize(store, deps, keeper)
    at(clock, date(2026, 3, 20))
    refused = await say(store, deps, keeper, "DEPOSITED KNM-1")
    assert refused == (
        "പരാതിപ്പെടാനുള്ള 10 ദിവസം 11 മാർച്ച് 2026-ന് അവസാനിച്ചു; അതിനാൽ പ്രതിഷേധത്തോടെയുള്ള "
        "കെട്ടിവയ്ക്കൽ സാധ്യമല്ല. (വകുപ്പ് 19)"
    )
    assert await stage_of(store, "KNM-1") is Stage.IMPOUNDED


# --- 20. CASES shows the days charged -------------------------------------------------


async def test_cases_shows_the_days_in_the_pound_that_are_charged(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize(store, deps, keeper)
    at(clock, date(2026, 3, 31))
    listed = await say(store, deps, en(keeper), "CASES")
    dues = await say(store, deps, OWNER, "DUES KNM-1")
    assert "KNM-1: 2 cows, 31 days in the pound" in listed
    assert "feeding 31 days" in dues


async def test_find_leaves_out_a_case_whose_every_head_is_sold_before_it_is_settled(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await seize(store, deps, keeper)
    at(clock, date(2026, 3, 2))
    await say(store, deps, en(keeper), "REFUSED KNM-1")
    async with store.transaction() as tx:
        await o.schedule_auction(
            tx, deps, officer, "KNM-1", auction_on=date(2026, 3, 4), place="Panchayat office"
        )
    at(clock, date(2026, 3, 4))
    # Each cow fetches less than the dues, so both must be sold (s.15(1): as many as necessary).
    for buyer in ("Mammu K", "Ayisha P"):
        async with store.transaction() as tx:
            await o.record_lot(
                tx,
                deps,
                officer,
                "KNM-1",
                lot=0,
                count=1,
                price=Money.rupees(100),
                buyer=Person(buyer, "Chathamangalam"),
                buyer_role=None,
                declared_not_barred=True,
            )
    assert await stage_of(store, "KNM-1") is Stage.SELLING
    found = await say(store, deps, OWNER, "FIND cow")
    assert found == (
        "No open case matches. Try other words: the kind of cattle or the place seized."
    )
