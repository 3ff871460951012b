"""What the pound's record shows about each case, for the register and the charts: how
long the cattle stayed, how many were sold and how many disposed of otherwise, and
whether the s.13(1) report and the s.13(2) notice came on time.
"""

from __future__ import annotations

import enum
from datetime import date

from domain.case import Case
from domain.provisions import cites
from domain.s13_unclaimed import report_due
from domain.s15_3_account import Left, time_impounded
from domain.stages import IN_POUND_STAGES, Stage

__all__ = [
    "Timeliness",
    "days_in_pound",
    "heads_sold_and_disposed",
    "notice_timeliness",
    "report_timeliness",
]


class Timeliness(enum.Enum):
    """How a step the Act requires by a day was taken."""

    ON_TIME = "on_time"  # taken on or before the day
    LATE = "late"  # taken, after the day
    OVERDUE = "overdue"  # not taken, and the day has passed


@cites("s.15(3)(b)")
def days_in_pound(case: Case, today: date) -> int | None:
    """Calendar days in the pound, as the s.15(3)(b) account counts them (one function,
    ``time_impounded``): from the day brought in to the day the last head left, sold,
    disposed of or delivered, both days counted; up to ``today`` for cattle still there.
    None for a voided case, or one that left with no day on record."""
    if case.stage is Stage.VOIDED:
        return None
    in_pound = case.stage in IN_POUND_STAGES
    days = [
        stay.days
        for stay in time_impounded(case, today)
        if in_pound or stay.left is not Left.IN_POUND
    ]
    return max(days, default=None)


@cites("s.15(3)(d)", "s.13(3) proviso")
def heads_sold_and_disposed(case: Case, today: date) -> tuple[int, int]:
    """Heads sold at the public auction (s.15(3)(d)) and heads disposed of otherwise by
    the Director's order (s.13(3) proviso) by ``today``, counted apart, from the lots
    that left the pound (``time_impounded``)."""
    stays = time_impounded(case, today)
    sold = sum(stay.heads for stay in stays if stay.left is Left.SOLD)
    disposed = sum(stay.heads for stay in stays if stay.left is Left.DISPOSED)
    return sold, disposed


@cites("s.13(1)", "s.15(5)")
def report_timeliness(case: Case, today: date) -> Timeliness | None:
    """Whether the keeper's s.13(1) report came by the day it was due (the day after the
    seven days from impounding; for cattle deemed unclaimed, s.15(5), not before the
    owner refused the account); OVERDUE while unclaimed and unreported past that day;
    None when no report was required (claimed, or not yet due)."""
    if case.stage is Stage.VOIDED:
        return None
    due = report_due(case)
    reported = case.reported_on
    if reported is not None:
        return Timeliness.ON_TIME if reported <= due else Timeliness.LATE
    if case.stage in (Stage.IMPOUNDED, Stage.DEEMED_UNCLAIMED) and today > due:
        return Timeliness.OVERDUE
    return None


@cites("s.13(2)")
def notice_timeliness(case: Case, today: date) -> Timeliness | None:
    """Whether the s.13(2) notice was posted "thereupon", the day of the report, as the
    deadlines count it; OVERDUE while reported with no notice after that day; None
    when there was no report."""
    reported = case.reported_on
    if reported is None or case.stage is Stage.VOIDED:
        return None
    notice = case.notice
    if notice is not None:
        return Timeliness.ON_TIME if notice.on <= reported else Timeliness.LATE
    if case.stage is Stage.REPORTED and today > reported:
        return Timeliness.OVERDUE
    return None
