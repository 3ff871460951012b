"""Who is told of a deadline, and on which local days: the reminder rules, with provisions.

A deadline of ``domain.deadlines`` gives one or more *series* of reminders: to an
audience (the pound's keepers, or the authority's officers), from a first local day,
either once or every morning while the deadline stays open. Reminders go out at the
configured ``reminder_time``; one whose time has already passed (a backdated report, a
corrected date) goes out at once, worded as overdue by the renderer. At most one
reminder of a series goes out on a local day.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from domain.deadlines import DeadlineKind, Role
from domain.provisions import cites

__all__ = ["Audience", "Series", "days_to_plan", "fire_time", "next_day", "series_of"]

_DAY = timedelta(days=1)


class Audience(enum.Enum):
    """Who a reminder goes to."""

    KEEPER = "keeper"  # the active pound-keepers of the case's pound
    OFFICERS = "officers"  # the active officers of the authority that runs the pound


@dataclass(frozen=True, slots=True)
class Series:
    """Reminders of one deadline to one audience, from ``first``: once, or ``daily``
    while the deadline is open."""

    audience: Audience
    first: date
    daily: bool


@cites("s.13(1)", "s.13(2)", "s.13(3)", "s.15(1)", "s.14", "s.19", "s.16(3)", "s.17(1)")
def series_of(kind: DeadlineKind, due_on: date, who: Role) -> tuple[Series, ...]:
    """The reminders a deadline gives.

    - s.13(1): the keeper, every morning from the day the report is due until it is made;
      from the next day the authority's officers too (escalation).
    - s.13(2): the notice is due "thereupon": the report itself tells the officers on the
      day (the dispatcher queues it); every morning after, until the notice is recorded.
    - s.13(3): the officers, the day before and the day the auction becomes lawful.
    - s.13(3) / s.15(1): the officers, on the day the auction is scheduled for.
    - s.14 / s.19: the officers, the day after the complaint window of a deposit has
      closed: what became of the deposit is to be recorded. (While the cattle are
      impounded the window is the owner's: no reminder.)
    - s.16(3) / s.17(1): the officers, when the three months of a deposit have ended and
      the surplus may be credited to the fund. The end of the window itself
      (``DEPOSIT_WINDOW_ENDS``) gives no separate reminder: it is the day before.
      While a claim preferred in time is pending, the officers are reminded on that day
      to record it established (CLAIM) or rejected (REJECT) instead.
    - s.15(5): cattle of a refused account are reported as unclaimed: as s.13(1).
    """
    officers, keeper = Audience.OFFICERS, Audience.KEEPER
    match kind:
        case DeadlineKind.REPORT_DUE:
            return (Series(keeper, due_on, True), Series(officers, due_on + _DAY, True))
        case DeadlineKind.NOTICE_DUE:
            return (Series(officers, due_on + _DAY, True),)
        case DeadlineKind.AUCTION_LAWFUL:
            return (Series(officers, due_on - _DAY, False), Series(officers, due_on, False))
        case DeadlineKind.AUCTION_DAY | DeadlineKind.CREDIT_TO_FUND | DeadlineKind.CLAIM_PENDING:
            return (Series(officers, due_on, False),)
        case DeadlineKind.COMPLAINT_WINDOW_ENDS if who is Role.OFFICER:
            return (Series(officers, due_on + _DAY, False),)
    return ()


def days_to_plan(series: tuple[Series, ...], today: date) -> list[tuple[Series, date]]:
    """The first reminder day of each series, planned on ``today``.

    A daily series starts on its first day, or today if that has passed (the days
    missed collapse into one reminder now). Of the one-off reminders, those still to
    come are planned; when all of one audience's have passed, only the last of them
    (an eve is no use once the day itself has come), which then goes out at once.
    """
    out = [(s, max(s.first, today)) for s in series if s.daily]
    for audience in Audience:
        once = sorted(
            (s for s in series if not s.daily and s.audience is audience), key=lambda s: s.first
        )
        coming = [s for s in once if s.first >= today]
        out += [(s, s.first) for s in coming or once[-1:]]
    return out


def next_day(day: date, today: date) -> date:
    """The next day of a daily series after a reminder for ``day`` went out ``today``."""
    return max(day, today) + _DAY


def fire_time(day: date, at: time, zone: ZoneInfo, now: datetime) -> tuple[datetime, bool]:
    """When a reminder for ``day`` goes out: ``at`` o'clock local time that day, and True
    (it joins that morning's round); or ``now`` and False when that time has passed."""
    morning = datetime.combine(day, at, tzinfo=zone)
    return (morning, True) if morning > now else (now, False)
