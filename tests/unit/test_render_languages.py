"""Every renderer of ``bot.i18n.render``, in English, Malayalam, Tamil and Kannada, on
the Kunnamangalam case of ``test_render_scenario``.

Each entry renders one reply and names the facts it must state in every language: the
case number, amounts as ``fmt.money`` writes them, dates as ``fmt.date`` writes them,
the provisions it applies as ``render.cite`` writes them (the catalogs translate each
``s.N`` of a msgid that way; ``tests/integration/test_catalogs.py``), and the values
it was given (places, names, references). In Malayalam, Tamil and Kannada the words
around those values must be in the language's own script, with no English sentence
left in them: those assertions fail while a catalog is incomplete, by design.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

import pytest

from bot.config.names import local
from bot.i18n import fmt
from bot.i18n import render as r
from bot.i18n.common import (
    cattle,
    clip,
    connective,
    described_cattle,
    head_count,
    keys,
    keyword,
    kind_count,
)
from bot.i18n.refusals.parse import PARSE_CODES, examples
from bot.support import errors as app_errors
from domain import errors as domain_errors
from domain.calendar import LOCAL_TZ
from domain.case import Case
from domain.deadlines import Deadline, DeadlineKind, Role, deadlines
from domain.events import ClaimRejected, DepositRefunded, LotOffered, SeizureCorrected
from domain.money import Money
from domain.s12_release import pay_rest_after_part_sale
from domain.s14_deposit import complaint_last_day, deposit_for
from domain.s15_sale import Payee, sale_progress
from domain.s16_s17_proceeds import deposit_window_end
from domain.stages import Stage
from domain.statement import Statement, statement
from tests.unit.test_render_scenario import (
    ALL,
    AUCTION_ON,
    BUYER,
    CASE_NUMBER,
    FAR,
    IMPOUNDED,
    INDIAN,
    NOTICE_ON,
    OWNER,
    OWNER_AUCTION_ON,
    PLACE,
    REFUSED_ON,
    REPORTED_ON,
    SCRIPTS,
    TARIFF,
    account_delivered,
    account_refused,
    authority,
    citation,
    claim_pending,
    claimed,
    corrected,
    credited,
    daily_charge,
    deposit_entry,
    deposit_outcome,
    disposed_otherwise,
    dues,
    fixed,
    in_deposit,
    in_pound,
    money,
    noticed,
    on_deposit,
    open_case,
    outcome,
    owner_account,
    owner_auction_fixed,
    owner_progress,
    owner_sold,
    paid,
    pound,
    public,
    receipt,
    refused,
    reported,
    script_letters,
    sold_all,
    stage_case,
    tr,
    unclaimed_account,
    untranslated_leak,
    visible_text,
    voided,
)


@dataclass(frozen=True, slots=True)
class Shown:
    """A rendered reply, the facts it must state, and the values put into it as given."""

    text: str
    facts: tuple[str, ...]
    inserted: tuple[str, ...] = ()


Build = Callable[[str], Shown]
ENTRIES: list[tuple[str, str, Build]] = []  # (renderer, id, build)
#: Ids of the replies that may rightly be all English words in any language: a staff
#: SMS that falls back to the English command words (STAFF_SMS_SEGMENTS).
ENGLISH_WORDS_ONLY: set[str] = set()


def entry(renderer: str, label: str, translated: bool = True) -> Callable[[Build], Build]:
    """Register a rendering of ``renderer``; ``label`` names the provision or the case."""

    name = f"{renderer} {label}".strip()

    def add(build: Build) -> Build:
        ENTRIES.append((renderer, name, build))
        if not translated:
            ENGLISH_WORDS_ONLY.add(name)
        return build

    return add


def d(day: date, lang: str) -> str:
    return fmt.date(day, lang)


def cites(lang: str, *provisions: str) -> tuple[str, ...]:
    return tuple(citation(p, lang) for p in provisions)


def lots_of(case: Case, lang: str) -> str:
    return cattle(case.seizure.lots, tr(lang))


# --- the pound-keeper ------------------------------------------------------------------


@entry("seizure_ack", "s.7 chat")
def _seizure_ack_chat(lang: str) -> Shown:
    case = open_case()
    text = r.seizure_ack(
        case,
        dues(case, IMPOUNDED),
        daily_charge(case, IMPOUNDED),
        tr(lang),
        sms=False,
        pound_name=pound().name,
    )
    facts = (
        CASE_NUMBER,
        lots_of(case, lang),
        local(pound().name, lang),
        fmt.datetime(case.seizure.brought_at, lang),
        PLACE,
        money("2600", lang),
        money("471", lang),
        d(REPORTED_ON, lang),
        *cites(lang, "s.11", "s.4", "s.12", "s.13(1)"),
    )
    return Shown(text, facts)


@entry("seizure_ack", "s.7 sms")
def _seizure_ack_sms(lang: str) -> Shown:
    case = open_case()
    text = r.seizure_ack(
        case, dues(case, IMPOUNDED), daily_charge(case, IMPOUNDED), tr(lang), sms=True
    )
    facts = (
        CASE_NUMBER,
        lots_of(case, lang),
        money("2600", lang, sms=True),
        money("471", lang, sms=True),
        d(REPORTED_ON, lang),
        citation("s.13(1)", lang),
    )
    return Shown(text, facts)


@entry("payment_recorded", "s.12 chat")
def _payment_chat(lang: str) -> Shown:
    case = paid()
    text = r.payment_recorded(case, dues(case, date(2026, 3, 6)), tr(lang), sms=False)
    facts = (
        CASE_NUMBER,
        money("4955", lang),
        d(date(2026, 3, 6), lang),
        lots_of(case, lang),
        money("2600", lang),
        money("2355", lang),
        *cites(lang, "s.12", "s.11", "s.4", "s.17(1)", "s.16(2)"),
    )
    return Shown(text, facts)


@entry("payment_recorded", "s.12 sms")
def _payment_sms(lang: str) -> Shown:
    case = paid()
    text = r.payment_recorded(case, dues(case, date(2026, 3, 6)), tr(lang), sms=True)
    facts = (
        CASE_NUMBER,
        money("4955", lang, sms=True),
        money("2600", lang, sms=True),
        money("2355", lang, sms=True),
        *cites(lang, "s.12", "s.11", "s.4"),
    )
    return Shown(text, facts)


@entry("lots_separated", "s.7")
def _lots_separated(lang: str) -> Shown:
    case = paid()
    text = r.lots_separated(CASE_NUMBER, case.seizure.lots[:1], "KNM-2", tr(lang))
    return Shown(text, (CASE_NUMBER, "KNM-2", cattle(case.seizure.lots[:1], tr(lang))))


def _part_sold() -> Case:
    """The owner's route: one cow sold on 12 March for Rs 100, the rest still owed."""
    sale = LotOffered(
        on=OWNER_AUCTION_ON,
        lot=0,
        count=1,
        price=Money.rupees("100"),
        buyer=BUYER,
        buyer_declared_not_barred=True,
    )
    return owner_auction_fixed().apply(sale, FAR)


def _paid_after_part_sale() -> Statement:
    """The owner paid on 12 March what the Rs 100 left owed, and took the rest (s.12)."""
    case = pay_rest_after_part_sale(_part_sold(), TARIFF, OWNER_AUCTION_ON, FAR)
    return statement(case, TARIFF, OWNER_AUCTION_ON)


