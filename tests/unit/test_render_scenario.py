"""The impounding every ``test_render_*`` file renders, built only from domain objects.

Kunnamangalam Grama Panchayat's pound (``KNM`` in ``bot/sample_config.toml``) takes in
2 cows, 1 buffalo and 3 goats on 2 March 2026 at 10:30, case ``KNM-17``. From there
the case goes each way the Act allows:

- s.12: claimed and paid on 6 March;
- s.14: delivered on a deposit on 6 March; the s.19 complaint upheld on 13 March;
- s.13: reported unclaimed on 10 March (s.13(1)), notice and drum on 11 March
  (s.13(2)), auction fixed for 19 March (s.13(3)), every head sold, surplus in deposit
  (s.16(3)) until 19 June, then credited to the fund (s.17(1)) or claimed;
- s.15: the owner refuses to pay on 5 March (s.15(1)), auction fixed for 12 March,
  one cow sold and the sale closed (s.15(2)); account (s.15(3)) and receipt (s.15(4)).

Builders are plain functions (not fixtures) so each test shows what it renders. The
tests in this file pin the arithmetic the renderer tests rely on, so a change in the
domain shows up here and not as a puzzling wording failure elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime
from functools import cache
from html.parser import HTMLParser

from bot.config import Authority, Config, Pound, load_config, sample_config_path
from bot.i18n import Translator, fmt, translator
from bot.i18n.common import cite, shorten
from bot.services.keeper import OpenCase
from bot.services.officer import DepositEntry
from bot.services.public import Outcome, PublicCase, facts_of
from bot.store.models import CaseRow
from bot.store.tx import LoadedCase
from domain.case import Case
from domain.events import (
    AccountDelivered,
    AccountRefused,
    AuctionScheduled,
    CaseVoided,
    ClaimedAndPaid,
    ClaimPreferred,
    CreditedToFund,
    DepositClaimed,
    DepositOutcome,
    DisposedOtherwise,
    NoticePosted,
    OwnerRefusedToPay,
    ReportedUnclaimed,
    SaleClosed,
    SeizureCorrected,
)
from domain.figures import figures_of
from domain.kinds import DEFAULT_KINDS
from domain.money import Money
from domain.s04_s11_dues import Dues, dues_on
from domain.s07_seizure import Lot, Person, Seizure
from domain.s13_unclaimed import report_due_on
from domain.s14_deposit import release_on_deposit
from domain.s15_3_account import Account, Receipt, account_for, receipt_for
from domain.s15_sale import SaleProgress, Settlement, close_sale, offer_lot, sale_progress, settle
from domain.s16_s17_proceeds import deposit_window_end, fund_credit_from
from domain.stages import Stage
from domain.statement import statement
from domain.tariff import DatedRate, RateTable, Tariff

__all__ = [
    "ALL",
    "AUCTION_ON",
    "BUYER",
    "CASE_NUMBER",
    "FAR",
    "IMPOUNDED",
    "INDIAN",
    "NOTICE_ON",
    "OWNER",
    "OWNER_AUCTION_ON",
    "PLACE",
    "REFUSED_ON",
    "REPORTED_ON",
    "SCRIPTS",
    "TARIFF",
    "account_delivered",
    "account_due",
    "account_refused",
    "authority",
    "citation",
    "claim_pending",
    "claimed",
    "config",
    "corrected",
    "credited",
    "daily_charge",
    "deposit_entry",
    "deposit_outcome",
    "disposed_otherwise",
    "dues",
    "fixed",
    "in_deposit",
    "in_pound",
    "money",
    "noticed",
    "on_deposit",
    "open_case",
    "outcome",
    "owner_account",
    "owner_auction_fixed",
    "owner_progress",
    "owner_sold",
    "paid",
    "pound",
    "public",
    "receipt",
    "refused",
    "reported",
    "script_letters",
    "sold_all",
    "stage_case",
    "tr",
    "unclaimed_account",
    "untranslated_leak",
    "visible_text",
]

#: The four languages, English first; and the three that must be in their own script.
ALL = ("en", "ml", "ta", "kn")
INDIAN = ("ml", "ta", "kn")

#: The Unicode block of each Indian script (inclusive).
SCRIPTS = {"ml": (0x0D00, 0x0D7F), "ta": (0x0B80, 0x0BFF), "kn": (0x0C80, 0x0CFF)}

FAR = date(2027, 12, 31)  # "today" when events are applied: none is in the future
CASE_NUMBER = "KNM-17"
PLACE = "Pantheerankavu paddy fields, near the Kunnamangalam bus stand"
IMPOUNDED = date(2026, 3, 2)
REPORTED_ON = date(2026, 3, 10)  # s.13(1): seven days from 2 March end on 9 March
NOTICE_ON = date(2026, 3, 11)
AUCTION_ON = date(2026, 3, 19)  # s.13(3): seven days from 11 March end on 18 March
REFUSED_ON = date(2026, 3, 5)
OWNER_AUCTION_ON = date(2026, 3, 12)
BUYER = Person("Joseph Mathew", "Kunnamangalam")
OWNER = "Suresh Kumar"


def tr(lang: str) -> Translator:
    return translator(lang)


@cache
def config() -> Config:
    """The sample configuration shipped with poundbot."""
    return load_config(sample_config_path())


def pound() -> Pound:
    return config().pounds["KNM"]


def authority() -> Authority:
    return config().authority_of("KNM")


def _rows(*rows: tuple[date, str]) -> RateTable:
    return RateTable.of(
        [DatedRate(day, Money.rupees(rs), f"KNM-GP resolution of {day}") for day, rs in rows]
    )


#: The Kunnamangalam sample rates, with the revision of 1 April 2025 (s.11, s.4).
TARIFF = Tariff(
    fines={
        "cow": _rows((date(2024, 4, 1), "500"), (date(2025, 4, 1), "750")),
        "buffalo": _rows((date(2024, 4, 1), "500")),
        "goat": _rows((date(2024, 4, 1), "200")),
    },
    feeding={
        "cow": _rows((date(2024, 4, 1), "100"), (date(2025, 4, 1), "120.50")),
        "buffalo": _rows((date(2024, 4, 1), "110")),
        "goat": _rows((date(2024, 4, 1), "40")),
    },
)


def money(amount: Money | str, lang: str, sms: bool = False) -> str:
    """An amount as ``fmt`` writes it (rupees as a clerk writes them accepted)."""
    value = amount if isinstance(amount, Money) else Money.rupees(amount)
    return fmt.money(value, lang, sms=sms)


def open_case() -> Case:
    """Case KNM-17: 2 cows, 1 buffalo and 3 goats brought in on 2 March 2026 (s.7)."""
    seizure = Seizure(
        pound="KNM",
        lots=(
            Lot("cow", 2, "black, white forehead"),
            Lot("buffalo", 1, "horns curved back"),
            Lot("goat", 3, "brown"),
        ),
        place_seized=PLACE,
        brought_at=datetime(2026, 3, 2, 10, 30),
        seizer=Person("Ravi", "Kunnamangalam"),
        owner=Person(OWNER, "Chathamangalam"),
    )
    return Case.open(CASE_NUMBER, seizure, DEFAULT_KINDS, IMPOUNDED)


def daily_charge(case: Case, day: date) -> Money:
    """Feeding and watering for every head for one day (s.4)."""
    return Money(
        sum(
            TARIFF.feeding_per_head(lot.kind, day).amount.paise * lot.count
            for lot in case.seizure.lots
        )
    )


# --- s.12, s.14 ---------------------------------------------------------------------


def paid() -> Case:
    """Claimed and paid on 6 March (s.12)."""
    case = open_case()
    due = dues_on(case, TARIFF, date(2026, 3, 6)).total
    return case.apply(ClaimedAndPaid(on=date(2026, 3, 6), paid=due), FAR)


def on_deposit() -> Case:
    """Delivered on a deposit on 6 March, the seizure disputed (s.14)."""
    return release_on_deposit(open_case(), TARIFF, date(2026, 3, 6), FAR)


def deposit_outcome(returned: bool) -> Case:
    """The s.19 complaint decided on 13 March: deposit returned, or applied (s.14)."""
    event = DepositOutcome(on=date(2026, 3, 13), returned=returned, reference="CC 41/2026")
    return on_deposit().apply(event, FAR)


def corrected() -> Case:
    """The count of goats corrected from 3 to 4 on 3 March, with a reason (s.7)."""
    case = open_case()
    lots = (*case.seizure.lots[:2], Lot("goat", 4, "brown"))
    seizure = Seizure(
        pound=case.seizure.pound,
        lots=lots,
        place_seized=case.seizure.place_seized,
        brought_at=case.seizure.brought_at,
        seizer=case.seizure.seizer,
        owner=case.seizure.owner,
    )
    event = SeizureCorrected(on=date(2026, 3, 3), seizure=seizure, reason="a goat miscounted")
    return case.apply(event, FAR)


# --- s.13: unclaimed -------------------------------------------------------------------


def reported() -> Case:
    return open_case().apply(ReportedUnclaimed(on=REPORTED_ON), FAR)


def noticed() -> Case:
    notice = NoticePosted(
        on=NOTICE_ON,
        office=authority().office_address,
        proclaimed_at=(authority().village, authority().market_place),
    )
    return reported().apply(notice, FAR)


def fixed() -> Case:
    """The s.13(3) auction fixed on 11 March for 19 March at the market place."""
    auction = AuctionScheduled(on=NOTICE_ON, auction_on=AUCTION_ON, place=authority().market_place)
    return noticed().apply(auction, FAR)


def _sell(case: Case, on: date, lot: int, count: int, rupees: str) -> Case:
    return offer_lot(
        case,
        lot=lot,
        count=count,
        price=Money.rupees(rupees),
        buyer=BUYER,
        buyer_role=None,
        declared_not_barred=True,
        on=on,
        today=FAR,
    )


def sold_all() -> Case:
    """Every head sold on 19 March: cows Rs 64,000.50, buffalo Rs 38,000, goats Rs 21,000."""
    case = _sell(fixed(), AUCTION_ON, 0, 2, "64000.50")
    case = _sell(case, AUCTION_ON, 1, 1, "38000")
    return _sell(case, AUCTION_ON, 2, 3, "21000")


def disposed_otherwise() -> Case:
    """The goats handed to a goshala by the Director's order (s.13(3) proviso)."""
    event = DisposedOtherwise(
        on=AUCTION_ON,
        lot=2,
        count=3,
        manner="handed to the Kozhikode goshala",
        ordered_by="Director of Animal Husbandry",
        order_reference="DAH/123/2026",
        proceeds=Money.rupees("1500"),
    )
    return fixed().apply(event, FAR)


