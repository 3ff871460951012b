"""The second part of the story: the auction fixed (s.13(3)), the lots sold (s.13(3),
s.18), the money settled (s.15(2), s.16), three months in deposit (s.16(3)), the credit
to the fund (s.17(1)), and the ledger. Each step checks in the database that it did
what the Act requires."""

from __future__ import annotations

from datetime import date

from bot.adapters.export import rupees
from bot.demo.checks import Checks, case_of, jobs_in, ledger_of
from bot.demo.intake import KNM_1, KNM_2, at, last
from bot.demo.reminders import expect_reminders
from bot.demo.world import World
from bot.i18n import fmt
from bot.services.base import statement_of
from domain.deadlines import DeadlineKind
from domain.events import LotOffered
from domain.money import Money, total
from domain.s04_s11_dues import DuesItem, dues_on
from domain.s13_unclaimed import auction_allowed_from
from domain.s15_sale import sale_progress
from domain.s16_s17_proceeds import deposit_window_end
from domain.stages import Stage

__all__ = ["AUCTION_ON", "auction", "fund", "ledger", "sale", "settle"]

#: The day the officer fixes for the public auction: the day after the first lawful day
#: (17 March), so that the beat of drum can announce it.
AUCTION_ON = date(2026, 3, 18)
#: (lot, heads, rupees, buyer): the goat first, then the buffalo.
_LOTS = ((2, 1, "2800", "goat_buyer"), (1, 1, "16000", "buffalo_buyer"))
_EXPENSES = Money.rupees("500")  # the crier and the auctioneer


async def auction(w: World, check: Checks) -> None:
    """Reminded on the eve of the day the sale becomes lawful, the officer fixes it."""
    p = w.phrases
    w.transcript.step("s.13(3) public auction: the eve of the day it is lawful")
    await w.until(at(16, 10))
    lawful = auction_allowed_from(date(2026, 3, 9))
    await expect_reminders(
        w, check, [("2026-03-16 08:00", "OFFICER", DeadlineKind.AUCTION_LAWFUL, lawful)]
    )
    await w.tell(
        "OFFICER",
        f"/auction {KNM_2} {p.joiner('on')} {AUCTION_ON:%d-%m-%Y} {p.joiner('at')} {p.place}",
    )
    fixed = (await case_of(w.app, KNM_2)).scheduled_auction
    check.that(
        fixed is not None and fixed.auction_on == AUCTION_ON and fixed.auction_on >= lawful,
        "s.13(3)",
        f"the auction is fixed for {AUCTION_ON:%d %B}, not before {lawful:%d %B}",
        fixed or "no auction fixed",
    )


async def sale(w: World, check: Checks) -> None:
    """The auction day is reminded (once fixed, it replaces the lawful-day reminder);
    on that day the lots are sold."""
    p = w.phrases
    w.transcript.step("s.13(3) the auction day")
    await w.until(at(18, 8, 30))
    await expect_reminders(
        w,
        check,
        [("2026-03-18 08:00", "OFFICER", DeadlineKind.AUCTION_DAY, AUCTION_ON)],
    )
    w.transcript.step("s.13(3), s.18 sale by public auction, each lot as it is sold")
    await w.until(at(18, 11))
    tariff = w.app.deps.tariff("KNM")
    lot, heads, price, buyer = _LOTS[0]
    undeclared = f"/sold {KNM_2} {lot} {heads} {price} {p.joiner('to')} {getattr(p, buyer)}"
    refused = last(await w.tell("OFFICER", undeclared)).text
    pair = await case_of(w.app, KNM_2)
    check.that(
        pair.proceeds == Money.zero() and p.joiner("declared") in refused,
        "s.18",
        "a sale without the buyer's declaration is refused, naming who may not buy",
        refused,
    )
    for lot, heads, price, buyer in _LOTS:
        line = (
            f"/sold {KNM_2} {lot} {heads} {price} {p.joiner('to')} {getattr(p, buyer)} "
            f"{p.joiner('declared')}"
        )
        reply = last(await w.tell("OFFICER", line)).text
        pair = await case_of(w.app, KNM_2)
        owed = sale_progress(pair, tariff, AUCTION_ON).still_owed
        check.that(
            fmt.money(owed, p.lang, sms=False) in reply,
            "s.13(3), s.15(2)",
            f"lot {lot} sold for {fmt.money(Money.rupees(price), 'en', sms=False)}; "
            "the reply says what is still owed: "
            f"{fmt.money(owed, 'en', sms=False)}",
            reply,
        )
    sold = [e for e in pair.events if isinstance(e, LotOffered)]
    check.that(
        pair.stage is Stage.SELLING
        and pair.heads_remaining == 0
        and all(e.sold and e.buyer_declared_not_barred for e in sold),
        "s.13(3), s.18",
        "every head is sold, each buyer declared not barred from buying",
        [(e.lot, e.price, e.buyer) for e in sold],
    )


