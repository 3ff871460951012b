"""What the pound's record shows about each case, for the charts: how long the cattle
stayed, and whether the s.13(1) report and the s.13(2) notice came on time.
"""

from __future__ import annotations

import enum
from datetime import date

from domain.case import Case
from domain.events import ClaimedAndPaid, DeliveredOnDeposit, SaleClosed
from domain.provisions import cites
from domain.s13_unclaimed import report_due
from domain.stages import IN_POUND_STAGES, Stage

__all__ = ["Timeliness", "days_in_pound", "left_pound_on", "notice_timeliness", "report_timeliness"]


class Timeliness(enum.Enum):
    """How a step the Act requires by a day was taken."""

    ON_TIME = "on_time"  # taken on or before the day
    LATE = "late"  # taken, after the day
    OVERDUE = "overdue"  # not taken, and the day has passed


@cites("s.12", "s.14", "s.15(3)(b)")
def left_pound_on(case: Case) -> date | None:
    """The day the cattle left the pound: released on payment (s.12) or on deposit
    (s.14), or the day the sale was closed, the last day of the time impounded that the
    s.15(3)(b) account gives (the last sale's, when the owner refused the account of the
    first and the rest were sold as unclaimed, s.15(5)). None while they are still in
    the pound, or for a voided case."""
    if case.stage in IN_POUND_STAGES:
        return None
    for event in reversed(case.events):
        if isinstance(event, ClaimedAndPaid | DeliveredOnDeposit | SaleClosed):
            return event.on
    return None


@cites("s.15(3)(b)")
def days_in_pound(case: Case, today: date) -> int | None:
    """Calendar days in the pound, the first and the last both counted as the s.15(3)(b)
    account counts them; up to ``today`` for cattle still there; None for a voided
    case or one that left without a day on record."""
    if case.stage is Stage.VOIDED:
        return None
    left = left_pound_on(case)
    if left is None:
        if case.stage not in IN_POUND_STAGES:
            return None
        left = today
    return (left - case.seizure.impounded_on).days + 1


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