@entry("paid_after_part_sale", "s.12 s.15(1) chat")
def _paid_after_part_sale_chat(lang: str) -> Shown:
    stated = _paid_after_part_sale()
    assert stated.account is not None
    text = r.paid_after_part_sale(stated, tr(lang), sms=False)
    facts = (
        CASE_NUMBER,
        money("100", lang),
        money(stated.account.paid, lang),
        d(OWNER_AUCTION_ON, lang),
        *cites(lang, "s.15(2)", "s.12", "s.15(3)", "s.15(4)"),
    )
    return Shown(text, facts)


@entry("paid_after_part_sale", "s.12 s.15(1) sms")
def _paid_after_part_sale_sms(lang: str) -> Shown:
    stated = _paid_after_part_sale()
    assert stated.account is not None
    text = r.paid_after_part_sale(stated, tr(lang), sms=True)
    facts = (
        CASE_NUMBER,
        money("100", lang, sms=True),
        money(stated.account.paid, lang, sms=True),
        *cites(lang, "s.15(2)", "s.12", "s.15(4)"),
    )
    return Shown(text, facts)


@entry("deposit_recorded", "s.14")
def _deposit_recorded(lang: str) -> Shown:
    case = on_deposit()
    by = complaint_last_day(IMPOUNDED, 10)
    text = r.deposit_recorded(case, dues(case, date(2026, 3, 6)), by, tr(lang), sms=False)
    facts = (
        CASE_NUMBER,
        money("4955", lang),
        d(date(2026, 3, 6), lang),
        d(date(2026, 3, 12), lang),
        lots_of(case, lang),
        *cites(lang, "s.14", "s.19", "s.11", "s.4"),
    )
    return Shown(text, facts)


@entry("report_sent", "s.13(1)")
def _report_sent(lang: str) -> Shown:
    text = r.report_sent(_stated(reported()), tr(lang), sms=True)
    facts = (CASE_NUMBER, d(REPORTED_ON, lang), *cites(lang, "s.13(1)", "s.13(2)"))
    return Shown(text, facts)


@entry("owner_refusal_recorded", "s.15(1)")
def _owner_refusal(lang: str) -> Shown:
    text = r.owner_refusal_recorded(_stated(refused()), tr(lang), sms=False)
    return Shown(text, (CASE_NUMBER, d(REFUSED_ON, lang), citation("s.15(1)", lang)))


@entry("correction_recorded", "s.7")
def _correction(lang: str) -> Shown:
    case = corrected()
    text = r.correction_recorded(_stated(case), tr(lang), sms=False)
    facts = (
        CASE_NUMBER,
        kind_count("goat", 4, tr(lang)),
        described_cattle(case.seizure.lots, tr(lang)),
        PLACE,
        fmt.datetime(case.seizure.brought_at, lang),
        "a goat miscounted",
        citation("s.7", lang),
    )
    return Shown(text, facts)


def _place_corrected(case: Case) -> Case:
    """``case`` with the place of seizure corrected on 13 March, before any head was
    offered on its notice: the notice is superseded (s.13(2))."""
    seizure = dataclasses.replace(case.seizure, place_seized=f"{PLACE}, east gate")
    return case.apply(SeizureCorrected(on=date(2026, 3, 13), seizure=seizure, reason="typo"), FAR)


def _superseded(case: Case, lang: str, *facts: str) -> Shown:
    """The reply to a correction that superseded the notice of ``case``: the facts of
    the record as corrected, the notice's day and the provisions, and ``facts``."""
    after = _place_corrected(case)
    text = r.correction_recorded(_stated(after), tr(lang), sms=False)
    shown = (
        CASE_NUMBER,
        described_cattle(after.seizure.lots, tr(lang)),
        after.seizure.place_seized,
        "typo",
        d(NOTICE_ON, lang),
        keyword("notice", lang),
        *cites(lang, "s.7", "s.13(2)", "s.13(3)"),
        *facts,
    )
    return Shown(text, shown)


@entry("correction_recorded", "s.13(2) the notice superseded, the auction cancelled")
def _correction_cancels_the_auction(lang: str) -> Shown:
    return _superseded(fixed(), lang, d(AUCTION_ON, lang))


@entry("correction_recorded", "s.13(2) the notice superseded, no auction fixed")
def _correction_supersedes_the_notice(lang: str) -> Shown:
    return _superseded(noticed(), lang)


@entry("auction_cancelled_sms", "s.13(2), s.13(3)")
def _auction_cancelled_sms(lang: str) -> Shown:
    text = r.auction_cancelled_sms(CASE_NUMBER, AUCTION_ON, tr(lang))
    return Shown(text, (CASE_NUMBER, d(AUCTION_ON, lang), *cites(lang, "s.13(2)", "s.13(3)")))


@entry("case_voided", "s.7")
def _voided(lang: str) -> Shown:
    text = r.case_voided(_stated(voided()), tr(lang))
    return Shown(text, (CASE_NUMBER, "entered twice"))


@entry("owner_sms_line", "s.7")
def _owner_sms_line(lang: str) -> Shown:
    text = " ".join(
        r.owner_sms_line(told, tr(lang)) for told in ("queued", "opted_out", "no_number")
    )
    return Shown(text, ())


@entry("owners_sms_lines", "s.7")
def _owners_sms_lines(lang: str) -> Shown:
    text = r.owners_sms_lines(
        (((1,), "queued"), ((2, 3), "opted_out"), ((4,), "no_number")), tr(lang)
    )
    return Shown(text, ("2, 3",))


@entry("open_cases", "s.13(1) report due today")
def _open_cases_chat(lang: str) -> Shown:
    text = r.open_cases([in_pound(open_case(), REPORTED_ON)], tr(lang), sms=False)
    facts = (
        CASE_NUMBER,
        lots_of(open_case(), lang),
        money("6839", lang),  # 2,600 fines + 9 days x 471 (s.11, s.4)
        f"{keyword('report', lang)} {CASE_NUMBER}",
        citation("s.13(1)", lang),
    )
    return Shown(text, facts)


@entry("open_cases", "s.13(1) report overdue sms")
def _open_cases_sms(lang: str) -> Shown:
    items = [in_pound(open_case(), date(2026, 3, 12)), in_pound(owner_sold(), date(2026, 3, 12))]
    text = r.open_cases(items, tr(lang), sms=True)
    # By SMS the overdue cases are named before the list (one DLT template for a list).
    facts = (
        CASE_NUMBER,
        money("7781", lang, sms=True),  # 2,600 + 11 days x 471
        keyword("report", lang),
        citation("s.13(1)", lang),
    )
    return Shown(text, facts)


@entry("open_cases", "none")
def _open_cases_none(lang: str) -> Shown:
    return Shown(r.open_cases([], tr(lang), sms=True), ())


# --- the officer, up to the sale ---------------------------------------------------------


@entry("report_to_officer", "s.13(1)")
def _report_to_officer(lang: str) -> Shown:
    case = reported()
    text = r.report_to_officer(case, pound().name, REPORTED_ON, tr(lang))
    facts = (
        CASE_NUMBER,
        local(pound().name, lang),
        described_cattle(case.seizure.lots, tr(lang)),
        PLACE,
        d(IMPOUNDED, lang),
        d(REPORTED_ON, lang),
        f"{keyword('notice', lang)} {CASE_NUMBER}",
        *cites(lang, "s.13(1)", "s.13(2)"),
    )
    return Shown(text, facts)


