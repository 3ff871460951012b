"""ss.4 and 11: what an owner owes on a day, line by line: the fines per head by kind
(s.11) and the feeding and watering charges per head per day (s.4), at the rates in force
(``domain.tariff``). Release on payment is ``domain.s12_release``; a deposit under s.14,
``domain.s14_deposit``."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from domain.dues_items import DuesItem
from domain.events import (
    AccountRefused,
    ClaimedAndPaid,
    DeliveredOnDeposit,
    DisposedOtherwise,
    LotOffered,
    SaleClosed,
)
from domain.money import Money, total
from domain.provisions import cites
from domain.stages import IN_POUND_STAGES
from domain.step import Case
from domain.tariff import Tariff, first_feeding_day

__all__ = [
    "Dues",
    "DuesItem",
    "DuesLine",
    "daily_charge",
    "dues_on",
    "per_day_on",
]


@dataclass(frozen=True, slots=True)
class DuesLine:
    """One line of dues: ``heads`` of ``kind`` x ``days`` at ``rate`` = ``amount``."""

    item: DuesItem
    kind: str
    heads: int
    days: int
    rate: Money
    amount: Money
    provision: str
    source: str
    first_day: date | None = None
    last_day: date | None = None


@dataclass(frozen=True, slots=True)
class Dues:
    """What is owed on ``on`` for a case, with the lines that make it up."""

    case_number: str
    on: date
    lines: tuple[DuesLine, ...]
    #: What the dues grow by each day while the cattle stay (s.4): the heads fed on
    #: ``on`` at that day's rate; nothing once they have left the pound.
    per_day: Money = field(default_factory=Money.zero)

    @property
    def total(self) -> Money:
        return total([line.amount for line in self.lines])

    def of(self, item: DuesItem) -> Money:
        return total([line.amount for line in self.lines if line.item is item])

    @property
    def fines(self) -> Money:
        return self.of(DuesItem.FINE)

    @property
    def feeding(self) -> Money:
        return self.of(DuesItem.FEEDING)

    @property
    def sale_expenses(self) -> Money:
        return self.of(DuesItem.SALE_EXPENSES)

    @property
    def days_charged(self) -> int:
        """Distinct days charged for feeding and watering, across the lots (s.4), as
        the tariff's feeding-day policy counts them."""
        days: set[date] = set()
        for line in self.lines:
            if line.item is DuesItem.FEEDING and line.first_day and line.last_day:
                days.update(
                    line.first_day + timedelta(days=i)
                    for i in range((line.last_day - line.first_day).days + 1)
                )
        return len(days)


def _feeding_ends(case: Case, lot: int, day: date) -> Counter[date]:
    """Heads of a lot by the last day they were fed (sold heads stop on the day sold)."""
    ends: Counter[date] = Counter()
    gone = 0
    refused = [i for i, e in enumerate(case.events) if isinstance(e, AccountRefused)]
    for index, event in enumerate(case.events):
        if isinstance(event, ClaimedAndPaid | DeliveredOnDeposit) and event.on <= day:
            ends[event.on] += case.seizure.lots[lot].count - gone
            return ends
        if isinstance(event, LotOffered | DisposedOtherwise) and event.lot == lot:
            sold = isinstance(event, DisposedOtherwise) or event.sold
            if sold and event.on <= day:
                ends[event.on] += event.count
                gone += event.count
        handed_over = not any(i > index for i in refused)
        if isinstance(event, SaleClosed) and event.on <= day and handed_over:
            # The remaining heads are fed until the sale closes and they are handed over;
            # refused by the owner (s.15(5)) they stay, fed, until sold as unclaimed.
            ends[event.on] += case.seizure.lots[lot].count - gone
            return ends
    ends[day] += case.seizure.lots[lot].count - gone
    return ends


@cites("s.11", "s.4", "s.12", "s.15(2)")
def dues_on(case: Case, tariff: Tariff, day: date) -> Dues:
    """Fines, feeding and watering charges (and sale expenses once sold) on ``day``.

    s.11: a fine per head by kind, on the scale in force on the day of impounding.
    s.4 / s.12: feeding and watering per head per day, each day at the rate in force
    that day, counted by the tariff's stated policy; heads stop being charged on the
    day they leave the pound (release, sale). s.15(2): the expenses of sale, once the
    sale is closed.
    """
    impounded = case.seizure.impounded_on
    lines: list[DuesLine] = []
    for index, lot in enumerate(case.seizure.lots):
        fine = tariff.fine_per_head(lot.kind, impounded)
        lines.append(
            DuesLine(
                item=DuesItem.FINE,
                kind=lot.kind,
                heads=lot.count,
                days=1,
                rate=fine.amount,
                amount=fine.amount * lot.count,
                provision="s.11",
                source=fine.source,
            )
        )
        for last, heads in sorted(_feeding_ends(case, index, day).items()):
            lines.extend(_feeding_lines(tariff, lot.kind, heads, impounded, last))
    for closed in case.events:
        if not isinstance(closed, SaleClosed) or closed.on > day or not closed.expenses.paise:
            continue
        lines.append(
            DuesLine(
                item=DuesItem.SALE_EXPENSES,
                kind="",
                heads=0,
                days=0,
                rate=closed.expenses,
                amount=closed.expenses,
                provision="s.15(2)",
                source="recorded at the sale",
            )
        )
    dues = Dues(case_number=case.number, on=day, lines=tuple(lines))
    return replace(dues, per_day=per_day_on(dues, case))


def _feeding_lines(
    tariff: Tariff, kind: str, heads: int, impounded: date, last: date
) -> list[DuesLine]:
    """Feeding lines for ``heads`` fed up to ``last``, one line per rate in force (two
    rows one after the other with the same amount and source make one line)."""
    lines: list[DuesLine] = []
    first = first_feeding_day(impounded, tariff.feeding_days)
    if heads <= 0 or last < first:
        return lines
    for row, first_day, last_day in tariff.feeding_spans(kind, first, last):
        count = (last_day - first_day).days + 1
        if lines and lines[-1].source == row.source and lines[-1].rate == row.amount:
            prev = lines[-1]
            first_day, count = prev.first_day or first_day, prev.days + count
            lines.pop()
        lines.append(
            DuesLine(
                item=DuesItem.FEEDING,
                kind=kind,
                heads=heads,
                days=count,
                rate=row.amount,
                amount=row.amount * heads * count,
                provision="s.4",
                source=row.source,
                first_day=first_day,
                last_day=last_day,
            )
        )
    return lines


@cites("s.4")
def daily_charge(case: Case, tariff: Tariff, day: date) -> Money:
    """What one more day of feeding and watering costs for every head of the case, at
    the rate in force on ``day`` (s.4)."""
    return total(
        [tariff.feeding_per_head(lot.kind, day).amount * lot.count for lot in case.seizure.lots]
    )


@cites("s.4")
def per_day_on(dues: Dues, case: Case) -> Money:
    """The feeding charge per day still running on the dues' day: the heads fed that
    day at that day's rate (s.4); nothing once the cattle have left the pound."""
    if case.stage not in IN_POUND_STAGES:
        return Money.zero()
    return total(
        [
            line.rate * line.heads
            for line in dues.lines
            if line.item is DuesItem.FEEDING and line.last_day == dues.on
        ]
    )