def _unclaimed_closed() -> tuple[Case, Settlement]:
    return close_sale(
        sold_all(), TARIFF, on=AUCTION_ON, expenses=Money.rupees("1250.75"), today=FAR
    )


def in_deposit() -> Case:
    """The s.13 sale closed on 19 March; the surplus held in deposit (s.16(3))."""
    return _unclaimed_closed()[0]


def unclaimed_account() -> tuple[Settlement, Account]:
    case, settlement = _unclaimed_closed()
    return settlement, account_for(case, settlement, AUCTION_ON)


def credited() -> Case:
    """Nobody claimed within three months: credited to the fund on 20 June (s.17(1))."""
    return in_deposit().apply(CreditedToFund(on=date(2026, 6, 20)), FAR)


def claim_pending() -> Case:
    """A claim preferred on 10 May, not yet established or rejected (s.16(3))."""
    return in_deposit().apply(ClaimPreferred(on=date(2026, 5, 10), claimant=OWNER), FAR)


def claimed() -> Case:
    """A claim preferred on 10 May, established on 2 June (s.16(3))."""
    event = DepositClaimed(
        on=date(2026, 6, 2), claimant=OWNER, preferred_on=date(2026, 5, 10), reference="12/2026"
    )
    return in_deposit().apply(event, FAR)


