"""The worst case an owner-facing SMS is sized for: one impounding at every stage.

``sms_fit.SMS_SEGMENT_BUDGET`` (2 GSM-7 segments in English, 3 UCS-2 in Malayalam,
Tamil and Kannada) must hold on the longest data poundbot meets:

- three kinds of cattle, those with the longest names in the language, with 48, 36 and
  25 head (two-digit counts, plural forms);
- fines and feeding charges that put every amount over Rs 1,00,000, with paise;
- September dates (the longest month names in all four languages), two-digit days;
- the longest pound name and market place of ``bot/sample_config.toml`` (over 40
  characters each), as the pound, the place seized and the place of the auction;
- the longest case number: a 6-letter pound code and a 6-digit sequence.

``sms_budget`` renders every owner-facing SMS on this data; the tests hold each to
the budget. Only the domain builds the cases, so every stage is one the Act allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Final

from bot.config import load_config, sample_config_path
from bot.i18n.catalogs import Translator
from bot.i18n.common import kind_count
from domain.case import Case
from domain.events import (
    AccountDelivered,
    AccountRefused,
    AuctionScheduled,
    CaseVoided,
    ClaimedAndPaid,
    CreditedToFund,
    DepositClaimed,
    DepositOutcome,
    DisposedOtherwise,
    NoticePosted,
    OwnerRefusedToPay,
    ReportedUnclaimed,
)
from domain.kinds import DEFAULT_KINDS
from domain.money import Money
from domain.s04_s11_dues import daily_charge, dues_on
from domain.s07_seizure import Lot, Person, Seizure
from domain.s12_release import pay_rest_after_part_sale
from domain.s14_deposit import release_on_deposit
from domain.s15_3_account import Account, account_for
from domain.s15_sale import close_sale, offer_lot
from domain.s16_s17_proceeds import fund_credit_from
from domain.tariff import DatedRate, RateTable, Tariff

__all__ = [
    "CASE_NUMBER",
    "HEADS",
    "STARTS",
    "Places",
    "Stop",
    "daily_charge",
    "longest_kinds",
    "part_sales",
    "places",
    "seizure",
    "sell",
    "timeline",
    "worst_tariff",
]

#: The longest case number: a 6-letter pound code and a 6-digit sequence.
CASE_NUMBER: Final = "KNMKLM-100234"
#: Heads of each of the three kinds.
HEADS: Final = (48, 36, 25)
#: Impounded on 12 September, so that most dates fall in September; a second timeline
#: from 12 June ends its three months in deposit (s.16(3)) in September too.
STARTS: Final = (date(2026, 9, 12), date(2026, 6, 12))

_FAR: Final = date(2027, 12, 31)  # "today" when events are applied
_PRICE: Final = Money.rupees("250000.75")  # a head sold at the auction
_EXPENSES: Final = Money.rupees("1234.50")  # expenses of sale (s.15(2))


@dataclass(frozen=True, slots=True)
class Places:
    """The longest names of the sample configuration."""

    pound: str
    place: str  # where the cattle were seized, and where the auction is held


def places() -> Places:
    """The longest pound name and the longest market place of the sample configuration."""
    config = load_config(sample_config_path())
    return Places(
        pound=max((p.name for p in config.pounds.values()), key=len),
        place=max((a.market_place for a in config.authorities.values()), key=len),
    )


def longest_kinds(tr: Translator, n: int = 3) -> list[str]:
    """The ``n`` default kinds whose counted names are longest in ``tr``'s language."""
    return sorted(DEFAULT_KINDS, key=lambda k: (-len(kind_count(k, HEADS[0], tr)), k))[:n]


def _rate(rupees: str) -> RateTable:
    return RateTable.of([DatedRate(date(2024, 4, 1), Money.rupees(rupees), "worst case")])


def worst_tariff(kinds: Sequence[str]) -> Tariff:
    """Rs 2,500.15 a head in fines (s.11) and Rs 1,000.15 a head a day for feeding and
    watering (s.4): with 109 head, the fines and a day's feeding each pass a lakh."""
    return Tariff(
        fines={k: _rate("2500.15") for k in kinds},
        feeding={k: _rate("1000.15") for k in kinds},
    )


