"""The second story: owners who will not pay. Two cows each in KNM-3 and KNM-4; both
owners refuse to pay (s.15(1)); at the auction one cow of each is sold, enough for the
dues. KNM-3's owner takes the other cow and the balance with the account (s.15(3),
s.15(4)); KNM-4's owner refuses them (s.15(5)): the cow is unclaimed, reported (s.13(1)),
noticed (s.13(2)), offered at a second auction and, unsold, disposed of by the
Director's order (s.13(3) proviso); the second settlement puts the balance into deposit
(s.16(3)). Each step checks in the database that it did what the Act requires."""

from __future__ import annotations

from datetime import date

from bot.demo.checks import Checks, case_of, ledger_of
from bot.demo.intake import at, last
from bot.demo.reminders import expect_reminders
from bot.demo.world import OWNER_PHONE, World
from bot.i18n import fmt
from bot.i18n.catalogs import translator
from bot.i18n.common import act_title, day
from bot.services.base import proviso_offices_of, statement_of
from bot.support.words import CONNECTIVES
from domain.deadlines import DeadlineKind
from domain.money import Money, total
from domain.profiles import DEFAULT_ACT, Profile
from domain.s13_unclaimed import auction_allowed_from
from domain.stages import Stage

__all__ = ["KNM_3", "KNM_4", "disposal", "partial_sale", "refused_account", "refused_to_pay"]

KNM_3, KNM_4 = "KNM-3", "KNM-4"
#: The owners' auction (s.15(1)), fixed for three days after they refused.
OWNERS_AUCTION = date(2026, 6, 26)
#: The report of KNM-4's refused cow: seven days from impounding on 22 June (s.13(1)).
REPORT_ON = date(2026, 6, 30)
_PRICE = "20000"
_EXPENSES = "500"


def _mixed_outcome(lang: str, act: Profile) -> str:
    """STATUS by SMS of a case of which some head were sold and the rest disposed of by
    order (s.13(3) and its proviso), in ``lang``, in the words of ``act``."""
    return (
        translator(lang)
        .under(act)
        .gettext(
            "Part sold by public auction (s.15(1)), the rest disposed of by order "
            "(s.13(3) proviso)."
        )
    )


def _by(w: World) -> str:
    """The plain "by" of the language (not "seized by")."""
    return CONNECTIVES["by"][w.phrases.lang][-1]


async def _ledger(w: World, number: str) -> dict[tuple[str, str], Money]:
    lines = [line for line in await ledger_of(w.app, "KNM-GP") if line.case == number]
    out: dict[tuple[str, str], Money] = {}
    for line in lines:
        key = (line.account, line.provision)
        out[key] = out.get(key, Money.zero()) + line.amount
    return out


async def refused_to_pay(w: World, check: Checks) -> None:
    """Two owners come to the pound and will not pay; the officer fixes an auction."""
    p = w.phrases
    w.transcript.step("s.15(1) owners who refuse to pay: two cows each")
    await w.until(at(22, 10, month=6))
    for number in (KNM_3, KNM_4):
        await w.tell("KEEPER", f"/seize 2 {p.cow} {p.joiner('at')} {p.place}")
        check.that(
            (await case_of(w.app, number)).seizure.head_count == 2,
            "s.7",
            f"{number}: two cows recorded",
        )
    await w.until(at(23, 11, month=6))
    for number in (KNM_3, KNM_4):
        await w.tell("KEEPER", f"/refused {number}")
        when = f"{p.joiner('on')} {OWNERS_AUCTION:%d-%m-%Y} {p.joiner('at')} {p.place}"
        await w.tell("OFFICER", f"/auction {number} {when}")
        case = await case_of(w.app, number)
        fixed = case.scheduled_auction
        check.that(
            case.stage is Stage.OWNER_REFUSED
            and case.owner_appeared
            and fixed is not None
            and fixed.auction_on == OWNERS_AUCTION,
            "s.15(1)",
            f"{number}: the owner refused to pay; the auction is fixed for 26 June",
            (case.stage, fixed),
        )


