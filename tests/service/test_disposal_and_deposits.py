"""Issue 12 (B, C): steps of the Act reachable through the dispatcher: other disposal
(s.13(3) proviso), a refused account sold as unclaimed (s.15(5)), the outcome of a
deposit under protest (s.14, s.19), a claim preferred to the deposit (s.16(3)), the
proclamation in the village and the market place (s.13(2)), fines to the fund (s.17(1))."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime

from sqlalchemy import select

from bot.conversation.reply import handle_text
from bot.services import desk
from bot.services.base import Deps
from bot.store.models import DeadlineRow, LedgerEntry
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.stages import Stage

SEIZE_ONE = "SEIZE 1 cow AT Kunnamangalam market OWNER Kunhammed"
SEIZE_TWO = "SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed"


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

    async def say(self, who: Caller, text: str, day: int | None = None, month: int = 3) -> str:
        if day is not None:
            self.clock.set(at(day, month))
        async with self.store.transaction() as tx:
            reply = await handle_text(tx, self.deps, who, text, sms=False)
        return reply.text

    async def keeper_says(self, text: str, day: int | None = None, month: int = 3) -> str:
        return await self.say(self.keeper, text, day, month)

    async def officer_says(self, text: str, day: int | None = None, month: int = 3) -> str:
        return await self.say(self.officer, text, day, month)

    async def stage(self, number: str = "KNM-1") -> Stage:
        async with self.store.transaction() as tx:
            return (await tx.load_case(number)).case.stage

    async def case(self, number: str = "KNM-1"):  # type: ignore[no-untyped-def]
        async with self.store.transaction() as tx:
            return (await tx.load_case(number)).case

    async def ledger(self) -> list[tuple[str, int, str]]:
        async with self.store.transaction() as tx:
            rows = await tx.session.execute(select(LedgerEntry).order_by(LedgerEntry.id))
            return [(e.account, e.amount_paise, e.provision) for e in rows.scalars()]

    async def open_deadlines(self) -> dict[str, tuple[date, str, str]]:
        async with self.store.transaction() as tx:
            rows = await tx.session.execute(select(DeadlineRow).where(DeadlineRow.status == "open"))
            return {r.kind: (r.due_on, r.who, r.provision) for r in rows.scalars()}


def session(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> Session:
    return Session(store, deps, clock, keeper, officer)


async def _unclaimed_to_auction(s: Session, seize: str = SEIZE_ONE) -> None:
    """Intake on 1 March, report on 9, notice on 10, auction fixed for 18 March."""
    assert "KNM-1" in await s.keeper_says(seize)
    assert "KNM-1" in await s.keeper_says("REPORT KNM-1", 9)
    await s.officer_says("NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market", 10)
    await s.officer_says("AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market")


# --- 6. other disposal under the s.13(3) proviso ---------------------------------------


async def test_an_unsellable_cow_is_disposed_of_by_order_and_the_sale_settles_s13_3_proviso(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _unclaimed_to_auction(s)
    await s.officer_says("UNSOLD KNM-1 1 1", 18)
    refused = await s.officer_says("SETTLE KNM-1 0")
    assert "(s.13(3))" in refused
    assert await s.stage() is Stage.SELLING
    reply = await s.officer_says(
        "DISPOSE KNM-1 1 1 BY Director of Animal Husbandry REF DO-4/2026 HOW to the goshala"
    )
    assert "disposed of otherwise (to the goshala) by order of Director of Animal Husbandry" in (
        reply
    )
    assert "ref. DO-4/2026" in reply
    assert "(s.13(3) proviso)" in reply
    case = await s.case()
    assert case.heads_remaining == 0
    assert case.sale_outcome == "disposed_otherwise"
    settled = await s.officer_says("SETTLE KNM-1 0")
    assert "sale settled" in settled
    assert await s.stage() is Stage.CLOSED


async def test_dispose_needs_who_ordered_it_and_the_reference_and_changes_nothing_without(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _unclaimed_to_auction(s)
    clock.set(at(18))
    no_ref = await s.officer_says("DISPOSE KNM-1 1 1 BY Director")
    assert "(s.13(3) proviso)" in no_ref
    too_many = await s.officer_says("DISPOSE KNM-1 1 2 BY Director REF DO-4")
    assert "(s.13(3))" in too_many
    early = await s.officer_says("DISPOSE KNM-1 1 1 BY Director REF DO-4", 17)
    assert "18 Mar 2026" in early
    as_keeper = await s.keeper_says("DISPOSE KNM-1 1 1 BY Director REF DO-4", 18)
    assert "role does not allow" in as_keeper
    assert (await s.case()).heads_remaining == 1


async def test_dispose_in_malayalam_with_proceeds_counts_them_in_the_sale(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _unclaimed_to_auction(s)
    malayalam = dataclasses.replace(s.officer, lang=None)
    reply = await s.say(
        malayalam, "വിനിയോഗിച്ചു KNM-1 1 1 250 മുഖേന മൃഗസംരക്ഷണ ഡയറക്ടർ നമ്പർ DO-4/2026 വിധം ഗോശാല", 18
    )
    assert "ഡയറക്ടർ" in reply
    assert "DO-4/2026" in reply
    assert "മറ്റു വിധത്തിൽ വിനിയോഗിച്ചു (ഗോശാല)" in reply
    assert "(വകുപ്പ് 13(3) പരന്തുകം)" in reply
    case = await s.case()
    assert case.proceeds.paise == 25000
    assert case.heads_remaining == 0


async def test_dispose_is_refused_on_the_owners_route_s13_3_proviso(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("REFUSED KNM-1", 2)
    await s.officer_says("AUCTION KNM-1 ON 05-03-2026 AT Kunnamangalam market")
    reply = await s.officer_says("DISPOSE KNM-1 1 1 BY Director REF DO-4", 5)
    assert "(s.13(3) proviso)" in reply
    assert (await s.case()).heads_remaining == 1


# --- 12. the proclamation in the village and at the market place (s.13(2)) -------------


async def test_a_notice_proclaimed_in_the_village_only_gets_the_configured_market_place(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("REPORT KNM-1", 9)
    reply = await s.officer_says("NOTICE KNM-1 AT Kunnamangalam", 10)
    notice = (await s.case()).notice
    assert notice is not None
    market = deps.config.authorities["KNM-GP"].market_place
    assert notice.proclaimed_at == ("Kunnamangalam", market)
    assert market in reply


async def test_a_notice_with_no_place_named_is_proclaimed_at_both_configured_places(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("REPORT KNM-1", 9)
    authority = deps.config.authorities["KNM-GP"]
    printed = await s.officer_says("NOTICE KNM-1", 10)
    assert await s.stage() is Stage.REPORTED  # NOTICE alone prints the notice
    assert "KNM-1" in printed
    await s.officer_says("NOTICE KNM-1 ON 10-03-2026")
    notice = (await s.case()).notice
    assert notice is not None
    assert notice.proclaimed_at == (authority.village, authority.market_place)
    assert notice.on == date(2026, 3, 10)


async def test_a_market_place_named_alone_gets_the_configured_village_in_malayalam(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("REPORT KNM-1", 9)
    malayalam = dataclasses.replace(s.officer, lang=None)
    market = "Kunnamangalam Town Market Kunnamangalam Angadi"
    reply = await s.say(malayalam, f"നോട്ടീസ് KNM-1 സ്ഥലം {market}", 10)
    assert any("\u0d00" <= ch <= "\u0d7f" for ch in reply)
    notice = (await s.case()).notice
    assert notice is not None
    configured = deps.config.authorities["KNM-GP"].market_place
    assert notice.proclaimed_at == ("Kunnamangalam", configured)


async def test_the_configured_market_place_typed_with_its_comma_is_one_place(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("REPORT KNM-1", 9)
    market = deps.config.authorities["KNM-GP"].market_place
    assert "," in market
    await s.officer_says(f"NOTICE KNM-1 AT {market}", 10)
    notice = (await s.case()).notice
    assert notice is not None
    assert notice.proclaimed_at == ("Kunnamangalam", market)


# --- 7. s.15(5): a refused account; the rest go the s.13 way ---------------------------


async def _refused_account(s: Session) -> None:
    """Two cows in on 1 March; the owner refuses to pay on 2 March; one sold on 5 March;
    settled; on 6 March the owner refuses the remaining cow and the balance."""
    await s.keeper_says(SEIZE_TWO)
    await s.keeper_says("REFUSED KNM-1", 2)
    await s.officer_says("AUCTION KNM-1 ON 05-03-2026 AT Kunnamangalam market")
    await s.officer_says("SOLD KNM-1 1 1 20000 TO Mammu, Kunnamangalam DECLARED", 5)
    settled = await s.officer_says("SETTLE KNM-1 500")
    assert "sale settled" in settled
    assert await s.stage() is Stage.ACCOUNT_DUE


async def test_a_refused_account_sends_the_rest_through_report_notice_auction_and_deposit_s15_5(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _refused_account(s)
    refused = await s.officer_says("NORECEIPT KNM-1", 6)
    assert "1 head" in refused
    assert "(s.15(5))" in refused
    assert await s.stage() is Stage.DEEMED_UNCLAIMED
    first_balance = (await s.case()).events[-2].to_owner_or_deposit  # the first settlement
    assert first_balance.paise > 0
    # The keeper is reminded to report, on the s.13(1) day (impounded 1 March -> 9 March).
    deadlines = await s.open_deadlines()
    assert deadlines["report_due"] == (date(2026, 3, 9), "keeper", "s.15(5)")
    # The owner is not told the rest go back to them.
    status = await s.say(s.owner, "STATUS KNM-1")
    assert "go back to the owner" not in status
    assert "deemed unclaimed (s.15(5))" in status
    # Too early for the report, then the report, the notice and the auction of the rest.
    assert "9 Mar 2026" in await s.keeper_says("REPORT KNM-1", 8)
    assert "KNM-1" in await s.keeper_says("REPORT KNM-1", 9)
    assert await s.stage() is Stage.REPORTED
    await s.officer_says("NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market")
    assert await s.stage() is Stage.NOTICE_POSTED
    early = await s.officer_says("AUCTION KNM-1 ON 16-03-2026 AT Kunnamangalam market")
    assert "17 Mar 2026" in early
    await s.officer_says("AUCTION KNM-1 ON 17-03-2026 AT Kunnamangalam market")
    assert (await s.open_deadlines())["auction_day"][0] == date(2026, 3, 17)
    await s.officer_says("SOLD KNM-1 1 1 15000 TO Joseph Mathew, Chathamangalam DECLARED", 17)
    # Unclaimed cattle are all sold: the second settlement puts the balance into deposit.
    second = await s.officer_says("SETTLE KNM-1 300")
    assert "sale settled; proceeds ₹15,000" in second
    assert "(d) Number of cattle sold: 2\n" in second  # the account counts both sales
    assert "(e) Proceeds of sale: ₹35,000" in second  # both sales
    case = await s.case()
    assert case.stage is Stage.IN_DEPOSIT
    assert case.deposited_on == date(2026, 3, 17)
    ledger = await s.ledger()
    in_deposit = sum(a for account, a, _ in ledger if account == "surplus_deposit")
    assert in_deposit == case.deposit_total.paise
    assert case.deposit_total.paise > first_balance.paise
    # Every paisa of both sales is accounted for: proceeds = dues met + deposit.
    met = sum(
        a
        for account, a, p in ledger
        if account in ("sale_expenses", "keeper_feeding") or (account, p) == ("fines", "s.16(1)")
    )
    assert met + in_deposit == 3500000
    # The second sale met the expenses of both sales and the feeding of the second cow
    # from 1 to 17 March; the fines were met by the first.
    expenses = [a for account, a, _ in ledger if account == "sale_expenses"]
    assert expenses == [50000, 30000]
    fines = [a for account, a, p in ledger if (account, p) == ("fines", "s.16(1)")]
    assert len(fines) == 1
    deadlines = await s.open_deadlines()
    assert deadlines["deposit_window_ends"][0] == date(2026, 6, 17)
    assert "report_due" not in deadlines
    # The web desk's Today holds both balances in deposit, not the last one alone.
    async with store.transaction() as tx:
        today = await desk.today(tx, deps, officer)
    assert [d.amount.paise for d in today.deposits] == [case.deposit_total.paise]
    assert today.held == case.deposit_total
    # The deposit goes to the fund after the three months, all of it.
    clock.set(at(18, 6))
    funded = await s.officer_says("FUND KNM-1")
    assert "credited" in funded
    assert await s.stage() is Stage.CLOSED
    total_fund = sum(a for account, a, p in await s.ledger() if account == "fund")
    assert total_fund >= in_deposit


async def test_a_deemed_unclaimed_cow_is_not_sold_before_the_notice_but_may_be_paid_for_s15_5(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _refused_account(s)
    await s.officer_says("NORECEIPT KNM-1", 6)
    sold = await s.officer_says("SOLD KNM-1 1 1 9000 TO Joseph, Chathamangalam DECLARED", 9)
    assert "(s.13(3))" in sold
    await s.keeper_says("REPORT KNM-1")
    # Unclaimed cattle are sold only if "not claimed" (s.13(3)): until a head of this
    # round is sold the owner may pay what is still owed and take the cow (s.12).
    paid = await s.keeper_says("PAID KNM-1")
    assert "1 cow released (s.12)" in paid, paid
    assert await s.stage() is Stage.IN_DEPOSIT


async def test_noreceipt_in_malayalam_says_the_rest_are_reported_as_unclaimed(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _refused_account(s)
    malayalam = dataclasses.replace(s.officer, lang=None)
    reply = await s.say(malayalam, "സ്വീകരിച്ചില്ല KNM-1", 6)
    assert "(വകുപ്പ് 15(5))" in reply
    assert "റിപ്പോർട്ട് KNM-1" in reply
    assert await s.stage() is Stage.DEEMED_UNCLAIMED


# --- 10. what became of a deposit under protest (s.14, s.19) ---------------------------


async def _on_deposit(s: Session) -> None:
    await s.keeper_says(SEIZE_ONE)
    reply = await s.keeper_says("DEPOSITED KNM-1", 2)
    assert await s.stage() is Stage.ON_DEPOSIT, reply


async def test_the_seizure_upheld_applies_the_deposit_to_the_fines_and_feeding_s14_s19(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _on_deposit(s)
    # Until the outcome is recorded the case is open and the officers have a deadline.
    assert (await s.open_deadlines())["complaint_window_ends"] == (
        date(2026, 3, 11),
        "officer",
        "s.19",
    )
    reply = await s.officer_says("OUTCOME KNM-1 UPHELD REF CC-12/2026", 20)
    assert "the seizure was upheld" in reply
    assert "CC-12/2026" in reply
    assert await s.stage() is Stage.CLOSED
    assert "complaint_window_ends" not in await s.open_deadlines()
    deposit = [(a, p) for account, a, p in await s.ledger() if account == "protest_deposit"]
    (taken, _), (released, provision) = deposit
    assert released == -taken
    assert provision == "s.14"
    after = [e for e in await s.ledger() if e[0] != "protest_deposit"]
    fines = 75000  # one cow, s.11 scale of the sample configuration
    assert after == [
        ("fines", fines, "s.14"),
        ("fines", -fines, "s.17(1)"),
        ("fund", fines, "s.17(1)"),
        ("keeper_feeding", taken - fines, "s.16(2)"),
    ]


async def test_the_seizure_found_illegal_refunds_the_deposit_to_the_owner_in_malayalam(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _on_deposit(s)
    malayalam = dataclasses.replace(s.officer, lang=None)
    reply = await s.say(malayalam, "ഫലം KNM-1 നിയമവിരുദ്ധം നമ്പർ CC-12/2026", 20)
    assert "CC-12/2026" in reply
    assert "പിടിച്ചെടുക്കൽ നിയമവിരുദ്ധമെന്ന് കണ്ടെത്തി" in reply
    assert await s.stage() is Stage.CLOSED
    ledger = await s.ledger()
    taken = ledger[0][1]
    assert ledger[1:] == [("protest_deposit", -taken, "s.14"), ("owner_refund", taken, "s.19")]


async def test_an_outcome_needs_upheld_or_illegal_and_a_reference_and_an_open_deposit(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    not_on_deposit = await s.officer_says("OUTCOME KNM-1 UPHELD REF CC-1", 2)
    assert "(s.19)" in not_on_deposit
    await s.keeper_says("DEPOSITED KNM-1", 2)
    assert "(s.14, s.19)" in await s.officer_says("OUTCOME KNM-1 REF CC-1")
    assert "(s.14, s.19)" in await s.officer_says("OUTCOME KNM-1 UPHELD")
    assert "(s.14, s.19)" in await s.officer_says("OUTCOME KNM-1 MAYBE REF CC-1")
    assert "role does not allow" in await s.keeper_says("OUTCOME KNM-1 UPHELD REF CC-1")
    assert await s.stage() is Stage.ON_DEPOSIT


async def test_the_officers_reminder_after_the_complaint_window_names_outcome() -> None:
    from bot.i18n import translator
    from bot.i18n.officers.reminders import reminder
    from domain.deadlines import DeadlineKind

    text = reminder(
        DeadlineKind.COMPLAINT_WINDOW_ENDS,
        "KNM-1",
        date(2026, 3, 11),
        date(2026, 3, 12),
        translator("en"),
        to_officer=True,
    )
    assert "OUTCOME KNM-1" in text
    assert "(s.19)" in text


# --- 11. a claim to the deposit preferred, not yet established (s.16(3)) ---------------


async def _in_deposit(s: Session) -> None:
    await _unclaimed_to_auction(s)
    await s.officer_says("SOLD KNM-1 1 1 30000 TO Mammu, Kunnamangalam DECLARED", 18)
    await s.officer_says("SETTLE KNM-1 500")
    assert await s.stage() is Stage.IN_DEPOSIT


async def test_a_pending_claim_blocks_fund_until_it_is_rejected_s16_3(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _in_deposit(s)
    reply = await s.officer_says("CLAIMED KNM-1 BY Kunhammed P. ON 10-06-2026", 12, 6)
    assert "Kunhammed P." in reply
    assert "10 Jun 2026" in reply
    deadlines = await s.open_deadlines()
    assert "credit_to_fund" not in deadlines
    assert deadlines["claim_pending"] == (date(2026, 6, 19), "officer", "s.16(3)")
    register = await s.officer_says("REGISTER")
    assert "Claim of Kunhammed P. pending since 10 Jun 2026 (s.16(3))." in register
    clock.set(at(20, 6))
    blocked = await s.officer_says("FUND KNM-1")
    assert "(s.16(3))" in blocked
    assert await s.stage() is Stage.IN_DEPOSIT
    assert not [
        e for e in await s.ledger() if e[0] == "fund" and e[2] == "s.17(1)" and e[1] > 75000
    ]
    rejected = await s.officer_says("REJECT KNM-1 REF RDO-7/2026")
    assert "RDO-7/2026" in rejected
    assert "credit_to_fund" in await s.open_deadlines()
    funded = await s.officer_says("FUND KNM-1")
    assert "credited" in funded
    assert await s.stage() is Stage.CLOSED


async def test_a_pending_claim_established_by_claim_keeps_the_day_it_was_preferred(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _in_deposit(s)
    await s.officer_says("CLAIMED KNM-1 BY Kunhammed P.", 1, 6)
    reply = await s.officer_says("CLAIM KNM-1 BY Kunhammed P. REF 9/2026", 25, 6)
    assert "preferred on 1 Jun 2026" in reply
    case = await s.case()
    assert case.stage is Stage.CLOSED
    ledger = await s.ledger()
    assert ("owner_balance", case.deposit_total.paise, "s.16(3)") in ledger


async def test_a_claim_preferred_after_three_months_or_twice_is_refused_in_malayalam(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _in_deposit(s)
    malayalam = dataclasses.replace(s.officer, lang=None)
    late = await s.say(malayalam, "അവകാശവാദം KNM-1 മുഖേന Kunhammed", 19, 6)
    assert "(വകുപ്പ് 16(3))" in late
    assert (await s.case()).pending_claim is None
    await s.officer_says("CLAIMED KNM-1 BY Kunhammed", 1, 6)
    twice = await s.officer_says("CLAIMED KNM-1 BY Ayesha")
    assert "(s.16(3))" in twice
    assert "(s.16(3))" in await s.officer_says("REJECT KNM-1")
    pending = (await s.case()).pending_claim
    assert pending is not None
    assert pending.claimant == "Kunhammed"


async def test_reject_without_a_pending_claim_is_refused_s16_3(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _in_deposit(s)
    assert "(s.16(3))" in await s.officer_says("REJECT KNM-1 REF 1/2026", 1, 6)


# --- 18. fines reach the fund (s.17(1)) ---------------------------------------------------


async def test_fines_received_on_release_are_credited_to_the_fund_s12_s17_1(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    await s.keeper_says("PAID KNM-1", 3)
    ledger = await s.ledger()
    fines = 75000
    assert [e for e in ledger if e[0] in ("fines", "fund")] == [
        ("fines", fines, "s.12"),
        ("fines", -fines, "s.17(1)"),
        ("fund", fines, "s.17(1)"),
    ]


async def test_fines_deducted_from_a_sale_are_credited_to_the_fund_s16_1_s17_1(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await _in_deposit(s)
    ledger = await s.ledger()
    fines = 75000
    assert [e for e in ledger if e[0] in ("fines", "fund")] == [
        ("fines", fines, "s.16(1)"),
        ("fines", -fines, "s.17(1)"),
        ("fund", fines, "s.17(1)"),
    ]


async def test_a_release_recorded_in_malayalam_credits_the_fines_to_the_fund_s17_1(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller
) -> None:
    s = session(store, deps, clock, keeper, officer)
    await s.keeper_says(SEIZE_ONE)
    malayalam = dataclasses.replace(s.keeper, lang=None)
    reply = await s.say(malayalam, "അടച്ചു KNM-1", 3)
    assert "KNM-1" in reply
    assert any("\u0d00" <= ch <= "\u0d7f" for ch in reply)
    assert await s.stage() is Stage.RELEASED
    provisions = [(account, p) for account, _, p in await s.ledger()]
    assert provisions == [
        ("fines", "s.12"),
        ("keeper_feeding", "s.16(2)"),
        ("fines", "s.17(1)"),
        ("fund", "s.17(1)"),
    ]
