"""Counting periods: GCA s.8 (a period "from" a day excludes it) and calendar months."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest

from domain.calendar import LOCAL_TZ, add_months, day_after_period, period_end


@dataclass(frozen=True)
class DaysRow:
    sentence: str
    start: date
    days: int
    period_ends: date
    day_after: date


DAYS_ROWS = [
    DaysRow(
        "GCA s.8: seven days from 1 March run 2-8 March; the next day is 9 March",
        date(2026, 3, 1),
        7,
        date(2026, 3, 8),
        date(2026, 3, 9),
    ),
    DaysRow(
        "GCA s.8: ten days from 5 March end on 15 March (s.19)",
        date(2026, 3, 5),
        10,
        date(2026, 3, 15),
        date(2026, 3, 16),
    ),
    DaysRow(
        "GCA s.8: seven days from 28 December run into the new year",
        date(2026, 12, 28),
        7,
        date(2027, 1, 4),
        date(2027, 1, 5),
    ),
    DaysRow(
        "GCA s.8: seven days from 25 February in a leap year count 29 February",
        date(2028, 2, 25),
        7,
        date(2028, 3, 3),
        date(2028, 3, 4),
    ),
    DaysRow(
        "GCA s.8: seven days from 25 February in a common year",
        date(2027, 2, 25),
        7,
        date(2027, 3, 4),
        date(2027, 3, 5),
    ),
    DaysRow(
        "GCA s.8: a period of no days ends on its first day",
        date(2026, 3, 1),
        0,
        date(2026, 3, 1),
        date(2026, 3, 2),
    ),
]


@pytest.mark.parametrize("row", DAYS_ROWS, ids=[r.sentence for r in DAYS_ROWS])
def test_a_period_of_days_from_a_date_excludes_that_date(row: DaysRow) -> None:
    assert period_end(row.start, row.days) == row.period_ends
    assert day_after_period(row.start, row.days) == row.day_after


def test_a_negative_period_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        period_end(date(2026, 3, 1), -1)


@dataclass(frozen=True)
class MonthsRow:
    sentence: str
    start: date
    months: int
    expected: date


MONTH_ROWS = [
    MonthsRow(
        "s.16(3) month-end policy: 30 November 2026 + 3 months is 28 February 2027",
        date(2026, 11, 30),
        3,
        date(2027, 2, 28),
    ),
    MonthsRow(
        "s.16(3) month-end policy, leap year: 30 November 2027 + 3 months is 29 February 2028",
        date(2027, 11, 30),
        3,
        date(2028, 2, 29),
    ),
    MonthsRow(
        "GCA s.8 month-end policy: 31 January + 1 month is 28 February",
        date(2026, 1, 31),
        1,
        date(2026, 2, 28),
    ),
    MonthsRow(
        "GCA s.8 month-end policy, leap year: 31 January 2028 + 1 month is 29 February",
        date(2028, 1, 31),
        1,
        date(2028, 2, 29),
    ),
    MonthsRow(
        "GCA s.8: 31 March + 1 month is 30 April",
        date(2026, 3, 31),
        1,
        date(2026, 4, 30),
    ),
    MonthsRow(
        "GCA s.8: 31 August + 3 months is 30 November",
        date(2026, 8, 31),
        3,
        date(2026, 11, 30),
    ),
    MonthsRow(
        "GCA s.8 year end: 15 October + 3 months is 15 January next year",
        date(2026, 10, 15),
        3,
        date(2027, 1, 15),
    ),
    MonthsRow(
        "GCA s.8 year end: 31 December + 1 month is 31 January next year",
        date(2026, 12, 31),
        1,
        date(2027, 1, 31),
    ),
    MonthsRow(
        "GCA s.8 year end: 31 December + 2 months is 28 February next year",
        date(2026, 12, 31),
        2,
        date(2027, 2, 28),
    ),
    MonthsRow(
        "GCA s.8 year end: 1 December + 3 months is 1 March next year",
        date(2026, 12, 1),
        3,
        date(2027, 3, 1),
    ),
    MonthsRow(
        "GCA s.8: 29 February 2028 + 12 months is 28 February 2029",
        date(2028, 2, 29),
        12,
        date(2029, 2, 28),
    ),
    MonthsRow(
        "GCA s.8: 18 March + 3 months is 18 June (a corresponding date exists)",
        date(2026, 3, 18),
        3,
        date(2026, 6, 18),
    ),
    MonthsRow(
        "GCA s.8: no months is the same day",
        date(2026, 3, 31),
        0,
        date(2026, 3, 31),
    ),
    MonthsRow(
        "GCA s.8: 25 months cross two year ends",
        date(2026, 11, 30),
        25,
        date(2028, 12, 30),
    ),
]


@pytest.mark.parametrize("row", MONTH_ROWS, ids=[r.sentence for r in MONTH_ROWS])
def test_a_month_runs_to_the_corresponding_date_or_the_month_end(row: MonthsRow) -> None:
    assert add_months(row.start, row.months) == row.expected


def test_local_time_is_india_standard_time() -> None:
    assert LOCAL_TZ.key == "Asia/Kolkata"