@entry("notice_ready", "s.13(2) by SMS, with the link")
def _notice_ready(lang: str) -> Shown:
    url = "https://poundbot.example.in/notice/KNM-17/2026-03-10/abc"
    text = r.notice_ready(reported(), NOTICE_ON, url, tr(lang))
    facts = (
        CASE_NUMBER,
        d(NOTICE_ON, lang),
        d(date(2026, 3, 18), lang),
        d(AUCTION_ON, lang),
        url,
        *cites(lang, "s.13(2)", "s.13(3)"),
    )
    return Shown(text, facts)


@entry("notice_ready", "s.13(2) by SMS, no public address")
def _notice_ready_no_link(lang: str) -> Shown:
    text = r.notice_ready(reported(), NOTICE_ON, None, tr(lang))
    facts = (CASE_NUMBER, d(NOTICE_ON, lang), keyword("web", lang), *cites(lang, "s.13(2)"))
    return Shown(text, facts)


@entry("notice_recorded", "s.13(2)")
def _notice_recorded(lang: str) -> Shown:
    text = r.notice_recorded(noticed(), tr(lang))
    facts = (
        CASE_NUMBER,
        local(authority().office_address, lang),
        d(NOTICE_ON, lang),
        local(authority().village, lang),
        local(authority().market_place, lang),
        d(date(2026, 3, 18), lang),
        d(AUCTION_ON, lang),
        keyword("auction", lang),
        *cites(lang, "s.13(2)", "s.13(3)"),
    )
    return Shown(text, facts)


@entry("auction_scheduled", "s.13(3)")
def _auction_scheduled_unclaimed(lang: str) -> Shown:
    text = r.auction_scheduled(fixed(), tr(lang))
    facts = (
        CASE_NUMBER,
        d(AUCTION_ON, lang),
        local(authority().market_place, lang),
        keyword("sold", lang),
        keyword("unsold", lang),
        *cites(lang, "s.13(3)", "s.18"),
    )
    return Shown(text, facts)


@entry("auction_scheduled", "s.15(1)")
def _auction_scheduled_refused(lang: str) -> Shown:
    text = r.auction_scheduled(owner_auction_fixed(), tr(lang))
    facts = (
        CASE_NUMBER,
        d(OWNER_AUCTION_ON, lang),
        local(authority().market_place, lang),
        *cites(lang, "s.15(1)", "s.18"),
    )
    return Shown(text, facts)


# --- the sale ----------------------------------------------------------------------------


@entry("lot_recorded", "s.15(1) dues met")
def _lot_owner(lang: str) -> Shown:
    text = r.lot_recorded(_stated(owner_sold()), owner_progress(), tr(lang))
    facts = (
        CASE_NUMBER,
        kind_count("cow", 1, tr(lang)),
        money("32000.50", lang),
        BUYER.name,
        head_count(5, tr(lang)),
        f"{keyword('settle', lang)} {CASE_NUMBER}",
        *cites(lang, "s.15(1)", "s.15(3)"),
    )
    return Shown(text, facts)


@entry("lot_recorded", "s.13(3) all sold")
def _lot_all_sold(lang: str) -> Shown:
    case = sold_all()
    text = r.lot_recorded(_stated(case), sale_progress(case, TARIFF, AUCTION_ON), tr(lang))
    facts = (
        CASE_NUMBER,
        kind_count("goat", 3, tr(lang)),
        money("21000", lang),
        money("123000.50", lang),
        BUYER.name,
        f"{keyword('settle', lang)} {CASE_NUMBER}",
        citation("s.13(3)", lang),
    )
    return Shown(text, facts)


@entry("lot_recorded", "s.13(3) unsold")
def _lot_unsold(lang: str) -> Shown:
    case = fixed().apply(LotOffered(on=AUCTION_ON, lot=1, count=1, price=None), FAR)
    text = r.lot_recorded(_stated(case), sale_progress(case, TARIFF, AUCTION_ON), tr(lang))
    facts = (CASE_NUMBER, kind_count("buffalo", 1, tr(lang)), citation("s.13(3)", lang))
    return Shown(text, facts)


@entry("sale_short", "s.15(1), s.15(2) one more head may be sold")
def _sale_short(lang: str) -> Shown:
    case = owner_sold()
    text = r.sale_short(case, Money.rupees("1419"), Money.rupees("919"), tr(lang))
    facts = (
        CASE_NUMBER,
        money("1419", lang),
        money("919", lang),
        money("32000.50", lang),
        head_count(case.heads_remaining, tr(lang)),
        keyword("sold", lang),
        f"{keyword('settle', lang)} {CASE_NUMBER} 1419",
        *cites(lang, "s.15(1)", "s.15(2)"),
    )
    return Shown(text, facts)


@entry("other_disposal_recorded", "s.13(3) proviso")
def _other_disposal(lang: str) -> Shown:
    text = r.other_disposal_recorded(_stated(disposed_otherwise()), tr(lang))
    facts = (
        CASE_NUMBER,
        kind_count("goat", 3, tr(lang)),
        "handed to the Kozhikode goshala",
        "Director of Animal Husbandry",
        "DAH/123/2026",
        money("1500", lang),
        head_count(3, tr(lang)),
        citation("s.13(3)", lang),
    )
    return Shown(text, facts)


@entry("settled_reply", "s.15(2) owner")
def _settled_owner(lang: str) -> Shown:
    settlement, account = owner_account()
    text = r.settled_reply(settlement, account, tr(lang))
    facts = (
        CASE_NUMBER,
        money("32000.50", lang),
        money("450", lang),
        money("5181", lang),
        money("2600", lang),
        money("23769.50", lang),
        *cites(lang, "s.15(2)", "s.16(1)", "s.16(2)", "s.15(3)", "s.15(4)"),
    )
    return Shown(text, facts)


@entry("settled_reply", "s.16(3) unclaimed")
def _settled_unclaimed(lang: str) -> Shown:
    settlement, account = unclaimed_account()
    text = r.settled_reply(settlement, account, tr(lang))
    facts = (
        CASE_NUMBER,
        money("123000.50", lang),
        money(settlement.to(Payee.DEPOSIT), lang),
        *cites(lang, "s.15(2)", "s.16(1)", "s.16(2)", "s.16(3)"),
    )
    return Shown(text, facts)


@entry("account_text", "s.15(3)")
def _account_text(lang: str) -> Shown:
    _, account = owner_account()
    text = r.account_text(account, tr(lang))
    facts = (
        CASE_NUMBER,
        d(IMPOUNDED, lang),
        d(OWNER_AUCTION_ON, lang),
        money("8231", lang),
        money("32000.50", lang),
        money("23769.50", lang),
        head_count(5, tr(lang)),
        *cites(lang, "s.15(3)", "s.11", "s.4", "s.15(2)", "s.16(1)", "s.16(2)"),
    )
    return Shown(text, facts)


@entry("account_sms", "s.15(3)")
def _account_sms(lang: str) -> Shown:
    _, account = owner_account()
    facts = (
        CASE_NUMBER,
        money("32000.50", lang, sms=True),
        money("8231", lang, sms=True),
        money("23769.50", lang, sms=True),
        *cites(lang, "s.15(3)", "s.15(2)"),
    )
    return Shown(r.account_sms(account, tr(lang)), facts)


