"""Dated tariffs of a pound: fines per head (s.11) and feeding charges per head per day (s.4).

A rate is a table of ``(applies_from, amount, source)`` rows. The amount used for a
day is the one in force on that day; a day before the first row is an error, never zero.

The records are named tuples and the rate table a plain class, not dataclasses: every
configuration check (``poundbot config check``) builds them, and a dataclass compiles
its generated methods when its module is imported.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from datetime import date, timedelta
from typing import NamedTuple

from domain.errors import RateNotInForceError, UnknownKindError
from domain.money import Money
from domain.provisions import cites

__all__ = ["DatedRate", "FeedingDays", "RateTable", "Tariff", "feeding_days", "first_feeding_day"]


class DatedRate(NamedTuple):
    """One row of a rate table: from ``applies_from`` on, ``amount``, by ``source``;
    ``closed``: the cases closed when the row was added (dated back), which keep the
    figures they were settled on (``Tariff.for_case``)."""

    applies_from: date
    amount: Money
    source: str
    closed: frozenset[str] = frozenset()


class RateTable:
    """The rows of one rate, kept in date order: immutable, equal and hashed by its rows."""

    __slots__ = ("rows",)
    __match_args__ = ("rows",)
    rows: tuple[DatedRate, ...]

    def __init__(self, rows: tuple[DatedRate, ...]) -> None:
        if not rows:
            raise ValueError("a rate table needs at least one row")
        ordered = tuple(sorted(rows, key=lambda r: r.applies_from))
        days = [r.applies_from for r in ordered]
        if len(set(days)) != len(days):
            raise ValueError("two rows of a rate table apply from the same day")
        if any(r.amount.is_negative for r in ordered):
            raise ValueError("a rate cannot be negative")
        object.__setattr__(self, "rows", ordered)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a RateTable is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a RateTable is immutable")

    def __reduce__(self) -> tuple[type[RateTable], tuple[tuple[DatedRate, ...]]]:
        return RateTable, (self.rows,)  # (pickle and copy: through __init__)

    def __repr__(self) -> str:
        return f"RateTable(rows={self.rows!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not RateTable:
            return NotImplemented
        return self.rows == other.rows

    def __hash__(self) -> int:
        return hash((self.rows,))

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

    @cites("s.4", "s.11")
    def spans(self, first: date, last: date) -> list[tuple[DatedRate, date, date]]:
        """The rows in force from ``first`` to ``last`` (both included), each with its
        first and last day there, in date order; none when ``last`` is before ``first``."""
        if last < first:
            return []
        spans: list[tuple[DatedRate, date, date]] = []
        start = first
        current = self.row_on(first)  # a day before the first row is refused here
        for row in self.rows:
            if row.applies_from <= first:
                continue
            if row.applies_from > last:
                break
            spans.append((current, start, row.applies_from - timedelta(days=1)))
            current, start = row, row.applies_from
        spans.append((current, start, last))
        return spans


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
    first = first_feeding_day(impounded_on, policy)
    return [first + timedelta(days=i) for i in range((until - first).days + 1)]


@cites("s.4", "s.12")
def first_feeding_day(impounded_on: date, policy: FeedingDays = FeedingDays.BOTH_INCLUDED) -> date:
    """The first day charged for feeding and watering under ``policy`` (``feeding_days``)."""
    return impounded_on if policy is FeedingDays.BOTH_INCLUDED else impounded_on + timedelta(1)


class Tariff(NamedTuple):
    """The dated fines (s.11) and feeding rates (s.4) of one pound, by kind of cattle."""

    fines: Mapping[str, RateTable]
    feeding: Mapping[str, RateTable]
    feeding_days: FeedingDays = FeedingDays.BOTH_INCLUDED
    sale_expense_note: str = ""

    @cites("s.11")
    def fine_per_head(self, kind: str, day: date) -> DatedRate:
        """The fine per head for ``kind`` in force on ``day`` (s.11 scale)."""
        return self._table(self.fines, kind, "s.11").row_on(day)

    @cites("s.4")
    def feeding_per_head(self, kind: str, day: date) -> DatedRate:
        """The feeding and watering charge per head per day for ``kind`` on ``day`` (s.4)."""
        return self._table(self.feeding, kind, "s.4").row_on(day)

    @cites("s.4")
    def feeding_spans(
        self, kind: str, first: date, last: date
    ) -> list[tuple[DatedRate, date, date]]:
        """The feeding rows for ``kind`` in force from ``first`` to ``last``, each with
        its first and last day (``RateTable.spans``)."""
        return self._table(self.feeding, kind, "s.4").spans(first, last)

    @cites("s.4", "s.11")
    def for_case(self, number: str) -> Tariff:
        """The tariff case ``number`` is counted by: without the rows it was closed
        before (a row dated back keeps the figures a closed case was settled on)."""
        if not any(number in row.closed for row in self._rows()):
            return self
        return self._replace(
            fines={kind: _without(table, number) for kind, table in self.fines.items()},
            feeding={kind: _without(table, number) for kind, table in self.feeding.items()},
        )

    def _rows(self) -> Iterable[DatedRate]:
        for tables in (self.fines, self.feeding):
            for table in tables.values():
                yield from table.rows

    @staticmethod
    def _table(tables: Mapping[str, RateTable], kind: str, provision: str) -> RateTable:
        try:
            return tables[kind]
        except KeyError:
            raise UnknownKindError(f"no {provision} rate for {kind}", provision) from None


def _without(table: RateTable, number: str) -> RateTable:
    """``table`` without the rows case ``number`` was closed before (never every row:
    a closed case was counted by one at least)."""
    kept = tuple(row for row in table.rows if number not in row.closed)
    return table if not kept or len(kept) == len(table.rows) else RateTable(kept)