def seizure(tr: Translator, start: date, where: Places) -> Seizure:
    """The worst-case seizure in ``tr``'s language, brought in on ``start`` at 2:30 PM."""
    kinds = longest_kinds(tr)
    return Seizure(
        pound=CASE_NUMBER.split("-")[0],
        lots=tuple(Lot(k, n) for k, n in zip(kinds, HEADS, strict=True)),
        place_seized=where.place,
        brought_at=datetime.combine(start, time(14, 30)),
        owner=Person("Owner", where.place),
    )


@dataclass(frozen=True, slots=True)
class Stop:
    """A case at one stage, the day it is asked about, and its account once settled."""

    case: Case
    day: date
    account: Account | None = None


def sell(case: Case, on: date, lots: Sequence[tuple[int, int]]) -> Case:
    """``case`` with ``(lot, count)`` heads sold on ``on`` at the worst-case price."""
    for lot, count in lots:
        case = offer_lot(
            case,
            lot=lot,
            count=count,
            price=_PRICE * count,
            buyer=Person("Buyer"),
            buyer_role=None,
            declared_not_barred=True,
            on=on,
            today=_FAR,
        )
    return case


def part_sales(tr: Translator, start: date, where: Places) -> dict[str, Case]:
    """The sale on the owner's refusal (s.15(1)) still under way on day 16, its proceeds
    not meeting the dues: one head sold for half of them, heads left; every head sold
    for a rupee a lot; and the first with the rest paid by the owner (s.12)."""
    tariff = worst_tariff(longest_kinds(tr))
    fixed = timeline(tr, start, where)["s.15(1) auction fixed"].case
    day = start + timedelta(days=16)
    half = Money(dues_on(fixed, tariff, day).total.paise // 2)
    out = {}
    for name, sales in (
        ("part met", [(0, 1, half)]),
        ("every head, part met", [(i, n, Money.rupees(1)) for i, n in enumerate(HEADS)]),
    ):
        case = fixed
        for lot, count, price in sales:
            case = offer_lot(
                case,
                lot=lot,
                count=count,
                price=price,
                buyer=Person("Buyer"),
                buyer_role=None,
                declared_not_barred=True,
                on=day,
                today=_FAR,
            )
        out[name] = case
    out["the rest paid"] = pay_rest_after_part_sale(out["part met"], tariff, day, _FAR)
    return out


def timeline(tr: Translator, start: date, where: Places) -> dict[str, Stop]:
    """The worst-case impounding of ``start`` at every stage, by name.

    Day 0 impounded; the s.13 route: reported on day 8 (s.13(1)), notice on day 9
    (s.13(2)), auction on day 17 (s.13(3)), every head sold and the surplus into
    deposit (s.16(3)); or one kind sold and the others disposed of otherwise on day 18
    (s.13(3) proviso). The s.15 route: the owner refuses on day 1, 10 head are sold on
    day 16, the account is due (s.15(3)). Also release on payment (s.12) and on a
    deposit (s.14), and each way a case closes.
    """
    tariff = worst_tariff(longest_kinds(tr))

    def on(days: int) -> date:
        return start + timedelta(days=days)

    opened = Case.open(CASE_NUMBER, seizure(tr, start, where), DEFAULT_KINDS, start)
    reported = opened.apply(ReportedUnclaimed(on=on(8)), _FAR)
    posted = NoticePosted(on=on(9), office=where.place, proclaimed_at=(where.place, where.place))
    noticed = reported.apply(posted, _FAR)
    fixed = noticed.apply(AuctionScheduled(on=on(9), auction_on=on(17), place=where.place), _FAR)
    refused = opened.apply(OwnerRefusedToPay(on=on(1)), _FAR)
    auction = AuctionScheduled(on=on(1), auction_on=on(16), place=where.place)
    refused_fixed = refused.apply(auction, _FAR)
    selling = sell(refused_fixed, on(16), [(0, 10)])
    owed, settled = close_sale(selling, tariff, on=on(16), expenses=_EXPENSES, today=_FAR)
    owed_account = account_for(owed, settled, on(16))
    sold_all = sell(fixed, on(17), list(enumerate(HEADS)))
    held, surplus = close_sale(sold_all, tariff, on=on(17), expenses=_EXPENSES, today=_FAR)
    held_account = account_for(held, surplus, on(17))
    # The first kind sold on day 17, the others disposed of by the Director's order on
    # day 18 (s.13(3) proviso): counted apart, and each lot's days (s.15(3)(b), (d)).
    mixed = sell(fixed, on(17), [(0, HEADS[0])])
    for lot in range(1, len(HEADS)):
        given = DisposedOtherwise(
            on=on(18),
            lot=lot,
            count=HEADS[lot],
            manner=where.place,
            ordered_by="Director",
            order_reference="Ref-12/2026",
        )
        mixed = mixed.apply(given, _FAR)
    disposed, part_surplus = close_sale(mixed, tariff, on=on(18), expenses=_EXPENSES, today=_FAR)
    disposed_account = account_for(disposed, part_surplus, on(18))
    # The s.15 route on: the owner refuses the account (s.15(5)), the rest are reported,
    # noticed and disposed of by the Director's order, the surplus into deposit.
    refused_rest = owed.apply(AccountRefused(on=on(18)), _FAR)
    refused_rest = refused_rest.apply(ReportedUnclaimed(on=on(19)), _FAR)
    later = NoticePosted(on=on(20), office=where.place, proclaimed_at=(where.place, where.place))
    refused_rest = refused_rest.apply(later, _FAR)
    again = AuctionScheduled(on=on(20), auction_on=on(28), place=where.place)
    refused_rest = refused_rest.apply(again, _FAR)
    for lot, left in enumerate((HEADS[0] - 10, *HEADS[1:])):
        given = DisposedOtherwise(
            on=on(29),
            lot=lot,
            count=left,
            manner=where.place,
            ordered_by="Director",
            order_reference="Ref-12/2026",
        )
        refused_rest = refused_rest.apply(given, _FAR)
    rest_held, rest_surplus = close_sale(
        refused_rest, tariff, on=on(29), expenses=_EXPENSES, today=_FAR
    )
    rest_account = account_for(rest_held, rest_surplus, on(29))
    on_deposit = release_on_deposit(opened, tariff, on(5), _FAR)
    paid = ClaimedAndPaid(on=on(6), paid=dues_on(opened, tariff, on(6)).total)
    claim = DepositClaimed(on=on(30), claimant="Claimant", preferred_on=on(20), reference="12/2026")
    credit_on = fund_credit_from(on(17), opened.profile.surplus_months)
    returned = DepositOutcome(on=on(11), returned=True, reference="Ref-12/2026")
    applied = DepositOutcome(on=on(11), returned=False, reference="Ref-12/2026")
    return {
        "impounded, report ahead": Stop(opened, on(7)),
        "impounded, report due": Stop(opened, on(10)),
        "released": Stop(opened.apply(paid, _FAR), on(6)),
        "on deposit": Stop(on_deposit, on(5)),
        "reported": Stop(reported, on(8)),
        "notice posted": Stop(noticed, on(9)),
        "s.13(3) auction fixed": Stop(fixed, on(10)),
        "owner refused": Stop(refused, on(1)),
        "s.15(1) auction fixed": Stop(refused_fixed, on(2)),
        "selling": Stop(selling, on(16)),
        "account due": Stop(owed, on(16), owed_account),
        "in deposit, unclaimed": Stop(held, on(17), held_account),
        "in deposit, part disposed of": Stop(disposed, on(18), disposed_account),
        "account refused, the rest unclaimed": Stop(
            owed.apply(AccountRefused(on=on(18)), _FAR), on(18), owed_account
        ),
        "account refused, the rest disposed of": Stop(rest_held, on(29), rest_account),
        "closed, receipt given": Stop(
            owed.apply(AccountDelivered(on=on(18), receipt_by="Owner"), _FAR), on(18), owed_account
        ),
        "closed, claim paid": Stop(held.apply(claim, _FAR), on(30), held_account),
        "closed, credited to fund": Stop(
            held.apply(CreditedToFund(on=credit_on), _FAR), credit_on, held_account
        ),
        "closed, deposit returned": Stop(on_deposit.apply(returned, _FAR), on(11)),
        "closed, deposit applied": Stop(on_deposit.apply(applied, _FAR), on(11)),
        "voided": Stop(opened.apply(CaseVoided(on=on(2), reason="entered twice"), _FAR), on(2)),
    }