@entry("receipt_text", "s.15(4)")
def _receipt(lang: str) -> Shown:
    text = r.receipt_text(receipt(), tr(lang))
    facts = (
        CASE_NUMBER,
        OWNER,
        head_count(5, tr(lang)),
        money("23769.50", lang),
        d(date(2026, 3, 13), lang),
        *cites(lang, "s.15(4)", "s.15(3)"),
    )
    return Shown(text, facts, ("______________________________",))


# --- money held after the sale or a deposit ---------------------------------------------


def _stated(case: Case) -> Statement:
    """The statement the dispatcher renders these replies from, on the last step's day."""
    return statement(case, TARIFF, case.last_event_on)


@entry("account_refused_reply", "s.15(5)")
def _account_refused(lang: str) -> Shown:
    text = r.account_refused_reply(_stated(account_refused()), tr(lang))
    facts = (
        CASE_NUMBER,
        d(date(2026, 3, 13), lang),
        money("23769.50", lang),
        head_count(5, tr(lang)),
        f"{keyword('report', lang)} {CASE_NUMBER}",
        *cites(lang, "s.15(5)", "s.13(1)", "s.16(3)"),
    )
    return Shown(text, facts)


@entry("claim_recorded", "s.16(3)")
def _claim(lang: str) -> Shown:
    balance = unclaimed_account()[1].balance
    text = r.claim_recorded(_stated(claimed()), tr(lang))
    facts = (
        CASE_NUMBER,
        OWNER,
        money(balance, lang),
        d(date(2026, 5, 10), lang),
        "12/2026",
        d(date(2026, 6, 2), lang),
        citation("s.16(3)", lang),
    )
    return Shown(text, facts)


@entry("claim_preferred_recorded", "s.16(3)")
def _claim_preferred(lang: str) -> Shown:
    balance = unclaimed_account()[1].balance
    text = r.claim_preferred_recorded(_stated(claim_pending()), tr(lang))
    facts = (
        CASE_NUMBER,
        OWNER,
        money(balance, lang),
        d(date(2026, 5, 10), lang),
        keyword("claim", lang),
        keyword("reject", lang),
        citation("s.16(3)", lang),
    )
    return Shown(text, facts)


@entry("claim_rejected_recorded", "s.16(3)")
def _claim_rejected(lang: str) -> Shown:
    case = claim_pending().apply(ClaimRejected(on=date(2026, 5, 20), reference="RDO-7/2026"), FAR)
    text = r.claim_rejected_recorded(_stated(case), tr(lang))
    facts = (
        CASE_NUMBER,
        "RDO-7/2026",
        d(date(2026, 5, 20), lang),
        d(deposit_window_end(AUCTION_ON, 3), lang),
        *cites(lang, "s.16(3)", "s.17(1)"),
    )
    return Shown(text, facts)


@entry("fund_credited", "s.17(1)")
def _fund(lang: str) -> Shown:
    balance = unclaimed_account()[1].balance
    text = r.fund_credited(_stated(credited()), tr(lang))
    facts = (CASE_NUMBER, money(balance, lang), d(date(2026, 6, 20), lang))
    return Shown(text, (*facts, citation("s.17(1)", lang)))


@entry("deposit_outcome_recorded", "s.19 upheld")
def _deposit_returned(lang: str) -> Shown:
    text = r.deposit_outcome_recorded(_stated(deposit_outcome(returned=True)), tr(lang))
    facts = (CASE_NUMBER, money("4955", lang), "CC 41/2026", *cites(lang, "s.14", "s.19"))
    return Shown(text, facts)


@entry("refund_recorded", "s.19 refunded")
def _deposit_refunded(lang: str) -> Shown:
    case = deposit_outcome(returned=True).apply(DepositRefunded(on=date(2026, 3, 16)), FAR)
    text = r.refund_recorded(_stated(case), tr(lang))
    facts = (CASE_NUMBER, money("4955", lang), d(date(2026, 3, 16), lang))
    return Shown(text, (*facts, *cites(lang, "s.14", "s.19")))


@entry("deposit_outcome_recorded", "s.14 applied")
def _deposit_applied(lang: str) -> Shown:
    text = r.deposit_outcome_recorded(_stated(deposit_outcome(returned=False)), tr(lang))
    facts = (CASE_NUMBER, money("4955", lang), "CC 41/2026", *cites(lang, "s.14", "s.19"))
    return Shown(text, facts)


@entry("deposit_register_text", "s.16(3) s.17(1)")
def _register(lang: str) -> Shown:
    balance = unclaimed_account()[1].balance
    text = r.deposit_register_text([deposit_entry(in_deposit())], date(2026, 6, 25), tr(lang))
    facts = (
        CASE_NUMBER,
        d(date(2026, 6, 25), lang),
        money(balance, lang),
        d(AUCTION_ON, lang),
        d(date(2026, 6, 19), lang),
        d(date(2026, 6, 20), lang),
        *cites(lang, "s.16(3)", "s.17(1)"),
    )
    return Shown(text, facts)


@entry("deposit_register_text", "s.16(3) empty")
def _register_empty(lang: str) -> Shown:
    text = r.deposit_register_text([], date(2026, 6, 25), tr(lang))
    return Shown(text, (d(date(2026, 6, 25), lang), citation("s.16(3)", lang)))


# --- reminders (domain.deadlines) ------------------------------------------------------

#: Each deadline of the case, the stage it arises in, and the command its reminder asks for.
#: (The reminders of the s.19 and s.16(3) windows name no command: nothing is to be sent.)
DEADLINE_CASES: dict[DeadlineKind, tuple[Callable[[], Case], str | None, bool]] = {
    DeadlineKind.REPORT_DUE: (open_case, "report", True),
    DeadlineKind.COMPLAINT_WINDOW_ENDS: (on_deposit, None, False),
    DeadlineKind.NOTICE_DUE: (reported, "notice", True),
    DeadlineKind.AUCTION_LAWFUL: (noticed, "auction", False),
    DeadlineKind.AUCTION_DAY: (fixed, "sold", False),
    DeadlineKind.DEPOSIT_WINDOW_ENDS: (in_deposit, None, False),
    DeadlineKind.CREDIT_TO_FUND: (in_deposit, "fund", True),
    DeadlineKind.CLAIM_PENDING: (claim_pending, "claim", False),
}


def deadline_of(kind: DeadlineKind) -> Deadline:
    make = DEADLINE_CASES[kind][0]
    return next(x for x in deadlines(make()) if x.kind is kind)


def _provisions(deadline: Deadline) -> tuple[str, ...]:
    if deadline.kind is DeadlineKind.AUCTION_DAY:
        return ("s.13(3)", "s.15(1)")
    return (deadline.provision,)


def _reminder(kind: DeadlineKind, late: bool) -> Build:
    def build(lang: str) -> Shown:
        deadline = deadline_of(kind)
        today = deadline.due_on + timedelta(days=1 if late else 0)
        text = r.reminder(kind, CASE_NUMBER, deadline.due_on, today, tr(lang))
        _, command, with_case = DEADLINE_CASES[kind]
        words = () if command is None else (keyword(command, lang),)
        if command is not None and with_case:
            words = (f"{keyword(command, lang)} {CASE_NUMBER}",)
        if kind is DeadlineKind.AUCTION_DAY:
            words = (f"{keyword('sold', lang)} / {keyword('unsold', lang)}",)
        provisions = cites(lang, *_provisions(deadline))
        return Shown(text, (CASE_NUMBER, d(deadline.due_on, lang), *words, *provisions))

    return build