async def settle(w: World, check: Checks) -> None:
    """The officer settles the sale: the dues deducted, the surplus into deposit."""
    w.transcript.step("s.15(2), s.16 settlement: dues deducted, the surplus to deposit")
    await w.until(at(18, 15))
    await w.tell("OFFICER", f"/settle {KNM_2} {rupees(_EXPENSES.paise).removesuffix('.00')}")
    pair = await case_of(w.app, KNM_2)
    dues = dues_on(pair, w.app.deps.tariff("KNM"), AUCTION_ON)
    ledger = [line for line in await ledger_of(w.app, "KNM-GP") if line.case == KNM_2]
    by_account: dict[str, Money] = {}
    for line in ledger:
        by_account[line.account] = by_account.get(line.account, Money.zero()) + line.amount
    check.that(
        total([line.amount for line in ledger]) == pair.proceeds,
        "s.15(2), s.16",
        f"the ledger accounts for the proceeds of {fmt.money(pair.proceeds, 'en', sms=False)} "
        "to the paisa",
        ledger,
    )
    fines_sent = [(line.provision, line.amount) for line in ledger if line.account == "fines"]
    check.that(
        fines_sent
        == [
            ("s.16(1)", dues.of(DuesItem.FINE)),
            ("s.17(1)", Money.zero() - dues.of(DuesItem.FINE)),
        ]
        and by_account.get("fund") == dues.of(DuesItem.FINE)
        and by_account.get("keeper_feeding") == dues.of(DuesItem.FEEDING)
        and by_account.get("sale_expenses") == _EXPENSES,
        "s.15(2), s.16(1), s.16(2), s.17(1)",
        "the fines go to the panchayat and on to its fund, the feeding charges to the keeper, "
        "the expenses met",
        by_account,
    )
    surplus = pair.proceeds - dues.total
    check.that(
        pair.stage is Stage.IN_DEPOSIT
        and statement_of(w.app.deps, pair).held_in_deposit == surplus
        and by_account.get("surplus_deposit") == surplus,
        "s.16(3)",
        f"the unclaimed surplus of {fmt.money(surplus, 'en', sms=False)} is held in deposit",
        (pair.stage, by_account.get("surplus_deposit")),
    )


async def fund(w: World, check: Checks) -> None:
    """Three months in deposit; a credit tried a day early is refused; then it is made."""
    w.transcript.step("s.16(3) three months in deposit: no claim preferred")
    months = (await case_of(w.app, KNM_2)).profile.surplus_months
    window_end = deposit_window_end(AUCTION_ON, months)
    await w.until(at(window_end.day, 16, month=window_end.month))
    await w.tell("OFFICER", f"/fund {KNM_2}")
    pair = await case_of(w.app, KNM_2)
    check.that(
        pair.stage is Stage.IN_DEPOSIT,
        "s.16(3)",
        f"on {window_end:%d %B}, the last day for claims, the deposit cannot go to the fund",
        pair.stage,
    )
    w.transcript.step("s.17(1) the unclaimed proceeds are credited to the fund")
    credit_on = date.fromordinal(window_end.toordinal() + 1)
    await w.until(at(credit_on.day, 10, month=credit_on.month))
    await expect_reminders(
        w, check, [(f"{credit_on} 08:00", "OFFICER", DeadlineKind.CREDIT_TO_FUND, credit_on)]
    )
    deposit = statement_of(w.app.deps, pair).held_in_deposit
    await w.tell("OFFICER", f"/fund {KNM_2}")
    pair = await case_of(w.app, KNM_2)
    ledger = [line for line in await ledger_of(w.app, "KNM-GP") if line.case == KNM_2]
    held = total([line.amount for line in ledger if line.account == "surplus_deposit"])
    credited = total(
        [line.amount for line in ledger if line.account == "fund" and line.on == str(credit_on)]
    )
    check.that(
        pair.stage is Stage.CLOSED and credited == deposit and held == Money.zero(),
        "s.17(1)",
        f"{fmt.money(credited, 'en', sms=False)} credited to the fund, equal to the deposit; "
        "the deposit account is back to nothing",
        (pair.stage, credited, held),
    )
    waiting = await jobs_in(w.app, "pending", "waiting", "failed")
    check.that(
        waiting == 0,
        "ss.13-17",
        "no reminder is left waiting or failed: every deadline of the Act was met",
        waiting,
    )


async def ledger(w: World, check: Checks) -> None:
    """The ledger of KNM-GP, with the total of each account."""
    w.transcript.step("Ledger of KNM-GP (poundbot export ledger --csv --authority KNM-GP)")
    lines = await ledger_of(w.app, "KNM-GP")
    w.transcript.line(f"{'date':<11} {'case':<6} {'account':<16} {'rupees':>10}  provision")
    for line in lines:
        written = rupees(line.amount.paise)
        w.transcript.line(
            f"{line.on:<11} {line.case:<6} {line.account:<16} {written:>10}  {line.provision}"
        )
    totals: dict[str, Money] = {}
    for line in lines:
        totals[line.account] = totals.get(line.account, Money.zero()) + line.amount
    w.transcript.line("\nTotal per account")
    for account, amount in totals.items():
        w.transcript.line(f"  {account:<16} {rupees(amount.paise):>10}")
    everything = total(list(totals.values()))
    w.transcript.line(f"  {'all accounts':<16} {rupees(everything.paise):>10}")
    cow, pair = await case_of(w.app, KNM_1), await case_of(w.app, KNM_2)
    paid = dues_on(cow, w.app.deps.tariff("KNM"), date(2026, 3, 3)).total
    check.that(
        everything == paid + pair.proceeds,
        "s.12, s.15(2), s.16, s.17(1)",
        f"the ledger adds up to what came in: {rupees(paid.paise)} paid under s.12 "
        f"+ {rupees(pair.proceeds.paise)} of proceeds",
        totals,
    )
