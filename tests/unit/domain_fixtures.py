"""Builders shared by the unit tests of ``domain``: a sample tariff, seizures and cases.

Plain functions, not pytest fixtures, so that each test shows what it builds. The
amounts are invented sample rates (the Act's amounts come from configuration); the
dates follow the statute's own worked examples:

- impounded 1 March 2026, unclaimed: the s.13(1) report is due on 9 March;
- notice on 10 March: the s.13(3) auction is lawful from 18 March;
- feeding rates change on 6 March 2026, the fine scale on 1 April 2026.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from domain.case import Case
from domain.events import (
    AccountRefused,
    AuctionScheduled,
    CaseVoided,
    ClaimedAndPaid,
    DeliveredOnDeposit,
    DepositOutcome,
    DisposedOtherwise,
    Event,
    LotOffered,
    NoticePosted,
    OwnerRefusedToPay,
    ReportedUnclaimed,
    SaleClosed,
    SeizureCorrected,
)
from domain.kinds import DEFAULT_KINDS
from domain.money import Money
from domain.s04_s11_dues import Dues, DuesItem, DuesLine
from domain.s07_seizure import Lot, Person, Seizure
from domain.s15_sale import close_sale, offer_lot
from domain.stages import Stage
from domain.tariff import DatedRate, FeedingDays, RateTable, Tariff

__all__ = [
    "AUCTION_FROM",
    "BROUGHT",
    "CASE_NUMBER",
    "COMPLAINT_BY",
    "FEEDING_CHANGE_ON",
    "FINE_CHANGE_ON",
    "IMPOUNDED_ON",
    "LATER",
    "MARCH_5",
    "MARCH_10",
    "NOTICE_ON",
    "RATES_FROM",
    "REFUSED_ON",
    "REPORT_DUE",
    "SALE_DAY",
    "SAME_DAY",
    "SEIZED",
    "SOURCE_FEEDING_2020",
    "SOURCE_FEEDING_2026",
    "SOURCE_FINES_2020",
    "SOURCE_FINES_2026",
    "S",
    "SameDay",
    "buyer",
    "case_in",
    "closed_sale_event",
    "disposal",
    "dues_of",
    "flat_tariff",
    "notice",
    "open_case",
    "owner_refused",
    "report",
    "rs",
    "sale",
    "sample_tariff",
    "seizure",
    "sell",
    "step",
    "three_cows_owner_refused",
    "unsold",
]

ZERO = Money(0)
POUND = "Kazhakkoottam municipal pound"
CASE_NUMBER = "TVM-2026-0001"

IMPOUNDED_ON = date(2026, 3, 1)
REPORT_DUE = date(2026, 3, 9)  # s.13(1): seven days from 1 March end on 8 March
NOTICE_ON = date(2026, 3, 10)
AUCTION_FROM = date(2026, 3, 18)  # s.13(3): seven days from 10 March end on 17 March

RATES_FROM = date(2020, 1, 1)
FEEDING_CHANGE_ON = date(2026, 3, 6)
FINE_CHANGE_ON = date(2026, 4, 1)
SOURCE_FINES_2020 = "G.O.(P) No. 12/2020/LSGD (s.11 scale)"
SOURCE_FINES_2026 = "G.O.(P) No. 3/2026/LSGD (s.11 scale)"
SOURCE_FEEDING_2020 = "Council resolution 101/2020 (s.4)"
SOURCE_FEEDING_2026 = "Council resolution 45/2026 (s.4)"

#: Sample rates in rupees: (fine from 2020, fine from FINE_CHANGE_ON,
#: feeding per head per day from 2020, feeding from FEEDING_CHANGE_ON).
_GROUP_RATES: dict[str, tuple[str, str, str, str]] = {
    "large": ("500", "750", "60", "80"),
    "young": ("250", "375", "40", "50"),
    "small": ("100", "150", "25.50", "30.25"),
}
_SMALL = frozenset({"goat", "sheep", "pig"})


def rs(amount: str | int) -> Money:
    """Rupees, as a clerk would write them."""
    return Money.rupees(amount)


def _group(kind: str) -> str:
    if DEFAULT_KINDS[kind].adult is not None:
        return "young"
    return "small" if kind in _SMALL else "large"


def sample_tariff(policy: FeedingDays = FeedingDays.BOTH_INCLUDED) -> Tariff:
    """Every kind of DEFAULT_KINDS, with one change of each rate (see module doc).

    Cow, ox, bull, buffalo, horse ...: fine Rs 500 then 750; feeding Rs 60 then 80.
    Calf, kid, lamb, colt, buffalo calf: fine Rs 250 then 375; feeding Rs 40 then 50.
    Goat, sheep, pig: fine Rs 100 then 150; feeding Rs 25.50 then 30.25.
    """
    fines: dict[str, RateTable] = {}
    feeding: dict[str, RateTable] = {}
    for kind in DEFAULT_KINDS:
        fine_old, fine_new, feed_old, feed_new = _GROUP_RATES[_group(kind)]
        fines[kind] = RateTable.of(
            [
                DatedRate(RATES_FROM, rs(fine_old), SOURCE_FINES_2020),
                DatedRate(FINE_CHANGE_ON, rs(fine_new), SOURCE_FINES_2026),
            ]
        )
        feeding[kind] = RateTable.of(
            [
                DatedRate(RATES_FROM, rs(feed_old), SOURCE_FEEDING_2020),
                DatedRate(FEEDING_CHANGE_ON, rs(feed_new), SOURCE_FEEDING_2026),
            ]
        )
    return Tariff(fines=fines, feeding=feeding, feeding_days=policy)


def flat_tariff(
    fine: Money,
    feeding: Money,
    applies_from: date = RATES_FROM,
    policy: FeedingDays = FeedingDays.BOTH_INCLUDED,
) -> Tariff:
    """One rate for every kind, in force from ``applies_from`` (no earlier row)."""
    fines = {k: RateTable.of([DatedRate(applies_from, fine, "flat fine")]) for k in DEFAULT_KINDS}
    feed = {
        k: RateTable.of([DatedRate(applies_from, feeding, "flat feeding")]) for k in DEFAULT_KINDS
    }
    return Tariff(fines=fines, feeding=feed, feeding_days=policy)


def seizure(
    on: date = IMPOUNDED_ON,
    lots: Sequence[tuple[str, int]] = (("cow", 2),),
    seized_on: date | None = None,
    owner: str | None = "Ramesh",
) -> Seizure:
    """A seizure report (s.7): the cattle brought in at 10:30 on ``on``."""
    return Seizure(
        pound=POUND,
        lots=tuple(Lot(kind, count, f"{count} {kind}, brown") for kind, count in lots),
        place_seized="Paddy field near Kulathoor junction",
        brought_at=datetime.combine(on, time(10, 30)),
        seizer=Person("Suresh", "Kulathoor"),
        owner=Person(owner, "Kazhakkoottam") if owner else None,
        seized_on=seized_on,
    )


def open_case(
    on: date = IMPOUNDED_ON,
    lots: Sequence[tuple[str, int]] = (("cow", 2),),
    seized_on: date | None = None,
    number: str = CASE_NUMBER,
) -> Case:
    """A case opened on the day of impounding."""
    return Case.open(number, seizure(on, lots, seized_on), DEFAULT_KINDS, today=on)


def step(case: Case, *events: Event) -> Case:
    """Apply events in order, each recorded on its own day (today = the event's day)."""
    for event in events:
        case = case.apply(event, today=event.on)
    return case


def buyer(name: str = "Abdul Kader") -> Person:
    return Person(name, "Attingal")


def report(on: date = REPORT_DUE) -> ReportedUnclaimed:
    return ReportedUnclaimed(on=on)


def notice(on: date = NOTICE_ON) -> NoticePosted:
    return NoticePosted(
        on=on,
        office="Kazhakkoottam zonal office",
        proclaimed_at=("Kulathoor village", "Kazhakkoottam market"),
    )


def owner_refused(on: date) -> OwnerRefusedToPay:
    return OwnerRefusedToPay(on=on)


def sale(lot: int, count: int, price: Money, on: date) -> LotOffered:
    """Heads sold at the auction to a buyer who declared they are not barred (s.18)."""
    return LotOffered(
        on=on, lot=lot, count=count, price=price, buyer=buyer(), buyer_declared_not_barred=True
    )


def unsold(lot: int, count: int, on: date) -> LotOffered:
    return LotOffered(on=on, lot=lot, count=count, price=None)


def disposal(lot: int, count: int, on: date, proceeds: Money | None = None) -> DisposedOtherwise:
    """Heads disposed of otherwise on the Director's order (s.13(3) proviso)."""
    return DisposedOtherwise(
        on=on,
        lot=lot,
        count=count,
        manner="handed to the Thiruvananthapuram goshala",
        ordered_by="Director of Animal Husbandry",
        order_reference="DAH/123/2026",
        proceeds=proceeds if proceeds is not None else Money.zero(),
    )


def dues_of(fines: Money, feeding: Money, expenses: Money = ZERO, on: date = AUCTION_FROM) -> Dues:
    """Dues with one line per head of dues (for settlement arithmetic)."""
    lines = (
        DuesLine(DuesItem.FINE, "cow", 1, 1, fines, fines, "s.11", "sample"),
        DuesLine(DuesItem.FEEDING, "cow", 1, 1, feeding, feeding, "s.4", "sample"),
        DuesLine(DuesItem.SALE_EXPENSES, "", 0, 0, expenses, expenses, "s.15(2)", "sample"),
    )
    return Dues(case_number=CASE_NUMBER, on=on, lines=lines)


def case_in(stage: Stage) -> Case:
    """A representative case (two cows, impounded 1 March 2026) in ``stage``.

    IMPOUNDED 1 Mar; RELEASED paid 3 Mar; ON_DEPOSIT deposit 3 Mar; REPORTED 9 Mar;
    NOTICE_POSTED 10 Mar; OWNER_REFUSED 4 Mar; SELLING one cow sold 18 Mar after the
    notice; ACCOUNT_DUE owner refused 4 Mar, one cow sold and the sale closed 6 Mar;
    DEEMED_UNCLAIMED the owner refused that account (one cow left) on 9 Mar (s.15(5));
    IN_DEPOSIT both cows sold and the sale closed 18 Mar, surplus in deposit;
    CLOSED the deposit's outcome recorded 20 Mar; VOIDED voided 2 Mar as entered twice.
    """
    case = open_case()
    tariff = sample_tariff()
    day = IMPOUNDED_ON
    if stage is Stage.IMPOUNDED:
        return case
    if stage is Stage.RELEASED:
        return step(case, ClaimedAndPaid(on=day + timedelta(2), paid=rs(1180)))
    if stage is Stage.ON_DEPOSIT:
        return step(case, DeliveredOnDeposit(on=day + timedelta(2), deposited=rs(1180)))
    if stage is Stage.CLOSED:
        on_deposit = case_in(Stage.ON_DEPOSIT)
        return step(
            on_deposit, DepositOutcome(on=date(2026, 3, 20), returned=False, reference="C-1")
        )
    if stage is Stage.REPORTED:
        return step(case, report())
    if stage is Stage.NOTICE_POSTED:
        return step(case, report(), notice())
    if stage is Stage.OWNER_REFUSED:
        return step(case, owner_refused(date(2026, 3, 4)))
    if stage is Stage.SELLING:
        return step(case, report(), notice(), sale(0, 1, rs(15000), AUCTION_FROM))
    if stage is Stage.ACCOUNT_DUE:
        selling = step(
            case, owner_refused(date(2026, 3, 4)), sale(0, 1, rs(20000), date(2026, 3, 6))
        )
        on = date(2026, 3, 6)
        return close_sale(selling, tariff, on=on, expenses=rs(200), today=on)[0]
    if stage is Stage.DEEMED_UNCLAIMED:
        refused = date(2026, 3, 9)
        return step(case_in(Stage.ACCOUNT_DUE), AccountRefused(on=refused))
    if stage is Stage.IN_DEPOSIT:
        selling = step(case, report(), notice(), sale(0, 2, rs(30000), AUCTION_FROM))
        return close_sale(selling, tariff, on=AUCTION_FROM, expenses=rs(500), today=AUCTION_FROM)[0]
    if stage is Stage.VOIDED:
        return step(case, CaseVoided(on=day + timedelta(1), reason="entered twice"))
    raise AssertionError(f"no sample case in {stage}")


def closed_sale_event(case: Case) -> SaleClosed:
    """The SaleClosed event of a case (which must have one)."""
    event = case.last(SaleClosed)
    assert isinstance(event, SaleClosed)
    return event


MARCH_5 = date(2026, 3, 5)


MARCH_10 = date(2026, 3, 10)


@dataclass(frozen=True)
class SameDay:
    sentence: str
    policy: FeedingDays
    feeding: Money


SAME_DAY = [
    SameDay(
        "s.4 both included: impounded and released the same day is charged one day",
        FeedingDays.BOTH_INCLUDED,
        rs(120),
    ),
    SameDay(
        "s.4 from the day after: impounded and released the same day is charged no day",
        FeedingDays.FROM_DAY_AFTER,
        Money(0),
    ),
]


SEIZED = date(2026, 3, 5)


BROUGHT = date(2026, 3, 6)


COMPLAINT_BY = date(2026, 3, 15)


SALE_DAY = date(2026, 3, 6)


def three_cows_owner_refused() -> Case:
    """The owner refused on 4 March; the auction is fixed that day for 6 March."""
    fixed = AuctionScheduled(on=REFUSED_ON, auction_on=SALE_DAY, place="Attingal market")
    return step(open_case(lots=(("cow", 3),)), owner_refused(REFUSED_ON), fixed)


def sell(case: Case, price: Money, on: date = SALE_DAY, count: int = 1, lot: int = 0) -> Case:
    """Heads sold at the auction on ``on`` (fixed for that day first, if it was not)."""
    fixed = case.scheduled_auction
    if fixed is None or fixed.auction_on != on:
        case = step(case, AuctionScheduled(on=on, auction_on=on, place="Attingal market"))
    return offer_lot(
        case,
        lot=lot,
        count=count,
        price=price,
        buyer=buyer(),
        buyer_role=None,
        declared_not_barred=True,
        on=on,
        today=on,
    )


LATER = date(2026, 12, 1)


S = Stage


def correct_impounding_day(to: date, on: date) -> SeizureCorrected:
    return SeizureCorrected(on=on, seizure=seizure(to), reason="wrong day written")


REFUSED_ON = date(2026, 3, 4)