for _kind in DeadlineKind:
    for _late in (False, True):
        _label = f"{deadline_of(_kind).provision} {_kind.value}{' overdue' if _late else ''}"
        entry("reminder", _label)(_reminder(_kind, _late))


@entry("digest", "s.13(1) overdue, s.19 today")
def _digest(lang: str) -> Shown:
    items = [(CASE_NUMBER, x) for x in deadlines(open_case())]
    today = date(2026, 3, 12)  # the report (10 March) overdue; s.19 ends today
    text = r.digest(items, today, tr(lang))
    facts = (CASE_NUMBER, d(today, lang), d(REPORTED_ON, lang), *cites(lang, "s.13(1)", "s.19"))
    return Shown(text, facts)


@entry("digest", "s.19 and s.16(3) periods ended, not overdue")
def _digest_ended(lang: str) -> Shown:
    today = date(2026, 3, 15)
    complain = Deadline(
        DeadlineKind.COMPLAINT_WINDOW_ENDS, date(2026, 3, 11), "s.19", Role.OFFICER, IMPOUNDED
    )
    claims = Deadline(
        DeadlineKind.DEPOSIT_WINDOW_ENDS, date(2026, 3, 14), "s.16(3)", Role.OFFICER, IMPOUNDED
    )
    text = r.digest([(CASE_NUMBER, complain), (CASE_NUMBER, claims)], today, tr(lang))
    english = r.digest([(CASE_NUMBER, complain)], today, tr("en"))
    assert "overdue" not in english.lower()
    facts = (
        CASE_NUMBER,
        d(today, lang),
        d(date(2026, 3, 11), lang),
        d(date(2026, 3, 14), lang),
        *cites(lang, "s.19", "s.16(3)"),
    )
    return Shown(text, facts)


@entry("digest", "nothing due")
def _digest_empty(lang: str) -> Shown:
    return Shown(r.digest([], date(2026, 3, 12), tr(lang)), (d(date(2026, 3, 12), lang),))


# --- what an owner is told --------------------------------------------------------------


@entry("dues_reply", "s.11 s.4 chat")
def _dues_chat(lang: str) -> Shown:
    case = open_case()
    text = r.dues_reply(dues(case, date(2026, 3, 4)), case, tr(lang), sms=False)
    facts = (
        CASE_NUMBER,
        d(date(2026, 3, 4), lang),
        kind_count("cow", 2, tr(lang)),
        money("750", lang),
        money("120.50", lang),
        money("4013", lang),
        d(REPORTED_ON, lang),
        *cites(lang, "s.11", "s.4", "s.13(1)"),
    )
    return Shown(text, facts)


@entry("dues_reply", "s.11 s.4 sms")
def _dues_sms(lang: str) -> Shown:
    case = open_case()
    text = r.dues_reply(dues(case, date(2026, 3, 4)), case, tr(lang), sms=True)
    facts = (
        CASE_NUMBER,
        money("4013", lang, sms=True),
        money("2600", lang, sms=True),
        money("1413", lang, sms=True),
        d(REPORTED_ON, lang),
        citation("s.13(1)", lang),
    )
    return Shown(text, facts)


@entry("dues_reply", "s.15(2) s.12 during the sale")
def _dues_during_sale(lang: str) -> Shown:
    case = _part_sold()
    stated = statement(case, TARIFF, OWNER_AUCTION_ON)
    assert stated.sale is not None
    text = r.dues_reply(stated.dues, case, tr(lang), sms=True, stated=stated)
    facts = (
        CASE_NUMBER,
        money("100", lang, sms=True),
        money(stated.owed, lang, sms=True),
        *cites(lang, "s.15(2)", "s.12"),
    )
    return Shown(text, facts, (authority().market_place,))  # the auction's place


@entry("dues_reply", "s.15(2) the sale met the dues")
def _dues_sale_met(lang: str) -> Shown:
    case = owner_sold()
    stated = statement(case, TARIFF, OWNER_AUCTION_ON)
    assert stated.sale is not None
    text = r.dues_reply(stated.dues, case, tr(lang), sms=True, stated=stated)
    facts = (
        CASE_NUMBER,
        money("32000.50", lang, sms=True),
        money(stated.sale.met, lang, sms=True),
        *cites(lang, "s.15(2)", "s.15(3)"),
    )
    return Shown(text, facts)


@entry("deposit_reply", "s.14 chat")
def _deposit_chat(lang: str) -> Shown:
    case = open_case()
    deposit = deposit_for(case, TARIFF, date(2026, 3, 4))
    text = r.deposit_reply(deposit, case, tr(lang), sms=False)
    facts = (
        CASE_NUMBER,
        money("4013", lang),
        d(date(2026, 3, 4), lang),
        d(date(2026, 3, 12), lang),
        *cites(lang, "s.14", "s.19", "s.11", "s.4"),
    )
    return Shown(text, facts)


@entry("deposit_reply", "s.19 too late sms")
def _deposit_too_late(lang: str) -> Shown:
    case = open_case()
    deposit = deposit_for(case, TARIFF, date(2026, 3, 13))
    text = r.deposit_reply(deposit, case, tr(lang), sms=True)
    facts = (
        CASE_NUMBER,
        money("8252", lang, sms=True),  # 2,600 + 12 days x 471
        d(date(2026, 3, 12), lang),
        *cites(lang, "s.19", "s.14", "s.12"),
    )
    return Shown(text, facts)


@entry("intake_sms", "s.7 s.12 s.14")
def _intake(lang: str) -> Shown:
    case = open_case()
    text = r.intake_sms(
        case, dues(case, IMPOUNDED), daily_charge(case, IMPOUNDED), pound().name, tr(lang)
    )
    facts = (
        CASE_NUMBER,
        d(IMPOUNDED, lang),
        money("3071", lang, sms=True),  # 2,600 fines + the first day's 471
        *cites(lang, "s.12", "s.14"),
    )
    return Shown(
        text,
        facts,
        (
            local(pound().name, lang),
            clip(local(pound().name, lang), 40),
            clip(local(pound().name, lang), 20),
        ),
    )


@entry("auction_sms", "s.13(3)")
def _auction_sms(lang: str) -> Shown:
    place = authority().market_place
    text = r.auction_sms(CASE_NUMBER, AUCTION_ON, place, tr(lang))
    shown = (CASE_NUMBER, d(AUCTION_ON, lang), local(place, lang).split(",")[0])
    return Shown(text, shown, (local(place, lang), clip(local(place, lang), 40)))


@entry("no_case_for_number", "missed call")
def _no_case_for_number(lang: str) -> Shown:
    return Shown(r.no_case_for_number(tr(lang)), ("KNM-1",))


@entry("more_cases_for_number", "owner's question without a case number, more cases")
def _more_cases_for_number(lang: str) -> Shown:
    return Shown(r.more_cases_for_number(4, tr(lang)), ("4",))


def _newest(lang: str, more: int) -> Shown:
    stages = (Stage.NOTICE_POSTED, Stage.REPORTED, Stage.IMPOUNDED)[: 3 if more else 1]
    cases = [stage_case(stage)[0] for stage in stages]
    outcomes = [replace(outcome(case), case=case) for case in cases]
    text = r.cases_for_number(outcomes, more, tr(lang))
    facts = (CASE_NUMBER, *((str(more), keyword("status", lang)) if more else ()))
    return Shown(text, facts, (local(authority().market_place, lang),))


