"""Dated tariffs of a pound: fines per head (s.11) and feeding charges per head per day (s.4).

A rate is a table of ``(applies_from, amount, source)`` rows. The amount used for a
day is the one in force on that day; a day before the first row is an error, never zero.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta

from domain.errors import RateNotInForceError, UnknownKindError
from domain.money import Money
from domain.provisions import cites

__all__ = ["DatedRate", "FeedingDays", "RateTable", "Tariff", "feeding_days"]


@dataclass(frozen=True, slots=True)
class DatedRate:
    """One row of a rate table: from ``applies_from`` on, ``amount``, by ``source``."""

    applies_from: date
    amount: Money
    source: str


@dataclass(frozen=True, slots=True)
class RateTable:
    """The rows of one rate, kept in date order."""

    rows: tuple[DatedRate, ...]

    def __post_init__(self) -> None:
        if not self.rows:
            raise ValueError("a rate table needs at least one row")
        ordered = tuple(sorted(self.rows, key=lambda r: r.applies_from))
        days = [r.applies_from for r in ordered]
        if len(set(days)) != len(days):
            raise ValueError("two rows of a rate table apply from the same day")
        if any(r.amount.is_negative for r in ordered):
            raise ValueError("a rate cannot be negative")
        object.__setattr__(self, "rows", ordered)

    @classmethod
    def of(cls, rows: Iterable[DatedRate]) -> RateTable:
        return cls(tuple(rows))

    def row_on(self, day: date) -> DatedRate:
        """The row in force on ``day``."""
        current: DatedRate | None = None
        for row in self.rows:
            if row.applies_from <= day:
                current = row
            else:
                break
        if current is None:
            raise RateNotInForceError(
                f"no rate in force on {day.isoformat()}; the first applies from "
                f"{self.rows[0].applies_from.isoformat()}"
            )
        return current


class FeedingDays(enum.Enum):
    """How the days charged for feeding and watering are counted (a stated policy)."""

    #: Each calendar day or part of one, from the day of impounding to the day of
    #: release, both included (the default).
    BOTH_INCLUDED = "both_included"
    #: Whole days only: the day of impounding is not charged (a period "from" it).
    FROM_DAY_AFTER = "from_day_after"


@cites("s.4", "s.12")
def feeding_days(
    impounded_on: date, until: date, policy: FeedingDays = FeedingDays.BOTH_INCLUDED
) -> list[date]:
    """The days charged for feeding and watering from impounding up to ``until``.

    s.4: the local authority fixes the rates for feeding and watering; s.12: the owner
    pays them on release. Counting follows ``policy``; under the default, cattle
    impounded and released the same day are charged one day.
    """
    if until < impounded_on:
        return []
    first = impounded_on if policy is FeedingDays.BOTH_INCLUDED else impounded_on + timedelta(1)
    return [first + timedelta(days=i) for i in range((until - first).days + 1)]


@dataclass(frozen=True, slots=True)
class Tariff:
    """The dated fines (s.11) and feeding rates (s.4) of one pound, by kind of cattle."""

    fines: Mapping[str, RateTable]
    feeding: Mapping[str, RateTable]
    feeding_days: FeedingDays = FeedingDays.BOTH_INCLUDED
    sale_expense_note: str = field(default="")

    @cites("s.11")
    def fine_per_head(self, kind: str, day: date) -> DatedRate:
        """The fine per head for ``kind`` in force on ``day`` (s.11 scale)."""
        return self._table(self.fines, kind, "s.11").row_on(day)

    @cites("s.4")
    def feeding_per_head(self, kind: str, day: date) -> DatedRate:
        """The feeding and watering charge per head per day for ``kind`` on ``day`` (s.4)."""
        return self._table(self.feeding, kind, "s.4").row_on(day)

    @staticmethod
    def _table(tables: Mapping[str, RateTable], kind: str, provision: str) -> RateTable:
        try:
            return tables[kind]
        except KeyError:
            raise UnknownKindError(f"no {provision} rate for {kind}", provision) from None