async def partial_sale(w: World, check: Checks) -> None:
    """One cow of each sells for more than the dues; the sale stops; KNM-3's owner takes
    the other cow and the balance, with the account (s.15(1), s.15(3), s.15(4))."""
    p = w.phrases
    w.transcript.step("s.15(1) as many sold as necessary: one cow of each")
    await w.until(at(26, 10, month=6))
    day = ("2026-06-26 08:00", "OFFICER", DeadlineKind.AUCTION_DAY, OWNERS_AUCTION)
    w.expected_reminders.append((*day, KNM_3))  # the two come the same morning
    await expect_reminders(w, check, [day], case=KNM_4)
    await w.until(at(26, 11, month=6))
    for number in (KNM_3, KNM_4):
        buyer = f"{p.buffalo_buyer}, {p.place} DECLARED"
        await w.tell("OFFICER", f"/sold {number} 1 1 {_PRICE} {p.joiner('to')} {buyer}")
        await w.tell("OFFICER", f"/settle {number} {_EXPENSES}")
        case = await case_of(w.app, number)
        ledger = await _ledger(w, number)
        fines = ledger.get(("fines", "s.16(1)"), Money.zero())
        check.that(
            case.stage is Stage.ACCOUNT_DUE
            and case.heads_remaining == 1
            and total(list(ledger.values())) == Money.rupees(_PRICE)
            and ledger.get(("fund", "s.17(1)")) == fines
            and ledger.get(("owner_balance", "s.15(3)"), Money.zero()).paise > 0,
            "s.15(1), s.15(2), s.16(1), s.17(1), s.15(3)",
            f"{number}: one cow sold for Rs {_PRICE}; the fines go to the fund, the balance "
            "and the other cow to the owner",
            ledger,
        )
    w.transcript.step("s.15(3), s.15(4) KNM-3: the rest go back to the owner")
    await w.until(at(27, 10, month=6))
    await w.tell("OFFICER", f"/receipt {KNM_3} {_by(w)} {p.owner}")
    case = await case_of(w.app, KNM_3)
    check.that(
        case.stage is Stage.CLOSED and case.heads_remaining == 1,
        "s.15(4)",
        f"{KNM_3}: the owner took the other cow and the balance and signed the receipt",
        case.stage,
    )


async def refused_account(w: World, check: Checks) -> None:
    """KNM-4's owner refuses the cow and the balance: both are unclaimed (s.15(5)); the
    balance goes into deposit and the cow the way of unclaimed cattle (s.13). Under an
    Act with no s.15(5) the refusal is refused, and the owner takes them."""
    if not w.transcript.act.refused_account_unclaimed:
        await _no_unclaimed_account(w, check)
        return
    p = w.phrases
    w.transcript.step("s.15(5) KNM-4: the owner refuses the account; the cow is unclaimed")
    await w.tell("OFFICER", f"/noreceipt {KNM_4}")
    case = await case_of(w.app, KNM_4)
    ledger = await _ledger(w, KNM_4)
    held = ledger.get(("surplus_deposit", "s.15(5)"), Money.zero())
    check.that(
        case.stage is Stage.DEEMED_UNCLAIMED
        and not case.owner_appeared
        and held.paise > 0
        and held == case.deposit_total
        and ledger.get(("owner_balance", "s.15(5)")) == Money.zero() - held,
        "s.15(5), s.16(3)",
        f"{KNM_4}: the balance of {fmt.money(held, 'en', sms=False)} goes into deposit; "
        "the cow is deemed unclaimed",
        (case.stage, ledger),
    )
    # What the owner is told reads the one statement of the case: cattle deemed unclaimed
    # go the s.13 way, and until a head of that sale is sold the owner may still pay what
    # the first sale left unmet and take them (s.15(5), s.13(3), s.12); the deposit
    # register holds the first sale's balance (s.16(3)).
    stated = statement_of(w.app.deps, case)
    reply = await w.text("OWNER", OWNER_PHONE, f"{p.word('dues')} {KNM_4}")
    unmet = fmt.money(stated.unmet, p.lang, sms=True)
    check.that(
        stated.payable
        and stated.owed == stated.unmet
        and stated.met_by_sale.paise > 0
        and stated.held_in_deposit == held
        and unmet in reply,
        "s.15(5), s.13(3), s.12, s.16(3)",
        f"{KNM_4}: DUES says {fmt.money(stated.unmet, 'en', sms=True)} is still owed, the "
        f"dues less {fmt.money(stated.met_by_sale, 'en', sms=True)} the sale met: the owner "
        "may pay it until a head of the second sale is sold",
        reply,
    )
    w.transcript.step("s.13(1), s.13(2) KNM-4: the refused cow reported and noticed")
    await w.until(at(30, 10, month=6))
    await expect_reminders(
        w, check, [("2026-06-30 08:00", "KEEPER", DeadlineKind.REPORT_DUE, REPORT_ON)], KNM_4
    )
    await w.tell("KEEPER", f"/report {KNM_4}")
    await w.until(at(30, 16, month=6))
    await w.tell("OFFICER", f"/notice {KNM_4} {p.joiner('at')} {p.drum_at}")
    lawful = auction_allowed_from(date(2026, 6, 30))
    when = f"{p.joiner('on')} {lawful:%d-%m-%Y} {p.joiner('at')} {p.place}"
    await w.tell("OFFICER", f"/auction {KNM_4} {when}")
    case = await case_of(w.app, KNM_4)
    notice, fixed = case.notice, case.scheduled_auction
    check.that(
        case.stage is Stage.NOTICE_POSTED
        and case.reported_on == REPORT_ON
        and notice is not None
        and len(notice.proclaimed_at) == 2
        and fixed is not None
        and fixed.auction_on == lawful == date(2026, 7, 8),
        "s.13(1), s.13(2), s.13(3)",
        f"{KNM_4}: reported on 30 June, noticed and proclaimed, auction fixed for 8 July",
        (case.stage, notice, fixed),
    )