@entry("cases_for_number", "missed call, one case")
def _cases_for_number_one(lang: str) -> Shown:
    return _newest(lang, 0)


@entry("cases_for_number", "missed call, three cases and more")
def _cases_for_number_more(lang: str) -> Shown:
    return _newest(lang, 7)


@entry("search_results", "none")
def _search_none(lang: str) -> Shown:
    return Shown(r.search_results([], tr(lang), sms=True), ())


@entry("search_results", "one chat")
def _search_one(lang: str) -> Shown:
    text = r.search_results([public(open_case())], tr(lang), sms=False)
    facts = (
        CASE_NUMBER,
        lots_of(open_case(), lang),
        PLACE,
        local(pound().name, lang),
        d(IMPOUNDED, lang),
    )
    return Shown(text, facts)


@entry("search_results", "five sms")
def _search_five(lang: str) -> Shown:
    text = r.search_results([public(open_case())] * 5, tr(lang), sms=True)
    inserted = (
        clip(PLACE, 40),
        clip(local(pound().name, lang), 40),
        PLACE,
        local(pound().name, lang),
    )
    return Shown(text, (CASE_NUMBER, d(IMPOUNDED, lang)), inserted)


@entry("with_board_links", "find with the notice board")
def _search_board(lang: str) -> Shown:
    found = r.search_results([public(open_case())], tr(lang), sms=True)
    url = "https://desk.example.org/notices/KNM-GP"
    inserted = (
        clip(PLACE, 40),
        clip(local(pound().name, lang), 40),
        PLACE,
        local(pound().name, lang),
    )
    return Shown(r.with_board_links(found, [url], tr(lang), sms=True), (CASE_NUMBER, url), inserted)


@entry("web_link", "sign-in link")
def _web_link(lang: str) -> Shown:
    url = "https://desk.example.org/web/signin/abc"
    return Shown(r.web_link(url, tr(lang)), (url, "15"))


@entry("web_link_unavailable", "no public address")
def _web_link_unavailable(lang: str) -> Shown:
    return Shown(r.web_link_unavailable(tr(lang)), ())


#: What STATUS must say at each stage, beyond the case number and its cattle.
def _stage_facts(stage: Stage, lang: str) -> tuple[str, ...]:
    market = local(authority().market_place, lang)
    return {
        Stage.IMPOUNDED: (d(REPORTED_ON, lang), *cites(lang, "s.12", "s.13(1)")),
        Stage.RELEASED: cites(lang, "s.12"),
        Stage.ON_DEPOSIT: cites(lang, "s.14"),
        Stage.REPORTED: cites(lang, "s.13(1)", "s.13(2)"),
        Stage.NOTICE_POSTED: (
            d(NOTICE_ON, lang),
            d(AUCTION_ON, lang),
            market,
            *cites(lang, "s.13(2)", "s.13(3)"),
        ),
        Stage.OWNER_REFUSED: (d(OWNER_AUCTION_ON, lang), market, citation("s.15(1)", lang)),
        Stage.SELLING: cites(lang, "s.15(2)"),
        Stage.DEEMED_UNCLAIMED: cites(lang, "s.15(5)", "s.13"),
        Stage.ACCOUNT_DUE: (
            money("32000.50", lang),
            money("23769.50", lang),
            head_count(5, tr(lang)),
            *cites(lang, "s.15(1)", "s.15(3)", "s.15(4)"),
        ),
        Stage.IN_DEPOSIT: (
            d(date(2026, 6, 19), lang),
            money("123000.50", lang),
            *cites(lang, "s.13(3)", "s.16(3)"),
        ),
        Stage.CLOSED: (money("123000.50", lang), citation("s.17(1)", lang)),
        Stage.VOIDED: (citation("s.7", lang),),
    }[stage]


def _status(stage: Stage) -> Build:
    def build(lang: str) -> Shown:
        case, _ = stage_case(stage)
        text = r.status_reply(outcome(case), tr(lang), sms=False, stated=_stated(case))
        facts = (CASE_NUMBER, lots_of(case, lang), *_stage_facts(stage, lang))
        return Shown(text, facts)

    return build


for _stage in Stage:
    entry("status_reply", _stage.value)(_status(_stage))

#: The provision of the first sentence of each stage: what even the shortest SMS keeps.
SMS_STAGE_CITES = {
    Stage.IMPOUNDED: "s.12",
    Stage.RELEASED: "s.12",
    Stage.ON_DEPOSIT: "s.14",
    Stage.REPORTED: "s.13(1)",
    Stage.NOTICE_POSTED: "s.13(2)",
    Stage.OWNER_REFUSED: "s.15(1)",
    Stage.SELLING: "s.15(2)",
    Stage.ACCOUNT_DUE: "s.15(1)",  # part of the cattle sold
    Stage.DEEMED_UNCLAIMED: "s.15(5)",
    Stage.IN_DEPOSIT: "s.13(3)",  # all sold
    Stage.CLOSED: "s.13(3)",
    Stage.VOIDED: "s.7",
}


def _status_sms(stage: Stage) -> Build:
    def build(lang: str) -> Shown:
        case, _ = stage_case(stage)
        text = r.status_reply(outcome(case), tr(lang), sms=True, stated=_stated(case))
        # The place of the auction, when the SMS has room for it.
        place = (local(authority().market_place, lang),)
        return Shown(text, (CASE_NUMBER, citation(SMS_STAGE_CITES[stage], lang)), place)

    return build


for _stage in Stage:
    entry("status_reply", f"{_stage.value} sms")(_status_sms(_stage))

#: The other ways a case closes, and the provision STATUS cites for each.
CLOSINGS: dict[str, tuple[Callable[[], Case], tuple[str, ...]]] = {
    "closed s.15(4) receipt given": (account_delivered, ("s.15(4)",)),
    "closed s.16(3) claim paid": (claimed, ("s.16(3)",)),
    "closed s.19 deposit returned": (lambda: deposit_outcome(returned=True), ("s.14", "s.19")),
    "closed s.19 deposit applied": (lambda: deposit_outcome(returned=False), ("s.14", "s.19")),
    "closed s.19 deposit refunded": (
        lambda: deposit_outcome(returned=True).apply(DepositRefunded(on=date(2026, 3, 16)), FAR),
        ("s.14", "s.19"),
    ),
}


def _closing(label: str) -> Build:
    def build(lang: str) -> Shown:
        make, provisions = CLOSINGS[label]
        case = make()
        text = r.status_reply(outcome(case), tr(lang), sms=False, stated=_stated(case))
        return Shown(text, (CASE_NUMBER, *cites(lang, *provisions)))

    return build


for _label in CLOSINGS:
    entry("status_reply", _label)(_closing(_label))


@entry("status_reply", "closed s.16(3) claim established: due to the claimant, since")
def _status_claim_established(lang: str) -> Shown:
    case = claimed()
    text = r.status_reply(outcome(case), tr(lang), sms=True, stated=_stated(case))
    assert OWNER not in text  # STATUS answers anyone: the claimant is not named
    return Shown(text, (CASE_NUMBER, d(date(2026, 6, 2), lang), "12/2026", *cites(lang, "s.16(3)")))


@entry("lang_set", "")
def _lang_set(lang: str) -> Shown:
    return Shown(r.lang_set(tr(lang)), (keyword("lang", lang),))


@entry("lang_set", "to one who writes in Latin letters")
def _lang_set_latin(lang: str) -> Shown:
    return Shown(r.lang_set(tr(lang), command="LANG"), ("LANG",))


