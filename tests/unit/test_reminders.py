"""The reminder rules as tables: who is told of each deadline, from which day, how often;
which day is planned when the first has passed; at what time it goes out."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from domain.deadlines import DeadlineKind, Role
from domain.provisions import provisions_of
from domain.reminders import Audience, Series, days_to_plan, fire_time, next_day, series_of

KEEPER, OFFICERS = Audience.KEEPER, Audience.OFFICERS
KOLKATA = ZoneInfo("Asia/Kolkata")
DUE = date(2026, 3, 9)


def d(day: int) -> date:
    return date(2026, 3, day)


@pytest.mark.parametrize(
    ("kind", "who", "expected"),
    [
        pytest.param(
            DeadlineKind.REPORT_DUE,
            Role.KEEPER,
            (Series(KEEPER, d(9), True), Series(OFFICERS, d(10), True)),
            id="s.13(1)-keeper-from-the-day-officers-from-the-next",
        ),
        pytest.param(
            DeadlineKind.NOTICE_DUE,
            Role.OFFICER,
            (Series(OFFICERS, d(10), True),),
            id="s.13(2)-each-morning-after-the-report",
        ),
        pytest.param(
            DeadlineKind.AUCTION_LAWFUL,
            Role.OFFICER,
            (Series(OFFICERS, d(8), False), Series(OFFICERS, d(9), False)),
            id="s.13(3)-the-day-before-and-the-day",
        ),
        pytest.param(
            DeadlineKind.AUCTION_DAY,
            Role.OFFICER,
            (Series(OFFICERS, d(9), False),),
            id="s.13(3)-s.15(1)-the-auction-day",
        ),
        pytest.param(
            DeadlineKind.COMPLAINT_WINDOW_ENDS,
            Role.OFFICER,
            (Series(OFFICERS, d(10), False),),
            id="s.19-s.14-deposit-the-day-after-the-window-closed",
        ),
        pytest.param(
            DeadlineKind.COMPLAINT_WINDOW_ENDS, Role.OWNER, (), id="s.19-the-owners-window-no-one"
        ),
        pytest.param(
            DeadlineKind.DEPOSIT_WINDOW_ENDS, Role.OFFICER, (), id="s.16(3)-told-by-the-next"
        ),
        pytest.param(
            DeadlineKind.CREDIT_TO_FUND,
            Role.OFFICER,
            (Series(OFFICERS, d(9), False),),
            id="s.17(1)-when-the-three-months-have-ended",
        ),
    ],
)
def test_who_is_told_of_each_deadline_and_from_when(
    kind: DeadlineKind, who: Role, expected: tuple[Series, ...]
) -> None:
    assert series_of(kind, DUE, who) == expected


def test_the_rules_cite_their_provisions() -> None:
    assert set(provisions_of(series_of)) >= {"s.13(1)", "s.13(2)", "s.13(3)", "s.17(1)", "s.19"}


@pytest.mark.parametrize(
    ("kind", "today", "expected"),
    [
        pytest.param(
            DeadlineKind.REPORT_DUE, d(8), [(KEEPER, d(9)), (OFFICERS, d(10))], id="before"
        ),
        pytest.param(DeadlineKind.REPORT_DUE, d(9), [(KEEPER, d(9)), (OFFICERS, d(10))], id="on"),
        pytest.param(
            DeadlineKind.REPORT_DUE, d(20), [(KEEPER, d(20)), (OFFICERS, d(20))], id="missed-today"
        ),
        pytest.param(
            DeadlineKind.AUCTION_LAWFUL, d(7), [(OFFICERS, d(8)), (OFFICERS, d(9))], id="eve-ahead"
        ),
        pytest.param(DeadlineKind.AUCTION_LAWFUL, d(9), [(OFFICERS, d(9))], id="eve-gone"),
        pytest.param(DeadlineKind.AUCTION_LAWFUL, d(12), [(OFFICERS, d(9))], id="both-gone"),
    ],
)
def test_the_first_days_planned(
    kind: DeadlineKind, today: date, expected: list[tuple[Audience, date]]
) -> None:
    planned = days_to_plan(series_of(kind, DUE, Role.OFFICER), today)
    assert [(s.audience, day) for s, day in planned] == expected


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        pytest.param(time(7, 59), (datetime(2026, 3, 9, 8, 0, tzinfo=KOLKATA), True), id="before"),
        pytest.param(time(8, 0), (datetime(2026, 3, 9, 8, 0, tzinfo=KOLKATA), False), id="at"),
        pytest.param(time(8, 1), (datetime(2026, 3, 9, 8, 1, tzinfo=KOLKATA), False), id="after"),
    ],
)
def test_a_reminder_joins_the_morning_round_or_goes_at_once(
    now: time, expected: tuple[datetime, bool]
) -> None:
    moment = datetime.combine(DUE, now, tzinfo=KOLKATA)
    assert fire_time(DUE, time(8, 0), KOLKATA, moment) == expected


def test_a_daily_series_goes_on_the_next_day_even_after_a_late_pass() -> None:
    assert next_day(d(9), d(9)) == d(10)
    assert next_day(d(9), d(12)) == d(13)  # the engine was down: no catching up