async def _no_unclaimed_account(w: World, check: Checks) -> None:
    """Under the 1871 Act, which has no s.15(5): the refusal of the account is refused
    with the reason and changes nothing; the cow and the balance stay held for the owner,
    who takes them with the account and gives the receipt (s.15(3), s.15(4))."""
    p = w.phrases
    act = w.transcript.act
    w.transcript.step(f"s.15(5) KNM-4: no such step under the {act.title}")
    before = await case_of(w.app, KNM_4)
    booked = await _ledger(w, KNM_4)
    reply = last(await w.tell("OFFICER", f"/noreceipt {KNM_4}")).text
    case = await case_of(w.app, KNM_4)
    check.that(
        case.stage is Stage.ACCOUNT_DUE
        and case.events == before.events
        and await _ledger(w, KNM_4) == booked
        and act_title(act, translator(p.lang)) in reply,
        "s.15(3)",
        f"{KNM_4}: the refusal is answered with the reason and records nothing; the cow "
        "and the balance stay held for the owner",
        (case.stage, reply),
    )
    await w.until(at(27, 11, month=6))
    await w.tell("OFFICER", f"/receipt {KNM_4} {_by(w)} {p.owner}")
    case = await case_of(w.app, KNM_4)
    check.that(
        case.stage is Stage.CLOSED and case.heads_remaining == 1,
        "s.15(4)",
        f"{KNM_4}: the owner took the other cow and the balance and signed the receipt",
        case.stage,
    )


async def disposal(w: World, check: Checks) -> None:
    """No one bids for the cow; the Director orders it to a goshala (s.13(3) proviso);
    the second settlement adds its balance to the deposit (s.15(2), s.16(3))."""
    if not w.transcript.act.refused_account_unclaimed:
        return  # KNM-4's cow went back to its owner: no second round
    p = w.phrases
    office = proviso_offices_of(w.app.deps, await case_of(w.app, KNM_4))[0]
    # The Director, as the Act as enacted names the office; else the office's code.
    kerala = w.transcript.act.key == DEFAULT_ACT
    typed, whose = ("Director", "the Director's") if kerala else (office.code, f"{office.name}'s")
    w.transcript.step(f"s.13(3) proviso KNM-4: unsold, disposed of by {whose} order")
    await w.until(at(8, 10, month=7))
    await expect_reminders(
        w,
        check,
        [("2026-07-08 08:00", "OFFICER", DeadlineKind.AUCTION_DAY, date(2026, 7, 8))],
        KNM_4,
    )
    await w.until(at(8, 11, month=7))
    await w.tell("OFFICER", f"/unsold {KNM_4} 1 1")
    order = f"{_by(w)} {typed} {p.joiner('ref')} DO-4/2026 {p.joiner('how')} goshala"
    reply = last(await w.tell("OFFICER", f"/dispose {KNM_4} 1 1 1500 {order}")).text
    case = await case_of(w.app, KNM_4)
    check.that(
        case.heads_remaining == 0
        and case.sale_outcome == "sold_and_disposed"
        and "DO-4/2026" in reply,
        "s.13(3) proviso",
        f"{KNM_4}: the cow went to a goshala for Rs 1,500 by {whose} order DO-4/2026",
        reply,
    )
    before = case.deposit_total
    await w.tell("OFFICER", f"/settle {KNM_4} 0")
    case = await case_of(w.app, KNM_4)
    ledger = await _ledger(w, KNM_4)
    in_deposit = total(
        [amount for (account, _), amount in ledger.items() if account == "surplus_deposit"]
    )
    check.that(
        case.stage is Stage.IN_DEPOSIT
        and case.deposited_on == date(2026, 7, 8)
        and in_deposit == case.deposit_total
        and case.deposit_total >= before,
        "s.15(2), s.16(3)",
        f"{KNM_4}: the second settlement meets the dues since; "
        f"{fmt.money(case.deposit_total, 'en', sms=False)} is held in deposit until "
        "8 October",
        (case.stage, ledger),
    )
    # The statement counts every round (s.15(3)(d), (e)) and dates the deposit: STATUS
    # says how the cattle went and until when the balance may be claimed (s.16(3)).
    stated = statement_of(w.app.deps, case)
    reply = await w.text("OWNER", OWNER_PHONE, f"{p.word('status')} {KNM_4}")
    until = stated.window_end
    check.that(
        (stated.heads_sold, stated.heads_disposed) == (1, 1)
        and stated.held_in_deposit == in_deposit
        and until is not None
        and day(until, translator(p.lang)) in reply
        and _mixed_outcome(p.lang, w.transcript.act) in reply,
        "s.13(3) proviso, s.16(3)",
        f"{KNM_4}: STATUS says one cow was sold and one disposed of by {whose} order, "
        f"and that the {fmt.money(in_deposit, 'en', sms=True)} held may be claimed until "
        f"{until:%d %B}",
        reply,
    )