# --- s.15: the owner refuses -----------------------------------------------------------


def refused() -> Case:
    return open_case().apply(OwnerRefusedToPay(on=REFUSED_ON), FAR)


def owner_auction_fixed() -> Case:
    auction = AuctionScheduled(
        on=REFUSED_ON, auction_on=OWNER_AUCTION_ON, place=authority().market_place
    )
    return refused().apply(auction, FAR)


def owner_sold() -> Case:
    """One cow sold on 12 March for Rs 32,000.50 to Joseph Mathew (s.15(1), s.18)."""
    return _sell(owner_auction_fixed(), OWNER_AUCTION_ON, 0, 1, "32000.50")


def owner_progress() -> SaleProgress:
    return sale_progress(owner_sold(), TARIFF, OWNER_AUCTION_ON, Money.rupees("450"))


def _owner_closed() -> tuple[Case, Settlement]:
    return close_sale(
        owner_sold(), TARIFF, on=OWNER_AUCTION_ON, expenses=Money.rupees("450"), today=FAR
    )


def account_due() -> Case:
    return _owner_closed()[0]


def owner_account() -> tuple[Settlement, Account]:
    case, settlement = _owner_closed()
    return settlement, account_for(case, settlement, OWNER_AUCTION_ON)


def receipt() -> Receipt:
    """The owner's s.15(4) receipt, signed on 13 March."""
    return receipt_for(owner_account()[1], OWNER, date(2026, 3, 13))