@entry("lang_not_sent", "")
def _lang_not_sent(lang: str) -> Shown:
    return Shown(
        r.lang_not_sent(("ml", "en"), tr(lang)),
        ("English", "(ml, en)", keyword("lang", lang)),
    )


@entry("read_as", "")
def _read_as(lang: str) -> Shown:
    return Shown(r.read_as("kudishik", "dues", tr(lang)), ("kudishik", keyword("dues", lang)))


@entry("stopped", "")
def _stopped(lang: str) -> Shown:
    return Shown(r.stopped(tr(lang)), ("START",))


@entry("staff_stopped", "telegram")
def _staff_stopped_telegram(lang: str) -> Shown:
    return Shown(r.staff_stopped("sms", on_telegram=True, tr=tr(lang)), ("START",))


@entry("staff_stopped", "no telegram")
def _staff_stopped(lang: str) -> Shown:
    return Shown(r.staff_stopped("whatsapp", on_telegram=False, tr=tr(lang)), ("START",))


@entry("staff_stopped_elsewhere", "")
def _staff_stopped_elsewhere(lang: str) -> Shown:
    return Shown(r.staff_stopped_elsewhere("sms", tr(lang)), ("STOP", "START"))


@entry("reminders_troubled", "")
def _reminders_troubled(lang: str) -> Shown:
    return Shown(r.reminders_troubled(tr(lang)), ("poundbot",))


@entry("answers_held_back", "hour")
def _answers_held_back_hour(lang: str) -> Shown:
    until = datetime(2026, 3, 1, 11, 0, tzinfo=LOCAL_TZ)
    shown = r.answers_held_back("hour", 200, until, tr(lang))
    return Shown(shown, ("poundbot", "200", fmt.clock_time(until, lang), "[limits]"))


@entry("answers_held_back", "day")
def _answers_held_back_day(lang: str) -> Shown:
    until = datetime(2026, 3, 2, 0, 0, tzinfo=LOCAL_TZ)
    shown = r.answers_held_back("day", 1000, until, tr(lang))
    return Shown(shown, ("poundbot", "1000", fmt.clock_time(until, lang), "[limits]"))


@entry("started", "")
def _started(lang: str) -> Shown:
    return Shown(r.started(tr(lang)), ("STOP",))


@entry("too_many_messages", "")
def _too_many(lang: str) -> Shown:
    until = datetime(2026, 3, 1, 11, 40, tzinfo=LOCAL_TZ)
    return Shown(r.too_many_messages(until, tr(lang)), (fmt.clock_time(until, lang),))


@entry("try_again_later", "")
def _try_again(lang: str) -> Shown:
    return Shown(r.try_again_later(tr(lang)), ())


# --- HELP, lines that are not commands, refusals ---------------------------------------

_GRAMMAR = ("ml|en|ta|kn", "dd-mm-yyyy", "hh:mm")
_HELP_PROVISIONS = {
    "public": ("s.11", "s.4", "s.12", "s.14"),
    "keeper": ("s.7", "s.12", "s.14", "s.13(1)", "s.15(1)"),
    "officer": ("s.13(2)", "s.13(3)", "s.15(1)", "s.18", "s.15(2)", "s.16", "s.15(4)", "s.15(5)"),
}
_HELP_COMMANDS = {
    "public": ("dues", "deposit", "status", "find", "lang", "stop", "start", "help"),
    "keeper": (
        "seize",
        "paid",
        "deposited",
        "report",
        "refused",
        "cases",
        "correct",
        "void",
        "web",
    ),
    "officer": (
        "notice",
        "auction",
        "sold",
        "unsold",
        "settle",
        "receipt",
        "claim",
        "fund",
        "correct",
        "void",
        "web",
    ),
}


def _help(role: str, sms: bool) -> Build:
    def build(lang: str) -> Shown:
        text = r.help_text(role, tr(lang), sms)
        roles = ("public",) if role == "public" else ("public", role)
        if sms and role == "public":
            words = tuple(keyword(c, lang) for c in _HELP_COMMANDS["public"])
            return Shown(text, words, _GRAMMAR)
        if sms:
            words = tuple(keyword(c, "en") for c in _HELP_COMMANDS[role])
            return Shown(text, words)
        words = tuple(keys(c, lang) for part in roles for c in _HELP_COMMANDS[part])
        provisions = tuple(p for part in roles for p in _HELP_PROVISIONS[part])
        inserted = (*_GRAMMAR, *("AT", "ON", "BY", "TO", "REF", "SEIZED", "OWNER", "BECAUSE"))
        return Shown(text, (*words, *cites(lang, *provisions)), inserted)

    return build


for _role in ("public", "keeper", "officer"):
    entry("help_text", f"{_role} chat")(_help(_role, sms=False))
entry("help_text", "public sms")(_help("public", sms=True))
entry("help_text", "officer sms", translated=False)(_help("officer", sms=True))

#: What a person typed, echoed back by a parse error.
TYPED = {"word": "MOOO", "text": "three"}

#: The provisions a parse error cites, by code.
PARSE_CITES = {
    "unknown_kind": ("s.2(1)",),
    "missing_place": ("s.7",),
    "missing_cattle": ("s.7",),
    "bad_amount": ("s.13(3)", "s.15(2)"),
    "missing_buyer": ("s.18",),
    "missing_person": ("s.15(4)", "s.16(3)"),
    "unknown_field": ("s.7",),
}


def _parse(code: str) -> Build:
    def build(lang: str) -> Shown:
        t = tr(lang)
        text = r.parse_error(code, TYPED, t)
        typed = [v for v in TYPED.values() if v in r.parse_error(code, TYPED, tr("en"))]
        facts = (*typed, *cites(lang, *PARSE_CITES.get(code, ())))
        inserted = (
            *examples(t).values(),
            keyword("help", lang),
            connective("at", lang),
            connective("to", lang),
        )
        return Shown(text, facts, inserted)

    return build


for _code in sorted(PARSE_CODES):
    entry("parse_error", _code)(_parse(_code))


def _app_error(exc: app_errors.AppError) -> Build:
    def build(lang: str) -> Shown:
        text = r.app_error(exc, tr(lang))
        facts = ("KNM-999",) if isinstance(exc, app_errors.UnknownCaseError) else ()
        return Shown(text, facts, (keyword("help", lang),))

    return build


APP_ERRORS: list[app_errors.AppError] = [
    getattr(app_errors, name)(number="KNM-999") for name in app_errors.__all__
]
for _exc in APP_ERRORS:
    entry("app_error", _exc.code)(_app_error(_exc))


def _domain_error(cls: type[domain_errors.DomainError]) -> Build:
    def build(lang: str) -> Shown:
        text = r.error(cls("internal detail", "s.13(3)"), tr(lang))
        return Shown(text, (citation("s.13(3)", lang),))

    return build


DOMAIN_ERRORS = [
    getattr(domain_errors, name)
    for name in domain_errors.__all__
    if isinstance(getattr(domain_errors, name), type)
    and issubclass(getattr(domain_errors, name), domain_errors.DomainError)
]
for _cls in DOMAIN_ERRORS:
    entry("error", f"{_cls.code} s.13(3)")(_domain_error(_cls))


@entry("unknown_case", "")
def _unknown_case(lang: str) -> Shown:
    return Shown(r.unknown_case("KNM-999", tr(lang)), ("KNM-999",))


