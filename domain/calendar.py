"""Counting periods: the general clauses rule and calendar months.

Local time is Asia/Kolkata; the domain is given local dates and datetimes and never
reads a clock.
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta
from zoneinfo import ZoneInfo

from domain.provisions import cites

__all__ = ["LOCAL_TZ", "add_months", "day_after_period", "period_end"]

LOCAL_TZ = ZoneInfo("Asia/Kolkata")


@cites("GCA s.8")
def period_end(start: date, days: int) -> date:
    """Last day of a period of ``days`` days "from" ``start``.

    GCA s.8 (as s.9 of the General Clauses Act, 1897): a period "from" a date
    excludes that date, so seven days from 1 March run 2-8 March and end on 8 March.
    """
    if days < 0:
        raise ValueError("a period cannot be negative")
    return start + timedelta(days=days)


@cites("GCA s.8")
def day_after_period(start: date, days: int) -> date:
    """First day after a period of ``days`` days "from" ``start`` has run out."""
    return period_end(start, days) + timedelta(days=1)


@cites("GCA s.8")
def add_months(start: date, months: int) -> date:
    """The date ``months`` calendar months after ``start``, to the corresponding date.

    Policy: a month runs to the corresponding date of the target month; when that
    month has no such date (30 November + 3 months), the period ends on the target
    month's last day (28 or 29 February).
    """
    index = start.month - 1 + months
    year, month = start.year + index // 12, index % 12 + 1
    last = calendar.monthrange(year, month)[1]
    return date(year, month, min(start.day, last))