def account_delivered() -> Case:
    return account_due().apply(AccountDelivered(on=date(2026, 3, 13), receipt_by=OWNER), FAR)


def account_refused() -> Case:
    """The owner refused the account on 13 March: deemed unclaimed (s.15(5))."""
    return account_due().apply(AccountRefused(on=date(2026, 3, 13)), FAR)


# --- every stage, for STATUS and DUES --------------------------------------------------


def voided() -> Case:
    """The case voided on 2 March as entered twice (s.7)."""
    return open_case().apply(CaseVoided(on=date(2026, 3, 2), reason="entered twice"), FAR)


def stage_case(stage: Stage) -> tuple[Case, date]:
    """The case in ``stage`` and the day it is asked about."""
    return {
        Stage.IMPOUNDED: (open_case(), date(2026, 3, 4)),
        Stage.RELEASED: (paid(), date(2026, 3, 6)),
        Stage.ON_DEPOSIT: (on_deposit(), date(2026, 3, 6)),
        Stage.REPORTED: (reported(), REPORTED_ON),
        Stage.NOTICE_POSTED: (fixed(), NOTICE_ON),
        Stage.OWNER_REFUSED: (owner_auction_fixed(), REFUSED_ON),
        Stage.SELLING: (owner_sold(), OWNER_AUCTION_ON),
        Stage.ACCOUNT_DUE: (account_due(), OWNER_AUCTION_ON),
        Stage.DEEMED_UNCLAIMED: (account_refused(), date(2026, 3, 13)),
        Stage.IN_DEPOSIT: (in_deposit(), AUCTION_ON),
        Stage.CLOSED: (credited(), date(2026, 6, 20)),
        Stage.VOIDED: (voided(), date(2026, 3, 2)),
    }[stage]


def public(case: Case) -> PublicCase:
    """The public facts of ``case``, as ``bot.services.public.public_facts`` gives them."""
    return facts_of(case, pound().name)


def outcome(case: Case) -> Outcome:
    """What STATUS answers: the public facts and, once the sale is closed, the s.15(3)
    account recomputed from the events (as ``bot.services.officer.account_of`` does)."""
    closed = case.last(SaleClosed)
    if not isinstance(closed, SaleClosed):
        return Outcome(public(case), None)
    settlement = settle(case.proceeds, dues_on(case, TARIFF, closed.on), closed.owner_appeared)
    return Outcome(public(case), account_for(case, settlement, closed.on))


def in_pound(case: Case, day: date) -> OpenCase:
    """An open case as the keeper's list holds it (``bot.services.keeper.OpenCase``)."""
    row = CaseRow(
        number=case.number,
        pound_code=case.seizure.pound,
        seq=int(case.number.rsplit("-", 1)[1]),
        stage=case.stage.value,
        impounded_on=case.seizure.impounded_on,
        place_seized=case.seizure.place_seized,
    )
    return OpenCase(LoadedCase(row, case), figures_of(statement(case, TARIFF, day)))


def deposit_entry(case: Case) -> DepositEntry:
    """A line of the officer's deposit register (``bot.services.officer.DepositEntry``)."""
    deposited = case.deposited_on
    assert deposited is not None
    closed_balance = unclaimed_account()[1].balance
    return DepositEntry(
        case.number,
        closed_balance,
        deposited,
        deposit_window_end(deposited, 3),
        fund_credit_from(deposited, 3),
    )