@entry("bad_count", "s.7")
def _bad_count(lang: str) -> Shown:
    return Shown(r.bad_count("three", tr(lang)), ("three",))


@entry("not_allowed", "")
def _not_allowed(lang: str) -> Shown:
    return Shown(r.not_allowed(tr(lang)), ())


@entry("unknown_command", "")
def _unknown_command(lang: str) -> Shown:
    text = r.unknown_command(["DUES", "DEPOSIT", "STATUS", "HELP"], tr(lang))
    return Shown(text, ("DUES, DEPOSIT, STATUS, HELP",))


# --- the small words ---------------------------------------------------------------------


@entry("kind_count", "s.2(1)")
def _kind_count(lang: str) -> Shown:
    text = r.kind_count("buffalo_calf", 2, tr(lang))
    return Shown(text, ("2 buffalo calves",) if lang == "en" else ("2 ",))


@entry("cattle", "s.2(1)")
def _cattle(lang: str) -> Shown:
    text = r.cattle(open_case().seizure.lots, tr(lang))
    return Shown(text, ("2 cows, 1 buffalo, 3 goats",) if lang == "en" else ("2 ", ", 1 ", ", 3 "))


@entry("cite", "s.13(1)")
def _cite(lang: str) -> Shown:
    text = r.cite("s.13(1)", tr(lang))
    return Shown(text, ("s.13(1)",) if lang == "en" else ("13(1)",))


# --- the s.13(2) notice -------------------------------------------------------------------


_NOTICE_DAYS = (NOTICE_ON, date(2026, 3, 18), AUCTION_ON)


def _address_after_name(lang: str) -> str:
    """The pound's address after its first part ("Cattle Pound"), which its name says."""
    return local(pound().address, lang).partition(", ")[2]


def _notice_facts(lang: str) -> tuple[str, ...]:
    return (
        CASE_NUMBER,
        local(authority().name, lang),
        described_cattle(open_case().seizure.lots, tr(lang)),
        PLACE,
        local(pound().name, lang),
        _address_after_name(lang),
        d(NOTICE_ON, lang),
        d(date(2026, 3, 18), lang),
        d(AUCTION_ON, lang),
        local(authority().village, lang),
        local(authority().market_place, lang),
    )


@entry("notice_text", "s.13(2)")
def _notice_text(lang: str) -> Shown:
    text = r.notice_text(open_case(), authority(), pound(), NOTICE_ON, tr(lang))
    facts = (*_notice_facts(lang), *cites(lang, "s.13(1)", "s.13(2)", "s.13(3)", "s.12"))
    return Shown(text, facts, (local(authority().office_address, lang), "1961"))


@entry("proclamation_script", "s.13(2)")
def _proclamation(lang: str) -> Shown:
    text = r.proclamation_script(open_case(), authority(), pound(), NOTICE_ON, tr(lang))
    said = {d(day, lang): fmt.spoken_date(day, lang) for day in _NOTICE_DAYS}  # read aloud
    facts = tuple(said.get(f, f) for f in _notice_facts(lang) if f != _address_after_name(lang))
    return Shown(text, (*facts, citation("s.13(2)", lang)))


@entry("notice_html", "s.13(2)")
def _notice_html(lang: str) -> Shown:
    page = r.notice_html(open_case(), authority(), pound(), NOTICE_ON, [lang])
    facts = (*_notice_facts(lang), *cites(lang, "s.13(1)", "s.13(2)", "s.13(3)", "s.12"))
    return Shown(visible_text(page), facts, (local(authority().office_address, lang), "1961"))


# --- the tests ------------------------------------------------------------------------------

#: Names of ``render.__all__`` that are not renderers.
# Not replies: the variables of WhatsApp templates (tests/unit/test_whatsapp_templates.py).
NOT_RENDERERS = {"SMS_SEGMENT_BUDGET", "fits_sms", "intake_values", "auction_values"}
IDS = [label for _, label, _ in ENTRIES]
BUILDS = [build for _, _, build in ENTRIES]
TRANSLATED = [(label, build) for _, label, build in ENTRIES if label not in ENGLISH_WORDS_ONLY]


def test_every_renderer_the_facade_offers_is_rendered_here() -> None:
    assert {name for name, _, _ in ENTRIES} == set(r.__all__) - NOT_RENDERERS


def test_no_two_renderings_share_an_id() -> None:
    assert len(set(IDS)) == len(IDS)


@pytest.mark.parametrize("lang", ALL)
@pytest.mark.parametrize("build", BUILDS, ids=IDS)
def test_every_reply_states_the_facts_of_the_case_in_every_language(
    build: Build, lang: str
) -> None:
    shown = build(lang)
    missing = [fact for fact in shown.facts if fact not in shown.text]
    assert not missing, f"missing {missing} in:\n{shown.text}"


@pytest.mark.parametrize("lang", ALL)
@pytest.mark.parametrize("build", BUILDS, ids=IDS)
def test_no_reply_leaves_a_placeholder_unfilled(build: Build, lang: str) -> None:
    text = build(lang).text
    assert text.strip()
    assert not re.search(r"%\(\w+\)|%[sd]\b", text), text


@pytest.mark.parametrize("build", BUILDS, ids=IDS)
def test_an_english_reply_has_no_malayalam_tamil_or_kannada_letters(build: Build) -> None:
    text = build("en").text
    assert not any(script_letters(text, lang) for lang in SCRIPTS), text


@pytest.mark.parametrize("lang", INDIAN)
@pytest.mark.parametrize("build", [b for _, b in TRANSLATED], ids=[i for i, _ in TRANSLATED])
def test_a_reply_in_an_indian_language_is_written_in_its_script(build: Build, lang: str) -> None:
    """Fails while the catalog of ``lang`` lacks a translation the reply uses."""
    shown = build(lang)
    leak = untranslated_leak(shown.text, lang, (*shown.facts, *shown.inserted))
    assert leak is None, f"{leak}\nin:\n{shown.text}"


@pytest.mark.parametrize("lang", INDIAN)
def test_a_malayalam_tamil_or_kannada_reply_writes_rupees_with_the_sign_not_rs(lang: str) -> None:
    for build in BUILDS:
        text = build(lang).text
        assert "Rs " not in text, text


@pytest.mark.parametrize(
    ("today", "overdue"),
    [(date(2026, 3, 9), False), (date(2026, 3, 10), False), (date(2026, 3, 11), True)],
    ids=["s.13(1) day before", "s.13(1) day of", "s.13(1) day after"],
)
def test_a_reminder_turns_overdue_the_day_after_its_deadline(today: date, overdue: bool) -> None:
    text = r.reminder(DeadlineKind.REPORT_DUE, CASE_NUMBER, REPORTED_ON, today, tr("en"))
    assert text.startswith("OVERDUE: ") is overdue
    assert "10 Mar 2026 (s.13(1))" in text


def test_the_status_of_every_stage_is_rendered() -> None:
    assert {f"status_reply {stage.value}" for stage in Stage} <= set(IDS)


def test_every_deadline_kind_has_a_reminder_due_and_overdue() -> None:
    reminders = [label for label in IDS if label.startswith("reminder ")]
    assert len(reminders) == 2 * len(DeadlineKind)


def test_the_zero_still_owed_after_the_dues_are_met_is_written_as_an_amount() -> None:
    text = r.lot_recorded(_stated(owner_sold()), owner_progress(), tr("en"))
    assert f"still owed {money(Money.zero(), 'en')};" in text
