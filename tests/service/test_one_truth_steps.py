"""Steps of a case that must tell one truth: a part payment is no payment (s.12, s.14);
a notice corrected is posted again (s.13(2), s.13(3)); disposal under the proviso is the
Director's (s.13(3) proviso); every claim to a deposit is heard (s.16(3)); an owner who
refused may pay until a head is sold (s.12, s.15(1)); past deadlines are said as past;
the report comes first after a refused account (s.15(5)); a refund is recorded (s.19);
the market proclaimed is the one nearest the place of seizure (s.13(2))."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime

from sqlalchemy import func, select

from bot.config.model import ProvisoOffice
from bot.config.names import Name
from bot.conversation.reply import handle_text
from bot.services.base import Deps
from bot.store.models import LedgerEntry
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.case import Case
from domain.stages import Stage

SEIZE_ONE = "SEIZE 1 cow AT Kunnamangalam market OWNER Kunhammed"


def at(day: int, month: int = 3, year: int = 2026) -> datetime:
    return datetime(year, month, day, 11, 0, tzinfo=LOCAL_TZ)


class Session:
    """Lines typed by a keeper, an officer and an owner, each in its own transaction."""

    def __init__(
        self, store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
    ) -> None:
        self.store, self.deps, self.clock = store, deps, clock
        self.keeper = dataclasses.replace(keeper, lang="en")
        self.officer = dataclasses.replace(officer, lang="en")
        self.owner = Caller.public("test", phone="+919847000111", lang="en")

    async def say(
        self, who: Caller, text: str, day: int | None = None, month: int = 3, year: int = 2026
    ) -> str:
        if day is not None:
            self.clock.set(at(day, month, year))
        async with self.store.transaction() as tx:
            reply = await handle_text(tx, self.deps, who, text, sms=False)
        return reply.text

    async def keeper_says(self, text: str, day: int | None = None, month: int = 3) -> str:
        return await self.say(self.keeper, text, day, month)

    async def officer_says(self, text: str, day: int | None = None, month: int = 3) -> str:
        return await self.say(self.officer, text, day, month)

    async def in_lang(self, who: Caller, lang: str, text: str) -> str:
        return await self.say(dataclasses.replace(who, lang=lang), text)

    async def case(self, number: str = "KNM-1") -> Case:
        async with self.store.transaction() as tx:
            return (await tx.load_case(number)).case

    async def ledger_rows(self) -> int:
        async with self.store.transaction() as tx:
            return int(await tx.session.scalar(select(func.count()).select_from(LedgerEntry)) or 0)


def session(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> Session:
    return Session(store, deps, clock, keeper, officer)


# --- a part payment is no payment (s.12, s.14) -------------------------------------------

# 1 cow in on 1 Mar 2026: fine Rs 750 (s.11) and 3 days' feeding at Rs 120.50 (s.4) on 3 Mar.
DUE_3_MAR = "₹1,111.50"


async def test_a_part_payment_is_refused_with_the_dues_and_nothing_is_recorded_s12(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    rows = await s.ledger_rows()
    for given in ("200", "₹540", "Rs540", "Rs 540", "540.00", "540/-", "Rs.1,111"):
        reply = await s.keeper_says(f"PAID KNM-1 {given}", 3)
        assert "Not recorded" in reply, reply
        assert f"{DUE_3_MAR} is due on 3 Mar 2026" in reply
        assert "Fine (s.11): 1 cow × ₹750 = ₹750" in reply
        assert "(s.12)" in reply
        assert "released on" not in reply.split("Not recorded")[0]
        assert (await s.case()).stage is Stage.IMPOUNDED
        assert await s.ledger_rows() == rows
    assert "₹540 is not the amount due" in await s.keeper_says("PAID KNM-1 540/-")
    bad = await s.keeper_says("PAID KNM-1 lots")
    assert (await s.case()).stage is Stage.IMPOUNDED
    assert "lots" in bad
    whole = await s.keeper_says("PAID KNM-1 1111.50")
    assert f"{DUE_3_MAR} paid on 3 Mar 2026" in whole
    assert (await s.case()).stage is Stage.RELEASED


async def test_paid_with_no_amount_pays_the_dues_as_before_s12(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    assert f"{DUE_3_MAR} paid on 3 Mar 2026" in await s.keeper_says("PAID KNM-1", 3)


async def test_a_part_payment_is_refused_in_malayalam_tamil_and_kannada_s12(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    clock.set(at(3))
    for lang in ("ml", "ta", "kn"):
        reply = await s.in_lang(s.keeper, lang, "PAID KNM-1 200")
        assert "₹200" in reply, reply
        assert DUE_3_MAR in reply
        assert "₹750" in reply
        assert "Not recorded" not in reply
        assert "12" in reply
    malayalam = await s.say(dataclasses.replace(s.keeper, lang=None), "അടച്ചു KNM-1 200")
    assert "₹200" in malayalam
    assert DUE_3_MAR in malayalam
    assert (await s.case()).stage is Stage.IMPOUNDED


async def test_a_part_deposit_is_refused_with_the_dues_and_nothing_is_recorded_s14(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    rows = await s.ledger_rows()
    reply = await s.keeper_says("DEPOSITED KNM-1 540", 3)
    assert "Not recorded: ₹540 is not the amount due" in reply
    assert "delivered on deposit of all of it" in reply
    assert "Feeding and watering (s.4)" in reply
    assert "(s.14)" in reply
    assert (await s.case()).stage is Stage.IMPOUNDED
    assert await s.ledger_rows() == rows
    assert "₹1,111.50 deposited" in await s.keeper_says("DEPOSITED KNM-1 ₹1111.50")


async def _unclaimed_to_auction(s: Session, seize: str = SEIZE_ONE) -> None:
    """Intake on 1 March, report on 9, notice on 10, auction fixed for 18 March."""
    assert "KNM-1" in await s.keeper_says(seize)
    assert "KNM-1" in await s.keeper_says("REPORT KNM-1", 9)
    await s.officer_says("NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market", 10)
    await s.officer_says("AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market")


# --- other disposal is the Director's (s.13(3) proviso) ---------------------------------


async def test_disposal_ordered_by_anyone_but_the_director_is_refused_s13_3_proviso(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _unclaimed_to_auction(s)
    clock.set(at(18))
    for who in ("Panchayat Secretary", "Pound keeper Raman", "Deputy Director of AH"):
        reply = await s.officer_says(f"DISPOSE KNM-1 1 1 BY {who} REF DO-4/2026 HOW goshala")
        assert f"'{who}' is not that office" in reply, reply
        assert "(s.13(3) proviso)" in reply
        assert (await s.case()).heads_remaining == 1
    for lang in ("ml", "ta", "kn"):
        refused = await s.in_lang(s.officer, lang, "DISPOSE KNM-1 1 1 BY Secretary REF DO-4")
        assert "Secretary" in refused, refused
        assert "not that office" not in refused
    done = await s.officer_says("DISPOSE KNM-1 1 1 BY director REF DO-4/2026")
    assert "by order of Director of Animal Husbandry" in done
    assert (await s.case()).heads_remaining == 0


async def test_the_words_for_the_director_are_configurable_s13_3_proviso(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    collector = Name("District Collector")
    config = deps.config._replace(proviso_offices=(ProvisoOffice("DC", collector, collector),))
    s = session(store, dataclasses.replace(deps, config=config), clock, keeper, officer)
    await _unclaimed_to_auction(s)
    clock.set(at(18))
    assert "not that office" in await s.officer_says("DISPOSE KNM-1 1 1 BY Director REF D-1")
    assert "by order of District Collector" in await s.officer_says(
        "DISPOSE KNM-1 1 1 BY District Collector REF D-1"
    )


# --- an owner who refused may pay until a head is sold (s.12, s.15(1)) ------------------


async def test_an_owner_who_refused_may_pay_until_a_head_is_sold_and_the_auction_is_off(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says("SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed")
    await s.keeper_says("REFUSED KNM-1", 3)
    await s.officer_says("AUCTION KNM-1 ON 10-03-2026 AT Kunnamangalam market", 4)
    dues = await s.keeper_says("DUES KNM-1", 5)
    paid = await s.keeper_says("PAID KNM-1", 5)
    assert "released (s.12)" in paid, paid
    assert "The auction fixed for 10 Mar 2026 is cancelled." in paid
    amount = paid.split(": ")[1].split(" paid")[0]
    assert amount in dues
    case = await s.case()
    assert case.stage is Stage.RELEASED
    assert "auction" not in (await s.keeper_says("STATUS KNM-1")).lower()


async def test_a_head_offered_and_unsold_does_not_stop_the_owner_paying_s12(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says("SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed")
    await s.keeper_says("REFUSED KNM-1", 3)
    await s.officer_says("AUCTION KNM-1 ON 10-03-2026 AT Kunnamangalam market", 4)
    await s.officer_says("UNSOLD KNM-1 1 1", 10)
    assert "released (s.12)" in await s.keeper_says("PAID KNM-1 ON 10-03-2026")


async def test_once_the_proceeds_meet_the_dues_the_owner_who_refused_is_refused_s15_1(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says("SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed")
    await s.keeper_says("REFUSED KNM-1", 3)
    await s.officer_says("AUCTION KNM-1 ON 10-03-2026 AT Kunnamangalam market", 4)
    await s.officer_says("SOLD KNM-1 1 1 15000 TO Joseph Mathew, Chowwannur DECLARED", 10)
    refused = await s.keeper_says("PAID KNM-1")
    assert refused.startswith("The proceeds of the sale meet the dues"), refused
    assert "(s.15(1))" in refused
    assert (await s.case()).stage is Stage.SELLING


# --- several claimants to a deposit (s.16(3)) ------------------------------------------


async def _sold_into_deposit(s: Session) -> None:
    """1 cow, unclaimed: sold on 18 Mar 2026 for Rs 15,000; the surplus into deposit."""
    await _unclaimed_to_auction(s)
    await s.officer_says("SOLD KNM-1 1 1 15000 TO Joseph Mathew, Chowwannur DECLARED", 18)
    assert "held in deposit" in await s.officer_says("SETTLE KNM-1 300")


async def test_any_number_of_claims_are_preferred_and_each_decided_and_fund_waits_s16_3(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _sold_into_deposit(s)
    first = await s.officer_says("CLAIMED KNM-1 BY Kunhammed P.", 1, 4)
    assert "claim of Kunhammed P " in first
    second = await s.officer_says("CLAIMED KNM-1 BY Ayesha", 2, 4)
    assert "claim of Ayesha" in second
    assert "preferred on 2 Apr 2026" in second
    twice = await s.officer_says("CLAIMED KNM-1 BY Ayesha")
    assert "already pending" in twice
    assert "(s.16(3))" in twice
    assert len((await s.case()).pending_claims) == 2
    which = await s.officer_says("REJECT KNM-1 REF 14/2026", 3, 4)
    assert "Kunhammed P, Ayesha" in which
    assert "(s.16(3))" in which
    rejected = await s.officer_says("REJECT KNM-1 BY Ayesha REF 14/2026")
    assert "claim of Ayesha to the deposit was rejected" in rejected
    assert "Still pending: the claims of Kunhammed P (s.16(3))" in rejected
    # A claim preferred in time, entered after the last step: accepted with its day.
    late = await s.officer_says("CLAIMED KNM-1 BY Suresh ON 02-04-2026", 5, 4)
    assert "claim of Suresh" in late, late
    assert "preferred on 2 Apr 2026" in late
    fund = await s.officer_says("FUND KNM-1", 1, 7)
    assert "Kunhammed P, Suresh" in fund
    assert "(s.16(3))" in fund
    paid_out = await s.officer_says("CLAIM KNM-1 BY Suresh REF 20/2026")
    assert "Kunhammed P" in paid_out
    assert "reject them" in paid_out
    await s.officer_says("REJECT KNM-1 BY kunhammed p. REF 21/2026")
    await s.officer_says("REJECT KNM-1 BY Suresh REF 22/2026")
    assert (await s.case()).pending_claims == ()
    assert "credited" in await s.officer_says("FUND KNM-1")
    assert (await s.case()).stage is Stage.CLOSED


async def test_a_claim_after_the_three_months_gets_the_s16_3_reason(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _sold_into_deposit(s)
    late = await s.officer_says("CLAIMED KNM-1 BY Ayesha", 2, 7)
    assert late == "The 3 months to claim the deposit ended on 18 Jun 2026. (s.16(3))"
    for lang in ("ml", "ta", "kn"):
        assert "18" in await s.in_lang(s.officer, lang, "CLAIMED KNM-1 BY Ayesha")
    assert (await s.case()).pending_claims == ()


async def test_a_rejection_after_the_three_months_says_the_time_to_claim_ended_s16_3(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _sold_into_deposit(s)
    await s.officer_says("CLAIMED KNM-1 BY Ayesha", 1, 5)
    reply = await s.officer_says("REJECT KNM-1 REF 14/2026", 2, 12)
    assert "Claims may be preferred until" not in reply
    assert "The time to claim ended on 18 Jun 2026" in reply


# --- smaller things ---------------------------------------------------------------------


async def test_a_deposit_entered_late_says_the_time_to_complain_ended_s19(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    reply = await s.keeper_says("DEPOSITED KNM-1 ON 03-03-2026", 5, 4)
    assert "deposited on 3 Mar 2026" in reply
    assert "may complain until" not in reply
    assert "The time to complain ended on 11 Mar 2026 (s.19)" in reply


async def test_a_deposit_on_a_voided_case_says_voided_s7(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("VOID KNM-1 BECAUSE entered twice", 2)
    reply = await s.keeper_says("DEPOSITED KNM-1", 20)
    assert "voided" in reply
    assert "(s.19)" not in reply
    assert "complain" not in reply


async def test_after_a_refused_account_the_report_comes_first_s15_5(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says("SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed")
    await s.keeper_says("REFUSED KNM-1", 2)
    await s.officer_says("AUCTION KNM-1 ON 05-03-2026 AT Kunnamangalam market")
    await s.officer_says("SOLD KNM-1 1 1 20000 TO Mammu, Kunnamangalam DECLARED", 5)
    await s.officer_says("SETTLE KNM-1 500")
    await s.officer_says("NORECEIPT KNM-1", 6)
    clock.set(at(10))
    for line in (
        "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market",
        "AUCTION KNM-1 ON 20-03-2026 AT Kunnamangalam market",
        "DISPOSE KNM-1 1 1 BY Director REF DO-4/2026",
        "SETTLE KNM-1 0",
    ):
        reply = await s.officer_says(line)
        assert "the pound-keeper's report comes first, due from 9 Mar 2026" in reply, reply
        assert "(s.13(1))" in reply
        assert (await s.case()).stage is Stage.DEEMED_UNCLAIMED
    ml = await s.in_lang(s.officer, "ml", "SETTLE KNM-1 0")
    assert "9 മാർച്ച് 2026" in ml
    assert "pound-keeper" not in ml


async def test_after_a_refund_is_ordered_status_says_what_is_recorded_and_refunded_records_it(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("DEPOSITED KNM-1", 3)
    assert "REFUNDED KNM-1" in await s.officer_says("OUTCOME KNM-1 ILLEGAL REF CC-1/2026", 20)
    status = await s.say(s.owner, "STATUS KNM-1")
    assert "was returned" not in status
    assert "was refunded" not in status
    assert "to be refunded to the owner; the refund is not yet recorded (s.14, s.19)" in status
    assert "refund" in await s.in_lang(s.owner, "en", "STATUS KNM-1")
    assert "role does not allow" in await s.keeper_says("REFUNDED KNM-1")
    early = await s.officer_says("REFUNDED KNM-1 ON 19-03-2026")
    assert "before the last step recorded" in early
    done = await s.officer_says("REFUNDED KNM-1", 22)
    assert "the deposit of ₹1,111.50 was refunded to the owner on 22 Mar 2026 (s.14, s.19)" in done
    after = await s.say(s.owner, "STATUS KNM-1")
    assert "the deposit was refunded to the owner on 22 Mar 2026" in after
    twice = await s.officer_says("REFUNDED KNM-1")
    assert "refunded on 22 Mar 2026 already" in twice
    assert "(s.19)" in twice


async def test_refunded_with_no_refund_ordered_is_refused_s19(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("DEPOSITED KNM-1", 3)
    await s.officer_says("OUTCOME KNM-1 UPHELD REF CC-1/2026", 20)
    reply = await s.officer_says("REFUNDED KNM-1")
    assert "No refund of a deposit was ordered" in reply
    assert "(s.19)" in reply


# --- a correction of what the notice states needs a new notice (s.13(2), s.13(3)) -------


async def test_correcting_the_cattle_after_the_notice_supersedes_it_and_cancels_the_auction(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _unclaimed_to_auction(s)  # notice 10 Mar, auction fixed for 18 Mar
    reply = await s.keeper_says(
        "CORRECT KNM-1 CATTLE 2 cow (black) BECAUSE two were brought, not one", 12
    )
    assert (
        "The notice of 10 Mar 2026 no longer stands: post a new notice (NOTICE KNM-1); the "
        "auction fixed for 18 Mar 2026 is cancelled (s.13(2), s.13(3))."
    ) in reply, reply
    case = await s.case()
    assert case.stage is Stage.REPORTED
    assert case.notice is None
    assert case.scheduled_auction is None
    assert case.superseded_notice is not None
    assert case.superseded_notice.on == date(2026, 3, 10)
    for line in (
        "AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market",
        "SOLD KNM-1 1 1 15000 TO Joseph Mathew, Chowwannur DECLARED",
        "DISPOSE KNM-1 1 1 BY Director REF DO-4/2026",
    ):
        refused = await s.officer_says(line, 18)
        assert "The notice of 10 Mar 2026 was superseded by the correction of 12 Mar 2026" in (
            refused
        ), refused
        assert "(s.13(2))" in refused
    assert (await s.case()).stage is Stage.REPORTED
    ml = await s.in_lang(s.officer, "ml", "AUCTION KNM-1 ON 25-03-2026 AT Kunnamangalam market")
    assert "10 മാർച്ച് 2026" in ml
    assert "superseded" not in ml
    # The new notice on 18 Mar: the seven days run from it.
    await s.officer_says("NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market", 18)
    case = await s.case()
    assert case.stage is Stage.NOTICE_POSTED
    assert case.notice is not None
    assert case.notice.on == date(2026, 3, 18)
    early = await s.officer_says("AUCTION KNM-1 ON 25-03-2026 AT Kunnamangalam market")
    assert "26 Mar 2026" in early
    fixed = await s.officer_says("AUCTION KNM-1 ON 26-03-2026 AT Kunnamangalam market")
    assert "26 Mar 2026" in fixed
    # The old notice stays in the history.
    notices = [e for e in (await s.case()).events if type(e).__name__ == "NoticePosted"]
    assert [n.on for n in notices] == [date(2026, 3, 10), date(2026, 3, 18)]


async def test_correcting_the_place_of_seizure_after_the_notice_needs_a_new_notice_s13_2(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _unclaimed_to_auction(s)
    reply = await s.keeper_says("CORRECT KNM-1 PLACE Pathimangalam BECAUSE written wrongly", 12)
    assert "The notice of 10 Mar 2026 no longer stands" in reply, reply
    assert (await s.case()).stage is Stage.REPORTED
    owner = await s.keeper_says("CORRECT KNM-1 OWNER Kunhammed P BECAUSE full name", 12)
    assert "no longer stands" not in owner


async def test_correcting_the_owner_after_the_notice_keeps_the_notice_and_the_auction(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _unclaimed_to_auction(s)
    reply = await s.keeper_says("CORRECT KNM-1 OWNER Kunhammed P BECAUSE full name", 12)
    assert "no longer stands" not in reply
    case = await s.case()
    assert case.stage is Stage.NOTICE_POSTED
    assert case.scheduled_auction is not None


# --- the market proclaimed is the one nearest the place of seizure (s.13(2)) -------------


async def test_the_proclamation_is_at_the_market_of_the_village_seized_in_s13_2(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says("SEIZE 1 cow AT Pathimangalam junction OWNER Kunhammed")
    await s.keeper_says("REPORT KNM-1", 9)
    printed = await s.officer_says("NOTICE KNM-1")
    assert "Pathimangalam Chantha" in printed
    assert "Kunnamangalam Town Market" not in printed
    await s.officer_says("NOTICE KNM-1 ON 10-03-2026", 10)
    notice = (await s.case()).notice
    assert notice is not None
    assert notice.proclaimed_at == ("Pathimangalam", "Pathimangalam Chantha")


async def test_a_place_corrected_to_another_village_moves_the_proclamation_s13_2(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says("SEIZE 1 cow AT Pathimangalam junction OWNER Kunhammed")
    await s.keeper_says("REPORT KNM-1", 9)
    await s.keeper_says("CORRECT KNM-1 PLACE near Chathamangalam school BECAUSE wrong place")
    await s.officer_says("NOTICE KNM-1 ON 10-03-2026", 10)
    notice = (await s.case()).notice
    assert notice is not None
    assert notice.proclaimed_at == ("Chathamangalam", "Chathamangalam Market")


async def test_a_place_in_no_listed_village_is_proclaimed_at_the_configured_market_s13_2(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("REPORT KNM-1", 9)
    await s.officer_says("NOTICE KNM-1 ON 10-03-2026", 10)
    notice = (await s.case()).notice
    assert notice is not None
    assert notice.proclaimed_at == (
        "Kunnamangalam",
        "Kunnamangalam Town Market, Kunnamangalam Angadi",
    )


async def test_once_an_unclaimed_head_is_sold_paid_points_to_the_deposit_s13_3(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _unclaimed_to_auction(s, "SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed")
    await s.officer_says("SOLD KNM-1 1 1 15000 TO Joseph Mathew, Chowwannur DECLARED", 18)
    refused = await s.keeper_says("PAID KNM-1")
    assert "A head was sold on 18 Mar 2026" in refused
    assert "the owner may claim it (s.16(3))" in refused
    assert "(s.13(3))" in refused
    assert (await s.case()).stage is Stage.SELLING
