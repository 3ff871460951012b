"""What the charts count of each case: days in the pound (s.15(3)(b)), and whether the
s.13(1) report and the s.13(2) notice came on time; each boundary the day of and after."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from domain.case import Case
from domain.events import ClaimedAndPaid, DeliveredOnDeposit
from domain.money import Money
from domain.record import (
    Timeliness,
    days_in_pound,
    heads_sold_and_disposed,
    notice_timeliness,
    report_timeliness,
)
from domain.s15_3_account import refuse_account
from domain.s15_sale import close_sale
from domain.stages import Stage
from tests.unit.domain_fixtures import (
    IMPOUNDED_ON,
    REPORT_DUE,
    case_in,
    disposal,
    notice,
    open_case,
    report,
    sale,
    sample_tariff,
    step,
)

DAY = timedelta(days=1)


@pytest.mark.parametrize(
    ("reported", "expected"),
    [
        pytest.param(REPORT_DUE, Timeliness.ON_TIME, id="s.13(1)-on-the-day-due"),
        pytest.param(REPORT_DUE + DAY, Timeliness.LATE, id="s.13(1)-the-day-after"),
    ],
)
def test_the_report_is_on_time_by_the_day_after_seven_days_s13_1(
    reported: date, expected: Timeliness
) -> None:
    case = step(open_case(), report(reported))
    assert report_timeliness(case, today=reported + 30 * DAY) is expected


@pytest.mark.parametrize(
    ("today", "expected"),
    [
        pytest.param(REPORT_DUE, None, id="s.13(1)-unreported-on-the-day-due"),
        pytest.param(REPORT_DUE + DAY, Timeliness.OVERDUE, id="s.13(1)-unreported-the-day-after"),
    ],
)
def test_an_unreported_case_is_overdue_only_after_the_day_due_s13_1(
    today: date, expected: Timeliness | None
) -> None:
    assert report_timeliness(open_case(), today) is expected


def test_a_case_claimed_before_the_report_needed_no_report_s12() -> None:
    paid = step(open_case(), ClaimedAndPaid(on=IMPOUNDED_ON + 2 * DAY, paid=Money(100)))
    assert report_timeliness(paid, today=REPORT_DUE + 30 * DAY) is None
    assert notice_timeliness(paid, today=REPORT_DUE + 30 * DAY) is None


@pytest.mark.parametrize(
    ("posted", "expected"),
    [
        pytest.param(REPORT_DUE, Timeliness.ON_TIME, id="s.13(2)-thereupon-the-day-of-the-report"),
        pytest.param(REPORT_DUE + DAY, Timeliness.LATE, id="s.13(2)-the-day-after-the-report"),
    ],
)
def test_the_notice_is_due_the_day_of_the_report_s13_2(posted: date, expected: Timeliness) -> None:
    case = step(open_case(), report(REPORT_DUE), notice(posted))
    assert notice_timeliness(case, today=posted + 30 * DAY) is expected


def test_a_reported_case_without_a_notice_is_overdue_the_day_after_s13_2() -> None:
    case = step(open_case(), report(REPORT_DUE))
    assert notice_timeliness(case, today=REPORT_DUE) is None
    assert notice_timeliness(case, today=REPORT_DUE + DAY) is Timeliness.OVERDUE


def test_days_in_the_pound_count_the_first_and_the_last_day_s15_3_b() -> None:
    case = open_case()
    assert days_in_pound(case, today=IMPOUNDED_ON) == 1
    assert days_in_pound(case, today=IMPOUNDED_ON + 9 * DAY) == 10
    released = step(case, DeliveredOnDeposit(on=IMPOUNDED_ON + 4 * DAY, deposited=Money(100)))
    assert released.stage is Stage.ON_DEPOSIT
    assert days_in_pound(released, today=IMPOUNDED_ON + 90 * DAY) == 5  # left on the deposit


def test_a_voided_case_counts_for_nothing_s7() -> None:
    voided = open_case().void("entered twice", IMPOUNDED_ON, IMPOUNDED_ON)
    assert days_in_pound(voided, today=REPORT_DUE + DAY) is None
    assert report_timeliness(voided, today=REPORT_DUE + DAY) is None


def _refused_on_12_march() -> Case:
    """Owner refused the account of the first sale on 12 March: the cow left is deemed
    unclaimed (s.15(5)) and goes the s.13 way, reported from the day of the refusal."""
    return refuse_account(case_in(Stage.ACCOUNT_DUE), on=date(2026, 3, 12), today=date(2026, 3, 12))


def test_s15_5_the_rest_reported_on_the_day_of_the_refusal_is_on_time() -> None:
    refused = _refused_on_12_march()
    reported = step(refused, report(date(2026, 3, 12)))
    assert report_timeliness(reported, today=date(2026, 4, 1)) is Timeliness.ON_TIME
    late = step(refused, report(date(2026, 3, 13)))
    assert report_timeliness(late, today=date(2026, 4, 1)) is Timeliness.LATE


def test_s15_5_the_rest_unreported_after_the_day_due_is_overdue() -> None:
    refused = _refused_on_12_march()
    assert report_timeliness(refused, today=date(2026, 3, 12)) is None
    assert report_timeliness(refused, today=date(2026, 3, 13)) is Timeliness.OVERDUE


def test_s15_5_cattle_deemed_unclaimed_are_still_in_the_pound() -> None:
    refused = _refused_on_12_march()
    assert days_in_pound(refused, today=date(2026, 4, 20)) == 51  # 1 March to 20 April
    sold = step(refused, report(date(2026, 3, 12)), notice(date(2026, 3, 12)))
    sold = step(sold, sale(0, 1, Money(900_000), date(2026, 3, 20)))
    closed, _ = close_sale(
        sold, sample_tariff(), on=date(2026, 3, 20), expenses=Money(0), today=date(2026, 3, 20)
    )
    # To the day the last head was sold in the second sale, not the first settlement.
    assert days_in_pound(closed, today=date(2026, 5, 1)) == 20


def test_days_in_the_pound_end_the_day_the_last_head_was_sold_not_the_settlement_s15_3_b() -> None:
    """Impounded 1 March, both cows sold on 18 March, the sale settled on 22 March: 18
    days in the pound (the settlement is not a day the cattle were there)."""
    sold = step(open_case(), report(), notice(), sale(0, 2, Money(900_000), date(2026, 3, 18)))
    closed, _ = close_sale(
        sold, sample_tariff(), on=date(2026, 3, 22), expenses=Money(0), today=date(2026, 3, 22)
    )
    assert days_in_pound(closed, today=date(2026, 3, 22)) == 18
    assert days_in_pound(closed, today=date(2026, 12, 31)) == 18


def test_heads_sold_and_heads_disposed_of_otherwise_are_counted_apart_s15_3_d() -> None:
    """One cow sold at the auction, the other given to a goshala on the Director's order:
    1 sold (s.15(3)(d)), 1 disposed of otherwise (s.13(3) proviso), never 2 sold."""
    noticed = step(open_case(), report(), notice())
    assert heads_sold_and_disposed(noticed, today=date(2026, 3, 17)) == (0, 0)
    sold = step(noticed, sale(0, 1, Money(900_000), date(2026, 3, 18)))
    assert heads_sold_and_disposed(sold, today=date(2026, 3, 18)) == (1, 0)
    both = step(sold, disposal(0, 1, date(2026, 3, 19)))
    assert heads_sold_and_disposed(both, today=date(2026, 3, 19)) == (1, 1)
    assert heads_sold_and_disposed(both, today=date(2026, 3, 18)) == (1, 0)  # not yet then
    assert days_in_pound(both, today=date(2026, 3, 25)) == 19