def dues(case: Case, day: date) -> Dues:
    return dues_on(case, TARIFF, day)


# --- what "translated" means -----------------------------------------------------------


def script_letters(text: str, lang: str) -> int:
    """How many characters of ``text`` are in the script of ``lang``."""
    first, last = SCRIPTS[lang]
    return sum(first <= ord(c) <= last for c in text)


_LATIN_RUN = re.compile(r"[A-Za-z]{2,}(?:[ ,;:'()-]+[A-Za-z]{2,}){2,}")


def untranslated_leak(text: str, lang: str, inserted: Iterable[str] = ()) -> str | None:
    """What shows that ``text`` was not translated into ``lang``, or None.

    The values a renderer inserts (case numbers, places, names, amounts, dates, typed
    command words) are taken out first: they are in the language they were given in.
    What is left must be in the script of ``lang`` and hold no run of three English
    words (an English msgid returned for want of a translation).
    """
    rest = text
    given = {v for v in inserted if v}
    # An SMS gives a long name shortened to one DLT variable (bot.i18n.common.shorten).
    for value in sorted(given | {shorten(v) for v in given}, key=len, reverse=True):
        rest = rest.replace(value, " ")
    if not script_letters(rest, lang):
        return f"no {lang} letters in {rest!r}"
    run = _LATIN_RUN.search(rest)
    return f"English words {run.group()!r} in {rest!r}" if run else None


class _Text(HTMLParser):
    """The text a reader sees: the data of the body, not the style or the title."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in ("style", "title", "script")

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("style", "title", "script")

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.parts.append(data.strip())


def visible_text(page: str) -> str:
    """The text of an HTML page as printed, one element's text a line."""
    parser = _Text()
    parser.feed(page)
    parser.close()
    return "\n".join(parser.parts)


def citation(provision: str, lang: str) -> str:
    """A provision as ``lang`` cites it (``s.13(1)`` -> ``വകുപ്പ് 13(1)``)."""
    return cite(provision, tr(lang))


# --- the scenario itself -----------------------------------------------------------------


def test_the_s13_1_report_falls_due_the_day_after_the_seven_days() -> None:
    assert report_due_on(IMPOUNDED) == REPORTED_ON


def test_the_s13_3_auction_is_lawful_from_the_eighth_day_after_the_notice() -> None:
    assert fixed().scheduled_auction is not None
    assert fixed().scheduled_auction.auction_on == AUCTION_ON  # type: ignore[union-attr]


def test_the_cattle_cost_the_sample_rates_of_kunnamangalam() -> None:
    """Fines 2 x 750 + 500 + 3 x 200 (s.11); feeding 2 x 120.50 + 110 + 3 x 40 a day (s.4)."""
    day = dues(open_case(), date(2026, 3, 4))
    assert day.fines == Money.rupees("2600")
    assert daily_charge(open_case(), IMPOUNDED) == Money.rupees("471")
    assert day.feeding == Money.rupees("1413")  # 3 days, both ends counted
    assert day.total == Money.rupees("4013")


def test_on_the_owners_route_one_cow_sold_leaves_a_balance_to_the_owner() -> None:
    settlement, account = owner_account()
    assert account.cattle_seized == 6
    assert account.cattle_sold == 1
    assert account.cattle_remaining == 5
    assert account.proceeds == Money.rupees("32000.50")
    # 2,600 fines + 11 days x 471 feeding (the cow sold ends with the sale) + 450 expenses
    assert account.fines_and_charges == Money.rupees("8231")
    assert account.balance == Money.rupees("23769.50")
    assert sum(p.amount.paise for p in settlement.disbursements) == account.proceeds.paise


def test_on_the_unclaimed_route_the_surplus_goes_into_deposit_until_19_june() -> None:
    _, account = unclaimed_account()
    assert account.cattle_sold == account.cattle_seized == 6
    assert account.proceeds == Money.rupees("123000.50")
    assert in_deposit().stage is Stage.IN_DEPOSIT
    assert deposit_window_end(AUCTION_ON, 3) == date(2026, 6, 19)


def test_every_stage_has_a_case() -> None:
    for stage in Stage:
        case, _ = stage_case(stage)
        assert case.stage is stage
